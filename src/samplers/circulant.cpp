#include "gpdp/samplers/circulant.hpp"

#include <fftw3.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>

#include "gpdp/error.hpp"

namespace gpdp {

std::mutex& fftw_planner_mutex() {
  static std::mutex mutex;
  return mutex;
}

long Lattice::size() const {
  return std::accumulate(counts.begin(), counts.end(), 1L, std::multiplies<>());
}

std::string to_string(EmbeddingKind kind) {
  switch (kind) {
    case EmbeddingKind::Minimal:
      return "minimal";
    case EmbeddingKind::Padded:
      return "padded";
    case EmbeddingKind::CutOff:
      return "cut-off";
  }
  return "unknown";
}

namespace {

long torus_size_of(const std::vector<long>& torus) {
  return std::accumulate(torus.begin(), torus.end(), 1L, std::multiplies<>());
}

std::string torus_text(const std::vector<long>& torus) {
  std::string s;
  for (std::size_t a = 0; a < torus.size(); ++a) s += (a ? "x" : "") + std::to_string(torus[a]);
  return s;
}

// Smallest even n' ≥ n whose prime factors are 2, 3, 5 (fast FFTW sizes); 1 stays 1.
long next_fft_size(long n) {
  if (n <= 1) return 1;
  for (long m = n + (n % 2);; m += 2) {
    long r = m;
    for (long p : {2L, 3L, 5L}) {
      while (r % p == 0) r /= p;
    }
    if (r == 1) return m;
  }
}

// dk/dr of the isotropic profile at r (the cut-off matches value and slope at d).
double profile_slope(const Kernel& kernel, double r) {
  const double ell = kernel.lengthscale();
  switch (kernel.family()) {
    case KernelFamily::Exponential:
      return -std::exp(-r / ell) / ell;
    case KernelFamily::SquaredExponential:
      return -(r / (ell * ell)) * std::exp(-0.5 * r * r / (ell * ell));
    case KernelFamily::Matern32: {
      const double a = std::sqrt(3.0) * r / ell;
      return -(std::sqrt(3.0) / ell) * a * std::exp(-a);
    }
    case KernelFamily::Matern52: {
      const double a = std::sqrt(5.0) * r / ell;
      return -(std::sqrt(5.0) / ell) * a * (1.0 + a) / 3.0 * std::exp(-a);
    }
    case KernelFamily::Constant:
    case KernelFamily::Diagonal:
      return 0.0;
  }
  return 0.0;
}

// The cut-off covariance of Gneiting et al. (2006), a = 1: k on [0, d], b₀(c − r)² on [d, c], 0
// beyond; c and b₀ make it C¹ at d.
struct CutOffProfile {
  double d;
  double c;
  double b0;
  double operator()(const Kernel& kernel, double r) const {
    if (r <= d) return kernel.of_distance(r);
    if (r >= c) return 0.0;
    return b0 * (c - r) * (c - r);
  }
};

std::optional<CutOffProfile> make_cutoff(const Kernel& kernel, double d) {
  const double value = kernel.of_distance(d);
  const double slope = profile_slope(kernel, d);
  if (!(value > 0.0) || !(slope < 0.0)) return std::nullopt;
  const double width = -2.0 * value / slope;  // c − d
  if (!std::isfinite(width)) return std::nullopt;
  return CutOffProfile{d, d + width, value / (width * width)};
}

// x reduced to its minimum image modulo `period` (|x| ≤ period/2). Lattice lags j ≤ M/2 are already
// minimum images and stay bit for bit as they are.
double minimum_image(double x, double period) {
  return std::abs(x) > 0.5 * period ? x - period * std::round(x / period) : x;
}

double lattice_diameter(const Lattice& lattice) {
  double s2 = 0.0;
  for (int a = 0; a < lattice.dim(); ++a) {
    const double span = static_cast<double>(lattice.counts[a] - 1) * lattice.steps[a];
    s2 += span * span;
  }
  return std::sqrt(s2);
}

}  // namespace

// FFTW plans on one in-place work array (real rows padded to 2(M1/2 + 1) doubles, or the half
// spectrum), reused for every draw. Planning (and plan destruction) is not thread-safe in FFTW:
// both happen under fftw_planner_mutex().
struct CirculantEmbedding::Fft {
  fftw_complex* work = nullptr;
  fftw_plan r2c = nullptr;  // real → half spectrum, in place
  fftw_plan c2r = nullptr;  // half spectrum → real (unnormalised backward transform), in place
  long m1, m2;              // torus sizes, axis 0 fastest (m2 = 1 in 1-D)

