// gpdp._core.reproduce: the library's reproductions (gpdp/reproduce) with their task lists sent to
// a Python `map_tasks` callable: what `python -m gpdp.distributed reproduce` runs on the
// coordinator.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/error.hpp"
#include "gpdp/reproduce/command.hpp"
#include "gpdp/reproduce/targets.hpp"

namespace gpdp::python {

void bind_reproduce(py::module_& m) {
  m.def(
      "reproduce_targets",
      [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& r : reproduce::all_targets()) {
          out.emplace_back(r.target.name, r.target.description);
        }
        return out;
      },
      "The targets gpdp._core.reproduce runs: [(name, description)].");
  m.def(
      "reproduce_request",
      [](const std::string& request) {
        const auto r = reproduce::reproduce_request_from_json(nlohmann::json::parse(request));
        return py::make_tuple(r.target, r.list);
      },
      py::arg("request"),
      "Reads and checks a reproduce request (JSON of the flags, reproduce/command.hpp) as "
      "gpdp-lab does: (target, list); target '' when none is named.");
  m.def(
      "reproduce",
      [](const std::string& request, const py::function& map_tasks, int workers) {
        auto parsed = reproduce::reproduce_request_from_json(nlohmann::json::parse(request));
        require_parameter(!parsed.list && !parsed.target.empty(), "target",
                          "reproduce: name a target");
        parsed.options.threads = workers;
        tasks::CallbackExecutor executor = callback_executor(map_tasks);
        const py::gil_scoped_release release;
        reproduce::run_request(parsed, executor);
      },
      py::arg("request"), py::arg("map_tasks"), py::kw_only(), py::arg("workers") = 1,
      "Runs `gpdp-lab reproduce TARGET` with its task lists sent to map_tasks([(kind, params "
      "JSON)]) -> [CBOR bytes] (in task order): request = JSON of the flags (what "
      "--print-request prints, reproduce/command.hpp; it names a target); `workers` sizes the "
      "task lists (about 4 chunks each). Creates out and writes the files the CLI writes.");
}

}  // namespace gpdp::python
