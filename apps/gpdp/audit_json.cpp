#include "audit_json.hpp"

#include <cmath>

namespace gpdp::cli {

namespace {

nlohmann::json matrix_json(const Eigen::MatrixXd& M) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < M.cols(); ++j) row.push_back(M(i, j));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

nlohmann::json pair_json(const privacy::NeighbourPair& p) {
  return {{"X", matrix_json(p.X)},
          {"y", matrix_json(p.y)},
          {"X_prime", matrix_json(p.Xp)},
          {"y_prime", matrix_json(p.yp)},
          {"test", matrix_json(p.test)}};
}

nlohmann::json shape_json(const privacy::PairShape& s) {
  return {{"n", s.n},
          {"v", s.v},
          {"v_prime", s.vp},
          {"correlation", s.correlation},
          {"core_mean_x", s.core_mean_x},
          {"core_mean_x_prime", s.core_mean_xp},
          {"residual_x", s.residual_x},
          {"residual_x_prime", s.residual_xp},
          {"sensitivity", s.sensitivity},
          {"distance_x_x_prime", s.distance_x_xp},
          {"nearest_core_x", std::isfinite(s.nearest_core_x) ? nlohmann::json(s.nearest_core_x)
                                                             : nlohmann::json(nullptr)},
          {"core_near_x", s.core_near_x},
          {"core_at_bound", s.core_at_bound},
          {"core_sign_balance", s.core_sign_balance},
          {"on_boundary", s.on_boundary},
          {"summary", s.summary}};
}

}  // namespace gpdp::cli