  explicit Fft(const std::vector<long>& torus) : m1(torus[0]), m2(torus.size() > 1 ? torus[1] : 1) {
    const auto total = static_cast<std::size_t>(half() * m2);
    work = fftw_alloc_complex(total);
    if (work == nullptr) {
      throw NumericalError(
          fmt::format("circulant embedding: cannot allocate a {}x{} torus", m1, m2));
    }
    const int rank = torus.size() > 1 ? 2 : 1;
    int n[2];
    if (rank == 2) {
      n[0] = static_cast<int>(m2);  // FFTW is row-major: the last index varies fastest
      n[1] = static_cast<int>(m1);
    } else {
      n[0] = static_cast<int>(m1);
    }
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    r2c = fftw_plan_dft_r2c(rank, n, real(), work, FFTW_ESTIMATE);
    c2r = fftw_plan_dft_c2r(rank, n, work, real(), FFTW_ESTIMATE);
    if (r2c == nullptr || c2r == nullptr)
      throw NumericalError("circulant embedding: FFTW planning failed");
  }
  ~Fft() {
    {
      std::lock_guard<std::mutex> lock(fftw_planner_mutex());
      if (r2c) fftw_destroy_plan(r2c);
      if (c2r) fftw_destroy_plan(c2r);
    }
    fftw_free(work);
  }
  Fft(const Fft&) = delete;
  Fft& operator=(const Fft&) = delete;

