#pragma once
// The privacy budget: composes RDP curves and converts to (ε, δ) (docs/mathematics.md §2).
//   composition (Mironov 2017, Prop. 1; adaptive too): ε_α(total) = Σ_j L_j ε_α(curve_j),
//     admissible orders = intersection of the curves' open ranges (1, α_max).
//   conversion at one order α (both valid for every α > 1, for any pair of output distributions
//   with D_α ≤ R, hence also for the stopped adaptive compositions of filter.hpp):
//     Mironov 2017 Prop. 3 (the paper's):  ε = R + log(1/δ)/(α−1)
//     Canonne–Kamath–Steinke 2020 Prop. 12 / Balle et al. 2020 Thm 21:
//                                          ε = R + log((α−1)/α) − (log δ + log α)/(α−1)
//   ε(δ) = inf over admissible α; δ(ε) likewise (the same formulae solved for δ).
// The infimum is found by order_search.hpp; the optimal α is reported, and so is an optimum
// pinned at either end of the range. ε is never reported below 0.
//
// dp_accounting's shape: events in (a mechanism described as data, privacy::Event), a replayable
// record out (record() / replay()): the ledger stores that record, and any later reader rebuilds
// the same curves from it.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/privacy/event.hpp"
#include "gpdp/privacy/rdp.hpp"

namespace gpdp::privacy {

enum class Conversion { Mironov, CKS };
std::string to_string(Conversion c);                   // "mironov" | "cks"
Conversion parse_conversion(const std::string& name);  // InputError otherwise
std::string conversion_citation(Conversion c);
// The one default everywhere (release, account, calibrate, ledger): CKS. It is valid wherever a
// Rényi divergence bound holds, including the filter's (α, B)-RDP statement; docs/security.md.
constexpr Conversion kDefaultConversion = Conversion::CKS;

// ε at one order from a composed RDP value R (may be negative: the caller clamps).
double epsilon_at_order(double rdp, double alpha, double delta, Conversion c);
// log δ at one order for a target ε.
double log_delta_at_order(double rdp, double alpha, double epsilon, Conversion c);

struct Guarantee {
  double epsilon = 0.0;  // ≥ 0 always
  double delta = 0.0;
  double alpha = 0.0;  // the optimal order α*
  double rdp = 0.0;    // composed ε_α at α* (Σ L_j ε_α)
  double alpha_max = 0.0;
  Conversion conversion = Conversion::Mironov;
  bool pinned_low = false;   // the optimum sits at the lower end of the scanned range (α → 1)
  bool pinned_high = false;  // the optimum sits at the upper end (α → α_max)
  bool clamped = false;      // the converted ε was negative: the guarantee holds at ε = 0
  double unclamped_epsilon = 0.0;
  // Human-readable remarks (pinned optimum, clamping, trivial δ = 1); empty when none.
  std::string note() const;
};

class Accountant {
 public:
  // Adds `count` independent (possibly adaptively chosen) releases of the mechanism `curve`. An
  // undescribed curve composes but cannot be recorded (record() refuses).
  Accountant& add(RdpCurve curve, long count = 1);
  // Adds an event: the mechanism's curve (Theorem 3.1 / Proposition 2), remembered as data.
  Accountant& add(const Event& event);
  Accountant& add(const GpMechanism& mechanism, long count) { return add(Event{mechanism, count}); }
  // Adds everything `other` composed.
  Accountant& add(const Accountant& other);
  // Adds ONE release chosen adaptively from a public list of candidate compositions (envelope.hpp
  // candidate_envelope, Mironov 2017 Prop. 1); recorded as a "choice" event that lists every
  // candidate's events (an empty candidate: the trivial map, no event) and replays to the same
  // envelope. InputError when a candidate holds an undescribed curve.
  Accountant& add_choice(const std::vector<Accountant>& candidates);

  bool empty() const { return entries_.empty(); }
  long total_releases() const;
  // The events composed so far, in order; InputError when an undescribed curve was added.
  std::vector<Event> events() const;
  // {"format": "gpdp-privacy-record", "version": 1, "events": [event JSON, ...]}; a choice is
  // {"kind": "choice", "count": 1, "candidates": [[event JSON, ...], ...]}.
  nlohmann::json record() const;
  // The accountant that composed the events of `record` (InputError naming `source` otherwise).
  static Accountant replay(const nlohmann::json& record, const std::string& source);

  // Intersection of the admissible ranges: the open upper end.
  double alpha_max() const;
  // Composed RDP Σ L_j ε_α(curve_j); +∞ outside the range.
  double rdp(double alpha) const;
  // Smallest ε (over α) such that the composition is (ε, δ)-DP; 0 < δ < 1.
  Guarantee epsilon(double delta, Conversion c) const;
  // Smallest δ (over α) such that the composition is (ε, δ)-DP; ε ≥ 0.
  Guarantee delta(double epsilon, Conversion c) const;
  // One line per entry: "L × <curve description>".
  std::string description() const;

 private:
  struct Entry {
    RdpCurve curve;
    long count;
    std::optional<GpMechanism> mechanism;  // set for events
    std::optional<nlohmann::json> choice;  // set for choices: the candidates' event lists
  };
  std::vector<Entry> entries_;
};

// The one compose-then-convert step: ε(δ) of `draws` independent releases of m.
Guarantee account(const GpMechanism& m, long draws, double delta, Conversion c);

}  // namespace gpdp::privacy
