// gpdp._core.account: `gpdp account` from its JSON request (commands/account.hpp), the one
// reader and run the CLI uses; gpdp.account (python/gpdp/account.py) makes the request from
// keywords (gpdp._core.parse_options, as the CLI's parser).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/commands/account.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_account(py::module_& m) {
  def_command(
      m, "command", &commands::account_request_from_json, &commands::run_account_command,
      "The `gpdp account` command of a JSON request (text; gpdp.account.request makes one), read "
      "as the CLI reads it. Errors name parameters. Returns report (what --json prints), text "
      "(what the CLI prints without it) and note (what it notes on stderr; may be empty).");
}

}  // namespace gpdp::python
