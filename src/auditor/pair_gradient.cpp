#include "gpdp/auditor/pair_gradient.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>

namespace gpdp::auditor {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMaxCondition = 1e10;

// A Cholesky factor that resolves its matrix: it exists and (max/min diagonal of L)², a lower
// estimate of the condition number, stays below kMaxCondition.
bool resolved(const Eigen::LLT<Eigen::MatrixXd>& llt) {
  if (llt.info() != Eigen::Success) return false;
  const Eigen::VectorXd d = llt.matrixLLT().diagonal();
  if (d.size() == 0) return true;
  const double lo = d.minCoeff(), hi = d.maxCoeff();
  return lo > 0 && (hi / lo) * (hi / lo) <= kMaxCondition;
}

double log_det(const Eigen::LLT<Eigen::MatrixXd>& llt) {
  return 2.0 * llt.matrixLLT().diagonal().array().log().sum();
}

// d/dρ of Kernel::of_distance at ρ > 0, given its value k(ρ) (the exponential kernel's
// k' = −k/ℓ needs no second exponential). The constant and diagonal kernels do not vary
// continuously with ρ: 0.
double radial_derivative(const Kernel& k, double rho, double value) {
  const double ell = k.lengthscale(), s = rho / ell;
  switch (k.family()) {
    case KernelFamily::Exponential:
      return -value / ell;
    case KernelFamily::SquaredExponential:
      return -s * value / ell;
    case KernelFamily::Matern32: {
      const double a = std::sqrt(3.0) * s;  // d/da (1 + a) e^{-a} = −a e^{-a}
      return -a * std::exp(-a) * std::sqrt(3.0) / ell;
    }
    case KernelFamily::Matern52: {
      const double a = std::sqrt(5.0) * s;  // d/da (1 + a + a²/3) e^{-a} = −a (1 + a) e^{-a} / 3
      return -a * (1.0 + a) * std::exp(-a) / 3.0 * std::sqrt(5.0) / ell;
    }
    case KernelFamily::Constant:
    case KernelFamily::Diagonal:
      return 0.0;
  }
  return 0.0;
}

// Adds Σ_ij G(i,j) ∂k(a_i, b_j)/∂a_i to ga.row(i) and its negative to gb.row(j) (∂/∂b_j of an
// isotropic kernel is −∂/∂a_i); K = k(a, b) as computed in the forward pass.
void add_kernel_gradient(const Kernel& k, const Points& a, const Points& b,
                         const Eigen::MatrixXd& K, const Eigen::MatrixXd& G, Points& ga,
                         Points& gb) {
  for (Eigen::Index j = 0; j < b.rows(); ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      if (G(i, j) == 0.0) continue;
      const auto diff = a.row(i) - b.row(j);  // an expression: no allocation per pair
      const double rho = diff.norm();
      if (rho == 0.0) continue;
      const double c = G(i, j) * radial_derivative(k, rho, K(i, j)) / rho;
      ga.row(i) += c * diff;
      gb.row(j) -= c * (a.row(i) - b.row(j));
    }
  }
}

// The same for K = k(a, a) and a symmetric G: each unordered pair once, with weight 2 G(i,j).
void add_gram_gradient(const Kernel& k, const Points& a, const Eigen::MatrixXd& K,
                       const Eigen::MatrixXd& G, Points& ga) {
  for (Eigen::Index j = 0; j < a.rows(); ++j) {
    for (Eigen::Index i = j + 1; i < a.rows(); ++i) {
      const double rho = (a.row(i) - a.row(j)).norm();
      if (rho == 0.0 || G(i, j) == 0.0) continue;
      const double c = 2.0 * G(i, j) * radial_derivative(k, rho, K(i, j)) / rho;
      for (Eigen::Index t = 0; t < a.cols(); ++t) {
        const double step = c * (a(i, t) - a(j, t));
        ga(i, t) += step;
        ga(j, t) -= step;
      }
    }
  }
}

