#pragma once
// Exact prior draws N(0, K) on a regular 1-D or 2-D lattice by circulant embedding
// (docs/mathematics.md §3).
//
// The Toeplitz (2-D: block-Toeplitz with Toeplitz blocks) covariance K of a stationary kernel on a
// regular lattice is the top-left block of a circulant (block-circulant) matrix C whose first row
// is a periodic extension of k. C = F^H diag(λ) F / M is diagonalised by the FFT; when every λ ≥ 0
// (checked, never clipped) a draw of C^{1/2}ξ restricted to the lattice is an EXACT N(0, K) draw.
// Three embeddings are tried, smallest first, until one is nonnegative definite:
//   minimal  the min-image periodisation on the smallest FFT-friendly torus ≥ 2(n − 1) points;
//   padded   the same on a torus p times larger (Dietrich & Newsam 1997);
//   cut-off  k replaced beyond the lattice diameter d by b₀(c − r)² on [d, c], 0 beyond
//            (Gneiting, Ševčíková, Percival, Schlather & Jiang 2006, with a = 1), periodised on a
//            torus of side ≥ span + c, so that the periodisation equals k on every lattice lag.
// In every case the circulant equals K exactly on the lattice; only its eigenvalues decide.
#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"
#include "gpdp/rng.hpp"

namespace gpdp {

// FFTW's planner is not thread-safe: every plan creation/destruction in gpdp holds this mutex.
std::mutex& fftw_planner_mutex();

// A regular lattice with its origin at index 0: counts[a] points spaced steps[a] along axis a;
// the first axis varies fastest in every flattened array.
struct Lattice {
  std::vector<long> counts;
  std::vector<double> steps;
  long size() const;
  int dim() const { return static_cast<int>(counts.size()); }
};

enum class EmbeddingKind { Minimal, Padded, CutOff };
std::string to_string(EmbeddingKind kind);

// One candidate embedding: its kind and torus size; for a cut-off, the radii d ≤ c.
struct EmbeddingChoice {
  EmbeddingKind kind = EmbeddingKind::Minimal;
  std::vector<long> torus;    // M_a points per axis
  double padding = 1.0;       // torus size relative to the minimal one (per axis, largest axis)
  double cutoff_inner = 0.0;  // d: k is unchanged on [0, d] (cut-off only)
  double cutoff_outer = 0.0;  // c: the modified covariance vanishes beyond c (cut-off only)
};

struct EmbeddingOptions {
  // Largest memory the embedding may use (eigenvalues + FFT work array), bytes.
  double max_bytes = 4.0 * 1024 * 1024 * 1024;
  // Torus sizes tried after the minimal one, relative to it (per axis).
  std::vector<double> paddings = {1.5, 2.0, 3.0, 4.0};
  bool try_cutoff = true;
  // Accept only an invertible embedding (every eigenvalue above rounding: positive_definite()),
  // as conditioning off-lattice points on the torus needs C⁻¹.
  bool require_positive_definite = false;
};

// Result of one eigenvalue check, kept for reports.
struct EmbeddingAttempt {
  EmbeddingChoice choice;
  double min_eigenvalue = 0.0;
  double max_eigenvalue = 0.0;
  double tolerance = 0.0;  // FFT rounding bound: |λ| ≤ tolerance counts as 0
  bool skipped_memory = false;
  // Not tried on the full torus because the same embedding of a coarse copy of the lattice (same
  // spans, ≤ 65 points per axis) is not nonnegative definite and a cut-off candidate remains (it is
  // tried later if everything else fails): a shortcut in the search, never in the check.
  bool skipped_coarse = false;
  double coarse_ratio = 0.0;  // the coarse copy's min eigenvalue / max eigenvalue
  bool nonnegative() const {
    return !skipped_memory && !skipped_coarse && min_eigenvalue >= -tolerance;
  }
  std::string describe() const;
};

class CirculantEmbedding {
 public:
  // Tries the candidates smallest torus first; the first nonnegative definite one wins. Returns
  // nullopt when none is, and records every attempt in *attempts (if given).
  static std::optional<CirculantEmbedding> find(const Kernel& kernel, const Lattice& lattice,
                                                const EmbeddingOptions& options = {},
                                                std::vector<EmbeddingAttempt>* attempts = nullptr);
  // Builds exactly this candidate (its eigenvalues may be negative: check attempt()).
  static CirculantEmbedding build(const Kernel& kernel, const Lattice& lattice,
                                  const EmbeddingChoice& choice);
  // The candidates `find` tries, in order.
  static std::vector<EmbeddingChoice> candidates(const Kernel& kernel, const Lattice& lattice,
                                                 const EmbeddingOptions& options);
  // Bytes `build` allocates for a torus.
  static double bytes_needed(const std::vector<long>& torus);

