#include "gpdp/privacy/bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <queue>

#include "gpdp/error.hpp"

namespace gpdp::privacy {

namespace {
void check_common(long n, double r) {
  require(n >= 1, fmt::format("n must be ≥ 1, got {}", n));
  require(std::isfinite(r) && r > 0, fmt::format("r must be positive and finite, got {}", r));
}
void check_vn(double Vn) {
  require(std::isfinite(Vn) && Vn >= 0, fmt::format("V_n must be finite and ≥ 0, got {}", Vn));
}
void check_my(double M_Y) {
  require(std::isfinite(M_Y) && M_Y > 0,
          fmt::format("M_Y must be positive and finite, got {}", M_Y));
}
}  // namespace

std::string to_string(SensitivityLemma lemma) {
  switch (lemma) {
    case SensitivityLemma::B1:
      return "b1";
    case SensitivityLemma::B1Sharp:
      return "b1-sharp";
    case SensitivityLemma::B4:
      return "b4";
    case SensitivityLemma::B5:
      return "b5";
    case SensitivityLemma::B7:
      return "b7";
    case SensitivityLemma::B8:
      return "b8";
    case SensitivityLemma::User:
      return "user";
  }
  return "unknown";
}

SensitivityLemma parse_sensitivity_lemma(const std::string& name) {
  std::string s = name;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "b1" || s == "b.1") return SensitivityLemma::B1;
  if (s == "b1-sharp") return SensitivityLemma::B1Sharp;
  if (s == "b4" || s == "b.4") return SensitivityLemma::B4;
  if (s == "b5" || s == "b.5") return SensitivityLemma::B5;
  if (s == "b7" || s == "b.7") return SensitivityLemma::B7;
  if (s == "b8" || s == "b.8") return SensitivityLemma::B8;
  throw InputError(
      fmt::format("unknown sensitivity lemma '{}': expected b1, b1-sharp, b4, b5, b7 or b8 "
                  "(lower-bound lemmas B.2/B.3 "
                  "cannot certify privacy)",
                  name));
}

std::string lemma_assumptions(SensitivityLemma lemma) {
  switch (lemma) {
    case SensitivityLemma::B1:
      return "Lemma B.1 (generic): any kernel with k(x,x) ≤ 1, responses |y| ≤ M_Y; Δ_n = O(√n)";
    case SensitivityLemma::B1Sharp:
      return "Lemma S.1 (docs/proofs/b1-sharp.md, B.1 sharpened): any kernel with k(x,x) ≤ 1, "
             "responses |y| ≤ M_Y; Δ_n = O(√n) with a smaller constant";
    case SensitivityLemma::B4:
      return "Lemma B.4: constant kernel k ≡ 1, responses |y| ≤ M_Y; Δ_n = O(1/√n)";
    case SensitivityLemma::B5:
      return "Lemma B.5: purely diagonal kernel k(x,x') = q(x)1{x=x'}, 0 ≤ q ≤ 1, |y| ≤ M_Y; "
             "any dimension";
    case SensitivityLemma::B7:
      return "Lemma B.7: exponential kernel exp(-|x-x'|/ℓ) on an interval of R (1-D only), |y| ≤ "
             "M_Y";
    case SensitivityLemma::B8:
      return "Lemma B.8: noiseless responses y = f*(x) with f* in the RKHS of k, ‖f*‖_H ≤ B "
             "(no M_Y needed)";
    case SensitivityLemma::User:
      return "user-supplied Δ_n: its proof is the user's responsibility";
  }
  return "";
}

