// gpdp._core.hexbin: `gpdp hexbin` from its JSON request (commands/hexbin.hpp), the one reader and
// run the CLI uses; gpdp.hexbin (python/gpdp/hexbin.py) makes the request from keywords
// (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/hexbin.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_hexbin_command(py::module_& m) {
  def_command(
      m, "command", &commands::hexbin_request_from_json, &commands::run_hexbin_command,
      "The `gpdp hexbin` command of a JSON request (text; gpdp.hexbin.request makes one), read as "
      "the CLI reads it: writes the cells' CSV. Errors name parameters. Returns report (what "
      "--json prints) and text (what the CLI prints without it).");
}

}  // namespace gpdp::python
