#pragma once
// One attack configuration over many seeds, reported next to the (ε, δ) bound of the same release:
// what `gpdp-lab attack` and `python -m gpdp.distributed attack` run. The seeds are "attack.lira"
// tasks on the executor given; the report (text or JSON) and the ROC files are the same whatever
// the executor.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "gpdp/tasks/executor.hpp"

namespace gpdp::attack {

struct AttackRequest {
  std::string kernel = "exp";
  double ell = 1.0;
  double r = 1.0;
  double sigma = 1.0;  // +∞: covariance-only release
  double eta = 0.0;    // must be 0 (the attack probes the plain release)
  int draws = 1;
  long n = 10;
  long shadow = 10000;
  long eval = 10000;
  int seeds = 10;
  std::uint64_t seed = 20260616;
  double noise = 0.0;
  double delta = 0.05;
  std::string conversion = "mironov";
  bool benchmark = false;    // also the non-private benchmark (exact μ_D, k_D)
  bool json = false;         // report as JSON instead of text
  std::string roc_path;      // .png/.svg of the ROC curves (empty: none)
  std::string roc_csv_path;  // CSV of every seed's ROC points (empty: none)
  bool operator==(const AttackRequest&) const = default;
};

// ParameterError naming the parameter (its request key) when a value is out of range.
void check(const AttackRequest& request);

// The request from JSON {"r": .., "sigma": .. or "inf", ...} (the keys of attack_options(), as
// parse_options makes it from the flags): missing keys keep their defaults, unknown keys are an
// InputError naming them.
AttackRequest attack_request_from_json(const nlohmann::json& j);

// Runs the attack, writes the ROC files asked for, returns the report (text, or JSON + newline).
std::string run_attack(const AttackRequest& request, tasks::Executor& executor,
                       const std::function<void(long, long)>& progress = {});

}  // namespace gpdp::attack
