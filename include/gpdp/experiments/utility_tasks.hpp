#pragma once
// The task kinds of the utility study (run_study, utility_study.hpp): utility.generate,
// utility.search, utility.validation and utility.release, each over one chunk of pairs
// (docs/scale.md). Added to the builtin registry by src/commands/builtin_tasks.cpp.
#include <vector>

#include "gpdp/tasks/task.hpp"

namespace gpdp::experiments {

std::vector<tasks::TaskKind> utility_tasks();

// Frees what this process keeps of the study its utility tasks last worked on (its pairs and the
// search's per-pair state); later tasks regenerate and replay what they need, with the same
// results.
void forget_utility_task_state();

}  // namespace gpdp::experiments
