#pragma once
// Typed errors. Every message is written for the user: it names the file, line, field or
// parameter at fault. The CLI prints what() on one line of stderr and exits non-zero.
#include <stdexcept>
#include <string>

namespace gpdp {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Malformed or out-of-range user input: files, flags, parameters.
class InputError : public Error {
 public:
  using Error::Error;
};

// A privacy requirement cannot be met or would be violated (budget exceeded, infeasible target,
// a bound applied outside its assumptions).
class PrivacyError : public Error {
 public:
  using Error::Error;
};

// A numerical procedure failed (factorisation of a matrix that should be positive definite, ...).
class NumericalError : public Error {
 public:
  using Error::Error;
};

// Throws InputError(message) unless condition holds.
inline void require(bool condition, const std::string& message) {
  if (!condition) throw InputError(message);
}

}  // namespace gpdp
