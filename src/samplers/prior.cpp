#include "gpdp/samplers/prior.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/samplers/circulant.hpp"
#include "gpdp/samplers/dense.hpp"

namespace gpdp {

struct PriorSampler::Impl {
  std::optional<CirculantEmbedding> embedding;
  std::vector<Eigen::Index> cells;  // lattice rows of the evaluated points (empty: all)
  PsdFactor factor;
};

namespace {

// The grid's lattice (first axis fastest, as Grid::points()), when every axis has ≥ 2 points.
std::optional<Lattice> grid_lattice(const Grid& grid) {
  Lattice lattice;
  for (const auto& axis : grid.axes()) {
    if (axis.count < 2) return std::nullopt;
    lattice.counts.push_back(axis.count);
    lattice.steps.push_back(axis.step());
  }
  return lattice;
}

}  // namespace

PriorSampler::PriorSampler(const Kernel& kernel, const Points& points,
                           const std::optional<Grid>& grid, const std::vector<Eigen::Index>& cells)
    : impl_(std::make_unique<Impl>()) {
  require(points.rows() >= 1, "prior sampler: no points");
  if (grid && grid->dim() <= 2) {
    if (const auto lattice = grid_lattice(*grid)) {
      impl_->embedding = CirculantEmbedding::find(kernel, *lattice);
      if (impl_->embedding) {
        impl_->cells = cells;
        method_ = fmt::format("circulant embedding ({})", impl_->embedding->attempt().describe());
        return;
      }
    }
  }
  const auto m = static_cast<double>(points.rows());
  require_memory(
      static_cast<double>(dense_bytes(m, m, 2)),
      fmt::format("the prior sampler's dense factorisation at m = {} points", points.rows()),
      "the m x m prior covariance and its Cholesky factor",
      "a regular grid of at most 2 axes (circulant embedding: no m x m matrix), a "
      "coarser grid, or fewer points");
  impl_->factor = factor_psd(kernel.gram(points));
  method_ = fmt::format("dense ({})", impl_->factor.detail);
}

PriorSampler::PriorSampler(PriorSampler&&) noexcept = default;
PriorSampler::~PriorSampler() = default;

Eigen::MatrixXd PriorSampler::draw(Rng& rng, int count) {
  if (!impl_->embedding) {
    const Eigen::Index m = impl_->factor.factor.rows();
    return draw_gaussian(Eigen::VectorXd::Zero(m), impl_->factor, count, rng);
  }
  auto& e = *impl_->embedding;
  Eigen::VectorXd full(e.lattice().size());
  const auto& cells = impl_->cells;
  Eigen::MatrixXd out(cells.empty() ? full.size() : static_cast<Eigen::Index>(cells.size()), count);
  for (int c = 0; c < count; ++c) {
    e.draw(rng, full.data());
    if (cells.empty()) {
      out.col(c) = full;
    } else {
      for (std::size_t i = 0; i < cells.size(); ++i)
        out(static_cast<Eigen::Index>(i), c) = full(cells[i]);
    }
  }
  return out;
}

}  // namespace gpdp
