// gpdp._core.calibrate: `gpdp calibrate` from its JSON request (commands/calibrate.hpp), the one
// reader and run the CLI uses; gpdp.calibrate (python/gpdp/calibrate.py) makes the request from
// keywords (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/calibrate.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_calibrate(py::module_& m) {
  m.def(
      "command",
      [](const std::string& request) {
        const auto c = commands::calibrate_request_from_json(nlohmann::json::parse(request));
        commands::CalibrateOutcome o;
        {
          py::gil_scoped_release release;
          o = commands::run_calibrate_command(c);
        }
        py::dict d;
        d["report"] = py::module_::import("json").attr("loads")(o.report.dump());
        d["text"] = o.text;
        return d;
      },
      py::arg("request"),
      "The `gpdp calibrate` command of a JSON request (text; gpdp.calibrate.request makes one), "
      "read as the CLI reads it. Errors name parameters. Returns report (what --json prints) and "
      "text (what the CLI prints without it).");
}

}  // namespace gpdp::python
