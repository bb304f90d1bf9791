// gpdp._core.sample: `gpdp sample` from its JSON request (commands/sample.hpp), the one reader
// and run the CLI uses; gpdp.sample (python/gpdp/sample.py) makes the request from keywords
// (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/sample.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_sample_command(py::module_& m) {
  def_command(
      m, "command", &commands::sample_request_from_json,
      [](const commands::SampleCommand& c) { return commands::run_sample_command(c); },
      "The `gpdp sample` command of a JSON request (text; gpdp.sample.request makes one), read "
      "as the CLI reads it; writes its CSV (out). Errors name parameters. Returns report (what "
      "--json prints) and text (what the CLI prints without it).");
}

}  // namespace gpdp::python
