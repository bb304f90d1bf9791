// gpdp._core.query: `gpdp query` from its JSON request (commands/query.hpp), the one reader and
// run the CLI uses; gpdp.query (python/gpdp/query.py) makes the request from keywords
// (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/query.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_query(py::module_& m) {
  def_command(
      m, "command", &commands::query_request_from_json, &commands::run_query_command,
      "The `gpdp query` command of a JSON request (text; gpdp.query.request makes one), read as "
      "the CLI reads it: the kept path answers the new points (written to out) conditionally on "
      "its earlier answers, no budget consumed. Errors name parameters. Returns report (what "
      "--json prints) and text (what the CLI prints without it).");
}

}  // namespace gpdp::python