  long half() const { return m1 / 2 + 1; }
  long real_row() const { return 2 * half(); }  // padded row length of the in-place real layout
  double* real() { return reinterpret_cast<double*>(work); }
};

std::string EmbeddingAttempt::describe() const {
  std::string kind = to_string(choice.kind);
  if (choice.kind == EmbeddingKind::Padded) kind += fmt::format(" x{:g}", choice.padding);
  if (choice.kind == EmbeddingKind::CutOff) {
    kind += fmt::format(" (k kept on [0, {:.6g}], zero beyond {:.6g})", choice.cutoff_inner,
                        choice.cutoff_outer);
  }
  if (skipped_coarse) {
    return fmt::format("{} torus {}: skipped, its coarse analogue has min/max eigenvalue {:.2e}",
                       kind, torus_text(choice.torus), coarse_ratio);
  }
  if (skipped_memory) {
    return fmt::format("{} torus {}: skipped, needs {:.3g} GB", kind, torus_text(choice.torus),
                       CirculantEmbedding::bytes_needed(choice.torus) / 1e9);
  }
  const char* verdict = min_eigenvalue > tolerance ? "positive definite"
                        : nonnegative()            ? "nonnegative definite, singular to rounding"
                                                   : "NOT nonnegative definite";
  return fmt::format(
      "{} torus {}: min eigenvalue {:.3e} (max {:.3e}, rounding tolerance {:.1e}): {}", kind,
      torus_text(choice.torus), min_eigenvalue, max_eigenvalue, tolerance, verdict);
}

double CirculantEmbedding::bytes_needed(const std::vector<long>& torus) {
  const double m = static_cast<double>(torus_size_of(torus));
  const double half = static_cast<double>((torus[0] / 2 + 1) * (torus.size() > 1 ? torus[1] : 1));
  (void)m;
  return 32.0 * half;  // in-place work array (16 B per half-spectrum entry) + λ and √(λ/M)
}

std::vector<EmbeddingChoice> CirculantEmbedding::candidates(const Kernel& kernel,
                                                            const Lattice& lattice,
                                                            const EmbeddingOptions& options) {
  std::vector<EmbeddingChoice> out;
  const int dim = lattice.dim();
  auto minimal_axis = [&](int a) { return std::max(2 * (lattice.counts[a] - 1), 1L); };
  EmbeddingChoice minimal{EmbeddingKind::Minimal, {}, 1.0, 0.0, 0.0};
  for (int a = 0; a < dim; ++a) minimal.torus.push_back(next_fft_size(minimal_axis(a)));
  out.push_back(minimal);
  for (double p : options.paddings) {
    EmbeddingChoice padded{EmbeddingKind::Padded, {}, p, 0.0, 0.0};
    for (int a = 0; a < dim; ++a) {
      const auto target = static_cast<long>(std::ceil(p * static_cast<double>(minimal_axis(a))));
      padded.torus.push_back(next_fft_size(target));
    }
    out.push_back(padded);
  }
  if (options.try_cutoff) {
    const double d = lattice_diameter(lattice);
    if (const auto profile = make_cutoff(kernel, d)) {
      // Torus side ≥ span + c on every axis: then no second image of a lattice lag comes within c,
      // and the periodised cut-off equals k on every lag of the lattice.
      EmbeddingChoice cut{EmbeddingKind::CutOff, {}, 1.0, profile->d, profile->c};
      for (int a = 0; a < dim; ++a) {
        const double need =
            static_cast<double>(lattice.counts[a] - 1) + profile->c / lattice.steps[a];
        cut.torus.push_back(next_fft_size(static_cast<long>(std::ceil(need)) + 1));
        cut.padding = std::max(
            cut.padding, static_cast<double>(cut.torus[a]) / static_cast<double>(minimal.torus[a]));
      }
      out.push_back(cut);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const EmbeddingChoice& a, const EmbeddingChoice& b) {
    return torus_size_of(a.torus) < torus_size_of(b.torus);
  });
  return out;
}

namespace {

// A copy of the lattice with the same spans and at most 65 points per axis.
Lattice coarse_copy(const Lattice& lattice) {
  Lattice coarse = lattice;
  for (int a = 0; a < lattice.dim(); ++a) {
    const auto sa = static_cast<std::size_t>(a);
    if (lattice.counts[sa] <= 65) continue;
    const double span = static_cast<double>(lattice.counts[sa] - 1) * lattice.steps[sa];
    coarse.counts[sa] = 65;
    coarse.steps[sa] = span / 64.0;
  }
  return coarse;
}

bool same_candidate(const EmbeddingChoice& a, const EmbeddingChoice& b) {
  return a.kind == b.kind && a.padding == b.padding;
}

}  // namespace

std::optional<CirculantEmbedding> CirculantEmbedding::find(
    const Kernel& kernel, const Lattice& lattice, const EmbeddingOptions& options,
    std::vector<EmbeddingAttempt>* attempts) {
  const auto choices = candidates(kernel, lattice, options);
  // Screening: on a large lattice, a min-image candidate whose coarse analogue already has a
  // negative eigenvalue is deferred behind a remaining cut-off candidate.
  std::vector<EmbeddingAttempt> deferred(choices.size());
  std::vector<bool> is_deferred(choices.size(), false);
  const Lattice coarse = coarse_copy(lattice);
  if (coarse.counts != lattice.counts) {
    const auto coarse_choices = candidates(kernel, coarse, options);
    bool cutoff_later = false;
    for (std::size_t i = choices.size(); i-- > 0;) {
      if (choices[i].kind == EmbeddingKind::CutOff) {
        cutoff_later = bytes_needed(choices[i].torus) <= options.max_bytes;
        continue;
      }
      if (!cutoff_later) continue;
      for (const auto& cc : coarse_choices) {
        if (!same_candidate(cc, choices[i])) continue;
        const CirculantEmbedding probe = build(kernel, coarse, cc);
        if (!probe.nonnegative()) {
          is_deferred[i] = true;
          deferred[i].choice = choices[i];
          deferred[i].skipped_coarse = true;
          deferred[i].coarse_ratio =
              probe.attempt().min_eigenvalue / probe.attempt().max_eigenvalue;
        }
        break;
      }
    }
  }
  auto attempt = [&](std::size_t i) -> std::optional<CirculantEmbedding> {
    if (bytes_needed(choices[i].torus) > options.max_bytes) {
      if (attempts) {
        EmbeddingAttempt skipped;
        skipped.choice = choices[i];
        skipped.skipped_memory = true;
        attempts->push_back(skipped);
      }
      return std::nullopt;
    }
    CirculantEmbedding embedding = build(kernel, lattice, choices[i]);
    if (attempts) attempts->push_back(embedding.attempt());
    if (!(options.require_positive_definite ? embedding.positive_definite()
                                            : embedding.nonnegative()))
      return std::nullopt;
    return embedding;
  };
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (is_deferred[i]) continue;
    if (auto embedding = attempt(i)) {
      if (attempts) {
        for (std::size_t j = 0; j < choices.size(); ++j) {
          if (is_deferred[j]) attempts->push_back(deferred[j]);
        }
      }
      return embedding;
    }
  }
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (!is_deferred[i]) continue;
    if (auto embedding = attempt(i)) return embedding;
  }
  return std::nullopt;
}

