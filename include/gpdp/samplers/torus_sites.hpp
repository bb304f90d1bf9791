#pragma once
// The prior f ~ GP(0, k) at OFF-lattice points, drawn exactly and jointly with a circulant
// embedding's draw on the lattice (docs/grid-sampling.md, "Off-lattice covariates"). The pathwise
// sampler uses it for training covariates that are not lattice nodes.
//
// The embedding draws z = C^½ ζ on its torus T (M nodes, ζ ~ N(0, I_M)); the lattice block of z is
// N(0, K). Let c̃ be the embedding's periodic covariance (CirculantEmbedding::periodic_covariance)
// and U = [c̃(t − x_i)] (M x n) for the points x_1..x_n. When
//   (1) C ≻ 0: every FFT eigenvalue exceeds its rounding tolerance (positive_definite());
//   (2) c̃(g − x_i) = k(g − x_i) for every lattice node g: every x_i lies in the lattice's bounding
//       box, whose lags the embedding reproduces exactly (minimal/padded: |lag_a| ≤ T_a/2;
//       cut-off: the torus side ≥ span + c) — checked here;
//   (3) S = K_XX − Uᵀ C⁻¹ U is positive semidefinite — checked (pivoted Cholesky, stated
//       tolerance; otherwise unavailable_reason() says so);
// then [[C, U], [Uᵀ, K_XX]] is a covariance matrix (C ≻ 0 and its Schur complement S ⪰ 0), and
//   z_X = Wᵀ ζ + F_S ζ',   W = C^{-½} U,   F_S F_Sᵀ = S,   ζ' ~ N(0, I) independent of ζ,
// has Cov(z, z_X) = C^½ W = U and Cov(z_X) = WᵀW + S = K_XX. Restricted to the lattice and X,
// (z, z_X) is therefore EXACTLY the prior N(0, k) on lattice ∪ X. There is no iterative solve:
// W is one FFT pair per point, and C^½ W = U is checked after the fact (largest residual
// reported).
//
// Cost: O(n M log M) for W (n FFT pairs, n M kernel values, in parallel), O(n² M) for WᵀW
// (BLAS dsyrk), O(n³) for F_S; per draw O(n M). Memory: W, 8 n M bytes, refused before
// allocating when it does not fit (gpdp/memory.hpp).
#include <Eigen/Core>
#include <string>

#include "gpdp/kernel.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/circulant.hpp"
#include "gpdp/samplers/dense.hpp"

namespace gpdp {

class TorusSites {
 public:
  // `sites`: n x d points in the embedding's lattice coordinates (node 0 at the origin, node j at
  // j_a · step_a). Needs embedding.positive_definite() and every site inside the lattice's box;
  // `threads` computes W on that many threads (0 = all hardware threads).
  TorusSites(const CirculantEmbedding& embedding, const Points& sites, const Kernel& kernel,
             int threads = 0);

  // Bytes W and the n x n blocks need, and the set-up's floating-point operations (estimates
  // for the dispatcher's choice and the memory check).
  static double bytes_needed(long torus_points, Eigen::Index sites);
  static double setup_flops(long torus_points, Eigen::Index sites);

  // "" when condition (3) holds; otherwise why the joint law cannot be formed.
  const std::string& unavailable_reason() const { return reason_; }
  Eigen::Index size() const { return w_.cols(); }

  // z_X = Wᵀ ζ + F_S ζ' for the torus white noise ζ (M values) of the torus draw z = C^½ ζ;
  // consumes rank(S) standard normals from rng.
  Eigen::VectorXd draw(const double* white, Rng& rng) const;
  // torus += W v (so that C^½ (torus) gains U v, i.e. k(g, X) v on the lattice nodes g).
  void add_cross(const Eigen::VectorXd& v, double* torus) const;
  // One line for Draws::detail: the Schur complement's factorisation and the residual of C^½ W = U.
  std::string describe() const;

 private:
  Eigen::MatrixXd w_;  // M x n: column i is C^{-½} U_i
  PsdFactor schur_;
  double residual_ = 0.0;  // max |C^½ W − U| over the torus (a posteriori check of the FFTs)
  std::string reason_;
};

}  // namespace gpdp
