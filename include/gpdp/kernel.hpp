#pragma once
// Covariance functions k, normalised so that k(x, x) = 1 (the prior is GP(0, σ² k)).
// Points are rows of an Eigen matrix (m points in d dimensions: m x d).
#include <Eigen/Core>
#include <cstddef>
#include <string>

#include "gpdp/domain.hpp"

namespace gpdp {

using Points = Eigen::MatrixXd;  // one point per row

enum class KernelFamily {
  Exponential,         // exp(-‖x-x'‖/ℓ); in 1-D the Ornstein-Uhlenbeck covariance
  SquaredExponential,  // exp(-‖x-x'‖²/(2ℓ²))
  Matern32,            // (1 + √3 ρ/ℓ) exp(-√3 ρ/ℓ)
  Matern52,            // (1 + √5 ρ/ℓ + 5ρ²/(3ℓ²)) exp(-√5 ρ/ℓ)
  Constant,            // k ≡ 1 (Lemma B.4)
  Diagonal,            // k(x,x') = 1{x = x'} (Lemma B.5)
};

class Kernel {
 public:
  static Kernel exponential(double ell);
  static Kernel squared_exponential(double ell);
  static Kernel matern32(double ell);
  static Kernel matern52(double ell);
  static Kernel constant();
  static Kernel diagonal();
  // By CLI name: exp|exp1d|se|matern32|matern52|constant|diagonal (ℓ ignored for the last two).
  static Kernel from_name(const std::string& name, double ell);

  KernelFamily family() const { return family_; }
  double lengthscale() const { return ell_; }
  std::string name() const;
  // All families here are isotropic: k(x,x') = of_distance(‖x - x'‖).
  double of_distance(double distance) const;
  double operator()(const Eigen::Ref<const Eigen::RowVectorXd>& a,
                    const Eigen::Ref<const Eigen::RowVectorXd>& b) const;
  // k at every entry of a matrix of distances, into `out` (resized): the kernel matrices of the
  // multi-ridge engines (posteriors/distances.hpp). The exponential family runs through exp_scaled
  // (vector_exp.hpp: libmvec's AVX2 exp when the CPU has it, within 4 ulp of std::exp), the other
  // families through of_distance.
  void of_distances(const Eigen::MatrixXd& distances, Eigen::MatrixXd& out) const;
  // The same on `count` distances in place of a matrix (out may alias distances).
  void of_distances(const double* distances, double* out, std::size_t count) const;
  // K(A, B), |A| x |B|.
  Eigen::MatrixXd cross(const Points& a, const Points& b) const;
  // K(A, A), symmetric, computed once per pair.
  Eigen::MatrixXd gram(const Points& a) const;
  // κ = inf_{x,x' ∈ Ω} k(x, x') (docs/mathematics.md §2). Every family here decreases with
  // distance, so the infimum sits at the box diameter; the diagonal kernel has κ = 0, the constant
  // kernel κ = 1.
  double kappa(const Box& domain) const;

 private:
  Kernel(KernelFamily family, double ell);
  KernelFamily family_;
  double ell_;
};

}  // namespace gpdp