CirculantEmbedding CirculantEmbedding::build(const Kernel& kernel, const Lattice& lattice,
                                             const EmbeddingChoice& choice) {
  return CirculantEmbedding(kernel, lattice, choice);
}

CirculantEmbedding::CirculantEmbedding(CirculantEmbedding&&) noexcept = default;
CirculantEmbedding& CirculantEmbedding::operator=(CirculantEmbedding&&) noexcept = default;
CirculantEmbedding::~CirculantEmbedding() = default;

// c(j) for 0 ≤ j_a ≤ M_a/2 (the row is even along each axis; other entries mirror these): c̃ at the
// lattice lag j.
double CirculantEmbedding::row_value(long j1, long j2) const {
  return periodic_covariance(
      static_cast<double>(j1) * lattice_.steps[0],
      lattice_.dim() > 1 ? static_cast<double>(j2) * lattice_.steps[1] : 0.0);
}

// Minimal/padded: k at the minimum-image lag. Cut-off: the full periodisation Σ_k C(x + kT), where
// only images with every |x_a + k_a T_a| < c can contribute; after reduction to the minimum image
// (|x_a| ≤ T_a/2) and since every side T_a > c, |k_a| ≤ 1 covers them.
double CirculantEmbedding::periodic_covariance(double tau1, double tau2) const {
  const double t1 = static_cast<double>(choice_.torus[0]) * lattice_.steps[0];
  const double t2 =
      lattice_.dim() > 1 ? static_cast<double>(choice_.torus[1]) * lattice_.steps[1] : 0.0;
  const double x1 = minimum_image(tau1, t1);
  const double x2 = lattice_.dim() > 1 ? minimum_image(tau2, t2) : 0.0;
  if (choice_.kind != EmbeddingKind::CutOff) return kernel_.of_distance(std::hypot(x1, x2));
  const CutOffProfile profile = *make_cutoff(kernel_, choice_.cutoff_inner);
  const int k2max = lattice_.dim() > 1 ? 1 : 0;
  double sum = 0.0;
  for (int k1 = -1; k1 <= 1; ++k1) {
    const double y1 = x1 + k1 * t1;
    if (std::abs(y1) >= profile.c) continue;
    for (int k2 = -k2max; k2 <= k2max; ++k2) {
      const double y2 = x2 + k2 * t2;
      if (std::abs(y2) >= profile.c) continue;
      sum += profile(kernel_, std::hypot(y1, y2));
    }
  }
  return sum;
}

