#pragma once
// One registration function per area; module.cpp calls them in order.
#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>
#include <string>

#include "gpdp/tasks/executor.hpp"

namespace gpdp::python {

void bind_core(pybind11::module_& m);
void bind_privacy(pybind11::module_& m);
void bind_attack(pybind11::module_& m);
void bind_experiments(pybind11::module_& m);
void bind_release(pybind11::module_& m);
void bind_release_batch(pybind11::module_& m);  // into the release submodule
void bind_mechanisms(pybind11::module_& m);
void bind_gis(pybind11::module_& m);
void bind_preview(pybind11::module_& m);
void bind_account(pybind11::module_& m);
void bind_hexbin_command(pybind11::module_& m);
void bind_ledger(pybind11::module_& m);
void bind_calibrate(pybind11::module_& m);
void bind_query(pybind11::module_& m);
void bind_sample_command(pybind11::module_& m);
void bind_posterior_command(pybind11::module_& m);
void bind_tasks(pybind11::module_& m);
void bind_options(pybind11::module_& m);
void bind_reproduce(pybind11::module_& m);

// The executor of a driver called from Python: `map_tasks([(kind, params JSON)]) -> [CBOR bytes]`
// (gpdp.distributed.scheduler.map_tasks bound to an executor), called with the GIL held.
tasks::CallbackExecutor callback_executor(const pybind11::function& map_tasks);

// A command's outcome as Python sees it: report (what the CLI's --json prints, as Python data),
// text (what it prints without), and note when the outcome has one.
template <class Outcome>
pybind11::dict outcome_dict(const Outcome& o) {
  pybind11::dict d;
  d["report"] = pybind11::module_::import("json").attr("loads")(o.report.dump());
  d["text"] = o.text;
  if constexpr (requires { o.note; }) d["note"] = o.note;
  return d;
}

// Binds `m.name(request)`: a declared command run from its JSON request text, read by the
// command's one reader (read: JSON -> typed request, as the CLI reads it) and run by its driver
// (run) with the GIL released; returns outcome_dict of what it returns.
template <class Read, class Run>
void def_command(pybind11::module_& m, const char* name, Read read, Run run, const char* doc) {
  m.def(
      name,
      [read, run](const std::string& request) {
        const auto c = read(nlohmann::json::parse(request));
        decltype(run(c)) o;
        {
          pybind11::gil_scoped_release release;
          o = run(c);
        }
        return outcome_dict(o);
      },
      pybind11::arg("request"), doc);
}

}  // namespace gpdp::python
