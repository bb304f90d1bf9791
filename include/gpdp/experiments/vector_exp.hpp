#pragma once
// out[i] = exp(scale · in[i]) for the exponential kernel's matrices (800 k values per ℓ in the 2-D
// search, 15–20 % of its time with Eigen's SSE2 exp). On a CPU with AVX2 + FMA (checked at run
// time) it calls glibc's libmvec 4-lane exp (_ZGVdN4v_exp, documented max error 4 ulp); otherwise
// std::exp. The build stays portable: no -march flags, only this function is compiled for AVX2.
#include <cstddef>

namespace gpdp::experiments {

void exp_scaled(const double* in, double* out, std::size_t count, double scale);

// Whether exp_scaled takes the AVX2 path on this machine (reported by the benchmark).
bool exp_scaled_is_vectorised();

}  // namespace gpdp::experiments