template <class Sink>
void CirculantEmbedding::for_each_row_entry(Sink&& sink) const {
  const long m1 = choice_.torus[0];
  const long m2 = lattice_.dim() > 1 ? choice_.torus[1] : 1;
  for (long q2 = 0; q2 <= m2 / 2; ++q2) {
    for (long q1 = 0; q1 <= m1 / 2; ++q1) {
      const double c = row_value(q1, q2);
      sink(q1, q2, c);
      if (q1 != 0 && 2 * q1 != m1) sink(m1 - q1, q2, c);
      if (q2 != 0 && 2 * q2 != m2) {
        sink(q1, m2 - q2, c);
        if (q1 != 0 && 2 * q1 != m1) sink(m1 - q1, m2 - q2, c);
      }
    }
  }
}

std::vector<double> CirculantEmbedding::first_row() const {
  const long m1 = choice_.torus[0];
  const long m2 = lattice_.dim() > 1 ? choice_.torus[1] : 1;
  std::vector<double> row(static_cast<std::size_t>(m1 * m2));
  for_each_row_entry(
      [&](long j1, long j2, double c) { row[static_cast<std::size_t>(j2 * m1 + j1)] = c; });
  return row;
}

CirculantEmbedding::CirculantEmbedding(const Kernel& kernel, const Lattice& lattice,
                                       const EmbeddingChoice& choice)
    : kernel_(kernel), lattice_(lattice), choice_(choice) {
  require(
      lattice.dim() == 1 || lattice.dim() == 2,
      fmt::format("circulant embedding: lattices of dimension 1 or 2 only, got {}", lattice.dim()));
  require(static_cast<int>(choice.torus.size()) == lattice.dim(),
          "circulant embedding: torus and lattice dimensions differ");
  for (int a = 0; a < lattice.dim(); ++a) {
    require(lattice.counts[a] >= 1 && choice.torus[a] >= std::max(lattice.counts[a], 1L),
            "circulant embedding: torus smaller than the lattice");
    require(std::isfinite(lattice.steps[a]) && lattice.steps[a] > 0.0,
            "circulant embedding: lattice steps must be positive");
  }
  attempt_.choice = choice;
  fft_ = std::make_unique<Fft>(choice.torus);
  const long m1 = fft_->m1, m2 = fft_->m2, half = fft_->half(), stride = fft_->real_row();
  double* real = fft_->real();
  double l2 = 0.0;
  for_each_row_entry([&](long j1, long j2, double c) {
    real[j2 * stride + j1] = c;
    l2 += c * c;
  });
  fftw_execute(fft_->r2c);
  const auto n_half = static_cast<std::size_t>(half * m2);
  eig_half_.resize(n_half);
  root_half_.resize(n_half);
  const double m = static_cast<double>(m1 * m2);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t k = 0; k < n_half; ++k) {
    const double lambda = fft_->work[k][0];  // real: the first row is even on the torus
    eig_half_[k] = lambda;
    root_half_[k] = std::sqrt(std::max(lambda, 0.0) / m);
    lo = std::min(lo, lambda);
    hi = std::max(hi, lambda);
  }
  attempt_.min_eigenvalue = lo;
  attempt_.max_eigenvalue = hi;
  // FFT rounding: each output is within ~ ε log₂M ‖c‖₂ of the exact transform; an eigenvalue
  // that small in magnitude is indistinguishable from 0 and counts as 0 (reported, never hidden).
  attempt_.tolerance =
      16.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::log2(m)) * std::sqrt(l2);
}

double CirculantEmbedding::half_eigenvalue(long k1, long k2) const {
  return eig_half_[static_cast<std::size_t>(k2 * fft_->half() + k1)];
}

