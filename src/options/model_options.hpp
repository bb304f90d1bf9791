#pragma once
// The option groups that describe the GP model, shared by several commands so that --kernel,
// --ell, --r, --sigma, --eta mean the same everywhere (the CLI's add_kernel_options /
// add_hyper_options read their help from here). Defaults are the caller's (its request struct's).
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::options {

// --kernel, --ell
std::vector<OptionSpec> kernel_options(const std::string& kernel, double ell);
// --r, --sigma, --eta
std::vector<OptionSpec> hyper_options(double r, double sigma, double eta);

// `a` followed by `b`.
std::vector<OptionSpec> concat(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b);

}  // namespace gpdp::options