  CirculantEmbedding(CirculantEmbedding&&) noexcept;
  CirculantEmbedding& operator=(CirculantEmbedding&&) noexcept;
  ~CirculantEmbedding();

  const Lattice& lattice() const { return lattice_; }
  const EmbeddingAttempt& attempt() const { return attempt_; }
  bool nonnegative() const { return attempt_.nonnegative(); }

  // One exact N(0, K) draw on the lattice (flattened, first axis fastest): x = F^H √(Λ/M) ζ with
  // Hermitian white noise ζ, restricted to the lattice block. Needs nonnegative().
  void draw(Rng& rng, double* out);
  // out = K v: the lattice covariance applied to v (both lattice-sized), by FFT; exact on the
  // lattice because the circulant's top-left block is K.
  void apply_covariance(const double* v, double* out);
  // out = K v + scale · (an independent exact N(0, K) draw), with one FFT pair fewer than calling
  // apply_covariance and draw separately. Needs nonnegative() when scale ≠ 0.
  void apply_covariance_plus_draw(const double* v, double scale, Rng& rng, double* out);

  // The embedding's first row c(j) on the torus (first axis fastest) and all eigenvalues in the
  // same order, for tests and reports.
  std::vector<double> first_row() const;
  std::vector<double> eigenvalues() const;

  // ---- The whole torus (off-lattice points, samplers/torus_sites.hpp) ----
  // Torus points per axis M_a (first axis fastest in every torus vector) and their number M.
  const std::vector<long>& torus() const { return choice_.torus; }
  long torus_size() const;
  // c̃(τ): the circulant's periodic covariance at ANY lag τ = (τ1, τ2) (τ2 ignored in 1-D); the
  // first row is c̃ at the lattice lags. Minimal/padded: k at the minimum image of τ; cut-off: the
  // periodisation Σ_j C(τ + j T) of the cut-off covariance C.
  double periodic_covariance(double tau1, double tau2) const;
  // out[t] = c̃(p − t) at every torus node t (node j at j_a · step_a; M values, first axis fastest):
  // the covariance of a point p (lattice coordinates, node 0 at the origin) with the torus.
  void periodic_covariances(double p1, double p2, double* out) const;
  // Every eigenvalue exceeds the rounding tolerance, so C is invertible (stricter than
  // nonnegative(): conditioning on the torus needs C⁻¹).
  bool positive_definite() const;

  // FFT work space for torus_power on one thread (the embedding itself is only read).
  class TorusWork {
   public:
    explicit TorusWork(const CirculantEmbedding& embedding);
    ~TorusWork();
    TorusWork(const TorusWork&) = delete;
    TorusWork& operator=(const TorusWork&) = delete;

   private:
    friend class CirculantEmbedding;
    void* buffer_ = nullptr;  // fftw_complex[half spectrum], aligned as the embedding's own
  };
  // out = C^power x for torus vectors x, out (M values each; may alias), power = +½ or −½ (the
  // symmetric square root and its inverse), by one FFT pair in `work`. −½ needs
  // positive_definite(). Thread-safe for distinct `work`.
  void torus_power(double power, const double* x, double* out, TorusWork& work) const;
  // out = lattice block of C^½ x (x a torus vector) + scale · (an independent exact N(0, K) draw
  // on the lattice). Needs nonnegative().
  void apply_root_plus_draw(const double* x, double scale, Rng& rng, double* out);

 private:
  struct Fft;
  CirculantEmbedding(const Kernel& kernel, const Lattice& lattice, const EmbeddingChoice& choice);
  double half_eigenvalue(long k1, long k2) const;
  double row_value(long j1, long j2) const;
  template <class Sink>
  void for_each_row_entry(Sink&& sink) const;
  void require_nonnegative() const;
  // Leaves Λ F v / M (v zero-padded from the lattice) in the half spectrum.
  void multiply_spectrum(const double* v);
  // Writes scale · √(λ/M) ζ (Hermitian white noise ζ) into the half spectrum, added to what is
  // there when `add`.
  void spectral_noise(Rng& rng, double scale, bool add);
  void read_lattice(double* out) const;

  Kernel kernel_;
  Lattice lattice_;
  EmbeddingChoice choice_;
  EmbeddingAttempt attempt_;
  std::vector<double> eig_half_;   // λ on the half spectrum: k1 ∈ [0, M1/2], k2 ∈ [0, M2)
  std::vector<double> root_half_;  // sqrt(max(λ, 0)/M) on the same layout
  std::unique_ptr<Fft> fft_;
};

}  // namespace gpdp
