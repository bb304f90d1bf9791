#include "gpdp/reproduce/targets.hpp"

#include <fmt/format.h>

#include "attack.hpp"
#include "gpdp/error.hpp"
#include "ops.hpp"
#include "utility.hpp"

namespace gpdp::reproduce {

std::vector<Registered> all_targets() {
  std::vector<Registered> out;
  for (auto& t : utility_targets()) out.push_back({std::move(t), &run_utility});
  for (auto& t : attack_targets()) out.push_back({std::move(t), &run_attack_figure});
  for (auto& t : ops_targets()) out.push_back({std::move(t), &run_ops});
  return out;
}

Registered find_target(const std::string& name) {
  std::string known;
  for (auto& r : all_targets()) {
    if (r.target.name == name) return r;
    known += (known.empty() ? "" : ", ") + r.target.name;
  }
  throw ParameterError({"target"},
                       fmt::format("reproduce: unknown target '{}' (known: {})", name, known));
}

}  // namespace gpdp::reproduce
