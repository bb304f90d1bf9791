#pragma once
// Shared by the utility reproduction targets (reproduce_utility*.cpp).
#include <string>

#include "gpdp/experiments/utility_study.hpp"
#include "reproduce.hpp"

namespace gpdp::cli {

// The StudySpec of one setting at the scale asked for (--quick, --pairs, --seed, --conversion).
experiments::StudySpec utility_study_spec(int dim, double nsr, long n, const ReproduceOptions& o,
                                          const std::string& label);
std::string utility_run_header(const experiments::StudySpec& s, const ReproduceOptions& o,
                               const std::string& target);

}  // namespace gpdp::cli
