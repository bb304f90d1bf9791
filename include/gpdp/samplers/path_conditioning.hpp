#pragma once
// The law of a released path at new points given everything it has answered, kept incrementally
// (docs/sampling.md, "Lazy sample paths"; the engine of SamplePath's dense conditional draws).
//
// With B the answered points that carry a pivot ("basis"), it keeps the Cholesky factor L of
// Cov f(B) = σ² k_D(B, B) + η² k(B, B), the whitened answers α = L⁻¹ (f(B) − μ_D(B)), and
// Q_B = L_n⁻¹ k(X, B) (L_n the posterior's factor of K + r² I). A batch F of m new points:
//   b = Cov(f(B), f(F)) = (σ² + η²) k(B, F) − σ² Q_Bᵀ Q_F,       ℓ = L⁻¹ b,
//   D = Cov f(F) − ℓᵀ ℓ = F_D F_Dᵀ   (factor_psd: pivoted when D is singular),
//   f(F) = μ_D(F) + ℓᵀ α + F_D ζ,  ζ ~ N(0, I_rank(D)),
// which is the Gaussian conditional law f(F) | f(B) written through the factor (its mean
// bᵀ Cov f(B)⁻¹ (f(B) − μ) = ℓᵀ α, its covariance Cov f(F) − bᵀ Cov f(B)⁻¹ b = D). The factor then
// grows by one block of rows, [ℓᵀ F_D] for F's pivots (lower triangular in pivot order), and α by
// ζ: answering F₁ then F₂ has exactly the joint law of answering F₁ ∪ F₂ at once, as before, but
// without refactorising what was already answered. A point whose Schur pivot falls below the
// tolerance (its value already determined by earlier answers, up to rounding) gets no row.
//
// Cost of a batch after k answered points (n data): O(n² m + n k m) for the posterior
// cross-covariances, O(k² m) for ℓ (one pass over the factor), O(k m² + m³) for D. Memory:
// the factor's lower triangle, 4 k² bytes, plus 8 n k for Q_B (about 400 MB at k = 10⁴);
// every batch is refused with a ResourceError before it allocates when its rows do not fit.
// rebuild() starts from a saved state in O(n² k + n k² + k³) (one pivoted factorisation).
#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"

namespace gpdp {

class PathConditioning {
 public:
  // Conditioning on `points` answered with `values` (a saved state; none: an empty path).
  void rebuild(const Posterior& posterior, double eta, const Points& points,
               const Eigen::VectorXd& values);
  // Draws the path at `fresh` (distinct points none of which is answered) conditionally on every
  // answer, extends the factor with them and returns their values.
  Eigen::VectorXd extend(const Posterior& posterior, double eta, const Points& fresh, Rng& rng);
  // Forgets the batches answered after the first `answered` points (a batch that could not be
  // saved). False, and nothing changed, when `answered` is not where a batch (or the rebuild)
  // ended.
  bool truncate(Eigen::Index answered);

  Eigen::Index answered() const { return answered_; }  // points accounted for (with or w/o row)
  Eigen::Index rank() const { return static_cast<Eigen::Index>(alpha_.size()); }
  double bytes() const;
  // Bytes held at k basis points with n data (the factor's triangle and Q_B).
  static double bytes_for(double k, double n);
  // How the last batch was drawn (for Draws::detail / SamplePath::last_method).
  const std::string& detail() const { return detail_; }

 private:
  // One batch's rows of L: rows x (basis_before + rows), lower triangular in its last columns.
  struct Block {
    Eigen::MatrixXd rows;
    Eigen::Index basis_before = 0;
    Eigen::Index answered_after = 0;
  };
  Eigen::MatrixXd forward_substitute(Eigen::MatrixXd b) const;  // L⁻¹ b
  Eigen::MatrixXd basis_points(int dim) const;
  void append(const Points& points, const Eigen::MatrixXd& ell, const Eigen::MatrixXd& q,
              const Eigen::MatrixXd& factor, const std::vector<Eigen::Index>& order,
              Eigen::Index rank, const Eigen::VectorXd& zeta);

  std::vector<Block> blocks_;
  std::vector<double> basis_;  // basis points, row after row (d coordinates each)
  std::vector<double> q_;      // Q_B, n values per basis point (column-major n x K)
  std::vector<double> alpha_;  // α, one per basis point
  Eigen::Index answered_ = 0;
  int dim_ = 0;         // the posterior's covariates
  Eigen::Index n_ = 0;  // and data points
  std::string detail_;
};

}  // namespace gpdp
