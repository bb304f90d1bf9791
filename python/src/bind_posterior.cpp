// gpdp._core.posterior: `gpdp posterior` from its JSON request (commands/posterior.hpp), the one
// reader and run the CLI uses; gpdp.posterior (python/gpdp/posterior.py) makes the request from
// keywords (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/posterior.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_posterior_command(py::module_& m) {
  def_command(
      m, "command", &commands::posterior_request_from_json, &commands::run_posterior_command,
      "The `gpdp posterior` command of a JSON request (text; gpdp.posterior.request makes one), "
      "read "
      "as the CLI reads it; writes its CSV (out). Errors name parameters. Returns report (what "
      "--json prints) and text (what the CLI prints without it).");
}

}  // namespace gpdp::python
