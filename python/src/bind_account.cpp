// gpdp._core.account: `gpdp account` from its JSON request (commands/account.hpp), the one
// reader and run the CLI uses; gpdp.account (python/gpdp/account.py) makes the request from
// keywords (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/account.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_account(py::module_& m) {
  m.def(
      "command",
      [](const std::string& request) {
        const auto c = commands::account_request_from_json(nlohmann::json::parse(request));
        commands::AccountOutcome o;
        {
          py::gil_scoped_release release;
          o = commands::run_account_command(c);
        }
        py::dict d;
        d["report"] = py::module_::import("json").attr("loads")(o.report.dump());
        d["text"] = o.text;
        d["note"] = o.note;
        return d;
      },
      py::arg("request"),
      "The `gpdp account` command of a JSON request (text; gpdp.account.request makes one), read "
      "as the CLI reads it. Errors name parameters. Returns report (what --json prints), text "
      "(what the CLI prints without it) and note (what it notes on stderr; may be empty).");
}

}  // namespace gpdp::python
