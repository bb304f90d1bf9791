#pragma once
// One registration function per area; module.cpp calls them in order.
#include <pybind11/pybind11.h>

namespace gpdp::python {

void bind_core(pybind11::module_& m);
void bind_privacy(pybind11::module_& m);
void bind_attack(pybind11::module_& m);
void bind_experiments(pybind11::module_& m);
void bind_release(pybind11::module_& m);
void bind_gis(pybind11::module_& m);
void bind_preview(pybind11::module_& m);

}  // namespace gpdp::python