std::vector<double> CirculantEmbedding::eigenvalues() const {
  const long m1 = fft_->m1, m2 = fft_->m2;
  std::vector<double> out(static_cast<std::size_t>(m1 * m2));
  // The first row is even along each axis, so λ(k1, k2) = λ(M1 − k1, k2).
  for (long k2 = 0; k2 < m2; ++k2) {
    for (long k1 = 0; k1 < m1; ++k1) {
      out[static_cast<std::size_t>(k2 * m1 + k1)] = half_eigenvalue(std::min(k1, m1 - k1), k2);
    }
  }
  return out;
}

void CirculantEmbedding::require_nonnegative() const {
  if (!nonnegative()) {
    throw NumericalError(
        "circulant embedding: refusing to draw from an embedding that is not "
        "nonnegative definite (" +
        attempt_.describe() + ")");
  }
}

void CirculantEmbedding::spectral_noise(Rng& rng, double scale, bool add) {
  // Hermitian white noise on the half spectrum: E ζ_k conj(ζ_k') = δ_kk'. A frequency that is its
  // own conjugate (k ≡ −k on every axis) gets a real N(0, 1); the others (a + ib)/√2, and on the
  // planes k1 = 0 and k1 = M1/2, where FFTW stores both k2 and −k2, the second is the conjugate
  // of the first so that the transform is real.
  const long m1 = fft_->m1, m2 = fft_->m2, half = fft_->half();
  fftw_complex* w = fft_->work;
  const double inv_sqrt2 = 1.0 / std::sqrt(2.0);
  auto put = [&](long k1, long k2, double re, double im) {
    const long idx = k2 * half + k1;
    const double s = scale * root_half_[static_cast<std::size_t>(idx)];
    if (add) {
      w[idx][0] += s * re;
      w[idx][1] += s * im;
    } else {
      w[idx][0] = s * re;
      w[idx][1] = s * im;
    }
  };
  std::vector<double> z(static_cast<std::size_t>(2 * half));
  for (long k2 = 0; k2 < m2; ++k2) {
    rng.fill_standard_normal(z.data(), z.size());
    const long c2 = (m2 - k2) % m2;  // the conjugate row
    for (long k1 = 0; k1 < half; ++k1) {
      const bool edge = k1 == 0 || 2 * k1 == m1;  // column holding both k2 and −k2
      const double a = z[static_cast<std::size_t>(2 * k1)];
      const double b = z[static_cast<std::size_t>(2 * k1 + 1)];
      if (!edge) {
        put(k1, k2, a * inv_sqrt2, b * inv_sqrt2);
      } else if (c2 == k2) {
        put(k1, k2, a, 0.0);  // self-conjugate frequency
      } else if (k2 < c2) {
        put(k1, k2, a * inv_sqrt2, b * inv_sqrt2);
        put(k1, c2, a * inv_sqrt2, -b * inv_sqrt2);
      }  // k2 > c2: already written with its partner
    }
  }
}

void CirculantEmbedding::read_lattice(double* out) const {
  const long stride = fft_->real_row();
  const long n1 = lattice_.counts[0];
  const long n2 = lattice_.dim() > 1 ? lattice_.counts[1] : 1;
  const double* real = fft_->real();
  for (long i2 = 0; i2 < n2; ++i2) {
    std::copy(real + i2 * stride, real + i2 * stride + n1, out + i2 * n1);
  }
}

void CirculantEmbedding::draw(Rng& rng, double* out) {
  require_nonnegative();
  spectral_noise(rng, 1.0, false);
  fftw_execute(fft_->c2r);  // x = F^H √(Λ/M) ζ: real, Cov x = F^H Λ F / M = C
  read_lattice(out);
}

