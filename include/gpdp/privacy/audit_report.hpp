#pragma once
// The auditor's report as JSON (what `gpdp audit --json` and `python -m gpdp.distributed audit`
// print), and its parts: a neighbour pair (X, y, X_prime, y_prime, test as nested arrays) and its
// shape (PairShape).
#include <nlohmann/json.hpp>

#include "gpdp/privacy/audit.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/privacy/neighbour_pair.hpp"

namespace gpdp::privacy {

nlohmann::json pair_json(const NeighbourPair& p);
nlohmann::json shape_json(const PairShape& s);
// Settings from JSON {"alphas": [..], "search": "gradient", "restarts": 12, "max_evals": 300,
// "extra_test_points": 2, "continuation": true, "sensitivity": true, "seed": 1, "delta": 1e-5,
// "draws": 1, "conversion": "cks", "threads": 1}: missing keys keep AuditSettings' defaults,
// unknown keys are an InputError naming them.
AuditSettings audit_settings_from_json(const nlohmann::json& j);
nlohmann::json audit_report_json(const AuditReport& report, const GpMechanism& mech,
                                 const ResolvedBounds& b);

}  // namespace gpdp::privacy
