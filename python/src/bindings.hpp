#pragma once
// One registration function per area; module.cpp calls them in order.
#include <pybind11/pybind11.h>

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

}  // namespace gpdp::python