void check_lemma_applies(SensitivityLemma lemma, const std::optional<Kernel>& kernel, int dim) {
  require(dim >= 1, fmt::format("dimension must be ≥ 1, got {}", dim));
  const std::string kname = kernel ? kernel->name() : std::string("unspecified");
  auto refuse = [&](const std::string& needs) {
    throw PrivacyError(
        fmt::format("sensitivity lemma {} does not apply to kernel '{}' in {} "
                    "dimension(s): it is proven only for {}",
                    to_string(lemma), kname, dim, needs));
  };
  switch (lemma) {
    case SensitivityLemma::B1:
    case SensitivityLemma::B1Sharp:
    case SensitivityLemma::B8:
    case SensitivityLemma::User:
      return;
    case SensitivityLemma::B4:
      if (!kernel || kernel->family() != KernelFamily::Constant)
        refuse("the constant kernel k ≡ 1");
      return;
    case SensitivityLemma::B5:
      if (!kernel || kernel->family() != KernelFamily::Diagonal)
        refuse("the purely diagonal kernel");
      return;
    case SensitivityLemma::B7:
      if (!kernel || kernel->family() != KernelFamily::Exponential || dim != 1) {
        // Not merely unproven in d ≥ 2: docs/privacy.md ("Lemma B.7 does not carry over to 2-D")
        // exhibits a 2-D pair whose mean sensitivity exceeds B.7's 4 M_Y √Φ_n; the kernel depends
        // on distances only, so the same pair on a face of a higher-dimensional box does too.
        const bool false_there = kernel && kernel->family() == KernelFamily::Exponential;
        refuse(false_there
                   ? "the exponential kernel in one dimension (in d ≥ 2 it is false: a "
                     "concrete 2-D pair exceeds it, see docs/privacy.md; use b1 or b1-sharp)"
                   : "the exponential kernel in one dimension");
      }
      return;
  }
}

// Proposition 3.
double posterior_variance_scale(double kappa, long n, double r) {
  check_common(n, r);
  require(std::isfinite(kappa) && kappa >= 0 && kappa <= 1,
          fmt::format("κ must lie in [0, 1] (Proposition 3 needs a nonnegative kernel), got {}",
                      kappa));
  const double nm1 = static_cast<double>(n - 1);
  return 1.0 - kappa * kappa * nm1 / (nm1 + r * r);
}

// Lemma B.1 (definition of Φ_n).
double phi_n(double Vn, double r) {
  check_vn(Vn);
  require(std::isfinite(r) && r > 0, fmt::format("r must be positive and finite, got {}", r));
  const double r2 = r * r;
  if (Vn >= r2) return 1.0 / (4.0 * r2);
  const double s = Vn + r2;
  return Vn / (s * s);
}

// Lemma B.1.
double mean_sensitivity_b1(long n, double r, double Vn, double M_Y) {
  check_common(n, r);
  check_my(M_Y);
  return 2.0 * M_Y * (1.0 + std::sqrt(static_cast<double>(n - 1)) / r) * std::sqrt(phi_n(Vn, r));
}

// Lemma S.1 (docs/proofs/b1-sharp.md, Step 4). g1(v) = √v/(v + r²) increases up to v = r² and
// decreases after; g2(v) = v√(1−v)/(v + r²) increases up to the root v₂ of v² + 3r²v − 2r² and
// decreases after. On a piece [lo, hi] the supremum of each is at its mode clamped into the piece,
// so for ANY cover of [0, V'] by pieces, the maximum over the pieces of sup g1 + b·sup g2 bounds
// sup (g1 + b·g2) from above. Branch and bound: 64 pieces uniform in √v, then the piece with the
// largest bound is halved 512 times (every piece stays in the cover, so the result stays an upper
// bound; halving the maximal piece only tightens it).
double mean_sensitivity_b1_sharp(long n, double r, double Vn, double M_Y) {
  check_common(n, r);
  check_vn(Vn);
  check_my(M_Y);
  const double r2 = r * r, top = std::min(Vn, 1.0);
  const double b = std::sqrt(static_cast<double>(n - 1)) / r;
  const double mode2 = 4.0 * r2 / (3.0 * r2 + std::sqrt(9.0 * r2 * r2 + 8.0 * r2));
  struct Piece {
    double lo, hi, bound;
    bool operator<(const Piece& o) const { return bound < o.bound; }
  };
  auto piece = [&](double lo, double hi) {
    const double v1 = std::clamp(r2, lo, hi), v2 = std::clamp(mode2, lo, hi);
    return Piece{lo, hi, std::sqrt(v1) / (v1 + r2) + b * v2 * std::sqrt(1.0 - v2) / (v2 + r2)};
  };
  std::priority_queue<Piece> pieces;
  constexpr int kStart = 64;
  for (int j = 0; j < kStart; ++j) {
    const double a = static_cast<double>(j) / kStart, c = static_cast<double>(j + 1) / kStart;
    pieces.push(piece(top * a * a, j + 1 == kStart ? top : top * c * c));
  }
  for (int split = 0; split < 512; ++split) {
    const Piece worst = pieces.top();
    const double mid = 0.5 * (worst.lo + worst.hi);
    if (!(mid > worst.lo && mid < worst.hi)) break;  // as fine as doubles allow
    pieces.pop();
    pieces.push(piece(worst.lo, mid));
    pieces.push(piece(mid, worst.hi));
  }
  return 2.0 * M_Y * pieces.top().bound;
}

