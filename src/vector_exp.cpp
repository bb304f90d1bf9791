#include "gpdp/vector_exp.hpp"

#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#include <immintrin.h>
#define GPDP_HAVE_LIBMVEC_AVX2 1
// glibc's libmvec (x86_64 since 2.22): exp on 4 doubles, AVX2 calling convention.
extern "C" __m256d _ZGVdN4v_exp(__m256d);
#endif

namespace gpdp {

namespace {
void exp_scaled_scalar(const double* in, double* out, std::size_t count, double scale) {
  for (std::size_t i = 0; i < count; ++i) out[i] = std::exp(scale * in[i]);
}

#ifdef GPDP_HAVE_LIBMVEC_AVX2
__attribute__((target("avx2,fma"))) void exp_scaled_avx2(const double* in, double* out,
                                                         std::size_t count, double scale) {
  const __m256d s = _mm256_set1_pd(scale);
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    _mm256_storeu_pd(out + i, _ZGVdN4v_exp(_mm256_mul_pd(s, _mm256_loadu_pd(in + i))));
  }
  exp_scaled_scalar(in + i, out + i, count - i, scale);
}
#endif
}  // namespace

bool avx2_fma_available() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
#else
  return false;
#endif
}

void exp_scaled(const double* in, double* out, std::size_t count, double scale) {
#ifdef GPDP_HAVE_LIBMVEC_AVX2
  if (avx2_fma_available()) {
    exp_scaled_avx2(in, out, count, scale);
    return;
  }
#endif
  exp_scaled_scalar(in, out, count, scale);
}

}  // namespace gpdp
