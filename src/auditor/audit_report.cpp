#include "audit_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::auditor {

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

nlohmann::json pair_json(const NeighbourPair& p) {
  return {{"X", matrix_json(p.X)},
          {"y", matrix_json(p.y)},
          {"X_prime", matrix_json(p.Xp)},
          {"y_prime", matrix_json(p.yp)},
          {"test", matrix_json(p.test)}};
}

nlohmann::json shape_json(const PairShape& s) {
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

nlohmann::json audit_report_json(const AuditReport& report, const privacy::GpMechanism& mech,
                                 const privacy::ResolvedBounds& b) {
  nlohmann::json j;
  j["violation"] = report.violation;
  j["search"] = to_string(report.search);
  j["draws"] = report.draws;
  j["delta"] = report.proven.delta;
  j["conversion"] = to_string(report.proven.conversion);
  j["epsilon_proven"] = report.proven.epsilon;
  j["alpha_star"] = report.proven.alpha;
  j["epsilon_lower"] = report.epsilon_lower;
  j["mean_distance"] = report.mean_distance;
  j["distance_witness"] = pair_json(report.distance_witness);
  j["Vn"] = b.Vn;
  j["Delta_n"] = b.Delta_n;
  j["sensitivity_lemma"] = to_string(mech.lemma);
  j["mechanism"] = to_string(mech.kind);
  j["rng"] = report.rng;
  j["evaluations"] = report.evaluations;
  j["singular_skipped"] = report.singular_skipped;
  nlohmann::json orders = nlohmann::json::array();
  for (const auto& o : report.orders) {
    orders.push_back({{"alpha", o.alpha},
                      {"rdp_proven", o.proven * static_cast<double>(report.draws)},
                      {"rdp_lower", o.lower * static_cast<double>(report.draws)},
                      {"violation", o.violation},
                      {"start", o.start},
                      {"shape", shape_json(o.shape)},
                      {"witness", pair_json(o.witness)}});
  }
  j["orders"] = orders;
  if (report.sensitivity_searched) {
    j["sensitivity"] = {{"proven", report.sensitivity_proven},
                        {"lower", report.sensitivity_lower},
                        {"violation", report.sensitivity_violation},
                        {"shape", shape_json(report.sensitivity_shape)},
                        {"witness", pair_json(report.sensitivity_witness)}};
  }
  nlohmann::json rungs = nlohmann::json::array();
  for (const auto& r : report.continuation) {
    rungs.push_back({{"n", r.n}, {"rdp_lower", r.lower}, {"sensitivity_lower", r.sensitivity}});
  }
  j["continuation"] = {{"alpha", report.anchor_alpha}, {"rungs", rungs}};
  return j;
}

}  // namespace gpdp::auditor
