// gpdp._core.calibrate: `gpdp calibrate` from its JSON request (commands/calibrate.hpp), the one
// reader and run the CLI uses; gpdp.calibrate (python/gpdp/calibrate.py) makes the request from
// keywords (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/calibrate.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_calibrate(py::module_& m) {
  def_command(
      m, "command", &commands::calibrate_request_from_json, &commands::run_calibrate_command,
      "The `gpdp calibrate` command of a JSON request (text; gpdp.calibrate.request makes one), "
      "read as the CLI reads it. Errors name parameters. Returns report (what --json prints) and "
      "text (what the CLI prints without it).");
}

}  // namespace gpdp::python