// The posterior of one dataset on a test set T, with reverse-mode derivatives:
//   mean = K_TX a,  a = A⁻¹ y,  A = K_XX + r² I;   cov = σ² (K_TT − K_TX B) + η² K_TT,  B = A⁻¹
//   K_XT.
// An empty X gives the prior (mean 0, cov (σ² + η²) K_TT).
class PosteriorOnTest {
 public:
  PosteriorOnTest(const Kernel& k, double r, double sigma, double eta, const Points& X,
                  const Eigen::VectorXd& y, const Points& T)
      : k_(k), s2_(sigma * sigma), e2_(eta * eta), X_(X), T_(T) {
    KTT_ = k.gram(T);
    cov = (s2_ + e2_) * KTT_;
    mean = Eigen::VectorXd::Zero(T.rows());
    if (X.rows() == 0) return;
    KXX_ = k.gram(X);
    Eigen::MatrixXd A = KXX_;
    A.diagonal().array() += r * r;
    const Eigen::LLT<Eigen::MatrixXd> llt(A);
    ok = llt.info() == Eigen::Success;
    if (!ok) return;
    KXT_ = k.cross(X, T);
    a_ = llt.solve(y);
    B_ = llt.solve(KXT_);
    mean = KXT_.transpose() * a_;
    const Eigen::MatrixXd reduction = KXT_.transpose() * B_;
    cov -= s2_ * 0.5 * (reduction + reduction.transpose());
  }

  // Adds the derivatives of ⟨Gm, mean⟩ + ⟨GS, cov⟩ to gX, gy, gT.
  void backward(const Eigen::VectorXd& Gm, const Eigen::MatrixXd& GS, Points& gX,
                Eigen::VectorXd& gy, Points& gT) const {
    const Eigen::MatrixXd Gs = 0.5 * (GS + GS.transpose());
    add_gram_gradient(k_, T_, KTT_, (s2_ + e2_) * Gs, gT);
    if (X_.rows() == 0) return;
    const Eigen::VectorXd BGm = B_ * Gm;
    const Eigen::MatrixXd BGs = B_ * Gs;
    const Eigen::MatrixXd G_KXT = a_ * Gm.transpose() - 2.0 * s2_ * BGs;
    const Eigen::MatrixXd G_A = -BGm * a_.transpose() + s2_ * BGs * B_.transpose();
    gy += BGm;
    add_gram_gradient(k_, X_, KXX_, 0.5 * (G_A + G_A.transpose()), gX);
    add_kernel_gradient(k_, X_, T_, KXT_, G_KXT, gX, gT);
  }

  bool ok = true;
  Eigen::VectorXd mean;
  Eigen::MatrixXd cov;

 private:
  const Kernel& k_;
  double s2_, e2_;
  const Points& X_;
  const Points& T_;
  Eigen::MatrixXd KTT_, KXX_, KXT_;
  Eigen::VectorXd a_;
  Eigen::MatrixXd B_;
};

PairGradient zero_like(const NeighbourPair& p) {
  return {Points::Zero(p.X.rows(), p.X.cols()), Points::Zero(p.Xp.rows(), p.Xp.cols()),
          Eigen::VectorXd::Zero(p.y.size()), Eigen::VectorXd::Zero(p.yp.size()),
          Points::Zero(p.test.rows(), p.test.cols())};
}

}  // namespace

