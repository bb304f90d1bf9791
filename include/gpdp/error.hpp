#pragma once
// Typed errors. Every message is written for the user: it names the file, line, field or
// parameter at fault. The CLI prints what() on one line of stderr and exits non-zero.
//
// A message names parameters as the library spells them (e.g. "delta must lie in (0, 1), got 0"),
// never a command-line flag; an error that names parameters lists them in parameters(), and each
// front end maps those names to its own spelling (the CLI turns `delta` into `--delta`, `out_dir`
// into `--out`).
#include <stdexcept>
#include <string>
#include <vector>

namespace gpdp {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, std::vector<std::string> parameters = {})
      : std::runtime_error(message), parameters_(std::move(parameters)) {}
  // The parameters named in the message (library spelling), if any.
  const std::vector<std::string>& parameters() const { return parameters_; }

 private:
  std::vector<std::string> parameters_;
};

// Malformed or out-of-range user input: files, flags, parameters.
class InputError : public Error {
 public:
  using Error::Error;
};

// A parameter of a library call is wrong; the message names it (and lists it in parameters()).
class ParameterError : public InputError {
 public:
  ParameterError(std::vector<std::string> parameters, const std::string& message)
      : InputError(message, std::move(parameters)) {}
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

// A request needs more of the machine than it has (memory for a dense factorisation, ...): refused
// before anything is allocated, with what it needs, what is available and what to do instead.
class ResourceError : public Error {
 public:
  using Error::Error;
};

// Throws InputError(message) unless condition holds.
inline void require(bool condition, const std::string& message) {
  if (!condition) throw InputError(message);
}

// Throws ParameterError({parameter}, message) unless condition holds; `message` names `parameter`.
inline void require_parameter(bool condition, const std::string& parameter,
                              const std::string& message) {
  if (!condition) throw ParameterError({parameter}, message);
}

}  // namespace gpdp
