#pragma once
// The auditor's report as JSON (what `gpdp-lab audit --json` and `python -m gpdp.distributed audit
// --json` print; audit_run.hpp runs them), and its parts: a neighbour pair (X, y, X_prime, y_prime,
// test as nested arrays) and its shape (PairShape).
#include <nlohmann/json.hpp>

#include "gpdp/auditor/audit.hpp"
#include "gpdp/auditor/neighbour_pair.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::auditor {

nlohmann::json pair_json(const NeighbourPair& p);
nlohmann::json shape_json(const PairShape& s);
nlohmann::json audit_report_json(const AuditReport& report, const privacy::GpMechanism& mech,
                                 const privacy::ResolvedBounds& b);

}  // namespace gpdp::auditor
