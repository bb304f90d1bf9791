#pragma once
// Dense symmetric factorisations on a chosen device: the Cholesky factor of a positive definite
// matrix (LAPACK dpotrf / cuSOLVER potrf) and the eigendecomposition of a symmetric one (LAPACK
// dsyevd / cuSOLVER syevd). The dense engines factorise through here — Posterior's K + r² I,
// factor_psd's m x m covariance (dense sampler, prior sampler, lazy paths), RidgeCholesky and
// SpectralPosterior (search, preview, utility studies) — so one process-wide choice (the CLI's
// --factor, Python's gpdp.set_factor_device) moves them all to a GPU. Only these deterministic
// factorisations move: every random draw stays on the CPU's generator.
//
// The GPU code is built only with -DGPDP_CUDA=ON (target gpdp_cuda, src/cuda/); without it, or
// without a CUDA device, selecting the GPU is refused with the reason.
#include <Eigen/Core>
#include <optional>
#include <string>

namespace gpdp {

enum class FactorDevice { Cpu, Gpu };

// "cpu" or "gpu" (InputError otherwise).
FactorDevice parse_factor_device(const std::string& name);
const char* to_string(FactorDevice device);

// Why factorisations cannot run on a GPU in this process (a build without CUDA, no device, a
// driver error), or "" when they can.
std::string gpu_unavailable_reason();

// The device of every later factorisation in this process (default Cpu). Gpu throws ResourceError
// with gpu_unavailable_reason() when that is not empty.
void set_factor_device(FactorDevice device);
FactorDevice factor_device();

// In place on factor_device(): the lower triangle of `a` becomes L with a = L Lᵀ (the strict upper
// triangle is not referenced). Returns LAPACK's info: 0, or k > 0 when the leading k x k minor is
// not positive definite (`a` is then unusable).
int cholesky_lower(Eigen::MatrixXd& a);

// In place on factor_device(): `a` (its lower triangle read) becomes the orthonormal eigenvectors,
// column j for lambda[j], eigenvalues ascending. Returns LAPACK's info (0 on success).
int symmetric_eigen(Eigen::MatrixXd& a, Eigen::VectorXd& lambda);

// A lower Cholesky factor L of a positive definite A = L Lᵀ (only the lower triangle of the
// stored matrix is referenced), and solves with it — the same triangular solves as Eigen::LLT.
class CholeskyFactor {
 public:
  CholeskyFactor() = default;
  explicit CholeskyFactor(Eigen::MatrixXd l) : l_(std::move(l)) {}
  // Factorises `a` (lower triangle read) in place on factor_device(): on the CPU Eigen's blocked
  // LLT (Posterior's algorithm from the start: seeded outputs are unchanged), on the GPU cuSOLVER
  // potrf. nullopt when `a` is not numerically positive definite.
  static std::optional<CholeskyFactor> compute(Eigen::MatrixXd a);

  Eigen::Index rows() const { return l_.rows(); }
  auto matrixL() const { return l_.triangularView<Eigen::Lower>(); }
  auto matrixU() const { return l_.adjoint().triangularView<Eigen::Upper>(); }
  // A⁻¹ b.
  template <class Rhs>
  typename Rhs::PlainObject solve(const Eigen::MatrixBase<Rhs>& b) const {
    typename Rhs::PlainObject x = b;
    matrixL().solveInPlace(x);
    matrixU().solveInPlace(x);
    return x;
  }

 private:
  Eigen::MatrixXd l_;
};

}  // namespace gpdp
