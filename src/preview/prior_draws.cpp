#include "gpdp/preview/prior_draws.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/samplers/circulant.hpp"
#include "gpdp/samplers/dense.hpp"

namespace gpdp::preview {

Eigen::VectorXd EvaluationPoints::on_grid(const Eigen::VectorXd& values) const {
  if (!masked()) return values;
  Eigen::VectorXd full = Eigen::VectorXd::Constant(grid->size(), std::nan(""));
  for (std::size_t i = 0; i < cells.size(); ++i)
    full(cells[i]) = values(static_cast<Eigen::Index>(i));
  return full;
}

Eigen::VectorXd EvaluationPoints::from_grid(const Eigen::VectorXd& full) const {
  if (!masked()) return full;
  Eigen::VectorXd v(static_cast<Eigen::Index>(cells.size()));
  for (std::size_t i = 0; i < cells.size(); ++i) v(static_cast<Eigen::Index>(i)) = full(cells[i]);
  return v;
}

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

PriorSampler::PriorSampler(const Kernel& kernel, const EvaluationPoints& evaluation)
    : impl_(std::make_unique<Impl>()) {
  require(evaluation.points.rows() >= 1, "preview: no evaluation points");
  if (evaluation.grid && evaluation.grid->dim() <= 2) {
    if (const auto lattice = grid_lattice(*evaluation.grid)) {
      impl_->embedding = CirculantEmbedding::find(kernel, *lattice);
      if (impl_->embedding) {
        impl_->cells = evaluation.cells;
        method_ = fmt::format("circulant embedding ({})", impl_->embedding->attempt().describe());
        return;
      }
    }
  }
  impl_->factor = factor_psd(kernel.gram(evaluation.points));
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

}  // namespace gpdp::preview
