#pragma once
// A privacy event (dp_accounting's shape): `count` independent draws of one GP mechanism,
// described by its public parameters only, as JSON that replays into the same RDP curve. The
// accountant keeps the events it composed and writes them as one versioned record
// (Accountant::record / Accountant::replay); the ledger stores that record per release.
#include <nlohmann/json.hpp>
#include <string>

#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::privacy {

struct Event {
  GpMechanism mechanism;
  long count = 1;  // L independent draws
};

// {"kind": "gp-posterior-sample", "count": L, "kernel": {...}, "n": .., "r": .., "sigma": ..,
//  "eta": .., ...} or {"kind": "gp-functional-mean", ..., "noise_scale": s} (no σ, η), or
// {"kind": "grid-mean", "count", "n", "M_Y", "noise_scale": s_S, "count_noise": s_N, "cells"} or
// {"kind": "prior-mean", "count", "n", "M_Y", "noise_scale": s} or {"kind": "label-disagreement",
// "count", "n", "M_Y", "noise_scale": s}.
nlohmann::json to_json(const Event& event);
// InputError naming `source` for a malformed description.
Event event_from_json(const nlohmann::json& j, const std::string& source);

}  // namespace gpdp::privacy
