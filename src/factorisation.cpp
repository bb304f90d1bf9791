#include "gpdp/factorisation.hpp"

#include <fmt/format.h>
#include <lapacke.h>

#include <Eigen/Cholesky>
#include <atomic>

#include "gpdp/error.hpp"
#include "gpdp/memory.hpp"
#ifdef GPDP_HAVE_CUDA
#include "cuda/cusolver.hpp"
#endif

namespace gpdp {

namespace {
std::atomic<FactorDevice> selected{FactorDevice::Cpu};

#ifdef GPDP_HAVE_CUDA
// info, or the device's failure as a gpdp exception.
int checked(const cuda::Status& s, const char* what, Eigen::Index n) {
  if (s.kind == cuda::Status::OutOfDeviceMemory) {
    throw ResourceError(fmt::format(
        "{} on the GPU at n = {} needs {} of device memory (the matrix and cuSOLVER's workspace), "
        "only {} is free; instead: factorise on the CPU (factor device cpu), or {}",
        what, n, format_bytes(static_cast<double>(s.needed)),
        format_bytes(static_cast<double>(s.available)), kDenseAlternatives));
  }
  if (s.kind == cuda::Status::Failed) throw NumericalError(fmt::format("{}: {}", what, s.error));
  return s.info;
}
#endif
}  // namespace

FactorDevice parse_factor_device(const std::string& name) {
  if (name == "cpu") return FactorDevice::Cpu;
  if (name == "gpu") return FactorDevice::Gpu;
  throw InputError(fmt::format("factorisation device must be cpu or gpu, got '{}'", name));
}

const char* to_string(FactorDevice device) { return device == FactorDevice::Gpu ? "gpu" : "cpu"; }

std::string gpu_unavailable_reason() {
#ifdef GPDP_HAVE_CUDA
  return cuda::device_unavailable_reason();
#else
  return "this gpdp was built without CUDA (configure with -DGPDP_CUDA=ON where the CUDA toolkit "
         "is installed)";
#endif
}

void set_factor_device(FactorDevice device) {
  if (device == FactorDevice::Gpu) {
    if (const std::string why = gpu_unavailable_reason(); !why.empty())
      throw ResourceError("GPU factorisation is not available: " + why);
  }
  selected.store(device);
}

FactorDevice factor_device() { return selected.load(); }

int cholesky_lower(Eigen::MatrixXd& a) {
  require(a.rows() == a.cols(), "Cholesky factorisation: the matrix is not square");
  if (a.rows() == 0) return 0;
#ifdef GPDP_HAVE_CUDA
  if (factor_device() == FactorDevice::Gpu)
    return checked(cuda::potrf_lower(a.data(), a.rows()), "cuSOLVER potrf", a.rows());
#endif
  const auto n = static_cast<lapack_int>(a.rows());
  // The _work variant: the plain LAPACKE wrapper scans the whole input for NaN first.
  return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a.data(), n);
}

int symmetric_eigen(Eigen::MatrixXd& a, Eigen::VectorXd& lambda) {
  require(a.rows() == a.cols(), "eigendecomposition: the matrix is not square");
  lambda.resize(a.rows());
  if (a.rows() == 0) return 0;
#ifdef GPDP_HAVE_CUDA
  if (factor_device() == FactorDevice::Gpu)
    return checked(cuda::syevd_lower(a.data(), lambda.data(), a.rows()), "cuSOLVER syevd",
                   a.rows());
#endif
  const auto n = static_cast<lapack_int>(a.rows());
  // Workspace sizes of dsyevd with eigenvectors (LAPACK documentation): 1 + 6n + 2n², 3 + 5n.
  const Eigen::Index nn = a.rows();
  Eigen::VectorXd work(1 + 6 * nn + 2 * nn * nn);
  Eigen::Matrix<lapack_int, Eigen::Dynamic, 1> iwork(3 + 5 * nn);
  return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, a.data(), n, lambda.data(), work.data(),
                             static_cast<lapack_int>(work.size()), iwork.data(),
                             static_cast<lapack_int>(iwork.size()));
}

std::optional<CholeskyFactor> CholeskyFactor::compute(Eigen::MatrixXd a) {
  if (factor_device() == FactorDevice::Gpu) {
    if (cholesky_lower(a) != 0) return std::nullopt;
    return CholeskyFactor(std::move(a));
  }
  const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(a);  // in place: a's lower triangle is L
  if (llt.info() != Eigen::Success) return std::nullopt;
  return CholeskyFactor(std::move(a));
}

}  // namespace gpdp
