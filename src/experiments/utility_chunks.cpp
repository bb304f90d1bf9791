// The conversions the utility study's tasks and the public search's tasks share
// (utility_chunks.hpp): θ, evaluate calls and matrices as JSON, exactly.
#include "utility_chunks.hpp"

namespace gpdp::experiments {

using nlohmann::json;

namespace chunks {

json theta_to_json(const Theta& t) { return {t.ell, t.r, t.sigma}; }

Theta theta_from_json(const json& j) {
  return {j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>()};
}

std::vector<Theta> thetas_from_json(const json& j) {
  std::vector<Theta> thetas;
  for (const auto& t : j) thetas.push_back(theta_from_json(t));
  return thetas;
}

json evaluate_call_json(const std::vector<Theta>& thetas,
                        const std::vector<std::pair<double, double>>& speculative, bool keep) {
  json call = {{"thetas", json::array()}, {"speculative", speculative}, {"keep", keep}};
  for (const auto& t : thetas) call["thetas"].push_back(theta_to_json(t));
  return call;
}

Eigen::MatrixXd evaluate_call(const ExcursionObjective& objective, const json& call) {
  return objective.evaluate(thetas_from_json(call.at("thetas")),
                            call.at("speculative").get<std::vector<std::pair<double, double>>>(),
                            call.at("keep").get<bool>());
}

json matrix_to_json(const Eigen::MatrixXd& m) {
  return {{"rows", m.rows()},
          {"cols", m.cols()},
          {"data", std::vector<double>(m.data(), m.data() + m.size())}};
}

Eigen::MatrixXd matrix_from_json(const json& j) {
  const auto data = j.at("data").get<std::vector<double>>();
  return Eigen::Map<const Eigen::MatrixXd>(data.data(), j.at("rows").get<Eigen::Index>(),
                                           j.at("cols").get<Eigen::Index>());
}

}  // namespace chunks

}  // namespace gpdp::experiments
