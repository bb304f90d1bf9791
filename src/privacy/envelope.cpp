#include "gpdp/privacy/envelope.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>

#include "gpdp/error.hpp"

namespace gpdp::privacy {

RdpCurve candidate_envelope(const std::vector<Accountant>& candidates) {
  require_parameter(!candidates.empty(), "candidates",
                    "candidates must list at least one mechanism");
  double alpha_max = std::numeric_limits<double>::infinity();
  std::string description = fmt::format("max over {} candidates of (", candidates.size());
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    alpha_max = std::min(alpha_max, candidates[k].alpha_max());
    std::string one =
        candidates[k].empty() ? "trivial map (no event)" : candidates[k].description();
    while (!one.empty() && one.back() == '\n') one.pop_back();
    std::replace(one.begin(), one.end(), '\n', ',');
    description += (k ? "; " : "") + one;
  }
  description += ") [Mironov 2017, Prop. 1, adaptive choice]";
  // Shared, so that copies of the curve see the same candidates.
  auto list = std::make_shared<const std::vector<Accountant>>(candidates);
  return RdpCurve(
      [list](double alpha) {
        double worst = 0.0;
        for (const auto& c : *list) worst = std::max(worst, c.rdp(alpha));
        return worst;
      },
      alpha_max, description);
}

Accountant summary_then_choice(const Accountant& summary,
                               const std::vector<Accountant>& candidates) {
  Accountant total;
  total.add(summary);
  total.add_choice(candidates);
  return total;
}

}  // namespace gpdp::privacy
