// gpdp._core.run_task and the task seam (gpdp/tasks): what a gpdp.distributed worker runs, and the
// executor through which the C++ drivers, running in a Python coordinator, dispatch their task
// lists to a Python `map_tasks` callable (Dask, a process pool, ...).
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/tasks/cbor.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::python {

tasks::CallbackExecutor callback_executor(const py::function& map_tasks) {
  return tasks::CallbackExecutor(
      [map_tasks](const std::vector<std::pair<std::string, std::string>>& described) {
        const py::gil_scoped_acquire gil;
        const py::list results = map_tasks(described);
        std::vector<std::string> bytes;
        bytes.reserve(results.size());
        for (const auto& r : results) bytes.push_back(r.cast<std::string>());
        return bytes;
      });
}

void bind_tasks(py::module_& m) {
  m.def(
      "run_task",
      [](const std::string& kind, const std::string& params) {
        std::string bytes;
        {
          const py::gil_scoped_release release;
          bytes = tasks::to_cbor(lab::run_task({kind, nlohmann::json::parse(params)}));
        }
        return py::bytes(bytes);
      },
      py::arg("kind"), py::arg("params"),
      "Runs one task of the library (kind, params as JSON text) and returns its result as CBOR "
      "bytes (doubles exact). What a gpdp.distributed worker runs.");
  m.def(
      "task_kinds", [] { return lab::registry().kinds(); },
      "The task kinds gpdp._core.run_task knows.");
}

}  // namespace gpdp::python
