#include "cusolver.hpp"

#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <memory>
#include <vector>

namespace gpdp::cuda {

namespace {

std::string cuda_failure(const char* call, cudaError_t e) {
  return std::string(call) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

std::string solver_failure(const char* call, cusolverStatus_t s) {
  return std::string(call) + ": cuSOLVER status " + std::to_string(static_cast<int>(s));
}

// Device memory, freed on scope exit.
struct DeviceFree {
  void operator()(void* p) const { cudaFree(p); }
};
using DeviceBuffer = std::unique_ptr<void, DeviceFree>;

// One cuSOLVER dense handle and its 64-bit API parameters, destroyed on scope exit.
class Solver {
 public:
  Solver() {
    if (const auto s = cusolverDnCreate(&handle_); s != CUSOLVER_STATUS_SUCCESS) {
      error_ = solver_failure("cusolverDnCreate", s);
      handle_ = nullptr;
    } else if (const auto t = cusolverDnCreateParams(&params_); t != CUSOLVER_STATUS_SUCCESS) {
      error_ = solver_failure("cusolverDnCreateParams", t);
      params_ = nullptr;
    }
  }
  ~Solver() {
    if (params_) cusolverDnDestroyParams(params_);
    if (handle_) cusolverDnDestroy(handle_);
  }
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;
  const std::string& error() const { return error_; }
  cusolverDnHandle_t handle() const { return handle_; }
  cusolverDnParams_t params() const { return params_; }

 private:
  cusolverDnHandle_t handle_ = nullptr;
  cusolverDnParams_t params_ = nullptr;
  std::string error_;
};

Status copy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind) {
  if (const auto e = cudaMemcpy(to, from, bytes, kind); e != cudaSuccess)
    return {Status::Failed, 0, 0, 0, cuda_failure("cudaMemcpy", e)};
  return {};
}

// Device buffers of these sizes (bytes), after checking that they fit in the device's free memory.
Status allocate(std::vector<DeviceBuffer>& buffers, const std::vector<std::size_t>& bytes) {
  std::size_t free = 0, total = 0, needed = 0;
  if (const auto e = cudaMemGetInfo(&free, &total); e != cudaSuccess)
    return {Status::Failed, 0, 0, 0, cuda_failure("cudaMemGetInfo", e)};
  for (const std::size_t b : bytes) needed += b;
  if (needed > free) return {Status::OutOfDeviceMemory, 0, needed, free, ""};
  for (const std::size_t b : bytes) {
    void* p = nullptr;
    if (const auto e = cudaMalloc(&p, b == 0 ? 1 : b); e != cudaSuccess)
      return {Status::Failed, 0, 0, 0, cuda_failure("cudaMalloc", e)};
    buffers.emplace_back(p);
  }
  return {};
}

// Copies the n x n `a` to the device, runs `solve(A, W, work, info)` there (W: n doubles, when `w`
// is given), and copies A (and W) back unless the solver reports info != 0.
template <class Solve>
Status on_device(double* a, double* w, std::int64_t n, std::size_t work_bytes, const char* call,
                 Solve solve) {
  const auto matrix = static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * sizeof(double);
  const std::size_t vector = w ? static_cast<std::size_t>(n) * sizeof(double) : 0;
  std::vector<DeviceBuffer> d;  // A, W, work, info
  if (Status st = allocate(d, {matrix, vector, work_bytes, sizeof(int)}); st.kind != Status::Ok)
    return st;
  if (Status st = copy(d[0].get(), a, matrix, cudaMemcpyHostToDevice); st.kind != Status::Ok)
    return st;
  if (const auto s = solve(d[0].get(), d[1].get(), d[2].get(), static_cast<int*>(d[3].get()));
      s != CUSOLVER_STATUS_SUCCESS) {
    return {Status::Failed, 0, 0, 0, solver_failure(call, s)};
  }
  int info = 0;
  if (Status st = copy(&info, d[3].get(), sizeof(int), cudaMemcpyDeviceToHost);
      st.kind != Status::Ok)
    return st;
  if (info != 0) return {Status::Ok, info, 0, 0, ""};
  if (Status st = copy(a, d[0].get(), matrix, cudaMemcpyDeviceToHost); st.kind != Status::Ok)
    return st;
  if (w) return copy(w, d[1].get(), vector, cudaMemcpyDeviceToHost);
  return {};
}

}  // namespace

std::string device_unavailable_reason() {
  int count = 0;
  if (const auto e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    return "no usable CUDA device (" + cuda_failure("cudaGetDeviceCount", e) + ")";
  }
  if (count == 0) return "no CUDA device is present";
  return "";
}

Status potrf_lower(double* a, std::int64_t n) {
  Solver solver;
  if (!solver.error().empty()) return {Status::Failed, 0, 0, 0, solver.error()};
  std::size_t device_bytes = 0, host_bytes = 0;
  if (const auto s = cusolverDnXpotrf_bufferSize(solver.handle(), solver.params(),
                                                 CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, nullptr, n,
                                                 CUDA_R_64F, &device_bytes, &host_bytes);
      s != CUSOLVER_STATUS_SUCCESS) {
    return {Status::Failed, 0, 0, 0, solver_failure("cusolverDnXpotrf_bufferSize", s)};
  }
  std::vector<char> host(host_bytes);
  return on_device(
      a, nullptr, n, device_bytes, "cusolverDnXpotrf", [&](void* A, void*, void* work, int* info) {
        return cusolverDnXpotrf(solver.handle(), solver.params(), CUBLAS_FILL_MODE_LOWER, n,
                                CUDA_R_64F, A, n, CUDA_R_64F, work, device_bytes, host.data(),
                                host_bytes, info);
      });
}

Status syevd_lower(double* a, double* w, std::int64_t n) {
  Solver solver;
  if (!solver.error().empty()) return {Status::Failed, 0, 0, 0, solver.error()};
  std::size_t device_bytes = 0, host_bytes = 0;
  if (const auto s = cusolverDnXsyevd_bufferSize(
          solver.handle(), solver.params(), CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
          CUDA_R_64F, nullptr, n, CUDA_R_64F, nullptr, CUDA_R_64F, &device_bytes, &host_bytes);
      s != CUSOLVER_STATUS_SUCCESS) {
    return {Status::Failed, 0, 0, 0, solver_failure("cusolverDnXsyevd_bufferSize", s)};
  }
  std::vector<char> host(host_bytes);
  return on_device(
      a, w, n, device_bytes, "cusolverDnXsyevd", [&](void* A, void* W, void* work, int* info) {
        return cusolverDnXsyevd(solver.handle(), solver.params(), CUSOLVER_EIG_MODE_VECTOR,
                                CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, A, n, CUDA_R_64F, W,
                                CUDA_R_64F, work, device_bytes, host.data(), host_bytes, info);
      });
}

}  // namespace gpdp::cuda
