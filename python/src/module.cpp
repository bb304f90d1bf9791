// gpdp._core: the compiled part of the Python package (see python/gpdp/__init__.py).
// Every exception that leaves the library becomes one of these Python exceptions, with the C++
// message as its text and the parameters it names (gpdp::Error::parameters()) as its
// .parameters, a tuple (docs/python.md, "Errors"):
//   gpdp::InputError     -> gpdp.InputError (also a ValueError)
//   gpdp::PrivacyError   -> gpdp.PrivacyError
//   gpdp::NumericalError -> gpdp.NumericalError (also an ArithmeticError)
//   gpdp::ResourceError  -> gpdp.ResourceError (also a MemoryError): refused before allocating
//   any other gpdp::Error, and any other std::exception from the library -> gpdp.Error
//   std::bad_alloc       -> MemoryError
// All five gpdp classes derive from gpdp.Error (a RuntimeError). Arguments that cannot be converted
// (a wrong dtype or a wrong number of array dimensions) raise TypeError / ValueError in the
// bindings before the library is called; every other check is the library's own.
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gpdp/error.hpp"
#include "gpdp/version.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "gpdp: differentially private Gaussian-process posterior sample paths (C++ core)";
  m.attr("__version__") = GPDP_VERSION_STRING;

  py::exec(R"(
class Error(RuntimeError):
    """Base class of gpdp errors (the C++ message is the text; .parameters: the parameters it
    names, as the library spells them)."""
    parameters = ()
class InputError(Error, ValueError):
    """Malformed or out-of-range input (data, parameters, files); a ValueError."""
class PrivacyError(Error):
    """A privacy requirement cannot be met or would be violated."""
class NumericalError(Error, ArithmeticError):
    """A numerical procedure failed (e.g. a factorisation)."""
class ResourceError(Error, MemoryError):
    """Refused before allocating: the request needs more memory (or device) than is available;
    the message says what it needs, what is available and what to do instead."""
for _c in (Error, InputError, PrivacyError, NumericalError, ResourceError):
    _c.__module__ = "gpdp"
del _c
)",
           m.attr("__dict__"));
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    auto mod = py::module_::import("gpdp._core");
    // The Python exception of class `name` with the error's message and parameters.
    const auto raise = [&mod](const char* name, const gpdp::Error& e) {
      const py::object type = mod.attr(name);
      py::object exception = type(e.what());
      exception.attr("parameters") = py::tuple(py::cast(e.parameters()));
      PyErr_SetObject(type.ptr(), exception.ptr());
    };
    try {
      std::rethrow_exception(p);
    } catch (const gpdp::InputError& e) {
      raise("InputError", e);
    } catch (const gpdp::PrivacyError& e) {
      raise("PrivacyError", e);
    } catch (const gpdp::NumericalError& e) {
      raise("NumericalError", e);
    } catch (const gpdp::ResourceError& e) {
      raise("ResourceError", e);
    } catch (const gpdp::Error& e) {
      raise("Error", e);
    } catch (const py::builtin_exception&) {
      throw;  // TypeError, ValueError, ... raised by the bindings themselves
    } catch (const py::error_already_set&) {
      throw;  // a Python exception passing through (e.g. from a progress callback)
    } catch (const std::bad_alloc&) {
      throw;  // MemoryError
    } catch (const std::exception& e) {
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
  auto mechanisms = m.def_submodule(
      "mechanisms", "Releases prepared once and drawn with seeds (the utility benchmark)");
  gpdp::python::bind_mechanisms(mechanisms);
  gpdp::python::bind_gis(m);
  auto preview = m.def_submodule(
      "preview", "Predicted utility of a release before any budget is spent (gpdp preview)");
  gpdp::python::bind_preview(preview);
  auto account = m.def_submodule(
      "account", "The (ε, δ) of L released sample paths, with its bounds and risk (gpdp account)");
  gpdp::python::bind_account(account);
  auto calibrate = m.def_submodule(
      "calibrate",
      "The smallest r, η, σ or s, or the largest L, meeting a target (gpdp calibrate)");
  gpdp::python::bind_calibrate(calibrate);
  auto hexbin = m.def_submodule(
      "hexbin", "Point records aggregated to hexagons over a declared box (gpdp hexbin)");
  gpdp::python::bind_hexbin_command(hexbin);
  auto query = m.def_submodule(
      "query", "A kept released path at new points, no budget consumed (gpdp query)");
  gpdp::python::bind_query(query);
  auto ledger =
      m.def_submodule("ledger", "The privacy-budget ledger: show, export, migrate (gpdp ledger)");
  gpdp::python::bind_ledger(ledger);
  auto sample = m.def_submodule(
      "sample", "Exact draws of the posterior path on points or a grid (gpdp sample)");
  gpdp::python::bind_sample_command(sample);
  auto posterior = m.def_submodule(
      "posterior", "Posterior mean, variance and p_exceed on points or a grid (gpdp posterior)");
  gpdp::python::bind_posterior_command(posterior);
  gpdp::python::bind_tasks(m);
  gpdp::python::bind_options(m);
  gpdp::python::bind_reproduce(m);
}
