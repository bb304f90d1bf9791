#include "gpdp/privacy/accountant.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "gpdp/error.hpp"
#include "gpdp/privacy/envelope.hpp"
#include "gpdp/privacy/order_search.hpp"

namespace gpdp::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr const char* kRecordFormat = "gpdp-privacy-record";
constexpr const char* kChoice = "choice";
constexpr int kRecordVersion = 1;

// The parts of a Guarantee common to ε(δ) and δ(ε): the optimal order and where it lies.
Guarantee at_order(const Accountant& acc, const OrderMinimum& m, Conversion c) {
  Guarantee g;
  g.alpha = m.alpha;
  g.rdp = acc.rdp(m.alpha);
  g.alpha_max = acc.alpha_max();
  g.conversion = c;
  g.pinned_low = m.pinned_low;
  g.pinned_high = m.pinned_high;
  return g;
}

}  // namespace

std::string to_string(Conversion c) { return c == Conversion::Mironov ? "mironov" : "cks"; }

Conversion parse_conversion(const std::string& name) {
  if (name == "mironov") return Conversion::Mironov;
  if (name == "cks" || name == "balle") return Conversion::CKS;
  throw InputError(fmt::format("unknown conversion '{}': expected mironov or cks", name));
}

std::string conversion_citation(Conversion c) {
  return c == Conversion::Mironov
             ? "Mironov 2017 Prop. 3: ε = Σε_α + log(1/δ)/(α−1)"
             : "Canonne-Kamath-Steinke 2020 / Balle et al. 2020: ε = Σε_α + log((α−1)/α) − "
               "(log δ + log α)/(α−1)";
}

double epsilon_at_order(double rdp, double alpha, double delta, Conversion c) {
  const double am1 = alpha - 1.0;
  if (c == Conversion::Mironov) return rdp - std::log(delta) / am1;
  return rdp + std::log1p(-1.0 / alpha) - (std::log(delta) + std::log(alpha)) / am1;
}

double log_delta_at_order(double rdp, double alpha, double epsilon, Conversion c) {
  const double am1 = alpha - 1.0;
  if (c == Conversion::Mironov) return am1 * (rdp - epsilon);
  return am1 * (rdp - epsilon) + am1 * std::log1p(-1.0 / alpha) - std::log(alpha);
}

std::string Guarantee::note() const {
  std::vector<std::string> parts;
  if (pinned_low)
    parts.push_back("optimal α pinned at the lower end of the admissible range (α → 1)");
  if (pinned_high) parts.push_back("optimal α pinned at the upper end of the admissible range");
  if (clamped) {
    parts.push_back(fmt::format(
        "converted ε was {:.6g} < 0: the guarantee holds at ε = 0 for this δ", unclamped_epsilon));
  }
  if (delta >= 1.0) parts.push_back("δ = 1: no nontrivial guarantee at this ε");
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

Accountant& Accountant::add(RdpCurve curve, long count) {
  require(count >= 1, fmt::format("number of releases must be ≥ 1, got {}", count));
  entries_.push_back({std::move(curve), count, std::nullopt, std::nullopt});
  return *this;
}

Accountant& Accountant::add(const Event& event) {
  require(event.count >= 1, fmt::format("number of releases must be ≥ 1, got {}", event.count));
  entries_.push_back({rdp_curve(event.mechanism), event.count, event.mechanism, std::nullopt});
  return *this;
}

Accountant& Accountant::add_choice(const std::vector<Accountant>& candidates) {
  // A candidate with an undescribed curve composes but leaves the choice unrecordable.
  std::optional<nlohmann::json> lists = nlohmann::json::array();
  for (const auto& c : candidates) {
    const bool described = std::all_of(c.entries_.begin(), c.entries_.end(), [](const Entry& e) {
      return e.mechanism.has_value() || e.choice.has_value();
    });
    if (!described) {
      lists.reset();
      break;
    }
    lists->push_back(c.record()["events"]);
  }
  entries_.push_back({candidate_envelope(candidates), 1, std::nullopt, std::move(lists)});
  return *this;
}

Accountant& Accountant::add(const Accountant& other) {
  entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
  return *this;
}

std::vector<Event> Accountant::events() const {
  std::vector<Event> out;
  for (const auto& e : entries_) {
    require(!e.choice, "accountant: a choice among candidates is not one mechanism's event");
    require(e.mechanism.has_value(),
            fmt::format("accountant: '{}' was added as a bare RDP curve and cannot be recorded",
                        e.curve.description()));
    out.push_back({*e.mechanism, e.count});
  }
  return out;
}

nlohmann::json Accountant::record() const {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : entries_) {
    if (e.choice) {
      events.push_back({{"kind", kChoice}, {"count", 1}, {"candidates", *e.choice}});
      continue;
    }
    require(e.mechanism.has_value(),
            fmt::format("accountant: '{}' was added as a bare RDP curve and cannot be recorded",
                        e.curve.description()));
    events.push_back(to_json(Event{*e.mechanism, e.count}));
  }
  return {{"format", kRecordFormat}, {"version", kRecordVersion}, {"events", events}};
}