double renyi_divergence_with_gradient(const Kernel& kernel, double r, double sigma, double eta,
                                      const NeighbourPair& pair, double alpha, PairGradient* grad) {
  const PosteriorOnTest P(kernel, r, sigma, eta, pair.X, pair.y, pair.test);
  const PosteriorOnTest Q(kernel, r, sigma, eta, pair.Xp, pair.yp, pair.test);
  if (!P.ok || !Q.ok) return kNaN;
  const Eigen::LLT<Eigen::MatrixXd> L1(P.cov), L2(Q.cov);
  const Eigen::LLT<Eigen::MatrixXd> La(alpha * Q.cov + (1.0 - alpha) * P.cov);
  if (!resolved(L1) || !resolved(L2) || !resolved(La)) return kNaN;
  const Eigen::VectorXd delta = P.mean - Q.mean;
  const Eigen::VectorXd w = La.solve(delta);
  const double value =
      0.5 * alpha * delta.dot(w) -
      (log_det(La) - (1.0 - alpha) * log_det(L1) - alpha * log_det(L2)) / (2.0 * (alpha - 1.0));
  if (grad == nullptr) return value;
  // ∂D/∂μ_D = α w = −∂D/∂μ_D';  with Σ_α = αΣ_D' + (1−α)Σ_D:
  // ∂D/∂Σ_D  = α(α−1)/2 wwᵀ + (Σ_α⁻¹ − Σ_D⁻¹)/2,
  // ∂D/∂Σ_D' = −α²/2 wwᵀ − α/(2(α−1)) (Σ_α⁻¹ − Σ_D'⁻¹).
  const auto I = Eigen::MatrixXd::Identity(delta.size(), delta.size());
  const Eigen::MatrixXd Sa_inv = La.solve(I), S1_inv = L1.solve(I), S2_inv = L2.solve(I);
  const Eigen::MatrixXd ww = w * w.transpose();
  const Eigen::MatrixXd G1 = 0.5 * alpha * (alpha - 1.0) * ww + 0.5 * (Sa_inv - S1_inv);
  const Eigen::MatrixXd G2 =
      -0.5 * alpha * alpha * ww - alpha / (2.0 * (alpha - 1.0)) * (Sa_inv - S2_inv);
  *grad = zero_like(pair);
  P.backward(alpha * w, G1, grad->X, grad->y, grad->test);
  Q.backward(-alpha * w, G2, grad->Xp, grad->yp, grad->test);
  return value;
}

double squared_sensitivity_with_gradient(const Kernel& kernel, double r, const NeighbourPair& pair,
                                         PairGradient* grad) {
  const Eigen::Index n = pair.X.rows(), last = n - 1;
  const bool same = pair.X.row(last) == pair.Xp.row(last);
  Points S(same ? 1 : 2, pair.X.cols());
  S.row(0) = pair.X.row(last);
  if (!same) S.row(1) = pair.Xp.row(last);
  const Points core = pair.X.topRows(last);
  const Eigen::VectorXd core_y = pair.y.head(last);
  const PosteriorOnTest P(kernel, r, 1.0, 0.0, pair.X, pair.y, S);
  const PosteriorOnTest Q(kernel, r, 1.0, 0.0, pair.Xp, pair.yp, S);
  const PosteriorOnTest C(kernel, r, 1.0, 0.0, core, core_y, S);
  if (!P.ok || !Q.ok || !C.ok) return kNaN;
  const Eigen::LLT<Eigen::MatrixXd> Lc(C.cov);
  if (!resolved(Lc)) return kNaN;
  const Eigen::VectorXd delta = P.mean - Q.mean;
  const Eigen::VectorXd z = Lc.solve(delta);
  const double value = delta.dot(z);
  if (grad == nullptr) return value;
  *grad = zero_like(pair);
  Points gS = Points::Zero(S.rows(), S.cols()), g_core = Points::Zero(core.rows(), core.cols());
  Eigen::VectorXd g_core_y = Eigen::VectorXd::Zero(last);
  const Eigen::MatrixXd none = Eigen::MatrixXd::Zero(S.rows(), S.rows());
  P.backward(2.0 * z, none, grad->X, grad->y, gS);
  Q.backward(-2.0 * z, none, grad->Xp, grad->yp, gS);
  C.backward(Eigen::VectorXd::Zero(S.rows()), -z * z.transpose(), g_core, g_core_y, gS);
  grad->X.topRows(last) += g_core;
  grad->y.head(last) += g_core_y;
  grad->X.row(last) += gS.row(0);
  if (!same) grad->Xp.row(last) += gS.row(1);
  return value;
}

}  // namespace gpdp::auditor
