#include "gpdp/tasks/registry.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gpdp/error.hpp"

namespace gpdp::tasks {

void Registry::add(const std::string& kind, TaskFunction function) {
  require(function != nullptr, fmt::format("task kind '{}': no function", kind));
  const bool added = functions_.emplace(kind, function).second;
  require(added, fmt::format("task kind '{}' is registered twice", kind));
}

void Registry::add(const std::vector<TaskKind>& kinds) {
  for (const auto& k : kinds) add(k.name, k.function);
}

nlohmann::json Registry::run(const Task& task) const {
  const auto it = functions_.find(task.kind);
  if (it == functions_.end()) {
    throw InputError(
        fmt::format("unknown task kind '{}' (known: {})", task.kind, fmt::join(kinds(), ", ")));
  }
  return it->second(task.params);
}

std::vector<std::string> Registry::kinds() const {
  std::vector<std::string> names;
  names.reserve(functions_.size());
  for (const auto& [kind, function] : functions_) names.push_back(kind);
  return names;
}

}  // namespace gpdp::tasks
