// The map mechanism of a release (map_mechanism.hpp): prepared once, drawn many times.
#include "gpdp/release/map_mechanism.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "gpdp/posterior.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/request.hpp"
#include "gpdp/samplers/prior.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp::release {

struct MapMechanism::Impl {
  DrawSpec spec;
  Granularity lattice;
  std::optional<Posterior> posterior;
  // posterior sample: the exact sampler of the released path on the evaluation points
  std::optional<PreparedSampler> paths;
  // functional: the kernel ridge mean μ_D on the points and the sampler of g ~ GP(0, k)
  Eigen::VectorXd mean;
  std::optional<PriorSampler> noise;
  // grid mean: the public cells and the records' exact sums and counts (private)
  std::optional<CellLayout> layout;
  CellAggregates aggregates;

  explicit Impl(const DrawSpec& s) : spec(s), lattice(lattice_of(s.mechanism)) {
    const auto& m = spec.mechanism;
    if (m.kind == privacy::MechanismKind::GridMean) {
      layout = grid_mean_layout(m);
      aggregates = aggregate_cells(*layout, spec.X, spec.y);
      return;
    }
    // A public prior mean: the posterior of the responses about it, once.
    const Eigen::VectorXd y =
        spec.prior_mean ? reclipped(spec.unclipped, *spec.prior_mean, m.M_Y) : spec.y;
    posterior.emplace(*m.kernel, spec.X, y, Hyperparameters{m.r, m.sigma});
    if (m.kind == privacy::MechanismKind::Functional) {
      mean = posterior->mean(spec.points);
      noise.emplace(*m.kernel, spec.points, spec.grid, spec.cells);
      return;
    }
    const SampleOptions options{spec.sampler, m.eta};
    const bool whole_grid = spec.grid.has_value() && spec.cells.empty();
    if (whole_grid) {
      paths.emplace(*posterior, *spec.grid, options);
    } else {
      paths.emplace(*posterior, spec.points, options);
    }
  }

  // The prior mean of this draw and the posterior about it: a private one is drawn first,
  // clamp(mean(y) + s·z, ±M_Y), and the responses re-clipped about it (the factorisation shared).
  double draw_prior_mean(Rng& rng, std::optional<Posterior>& about) {
    if (spec.prior_mean_noise <= 0) return spec.prior_mean.value_or(0.0);
    const double M = spec.mechanism.M_Y;
    const double m0 =
        std::clamp(spec.y.mean() + spec.prior_mean_noise * rng.standard_normal(), -M, M);
    about.emplace(posterior->with_responses(reclipped(spec.unclipped, m0, M)));
    return m0;
  }

  // The functional mechanism (docs/privacy.md): μ_D + s·g on the evaluation points, L independent
  // draws of g; no sample path state.
  Eigen::MatrixXd draw_functional(const Posterior& post, Rng& rng, std::string& method) {
    method = "functional mechanism μ_D + s·g, g by " + noise->method();
    const Eigen::VectorXd mu = &post == &*posterior ? mean : post.mean(spec.points);
    return (spec.mechanism.noise_scale * noise->draw(rng, spec.draws)).colwise() + mu;
  }

  // L posterior sample paths (with η > 0: plus GP(0, η² k) noise), one after the other.
  Eigen::MatrixXd draw_paths(const Posterior& post, Rng& rng, std::string& method,
                             std::vector<SamplePath>* kept) {
    const auto& m = spec.mechanism;
    Eigen::MatrixXd raw(spec.points.rows(), spec.draws);
    for (int l = 0; l < spec.draws; ++l) {
      const Draws d = paths->draw(post, 1, rng);
      raw.col(l) = d.values.col(0);
      if (l == 0) method = d.method + ": " + d.detail;
      if (kept) kept->emplace_back(post, m.eta, spec.points, raw.col(l));
    }
    return raw;
  }
};

SnappedDraws grid_mean_draws(const DrawSpec& spec, CellTable table, std::string rng) {
  SnappedDraws d;
  d.rng = std::move(rng);
  if (spec.grid_map == GridMap::Cells) {
    d.values = cell_means_map(table, spec.points, spec.mechanism.n, spec.mechanism.M_Y);
    d.sampler = fmt::format(
        "grid mean: Gaussian noise on {} cell sums and counts; the map is each point's noisy "
        "cell mean clamp(S̃/Ñ, ±M_Y) (cells map; cells with Ñ < {} take clamp(ΣS̃/n, ±M_Y)) (no "
        "sampling)",
        table.layout.size(), kGridMeanMinCount);
    d.table = std::move(table);
    return d;
  }
  const CellPosterior p = cell_posterior(table, spec.mechanism);
  d.values = (p.posterior.mean(spec.points).array() + p.prior_mean).matrix();
  d.probability = p.posterior.excursion_probability(spec.points, spec.level - p.prior_mean);
  d.sampler = fmt::format(
      "grid mean: Gaussian noise on {} cell sums and counts; the map is the mean of the "
      "post-processing GP on {} kept cell(s) (no sampling)",
      table.layout.size(), p.kept.size());
  d.table = std::move(table);
  return d;
}

MapMechanism::MapMechanism(const DrawSpec& spec) : impl_(std::make_unique<Impl>(spec)) {}
MapMechanism::MapMechanism(MapMechanism&&) noexcept = default;
MapMechanism& MapMechanism::operator=(MapMechanism&&) noexcept = default;
MapMechanism::~MapMechanism() = default;

const Granularity& MapMechanism::lattice() const { return impl_->lattice; }

SnappedDraws MapMechanism::draw(Rng& rng, bool keep_paths) {
  const auto& m = impl_->spec.mechanism;
  if (m.kind == privacy::MechanismKind::GridMean) {
    CellTable table = noisy_table(*impl_->layout, impl_->aggregates, m.n, m.M_Y, m.noise_scale,
                                  privacy::grid_mean_count_noise(m), rng);
    return grid_mean_draws(impl_->spec, std::move(table), {});
  }
  SnappedDraws out;
  std::optional<Posterior> about;  // the posterior about a private prior mean
  const double m0 = impl_->draw_prior_mean(rng, about);
  const Posterior& post = about ? *about : *impl_->posterior;
  Eigen::MatrixXd raw =
      m.kind == privacy::MechanismKind::Functional
          ? impl_->draw_functional(post, rng, out.sampler)
          : impl_->draw_paths(post, rng, out.sampler, keep_paths ? &out.paths : nullptr);
  const Granularity& lattice = impl_->lattice;
  out.values = raw.unaryExpr([&](double x) { return snap(m0 + x, lattice); });
  if (impl_->spec.prior_mean || impl_->spec.prior_mean_noise > 0) out.prior_mean = m0;
  raw.setZero();
  return out;
}

}  // namespace gpdp::release
