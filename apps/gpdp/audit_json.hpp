#pragma once
// JSON of the auditor's witnesses, shared by gpdp audit and gpdp audit-study: a neighbour pair
// (X, y, X_prime, y_prime, test as nested arrays) and its shape (privacy::PairShape).
#include <nlohmann/json.hpp>

#include "gpdp/privacy/neighbour_pair.hpp"

namespace gpdp::cli {

nlohmann::json pair_json(const privacy::NeighbourPair& p);
nlohmann::json shape_json(const privacy::PairShape& s);

}  // namespace gpdp::cli
