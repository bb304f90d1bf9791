// gpdp._core.posterior: `gpdp posterior` from its JSON request (commands/posterior.hpp), the one
// reader and run the CLI uses; gpdp.posterior (python/gpdp/posterior.py) makes the request from
// keywords (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/posterior.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_posterior_command(py::module_& m) {
  m.def(
      "command",
      [](const std::string& request) {
        const auto c = commands::posterior_request_from_json(nlohmann::json::parse(request));
        commands::PosteriorOutcome o;
        {
          py::gil_scoped_release release;
          o = commands::run_posterior_command(c);
        }
        py::dict d;
        d["report"] = py::module_::import("json").attr("loads")(o.report.dump());
        d["text"] = o.text;
        return d;
      },
      py::arg("request"),
      "The `gpdp posterior` command of a JSON request (text; gpdp.posterior.request makes one), "
      "read "
      "as the CLI reads it; writes its CSV (out). Errors name parameters. Returns report (what "
      "--json prints) and text (what the CLI prints without it).");
}

}  // namespace gpdp::python