// Leaves the spectrum Λ F v / M of the zero-padded lattice vector v in the FFT work buffer.
void CirculantEmbedding::multiply_spectrum(const double* v) {
  const long m1 = fft_->m1, m2 = fft_->m2, stride = fft_->real_row();
  const long n1 = lattice_.counts[0];
  const long n2 = lattice_.dim() > 1 ? lattice_.counts[1] : 1;
  double* real = fft_->real();
  std::memset(real, 0, sizeof(double) * static_cast<std::size_t>(stride * m2));
  for (long i2 = 0; i2 < n2; ++i2) {
    std::copy(v + i2 * n1, v + (i2 + 1) * n1, real + i2 * stride);
  }
  fftw_execute(fft_->r2c);
  const double inv_m = 1.0 / static_cast<double>(m1 * m2);
  for (std::size_t k = 0; k < eig_half_.size(); ++k) {
    const double g = eig_half_[k] * inv_m;
    fft_->work[k][0] *= g;
    fft_->work[k][1] *= g;
  }
}

void CirculantEmbedding::apply_covariance(const double* v, double* out) {
  multiply_spectrum(v);
  fftw_execute(fft_->c2r);  // C v; its lattice block is K v
  read_lattice(out);
}

void CirculantEmbedding::apply_covariance_plus_draw(const double* v, double scale, Rng& rng,
                                                    double* out) {
  if (scale == 0.0) {
    apply_covariance(v, out);
    return;
  }
  require_nonnegative();
  multiply_spectrum(v);
  spectral_noise(rng, scale, true);
  fftw_execute(fft_->c2r);  // C v + scale · F^H √(Λ/M) ζ
  read_lattice(out);
}

// ---- The whole torus ----

long CirculantEmbedding::torus_size() const { return torus_size_of(choice_.torus); }

void CirculantEmbedding::periodic_covariances(double p1, double p2, double* out) const {
  const int dim = lattice_.dim();
  const long m1 = choice_.torus[0], m2 = dim > 1 ? choice_.torus[1] : 1;
  const double h1 = lattice_.steps[0], h2 = dim > 1 ? lattice_.steps[1] : 0.0;
  const double t1 = static_cast<double>(m1) * h1, t2 = static_cast<double>(m2) * h2;
  std::vector<double> x1(static_cast<std::size_t>(m1)), x2(static_cast<std::size_t>(m2), 0.0);
  for (long j = 0; j < m1; ++j)
    x1[static_cast<std::size_t>(j)] = minimum_image(p1 - static_cast<double>(j) * h1, t1);
  if (dim > 1) {
    for (long j = 0; j < m2; ++j)
      x2[static_cast<std::size_t>(j)] = minimum_image(p2 - static_cast<double>(j) * h2, t2);
  }
  for (long j2 = 0; j2 < m2; ++j2) {
    for (long j1 = 0; j1 < m1; ++j1) {
      out[j2 * m1 + j1] =
          std::hypot(x1[static_cast<std::size_t>(j1)], x2[static_cast<std::size_t>(j2)]);
    }
  }
  const auto total = static_cast<std::size_t>(m1 * m2);
  if (choice_.kind != EmbeddingKind::CutOff) {
    kernel_.of_distances(out, out, total);
    return;
  }
  // Cut-off: the minimum image first (k on [0, d] in one batch, the quadratic tail beyond), then
  // the other images within c, as in periodic_covariance.
  const CutOffProfile profile = *make_cutoff(kernel_, choice_.cutoff_inner);
  std::vector<double> r(out, out + total);
  kernel_.of_distances(out, out, total);
  for (std::size_t i = 0; i < total; ++i) {
    if (r[i] > profile.d) out[i] = profile(kernel_, r[i]);
  }
  // Per axis, the other images x ± T within c of 0 (usually none).
  const auto far_images = [&](const std::vector<double>& x, double period) {
    std::vector<std::vector<double>> far(x.size());
    for (std::size_t j = 0; j < x.size(); ++j) {
      for (const double y : {x[j] - period, x[j] + period}) {
        if (std::abs(y) < profile.c) far[j].push_back(y);
      }
    }
    return far;
  };
  const auto far1 = far_images(x1, t1);
  const auto far2 = dim > 1 ? far_images(x2, t2) : std::vector<std::vector<double>>(1);
  const auto add = [&](double a, double b, double& sum) {
    if (std::abs(a) < profile.c && std::abs(b) < profile.c)
      sum += profile(kernel_, std::hypot(a, b));
  };
  for (long j2 = 0; j2 < m2; ++j2) {
    const double b0 = x2[static_cast<std::size_t>(j2)];
    const auto& bs = far2[static_cast<std::size_t>(j2)];
    for (long j1 = 0; j1 < m1; ++j1) {
      const double a0 = x1[static_cast<std::size_t>(j1)];
      const auto& as = far1[static_cast<std::size_t>(j1)];
      double& sum = out[j2 * m1 + j1];
      for (const double b : bs) add(a0, b, sum);
      for (const double a : as) {
        add(a, b0, sum);
        for (const double b : bs) add(a, b, sum);
      }
    }
  }
}

