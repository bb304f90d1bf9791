// gpdp._core.release.batch: the coordinator of python -m gpdp.distributed release-batch
// (release/batch.hpp). The ledger is opened and written here, in the coordinator's process; the
// draws go through `map_tasks` to the workers (release.draw tasks).
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/release/batch.hpp"

namespace gpdp::python {

void bind_release_batch(py::module_& m) {
  m.def(
      "batch",
      [](const std::string& manifest, const std::string& overrides, const std::string& ledger,
         const std::string& ledger_key, std::size_t wave, const py::function& map_tasks,
         const py::object& on_event) {
        const auto parsed = release::load_manifest(
            manifest, overrides.empty() ? nlohmann::json() : nlohmann::json::parse(overrides));
        auto executor = callback_executor(map_tasks);
        release::BatchOptions options{ledger, ledger_key, wave, nullptr};
        if (!on_event.is_none()) {
          options.on_event = [on_event](const nlohmann::json& event) {
            const py::gil_scoped_acquire gil;
            on_event(event.dump());
          };
        }
        nlohmann::json outcome;
        {
          const py::gil_scoped_release release;
          outcome = release::run_batch(parsed, options, executor);
        }
        return outcome.dump();
      },
      py::kw_only(), py::arg("manifest"), py::arg("overrides") = "", py::arg("ledger") = "",
      py::arg("ledger_key") = "", py::arg("wave") = 0, py::arg("map_tasks"),
      py::arg("on_event") = py::none(),
      "Runs a batch of releases (docs/release.md, 'Batch releases'): manifest is the JSON file, "
      "overrides a JSON object of options applied to every release (the command line's), "
      "map_tasks([(kind, params JSON)]) -> [CBOR bytes] runs the draws, on_event(JSON text) "
      "hears every step. Returns the outcome as JSON text.");
}

}  // namespace gpdp::python
