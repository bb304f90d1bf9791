#pragma once
// The utility study (utility_study.hpp) as task lists over chunks of pairs: what the coordinator
// (utility_study.cpp) and the task functions (utility_tasks.cpp) share (the θ, matrix and
// evaluate-call conversions also serve the public search's tasks, public_search_tasks.cpp). A chunk
// is pairs [first, last) of one population; pair j draws from the stream (seed, stream + j), so a
// worker regenerates the pairs it needs instead of receiving them, and results do not depend on how
// the pairs are chunked or where the chunks run.
#include <Eigen/Core>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "gpdp/experiments/search.hpp"

namespace gpdp::experiments::chunks {

// Independent streams: population pairs, validation pairs, release draws, validation draws.
inline constexpr std::uint64_t kPopulationStream = 0;
inline constexpr std::uint64_t kValidationStream = 1ULL << 40;
inline constexpr std::uint64_t kReleaseStream = 2ULL << 40;
inline constexpr std::uint64_t kValidationReleaseStream = 3ULL << 40;

// The excursion level of the synthetic fields.
inline constexpr double kThreshold = 0.0;

// Task kinds (one chunk each).
inline constexpr const char* kGenerate = "utility.generate";      // -> {"pairs"}
inline constexpr const char* kSearch = "utility.search";          // -> {"bce", "reductions", ...}
inline constexpr const char* kValidation = "utility.validation";  // -> {"iou_C", "iou_c"}
inline constexpr const char* kRelease = "utility.release";        // -> {"pairs", "examples", ...}

nlohmann::json theta_to_json(const Theta& t);
Theta theta_from_json(const nlohmann::json& j);
std::vector<Theta> thetas_from_json(const nlohmann::json& j);

// One ExcursionObjective::evaluate call as data, {thetas, speculative, keep} (what a search task
// runs, and what it replays of the earlier rounds), and that call made on `objective`.
nlohmann::json evaluate_call_json(const std::vector<Theta>& thetas,
                                  const std::vector<std::pair<double, double>>& speculative,
                                  bool keep);
Eigen::MatrixXd evaluate_call(const ExcursionObjective& objective, const nlohmann::json& call);
// Matrices (and vectors) exactly: {"rows", "cols", "data" (column-major)}.
nlohmann::json matrix_to_json(const Eigen::MatrixXd& m);
Eigen::MatrixXd matrix_from_json(const nlohmann::json& j);

}  // namespace gpdp::experiments::chunks
