#include "gpdp/release/lazy_answers.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/sample_path.hpp"

namespace gpdp::release {

PreparedData kept_path_data(const std::string& data_path, const KeptPath& s) {
  PreparedData prepared = prepare_data(data_path, s.input);
  if (prepared.sha256 != s.dataset_sha256) {
    throw InputError(
        fmt::format("{}: SHA-256 {} differs from the data of the kept path ({}); a query "
                    "needs exactly the data file of the release",
                    data_path, prepared.sha256, s.dataset_sha256));
  }
  return prepared;
}

Granularity kept_path_lattice(const KeptPath& s, const Dataset& data,
                              const std::string& path_file) {
  const Granularity lattice = release_granularity(data.n(), s.input.M_Y, s.r, s.sigma, s.eta);
  require(lattice.exponent == s.lattice_exponent,
          fmt::format("{}: inconsistent rounding lattice", path_file));
  return lattice;
}

Eigen::MatrixXd answer_points(KeptPath& state, const Posterior& posterior,
                              const Granularity& lattice, const Points& model_points, Rng& rng) {
  Eigen::MatrixXd released(model_points.rows(), static_cast<Eigen::Index>(state.paths.size()));
  for (std::size_t l = 0; l < state.paths.size(); ++l) {
    SamplePath path(posterior, state.eta, state.paths[l].points, state.paths[l].values);
    const Eigen::VectorXd v = path.evaluate(model_points, rng);
    released.col(static_cast<Eigen::Index>(l)) =
        v.unaryExpr([&](double x) { return snap(x, lattice); });
    state.paths[l] = {path.points(), path.values()};
  }
  return released;
}

}  // namespace gpdp::release