// Lemma B.4.
double mean_sensitivity_b4(long n, double r, double M_Y) {
  check_common(n, r);
  check_my(M_Y);
  const double r2 = r * r;
  const double nd = static_cast<double>(n);
  return 2.0 * M_Y * std::sqrt(r2 + nd - 1.0) / (r * (r2 + nd));
}

// Lemma B.5.
double mean_sensitivity_b5(double r, double M_Y) {
  check_common(1, r);
  check_my(M_Y);
  if (r <= 1.0) return std::sqrt(2.0) * M_Y / r;
  return 2.0 * std::sqrt(2.0) * M_Y / (1.0 + r * r);
}

// Lemma B.7.
double mean_sensitivity_b7(double r, double Vn, double M_Y) {
  check_my(M_Y);
  return 4.0 * M_Y * std::sqrt(phi_n(Vn, r));
}

// Lemma B.8.
double mean_sensitivity_b8(double r, double Vn, double rkhs_norm) {
  check_common(1, r);
  check_vn(Vn);
  require_parameter(
      std::isfinite(rkhs_norm) && rkhs_norm >= 0, "rkhs_norm",
      fmt::format("Lemma B.8 needs an RKHS norm bound B = ‖f*‖_H ≥ 0 (rkhs_norm), got {}",
                  rkhs_norm));
  return 2.0 * rkhs_norm * Vn / (r * r + Vn);
}

double mean_sensitivity(SensitivityLemma lemma, const SensitivityInputs& in) {
  switch (lemma) {
    case SensitivityLemma::B1:
      return mean_sensitivity_b1(in.n, in.r, in.Vn, in.M_Y);
    case SensitivityLemma::B1Sharp:
      return mean_sensitivity_b1_sharp(in.n, in.r, in.Vn, in.M_Y);
    case SensitivityLemma::B4:
      return mean_sensitivity_b4(in.n, in.r, in.M_Y);
    case SensitivityLemma::B5:
      return mean_sensitivity_b5(in.r, in.M_Y);
    case SensitivityLemma::B7:
      return mean_sensitivity_b7(in.r, in.Vn, in.M_Y);
    case SensitivityLemma::B8:
      return mean_sensitivity_b8(in.r, in.Vn, in.rkhs_norm);
    case SensitivityLemma::User:
      break;
  }
  throw InputError("mean_sensitivity: a user-supplied Δ_n has no formula; pass the value itself");
}

// Lemma B.2.
double sensitivity_lower_bound_b2(long n, double r, double M_Y) {
  check_common(n, r);
  check_my(M_Y);
  require(n >= 2, "Lemma B.2 needs n ≥ 2");
  const double r2 = r * r;
  return M_Y * (1.0 + r2 + std::sqrt(static_cast<double>(n - 1))) /
         (r * std::sqrt(1.0 + r2) * (2.0 + r2));
}

// Lemma B.3.
double sensitivity_lower_bound_b3(double r, double abs_y1, double k11, double k01) {
  check_common(1, r);
  require(abs_y1 > 0 && k01 > 0 && k11 - k01 * k01 > 0,
          "Lemma B.3 needs |y1| > 0, k(x0,x1) > 0 and k(x1,x1) − k(x0,x1)² > 0");
  return abs_y1 * std::sqrt(k11 - k01 * k01) / (1.0 + r * r);
}

}  // namespace gpdp::privacy
