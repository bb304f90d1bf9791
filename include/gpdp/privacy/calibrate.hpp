#pragma once
// Calibration (docs/mathematics.md §2): the smallest r, smallest η, smallest σ, smallest noise
// scale s (functional mechanism) or largest number of draws L such that L draws of a GP mechanism
// meet a target (ε₀, δ) under a stated conversion. The root finder runs on the exact accountant: a
// log-spaced scan finds the FIRST value that meets the target (so a non-monotone ε, e.g. in σ when
// η > 0, cannot make it skip a smaller solution at scan
// resolution), then TOMS 748 narrows the crossing and the feasible end of the final bracket is
// returned. The returned value is re-accounted and verified: achieved.epsilon ≤ ε₀ always.
#include <string>

#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::privacy {

enum class CalibrationParameter { R, Eta, Draws, Sigma, Noise };
std::string to_string(CalibrationParameter p);  // "r" | "eta" | "draws" | "sigma" | "noise"
CalibrationParameter parse_calibration_parameter(const std::string& name);

struct CalibrationTarget {
  double epsilon = 1.0;  // ε₀ > 0
  double delta = 1e-5;   // 0 < δ < 1
  Conversion conversion = kDefaultConversion;
};

struct Calibration {
  CalibrationParameter parameter = CalibrationParameter::R;
  double value = 0.0;     // the solution (for Draws, an integer)
  GpMechanism mechanism;  // the input with the solved parameter set
  long draws = 1;
  Guarantee achieved;  // ε of the solution: ≤ target.epsilon
  std::string note;    // e.g. "η = 0 already meets the target"
};

// Throws PrivacyError("infeasible: <reason>") when no value in the searched range meets the target,
// InputError for bad inputs (also: solving r with a user-supplied V_n or Δ_n, which hold at one r).
Calibration calibrate(const GpMechanism& m, long draws, CalibrationParameter what,
                      const CalibrationTarget& target);
// The same for a release with other parts: `also` holds the events composed with L draws of m
// (e.g. a private prior mean); the COMPOSITION meets the target, and `achieved` is its ε.
Calibration calibrate(const GpMechanism& m, long draws, CalibrationParameter what,
                      const CalibrationTarget& target, const Accountant& also);

}  // namespace gpdp::privacy
