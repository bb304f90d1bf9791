#pragma once
// The LiRA experiment as plain data: the params and results of the "attack.lira" task kind
// (attack/tasks.hpp). Options and release settings go into params, which travel as JSON text (no
// infinity there: σ = ∞ is the string "inf"); outcomes come back as JSON values (CBOR across
// processes, every double exact), so an outcome rebuilt from its JSON is the outcome computed.
#include <nlohmann/json.hpp>

#include "gpdp/attack/lira.hpp"

namespace gpdp::attack {

void to_json(nlohmann::json& j, const ReleaseSetting& r);
void from_json(const nlohmann::json& j, ReleaseSetting& r);
void to_json(nlohmann::json& j, const LiraOptions& o);
void from_json(const nlohmann::json& j, LiraOptions& o);
void to_json(nlohmann::json& j, const SeedOutcome& o);
void from_json(const nlohmann::json& j, SeedOutcome& o);

}  // namespace gpdp::attack
