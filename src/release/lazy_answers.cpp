#include "gpdp/release/lazy_answers.hpp"

#include <fmt/format.h>

#include <optional>

#include "gpdp/error.hpp"
#include "gpdp/release/grid_mean.hpp"

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

KeptPathModel kept_path_model(const KeptPath& s, const PreparedData& prepared,
                              const std::string& path_file) {
  const Dataset& data = prepared.data;
  std::optional<KeptPathModel> model;
  if (s.table) {
    const CellPosterior cp = cell_posterior(*s.table, s.kernel, s.r, s.sigma, data.n(), s.input.M_Y,
                                            s.noise_scale, s.count_noise);
    require(cp.prior_mean == s.offset,
            fmt::format("{}: the table's prior mean differs from the recorded one", path_file));
    model.emplace(KeptPathModel{cp.posterior, cell_path_lattice(cp, s.input.M_Y)});
  } else {
    // The responses about the release's prior mean (offset 0: the clipped responses themselves).
    const Eigen::VectorXd y =
        reclipped(unclipped_responses(prepared, s.input), s.offset, s.input.M_Y);
    model.emplace(KeptPathModel{Posterior(s.kernel, data.X, y, {s.r, s.sigma}),
                                release_granularity(data.n(), s.input.M_Y, s.r, s.sigma, s.eta)});
  }
  require(model->lattice.exponent == s.lattice_exponent,
          fmt::format("{}: inconsistent rounding lattice", path_file));
  return std::move(*model);
}

LazyPaths::LazyPaths(const KeptPath& state, const Posterior& posterior) {
  paths_.reserve(state.paths.size());
  for (const auto& p : state.paths) paths_.emplace_back(posterior, state.eta, p.points, p.values);
  before_.assign(paths_.size(), 0);
}

void LazyPaths::prepare() {
  for (SamplePath& p : paths_) p.prepare_conditioning();
}

Eigen::MatrixXd LazyPaths::answer(KeptPath& state, const Granularity& lattice,
                                  const Points& model_points, Rng& rng) {
  require(state.paths.size() == paths_.size(), "lazy paths: the state has another set of paths");
  Eigen::MatrixXd released(model_points.rows(), static_cast<Eigen::Index>(paths_.size()));
  std::size_t l = 0;
  try {
    for (; l < paths_.size(); ++l) {
      before_[l] = paths_[l].size();
      const Eigen::VectorXd v = paths_[l].evaluate(model_points, rng);
      released.col(static_cast<Eigen::Index>(l)) =
          v.unaryExpr([&](double x) { return snap(state.offset + x, lattice); });
    }
  } catch (...) {
    for (std::size_t j = 0; j < l; ++j) paths_[j].truncate(before_[j]);
    throw;
  }
  for (std::size_t j = 0; j < paths_.size(); ++j)
    state.paths[j] = {paths_[j].points(), paths_[j].values()};
  return released;
}

void LazyPaths::undo() {
  for (std::size_t j = 0; j < paths_.size(); ++j) paths_[j].truncate(before_[j]);
}

double LazyPaths::conditioning_bytes() const {
  double b = 0.0;
  for (const SamplePath& p : paths_) b += p.conditioning_bytes();
  return b;
}

Eigen::MatrixXd answer_points(KeptPath& state, const Posterior& posterior,
                              const Granularity& lattice, const Points& model_points, Rng& rng) {
  LazyPaths paths(state, posterior);
  return paths.answer(state, lattice, model_points, rng);
}

}  // namespace gpdp::release
