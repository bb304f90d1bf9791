#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/tasks/cbor.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::tasks {

namespace {
// Params travel as JSON text, which has no NaN or infinity (they would silently become null).
void require_finite(const nlohmann::json& value, const std::string& kind) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) {
    throw InputError(
        fmt::format("task '{}': a parameter is not finite ({})", kind, value.get<double>()));
  }
  if (value.is_structured()) {
    for (const auto& item : value) require_finite(item, kind);
  }
}
}  // namespace

CallbackExecutor::CallbackExecutor(Dispatch dispatch) : dispatch_(std::move(dispatch)) {
  require(static_cast<bool>(dispatch_), "callback executor: no dispatch function");
}

std::vector<nlohmann::json> CallbackExecutor::map(const std::vector<Task>& tasks,
                                                  const Progress& progress) {
  std::vector<std::pair<std::string, std::string>> described;
  described.reserve(tasks.size());
  for (const auto& task : tasks) {
    require_finite(task.params, task.kind);
    described.emplace_back(task.kind, task.params.dump());
  }
  const std::vector<std::string> bytes = dispatch_(described);
  require(bytes.size() == tasks.size(),
          fmt::format("callback executor: {} results for {} tasks", bytes.size(), tasks.size()));
  std::vector<nlohmann::json> results;
  results.reserve(bytes.size());
  for (const auto& b : bytes) results.push_back(from_cbor(b));
  const auto total = static_cast<long>(tasks.size());
  if (progress) progress(total, total);
  return results;
}

}  // namespace gpdp::tasks
