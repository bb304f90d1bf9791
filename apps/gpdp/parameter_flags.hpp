#pragma once
// The library names parameters (ParameterError: "delta must lie in (0, 1)"); the CLI speaks in
// flags. This maps the one vocabulary onto the other for error messages.
#include <string>

#include "gpdp/error.hpp"

namespace gpdp::cli {

// The flag spelling of a library parameter ("out_dir" -> "--out"); the name itself if unknown.
std::string flag_of(const std::string& parameter);
// e.what() with every named parameter (whole words) replaced by its flag.
std::string with_flags(const Error& e);

}  // namespace gpdp::cli
