#pragma once
// A release described as data (dp_accounting's "event"): the public parameters of ONE release,
// either a posterior sample path f_D ~ GP(μ_D, σ² k_D) (+ optional g ~ GP(0, η² k)), which turns
// into an RdpCurve by Theorem 3.1 / Proposition 2, or the functional Gaussian mechanism
// μ_D + s·g, g ~ GP(0, k) (Hall, Rinaldo & Wasserman 2013), whose RdpCurve is α Δ_n² / (2 s²)
// (derivation: docs/privacy.md, "The functional mechanism"), or the grid mean (noisy per-cell
// clipped sums and counts, docs/privacy.md "The grid mean"), or the private prior mean (the
// Gaussian mechanism on the mean of the clipped responses, "A private prior mean"). The
// accountant composes L of them. Nothing here touches data: V_n and Δ_n come from the lemmas of
// bounds.hpp or from the user.
#include <optional>
#include <string>
#include <vector>

#include "gpdp/domain.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/privacy/bounds.hpp"
#include "gpdp/privacy/rdp.hpp"

namespace gpdp::privacy {

// What one release outputs.
enum class MechanismKind {
  PosteriorSample,  // a sample path of GP(μ_D, σ² k_D) (+ GP(0, η² k)): the paper's mechanism
  Functional,       // μ_D + s·g with g ~ GP(0, k): the classical functional Gaussian mechanism
  GridMean,         // per-cell clipped sums + N(0, s_S²) and counts + N(0, s_N²) on public cells
  PriorMean,        // (1/n) Σ y_i + N(0, s²): the private prior mean of a GP mechanism
  // (D, P) + N(0, s²)²: the calibrated preview's label statistic (release/label_disagreement.hpp)
  LabelDisagreement,
};
// "posterior-sample" | "functional" | "grid-mean" | "prior-mean" | "label-disagreement"
std::string to_string(MechanismKind kind);
// A mechanism a release can be asked for: posterior-sample, functional or grid-mean (InputError
// otherwise; the prior mean is a part of a release, --prior-mean).
MechanismKind parse_mechanism_kind(const std::string& name);
// Whether the mechanism's privacy comes from a Gaussian noise scale s (noise_scale): functional,
// grid mean, prior mean, label disagreement.
bool has_noise_scale(MechanismKind kind);

struct GpMechanism {
  MechanismKind kind = MechanismKind::PosteriorSample;
  // Kernel family and ℓ; nullopt = "some kernel with k(x,x) ≤ 1" (then κ must be given or is 0).
  std::optional<Kernel> kernel;
  int dim = 1;
  std::optional<Box> domain;    // covariate domain Ω; default the unit box [0,1]^dim
  std::optional<double> kappa;  // overrides κ = inf k on Ω
  long n = 1;                   // dataset size (replace-one neighbours)
  double r = 1.0;               // effective ridge
  double sigma = 1.0;           // prior scale; +∞ = covariance-only limit
  double eta = 0.0;             // added prior noise (Proposition 2); posterior-sample only
  double noise_scale = 0.0;     // s of μ_D + s·g (functional; σ and η play no part there), s_S
                                // of the grid mean's sums, s of the prior mean
  double count_noise = 0.0;     // s_N of the grid mean's counts; 0: the public default s_S / M_Y
  std::vector<long> cells;      // the grid mean's public cells per axis (informational)
  double M_Y = 1.0;             // |y| ≤ M_Y
  // Lemma S.1 (docs/proofs/b1-sharp.md), the default wherever B.1 was (issue #27); B.1 stays
  // selectable.
  SensitivityLemma lemma = SensitivityLemma::B1Sharp;
  double rkhs_norm = -1.0;             // B ≥ ‖f*‖_H, Lemma B.8 only
  std::optional<double> user_Vn;       // a proven upper bound on V_n(r) at this r
  std::optional<double> user_Delta_n;  // a proven upper bound on Δ_n(r) at this r (lemma = User)
};

// The Gaussian mechanisms on aggregates of the records (grid mean, prior mean, label
// disagreement): no kernel, ridge or sensitivity lemma.
bool is_aggregate(MechanismKind kind);

// The numbers the bound uses and how each was obtained.
struct ResolvedBounds {
  double kappa = 0.0;
  double Vn = 1.0;
  double Delta_n = 0.0;
  double tau = 0.0;          // τ̃ of Proposition 2 (V_n/r² when η = 0)
  double alpha_max = 0.0;    // open upper end of the admissible orders
  std::string Vn_source;     // "Proposition 3 (V̄_n)" or "user"
  std::string Delta_source;  // lemma_assumptions(...) or "user"
  // "Theorem 3.1", "Proposition 2", "Theorem 3.1, σ = ∞ (covariance only)", or the functional
  // Gaussian mechanism's statement.
  std::string theorem;
};

// s_N of a grid mean: count_noise, or the public default s_S / M_Y that makes a record's move
// within a cell and across cells cost the same (docs/privacy.md).
double grid_mean_count_noise(const GpMechanism& m);

// Validates every field (InputError naming it; PrivacyError if the lemma does not apply) and
// computes κ, V_n, Δ_n, τ̃.
ResolvedBounds resolve_bounds(const GpMechanism& m);

// The privacy map of one release: α ↦ ε_α by Theorem 3.1 / Proposition 2 (posterior sample) or
// α Δ_n² / (2 s²) (functional).
RdpCurve rdp_curve(const GpMechanism& m);
RdpCurve rdp_curve(const GpMechanism& m, const ResolvedBounds& b);

}  // namespace gpdp::privacy
