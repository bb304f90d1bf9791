// gpdp._core: the compiled part of the Python package (see python/gpdp/__init__.py).
// Library errors become Python exceptions with the C++ message:
//   gpdp::InputError -> gpdp.InputError (a ValueError), gpdp::PrivacyError -> gpdp.PrivacyError,
//   gpdp::NumericalError -> gpdp.NumericalError (an ArithmeticError), other gpdp::Error ->
//   gpdp.Error.
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "gpdp/error.hpp"
#include "gpdp/version.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "gpdp: differentially private Gaussian-process posterior sample paths (C++ core)";
  m.attr("__version__") = GPDP_VERSION_STRING;

  py::exec(R"(
class Error(RuntimeError):
    """Base class of gpdp errors (the C++ message is the text)."""
class InputError(Error, ValueError):
    """Malformed or out-of-range input (data, parameters, files); a ValueError."""
class PrivacyError(Error):
    """A privacy requirement cannot be met or would be violated."""
class NumericalError(Error, ArithmeticError):
    """A numerical procedure failed (e.g. a factorisation)."""
for _c in (Error, InputError, PrivacyError, NumericalError):
    _c.__module__ = "gpdp"
del _c
)",
           m.attr("__dict__"));
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    auto mod = py::module_::import("gpdp._core");
    try {
      std::rethrow_exception(p);
    } catch (const gpdp::InputError& e) {
      PyErr_SetString(mod.attr("InputError").ptr(), e.what());
    } catch (const gpdp::PrivacyError& e) {
      PyErr_SetString(mod.attr("PrivacyError").ptr(), e.what());
    } catch (const gpdp::NumericalError& e) {
      PyErr_SetString(mod.attr("NumericalError").ptr(), e.what());
    } catch (const gpdp::Error& e) {
      PyErr_SetString(mod.attr("Error").ptr(), e.what());
    }
  });

  gpdp::python::bind_core(m);
  auto privacy = m.def_submodule("privacy", "Rényi-DP accounting of GP posterior sampling");
  gpdp::python::bind_privacy(privacy);
  auto attack = m.def_submodule("attack", "The LiRA membership-inference experiment");
  gpdp::python::bind_attack(attack);
  auto experiments = m.def_submodule("experiments", "Excursion-set experiments");
  gpdp::python::bind_experiments(experiments);
  auto release = m.def_submodule("release", "Certified releases (the gpdp release command)");
  gpdp::python::bind_release(release);
  gpdp::python::bind_gis(m);
  auto preview = m.def_submodule(
      "preview", "Predicted utility of a release before any budget is spent (gpdp preview)");
  gpdp::python::bind_preview(preview);
}
