// gpdp._core.ledger: `gpdp ledger show|export|migrate` from their JSON requests
// (commands/ledger.hpp), the readers and runs the CLI uses; gpdp.ledger (python/gpdp/ledger.py)
// makes the requests from keywords (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/ledger.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_ledger(py::module_& m) {
  def_command(
      m, "show", &commands::ledger_show_request_from_json, &commands::run_ledger_show,
      "`gpdp ledger show` of a JSON request: report (what --json prints) and text (the table).");
  def_command(
      m, "export", &commands::ledger_export_request_from_json, &commands::run_ledger_export,
      "`gpdp ledger export` of a JSON request: report (written to out when given) and text (what "
      "the CLI prints: the report's JSON without out, nothing with it).");
  m.def(
      "migrate",
      [](const std::string& request) {
        const auto c = commands::ledger_migrate_request_from_json(nlohmann::json::parse(request));
        py::gil_scoped_release release;
        return commands::run_ledger_migrate(c);
      },
      py::arg("request"),
      "`gpdp ledger migrate` of a JSON request: the lines the CLI prints (what was migrated, what "
      "is left).");
}

}  // namespace gpdp::python