bool CirculantEmbedding::positive_definite() const {
  return nonnegative() && attempt_.min_eigenvalue > attempt_.tolerance;
}

CirculantEmbedding::TorusWork::TorusWork(const CirculantEmbedding& embedding)
    : buffer_(fftw_alloc_complex(
          static_cast<std::size_t>(embedding.fft_->half() * embedding.fft_->m2))) {
  if (buffer_ == nullptr) throw NumericalError("circulant embedding: cannot allocate FFT work");
}

CirculantEmbedding::TorusWork::~TorusWork() { fftw_free(buffer_); }

void CirculantEmbedding::torus_power(double power, const double* x, double* out,
                                     TorusWork& work) const {
  require(power == 0.5 || power == -0.5, "circulant embedding: torus_power takes ±½");
  if (power < 0.0 && !positive_definite()) {
    throw NumericalError("circulant embedding: C is not invertible (" + attempt_.describe() + ")");
  }
  const long m1 = fft_->m1, m2 = fft_->m2, stride = fft_->real_row();
  auto* spectrum = static_cast<fftw_complex*>(work.buffer_);
  auto* real = reinterpret_cast<double*>(spectrum);
  for (long j2 = 0; j2 < m2; ++j2) std::copy(x + j2 * m1, x + (j2 + 1) * m1, real + j2 * stride);
  fftw_execute_dft_r2c(fft_->r2c, real, spectrum);
  // root_half_ = √(λ/M); C^{±½} x = F^H λ^{±½} F x / M with FFTW's unnormalised transforms.
  const double sqrt_m = std::sqrt(static_cast<double>(m1 * m2));
  for (std::size_t k = 0; k < root_half_.size(); ++k) {
    const double g =
        power > 0.0 ? root_half_[k] / sqrt_m : 1.0 / (root_half_[k] * sqrt_m * sqrt_m * sqrt_m);
    spectrum[k][0] *= g;
    spectrum[k][1] *= g;
  }
  fftw_execute_dft_c2r(fft_->c2r, spectrum, real);
  for (long j2 = 0; j2 < m2; ++j2)
    std::copy(real + j2 * stride, real + j2 * stride + m1, out + j2 * m1);
}

void CirculantEmbedding::apply_root_plus_draw(const double* x, double scale, Rng& rng,
                                              double* out) {
  require_nonnegative();
  const long m1 = fft_->m1, m2 = fft_->m2, stride = fft_->real_row();
  double* real = fft_->real();
  for (long j2 = 0; j2 < m2; ++j2) std::copy(x + j2 * m1, x + (j2 + 1) * m1, real + j2 * stride);
  fftw_execute(fft_->r2c);
  const double sqrt_m = std::sqrt(static_cast<double>(m1 * m2));
  for (std::size_t k = 0; k < root_half_.size(); ++k) {
    const double g = root_half_[k] / sqrt_m;
    fft_->work[k][0] *= g;
    fft_->work[k][1] *= g;
  }
  if (scale != 0.0) spectral_noise(rng, scale, true);
  fftw_execute(fft_->c2r);  // C^½ x + scale · F^H √(Λ/M) ζ
  read_lattice(out);
}

}  // namespace gpdp
