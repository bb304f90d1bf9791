#pragma once
// The accountant's mechanism description (privacy::GpMechanism) as JSON, so that a ledger row can
// be turned back into its RDP curve and recomposed by a later release. Only public parameters.
#include <nlohmann/json.hpp>
#include <vector>

#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::release {

// {"kind": "gp-posterior-sample", "count": L, "kernel": {...}, "n": .., "r": .., "sigma": ..,
//  "eta": .., ...} or {"kind": "gp-functional-mean", ..., "noise_scale": s} (no σ, η).
nlohmann::json mechanism_to_json(const privacy::GpMechanism& m, long count);

struct CountedMechanism {
  privacy::GpMechanism mechanism;
  long count = 1;
};
// InputError (naming `source`) for a malformed description.
CountedMechanism mechanism_from_json(const nlohmann::json& j, const std::string& source);

// Accountant holding every described mechanism with its count.
privacy::Accountant compose(const std::vector<CountedMechanism>& mechanisms);

}  // namespace gpdp::release
