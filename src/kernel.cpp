#include "gpdp/kernel.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/vector_exp.hpp"

namespace gpdp {

namespace {
double checked_lengthscale(double ell) {
  require(std::isfinite(ell) && ell > 0.0,
          fmt::format("kernel lengthscale ℓ must be positive and finite, got {}", ell));
  return ell;
}
}  // namespace

Kernel::Kernel(KernelFamily family, double ell) : family_(family), ell_(ell) {}

Kernel Kernel::exponential(double ell) {
  return Kernel(KernelFamily::Exponential, checked_lengthscale(ell));
}
Kernel Kernel::squared_exponential(double ell) {
  return Kernel(KernelFamily::SquaredExponential, checked_lengthscale(ell));
}
Kernel Kernel::matern32(double ell) {
  return Kernel(KernelFamily::Matern32, checked_lengthscale(ell));
}
Kernel Kernel::matern52(double ell) {
  return Kernel(KernelFamily::Matern52, checked_lengthscale(ell));
}
Kernel Kernel::constant() { return Kernel(KernelFamily::Constant, 1.0); }
Kernel Kernel::diagonal() { return Kernel(KernelFamily::Diagonal, 1.0); }

Kernel Kernel::from_name(const std::string& name, double ell) {
  if (name == "exp" || name == "exp1d" || name == "exponential") return exponential(ell);
  if (name == "se" || name == "rbf" || name == "squared-exponential")
    return squared_exponential(ell);
  if (name == "matern32") return matern32(ell);
  if (name == "matern52") return matern52(ell);
  if (name == "constant") return constant();
  if (name == "diagonal") return diagonal();
  throw InputError(fmt::format(
      "unknown kernel '{}': expected exp, exp1d, se, matern32, matern52, constant or diagonal",
      name));
}

std::string Kernel::name() const {
  switch (family_) {
    case KernelFamily::Exponential:
      return "exp";
    case KernelFamily::SquaredExponential:
      return "se";
    case KernelFamily::Matern32:
      return "matern32";
    case KernelFamily::Matern52:
      return "matern52";
    case KernelFamily::Constant:
      return "constant";
    case KernelFamily::Diagonal:
      return "diagonal";
  }
  return "unknown";
}

double Kernel::of_distance(double d) const {
  const double s = d / ell_;
  switch (family_) {
    case KernelFamily::Exponential:
      return std::exp(-s);
    case KernelFamily::SquaredExponential:
      return std::exp(-0.5 * s * s);
    case KernelFamily::Matern32: {
      const double a = std::sqrt(3.0) * s;
      return (1.0 + a) * std::exp(-a);
    }
    case KernelFamily::Matern52: {
      const double a = std::sqrt(5.0) * s;
      return (1.0 + a + a * a / 3.0) * std::exp(-a);
    }
    case KernelFamily::Constant:
      return 1.0;
    case KernelFamily::Diagonal:
      return d == 0.0 ? 1.0 : 0.0;
  }
  return 0.0;
}

double Kernel::operator()(const Eigen::Ref<const Eigen::RowVectorXd>& a,
                          const Eigen::Ref<const Eigen::RowVectorXd>& b) const {
  return of_distance((a - b).norm());
}

void Kernel::of_distances(const Eigen::MatrixXd& distances, Eigen::MatrixXd& out) const {
  out.resize(distances.rows(), distances.cols());
  of_distances(distances.data(), out.data(), static_cast<std::size_t>(distances.size()));
}

void Kernel::of_distances(const double* distances, double* out, std::size_t count) const {
  if (family_ == KernelFamily::Exponential) {
    exp_scaled(distances, out, count, -1.0 / ell_);
  } else {
    for (std::size_t i = 0; i < count; ++i) out[i] = of_distance(distances[i]);
  }
}

Eigen::MatrixXd Kernel::cross(const Points& a, const Points& b) const {
  require(
      a.cols() == b.cols(),
      fmt::format("kernel: points of dimension {} and {} cannot be paired", a.cols(), b.cols()));
  Eigen::MatrixXd k(a.rows(), b.rows());
  for (Eigen::Index j = 0; j < b.rows(); ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) k(i, j) = of_distance((a.row(i) - b.row(j)).norm());
  }
  return k;
}

Eigen::MatrixXd Kernel::gram(const Points& a) const {
  const Eigen::Index n = a.rows();
  Eigen::MatrixXd k(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    k(j, j) = 1.0;
    for (Eigen::Index i = j + 1; i < n; ++i) {
      k(i, j) = k(j, i) = of_distance((a.row(i) - a.row(j)).norm());
    }
  }
  return k;
}

double Kernel::kappa(const Box& domain) const {
  if (family_ == KernelFamily::Diagonal) return 0.0;
  return of_distance(domain.diameter());
}

}  // namespace gpdp
