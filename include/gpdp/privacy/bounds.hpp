#pragma once
// The two data-dependent quantities of the paper's RDP bounds (docs/mathematics.md §2, paper App.
// B):
//   V_n(r)  posterior variance scale  (Definition 3.1; upper bound by Proposition 3)
//   Δ_n(r)  common-core posterior-mean sensitivity in the RKHS of k_{D−}  (Lemmas B.1–B.8)
// Every function here is a pure function of public quantities (n, r, κ, M_Y, ‖f*‖); nothing in
// this module sees data. Upper bounds are the paper's proven statements verbatim: a constant
// smaller than proven is a bug (docs/mathematics.md §2 note). Lower bounds (B.2, B.3) serve tests
// and the auditor.
#include <optional>
#include <string>

#include "gpdp/kernel.hpp"

namespace gpdp::privacy {

// Which upper bound on Δ_n(r) applies. Each carries assumptions (see lemma_assumptions()).
enum class SensitivityLemma {
  B1,       // generic: k(x,x) ≤ 1, |y| ≤ M_Y
  B1Sharp,  // Lemma S.1 (docs/proofs/b1-sharp.md): B.1's assumptions, sharper core-mean term
  B4,       // constant kernel k ≡ 1, |y| ≤ M_Y
  B5,       // purely diagonal kernel k(x,x') = q(x) 1{x = x'}, 0 ≤ q ≤ 1, |y| ≤ M_Y
  B7,       // exponential kernel exp(−|x−x'|/ℓ) on an interval of R, |y| ≤ M_Y
  B8,       // noiseless RKHS responses y = f*(x), ‖f*‖_H ≤ B, normalised kernel
  User,     // a proven Δ_n supplied by the user (their responsibility)
};

// "b1", "b1-sharp", "b4", "b5", "b7", "b8", "user".
std::string to_string(SensitivityLemma lemma);
// Parses "b1" | "b1-sharp" | "b4" | "b5" | "b7" | "b8" (case-insensitive); InputError otherwise.
SensitivityLemma parse_sensitivity_lemma(const std::string& name);
// One line: the lemma, what it assumes, and which settings it covers.
std::string lemma_assumptions(SensitivityLemma lemma);

// Throws PrivacyError when `lemma` is not proven for `kernel` in dimension `dim`
// (B.4 constant only, B.5 diagonal only, B.7 exponential in 1-D only). B.1 and B.8 hold for every
// normalised kernel here. kernel = nullopt means "some kernel with k(x,x) ≤ 1": only B.1, B.8,
// User.
void check_lemma_applies(SensitivityLemma lemma, const std::optional<Kernel>& kernel, int dim);

// Proposition 3: V̄_n(r) = 1 − κ² (n−1)/(n−1+r²) ≥ V_n(r), exact when k(x,x) = 1 on Ω.
// Needs sup k(x,x) = 1 and κ = inf k(x,x') ∈ [0, 1].
double posterior_variance_scale(double kappa, long n, double r);

// Lemma B.1: Φ_n(r) = sup_{0≤u≤V_n} u/(u+r²)² = 1/(4r²) if V_n ≥ r², else V_n/(V_n+r²)².
double phi_n(double Vn, double r);

// Inputs of the Δ_n bounds. M_Y bounds |y|; rkhs_norm is B ≥ ‖f*‖_H (Lemma B.8 only).
struct SensitivityInputs {
  long n = 1;
  double r = 1.0;
  double Vn = 1.0;  // an upper bound on V_n(r) (V̄_n or user-supplied)
  double M_Y = 1.0;
  double rkhs_norm = -1.0;  // < 0: not given
};

// Upper bound on Δ_n(r) by `lemma` (not User). Every bound is non-decreasing in V_n, so any upper
// bound on V_n may be used.
double mean_sensitivity(SensitivityLemma lemma, const SensitivityInputs& in);

// Lemma B.1: Δ_n ≤ 2 M_Y (1 + √(n−1)/r) √Φ_n.
double mean_sensitivity_b1(long n, double r, double Vn, double M_Y);
// Lemma S.1 (docs/proofs/b1-sharp.md; B.1's assumptions: k(x,x) ≤ 1, |y| ≤ M_Y): with
// V' = min(V_n, 1) and b = √(n−1)/r,
//   Δ_n ≤ 2 M_Y sup_{0≤v≤V'} [ √v/(v + r²) + b · v√(1−v)/(v + r²) ],
// returned as an upper bound of that supremum: the maximum, over a cover of [0, V'] by pieces
// (refined where the bound is largest), of the exact suprema of the two unimodal terms on each
// piece. Never above Lemma B.1; equal at n = 1 when V_n ≤ 1.
double mean_sensitivity_b1_sharp(long n, double r, double Vn, double M_Y);
// Lemma B.4 (constant kernel): Δ_n ≤ 2 M_Y √(r² + n − 1) / (r (r² + n)).
double mean_sensitivity_b4(long n, double r, double M_Y);
// Lemma B.5 (diagonal kernel): Δ_n ≤ √2 M_Y / r (r ≤ 1), 2√2 M_Y / (1 + r²) (r ≥ 1).
double mean_sensitivity_b5(double r, double M_Y);
// Lemma B.7 (exponential kernel in 1-D): Δ_n ≤ 4 M_Y √Φ_n.
double mean_sensitivity_b7(double r, double Vn, double M_Y);
// Lemma B.8 (RKHS responses, ‖f*‖_H ≤ B): Δ_n ≤ 2 B V_n / (r² + V_n).
double mean_sensitivity_b8(double r, double Vn, double rkhs_norm);

// Lemma B.2 (lower bound; a feature-map kernel on [0,1] with k(x,x) ≤ 1, n ≥ 2):
//   Δ_n ≥ M_Y (1 + r² + √(n−1)) / (r √(1+r²) (2 + r²))  — grows like √n.
double sensitivity_lower_bound_b2(long n, double r, double M_Y);
// Lemma B.3 (lower bound; points x0, x1 with k(x0,x0) = 1, k01 = k(x0,x1) > 0,
// k11 = k(x1,x1) > k01², responses y0 > 0 > y1):  Δ_n ≥ |y1| √(k11 − k01²) / (1 + r²).
double sensitivity_lower_bound_b3(double r, double abs_y1, double k11, double k01);

}  // namespace gpdp::privacy
