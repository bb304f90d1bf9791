// gpdp._core.hexbin: `gpdp hexbin` from its JSON request (commands/hexbin.hpp), the one reader and
// run the CLI uses; gpdp.hexbin (python/gpdp/hexbin.py) makes the request from keywords
// (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/hexbin.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_hexbin_command(py::module_& m) {
  m.def(
      "command",
      [](const std::string& request) {
        const auto c = commands::hexbin_request_from_json(nlohmann::json::parse(request));
        commands::HexbinOutcome o;
        {
          py::gil_scoped_release release;
          o = commands::run_hexbin_command(c);
        }
        py::dict d;
        d["report"] = py::module_::import("json").attr("loads")(o.report.dump());
        d["text"] = o.text;
        return d;
      },
      py::arg("request"),
      "The `gpdp hexbin` command of a JSON request (text; gpdp.hexbin.request makes one), read as "
      "the CLI reads it: writes the cells' CSV. Errors name parameters. Returns report (what "
      "--json prints) and text (what the CLI prints without it).");
}

}  // namespace gpdp::python
