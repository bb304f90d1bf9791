// gpdp._core.command_options / parse_options: the commands' options as data (the library's one
// definition, lab/command_options.hpp: the product's and the research tools'), for
// python -m gpdp.distributed's argparse front end.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/lab/command_options.hpp"
#include "gpdp/options/parameter_spelling.hpp"

namespace gpdp::python {

namespace py = pybind11;

void bind_options(py::module_& m) {
  m.def(
      "command_options",
      [](const std::string& command) {
        nlohmann::json specs = nlohmann::json::array();
        for (const auto& spec : lab::command_options(command)) specs.push_back(to_json(spec));
        return specs.dump();
      },
      py::arg("command"),
      "The options of a command (gpdp[-lab] COMMAND and python -m gpdp.distributed COMMAND) as "
      "JSON text: a list of {flag, alias, type, default, default_text, required, help, key, "
      "parameter, scope}.");
  m.def(
      "option_commands", [] { return lab::option_commands(); },
      "The commands whose options gpdp._core.command_options lists.");
  m.def(
      "parse_options",
      [](const std::string& command, const options::GivenOptions& given, bool omit_defaults) {
        const auto parsed = options::parse_options(
            lab::command_options(command), given,
            omit_defaults ? options::RequestDefaults::Omitted : options::RequestDefaults::Written);
        return py::make_tuple(parsed.request.dump(), parsed.front_end.dump());
      },
      py::arg("command"), py::arg("given"), py::arg("omit_defaults") = false,
      "The command's request from the options given, [(long flag, [texts])]: (request JSON "
      "text, front-end options JSON text) — what the CLI builds from the same argv. "
      "omit_defaults: the request holds only the options given (gpdp release, preview, "
      "account, calibrate, query, sample, posterior: their readers apply the defaults).");
  m.def("spell_parameters", &options::spell_parameters, py::arg("message"), py::arg("parameters"),
        py::arg("spelling"),
        "The message with each of the parameters it names (whole words) spelled as `spelling` "
        "says, e.g. {'draws': '--draws'}: how a front end words a library error (the "
        "exception's .parameters).");
}

}  // namespace gpdp::python
