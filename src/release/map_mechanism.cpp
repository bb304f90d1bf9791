// The map mechanism of a release (map_mechanism.hpp): prepared once, drawn many times.
#include "gpdp/release/map_mechanism.hpp"

#include <optional>

#include "gpdp/posterior.hpp"
#include "gpdp/release/request.hpp"
#include "gpdp/sampler.hpp"
#include "gpdp/samplers/prior.hpp"

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

  explicit Impl(const DrawSpec& s) : spec(s), lattice(lattice_of(s.mechanism)) {
    const auto& m = spec.mechanism;
    posterior.emplace(*m.kernel, spec.X, spec.y, Hyperparameters{m.r, m.sigma});
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

  // The functional mechanism (docs/privacy.md): μ_D + s·g on the evaluation points, L independent
  // draws of g; no sample path state.
  Eigen::MatrixXd draw_functional(Rng& rng, std::string& method) {
    method = "functional mechanism μ_D + s·g, g by " + noise->method();
    return (spec.mechanism.noise_scale * noise->draw(rng, spec.draws)).colwise() + mean;
  }

  // L posterior sample paths (with η > 0: plus GP(0, η² k) noise), one after the other.
  Eigen::MatrixXd draw_paths(Rng& rng, std::string& method, std::vector<SamplePath>* kept) {
    const auto& m = spec.mechanism;
    Eigen::MatrixXd raw(spec.points.rows(), spec.draws);
    for (int l = 0; l < spec.draws; ++l) {
      const Draws d = paths->draw(*posterior, 1, rng);
      raw.col(l) = d.values.col(0);
      if (l == 0) method = d.method + ": " + d.detail;
      if (kept) kept->emplace_back(*posterior, m.eta, spec.points, raw.col(l));
    }
    return raw;
  }
};

MapMechanism::MapMechanism(const DrawSpec& spec) : impl_(std::make_unique<Impl>(spec)) {}
MapMechanism::MapMechanism(MapMechanism&&) noexcept = default;
MapMechanism& MapMechanism::operator=(MapMechanism&&) noexcept = default;
MapMechanism::~MapMechanism() = default;

const Granularity& MapMechanism::lattice() const { return impl_->lattice; }

SnappedDraws MapMechanism::draw(Rng& rng, bool keep_paths) {
  SnappedDraws out;
  Eigen::MatrixXd raw =
      impl_->spec.mechanism.kind == privacy::MechanismKind::Functional
          ? impl_->draw_functional(rng, out.sampler)
          : impl_->draw_paths(rng, out.sampler, keep_paths ? &out.paths : nullptr);
  const Granularity& lattice = impl_->lattice;
  out.values = raw.unaryExpr([&](double x) { return snap(x, lattice); });
  raw.setZero();
  return out;
}

}  // namespace gpdp::release
