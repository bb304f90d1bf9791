#pragma once
// out[i] = exp(scale · in[i]): Kernel::of_distances for the exponential kernel (800 k values per ℓ
// in the 2-D search, 15–20 % of its time with Eigen's SSE2 exp). On a CPU with AVX2 + FMA (checked
// at run time) it calls glibc's libmvec 4-lane exp (_ZGVdN4v_exp, documented max error 4 ulp);
// otherwise std::exp. The build stays portable: no -march flags, only this function is compiled for
// AVX2.
#include <cstddef>

namespace gpdp {

void exp_scaled(const double* in, double* out, std::size_t count, double scale);

// Whether this CPU has AVX2 + FMA (checked once): exp_scaled and the tridiagonal sweep then take
// their AVX2 paths. The benchmark reports it.
bool avx2_fma_available();

}  // namespace gpdp
