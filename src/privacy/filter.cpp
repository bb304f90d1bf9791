#include "gpdp/privacy/filter.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/order_search.hpp"

namespace gpdp::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check_budget(const Budget& b) {
  require_parameter(std::isfinite(b.epsilon) && b.epsilon > 0, "budget_epsilon",
                    fmt::format("budget_epsilon must be positive and finite, got {}", b.epsilon));
  require_parameter(b.delta > 0 && b.delta < 1, "budget_delta",
                    fmt::format("budget_delta must lie in (0, 1), got {}", b.delta));
}

// The order at which the budget holds the most copies of `first`: argmin ε_α / (ε_B − c(α, δ_B)).
double best_order(const Budget& b, Conversion c, const Accountant& first) {
  const auto ratio = [&](double alpha) {
    const double room = b.epsilon - epsilon_at_order(0.0, alpha, b.delta, c);
    return room > 0 ? first.rdp(alpha) / room : kInf;
  };
  try {
    return minimise_over_orders(first.alpha_max(), ratio).alpha;
  } catch (const PrivacyError&) {
    // No order leaves room: the first release cannot fit; its own best order decides.
    return first.epsilon(b.delta, c).alpha;
  }
}

}  // namespace

RenyiFilter::RenyiFilter(const Budget& budget, Conversion conversion, std::vector<double> orders)
    : budget_(budget), conversion_(conversion), orders_(std::move(orders)) {
  check_budget(budget_);
  require_parameter(!orders_.empty(), "budget_orders", "budget_orders: at least one order");
  for (const double a : orders_) {
    require_parameter(std::isfinite(a) && a > 1, "budget_orders",
                      fmt::format("budget_orders must be finite and > 1, got {}", a));
  }
}

RenyiFilter RenyiFilter::create(const Budget& budget, Conversion conversion,
                                const Accountant& first, std::vector<double> orders) {
  check_budget(budget);
  if (orders.empty()) {
    require_parameter(!first.empty(), "budget_orders",
                      "budget_orders must be given when no release fixes the filter's order");
    orders.push_back(best_order(budget, conversion, first));
  }
  return RenyiFilter(budget, conversion, std::move(orders));
}

double RenyiFilter::rdp_budget(double alpha) const {
  const double share = budget_.delta / static_cast<double>(orders_.size());
  return budget_.epsilon - epsilon_at_order(0.0, alpha, share, conversion_);
}

RenyiFilter::Spend RenyiFilter::spend(const Accountant& composed) const {
  if (composed.empty()) {  // nothing released: (0, 0)-DP, the whole budget left
    return {0.0, orders_.front(), 0.0, rdp_budget(orders_.front()), true};
  }
  Spend best;
  best.epsilon = kInf;
  for (const double alpha : orders_) {
    const double rdp = composed.rdp(alpha);
    const double budget = rdp_budget(alpha);
    const double eps = budget_.epsilon - (budget - rdp);
    if (eps < best.epsilon) best = {eps, alpha, rdp, budget, true};
  }
  best.admitted = best.epsilon <= budget_.epsilon;
  return best;
}

nlohmann::json RenyiFilter::to_json() const {
  return {{"epsilon", budget_.epsilon},
          {"delta", budget_.delta},
          {"orders", orders_},
          {"conversion", to_string(conversion_)},
          {"theorem", theorem()}};
}

RenyiFilter RenyiFilter::from_json(const nlohmann::json& j, const std::string& source) {
  try {
    return RenyiFilter({j.at("epsilon").get<double>(), j.at("delta").get<double>()},
                       parse_conversion(j.at("conversion").get<std::string>()),
                       j.at("orders").get<std::vector<double>>());
  } catch (const nlohmann::json::exception&) {
    throw InputError(fmt::format("{}: malformed privacy filter", source));
  }
}

std::string RenyiFilter::theorem() {
  return "Feldman & Zrnic 2021 (Individual Privacy Accounting via a Rényi Filter), Theorem 3.1: "
         "at an order α fixed in advance, adaptively chosen releases whose RDP sums to at most B "
         "on every path compose to (α, B)-RDP; the order set is fixed when the budget is created";
}

}  // namespace gpdp::privacy
