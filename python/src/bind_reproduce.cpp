// gpdp._core.reproduce: the library's reproductions (gpdp/reproduce) with their task lists sent to
// a Python `map_tasks` callable: what `python -m gpdp.distributed reproduce` runs on the
// coordinator.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
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
      "reproduce",
      [](const std::string& target, const py::function& map_tasks, const std::string& out_dir,
         bool quick, long pairs, std::uint64_t seed, int workers, const std::string& conversion,
         const std::string& sensitivity, const std::string& data_dir) {
        reproduce::Options options{out_dir, quick,      pairs,       seed,
                                   workers, conversion, sensitivity, data_dir};
        tasks::CallbackExecutor executor = callback_executor(map_tasks);
        const py::gil_scoped_release release;
        reproduce::run_target(target, options, executor);
      },
      py::arg("target"), py::arg("map_tasks"), py::kw_only(), py::arg("out_dir"),
      py::arg("quick") = false, py::arg("pairs") = 0, py::arg("seed") = 20260616,
      py::arg("workers") = 1, py::arg("conversion") = "mironov", py::arg("sensitivity") = "",
      py::arg("data_dir") = "",
      "Runs `gpdp-lab reproduce TARGET` with its task lists sent to map_tasks([(kind, params "
      "JSON)]) "
      "-> [CBOR bytes] (in task order); `workers` sizes the task lists (about 4 chunks each). "
      "Writes the files the CLI writes into out_dir (which must exist).");
}

}  // namespace gpdp::python
