#pragma once
// The GPU side of gpdp/factorisation.hpp (target gpdp_cuda, built only with -DGPDP_CUDA=ON):
// cuSOLVER's 64-bit potrf and syevd on a matrix in host memory, copied to the device and back.
// Plain C++ against the CUDA runtime and cuSOLVER (no kernels of our own, no nvcc). It reports
// failures as data; gpdp_core (src/factorisation.cpp) turns them into gpdp exceptions.
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpdp::cuda {

struct Status {
  enum Kind { Ok, OutOfDeviceMemory, Failed } kind = Ok;
  int info = 0;                 // LAPACK's convention, when kind == Ok
  std::uint64_t needed = 0;     // bytes of device memory asked for (OutOfDeviceMemory)
  std::uint64_t available = 0;  // bytes free on the device then (OutOfDeviceMemory)
  std::string error;            // which call failed and its CUDA / cuSOLVER error (Failed)
};

// Why no factorisation can run on a device ("no CUDA device", a driver error), or "".
std::string device_unavailable_reason();

// In place: the lower triangle of the column-major n x n `a` becomes its Cholesky factor.
Status potrf_lower(double* a, std::int64_t n);

// In place: the column-major n x n `a` (lower triangle read) becomes its eigenvectors; w (n) its
// eigenvalues, ascending.
Status syevd_lower(double* a, double* w, std::int64_t n);

}  // namespace gpdp::cuda
