#pragma once
// A StudySpec as JSON and back, exactly (the params of the utility study's tasks: a worker
// rebuilds the spec, and from it the pairs, from these). Numbers are written in the shortest form
// that reads back to the same double.
#include <nlohmann/json.hpp>

#include "gpdp/experiments/utility_study.hpp"

namespace gpdp::experiments {

nlohmann::json study_spec_to_json(const StudySpec& spec);
StudySpec study_spec_from_json(const nlohmann::json& json);

}  // namespace gpdp::experiments