Accountant Accountant::replay(const nlohmann::json& record, const std::string& source) {
  const bool ours = record.is_object() && record.value("format", "") == kRecordFormat &&
                    record.contains("events") && record["events"].is_array();
  require(ours, fmt::format("{}: not a gpdp privacy record", source));
  const auto version = record.value("version", 0);
  require(version == kRecordVersion,
          fmt::format("{}: privacy record version {} (this gpdp reads version {})", source, version,
                      kRecordVersion));
  Accountant acc;
  for (const auto& e : record["events"]) {
    if (!(e.is_object() && e.value("kind", "") == kChoice)) {
      acc.add(event_from_json(e, source));
      continue;
    }
    const bool well_formed = e.value("count", 0) == 1 && e.contains("candidates") &&
                             e["candidates"].is_array() && !e["candidates"].empty();
    require(well_formed, fmt::format("{}: malformed choice event", source));
    std::vector<Accountant> candidates;
    for (const auto& list : e["candidates"]) {
      require(list.is_array(), fmt::format("{}: malformed choice event", source));
      Accountant c;
      for (const auto& ev : list) c.add(event_from_json(ev, source));
      candidates.push_back(std::move(c));
    }
    acc.add_choice(candidates);
  }
  return acc;
}

long Accountant::total_releases() const {
  return std::accumulate(entries_.begin(), entries_.end(), 0L,
                         [](long s, const Entry& e) { return s + e.count; });
}

double Accountant::alpha_max() const {
  double a = kInf;
  for (const auto& e : entries_) a = std::min(a, e.curve.alpha_max());
  return a;
}

double Accountant::rdp(double alpha) const {
  double total = 0.0;
  for (const auto& e : entries_) {
    const double v = e.curve(alpha);
    if (std::isinf(v)) return kInf;
    total += static_cast<double>(e.count) * v;
  }
  return total;
}

Guarantee Accountant::epsilon(double delta, Conversion c) const {
  require(!entries_.empty(), "accountant: nothing to account (no release added)");
  require(delta > 0 && delta < 1, fmt::format("δ must lie in (0, 1), got {}", delta));
  const OrderMinimum m = minimise_over_orders(alpha_max(), [&](double alpha) {
    const double R = rdp(alpha);
    return std::isinf(R) ? kInf : epsilon_at_order(R, alpha, delta, c);
  });
  Guarantee g = at_order(*this, m, c);
  g.delta = delta;
  g.unclamped_epsilon = m.value;
  g.clamped = m.value < 0;
  g.epsilon = std::max(0.0, m.value);
  return g;
}

Guarantee Accountant::delta(double epsilon, Conversion c) const {
  require(!entries_.empty(), "accountant: nothing to account (no release added)");
  require(std::isfinite(epsilon) && epsilon >= 0,
          fmt::format("ε must be finite and ≥ 0, got {}", epsilon));
  const OrderMinimum m = minimise_over_orders(alpha_max(), [&](double alpha) {
    const double R = rdp(alpha);
    return std::isinf(R) ? kInf : log_delta_at_order(R, alpha, epsilon, c);
  });
  Guarantee g = at_order(*this, m, c);
  g.epsilon = epsilon;
  g.unclamped_epsilon = epsilon;
  g.delta = std::min(1.0, std::exp(m.value));
  return g;
}

std::string Accountant::description() const {
  std::string s;
  for (const auto& e : entries_) s += fmt::format("{} × {}\n", e.count, e.curve.description());
  return s;
}

Guarantee account(const GpMechanism& m, long draws, double delta, Conversion c) {
  Accountant acc;
  acc.add(m, draws);
  return acc.epsilon(delta, c);
}

}  // namespace gpdp::privacy
