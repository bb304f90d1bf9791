// gpdp._core.release: `gpdp release` as a library call (secure RNG, ledger, atomic outputs), from
// the same JSON request as the CLI's (release/request_from_json.hpp; python/gpdp/release.py turns
// keyword arguments into it).
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/preview/release_config.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/release.hpp"
#include "gpdp/release/request_from_json.hpp"

namespace gpdp::python {

namespace {

using namespace gpdp::release;

py::object from_json(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

}  // namespace

void bind_release(py::module_& m) {
  m.def(
      "vote_fraction",
      [](const py::object& paths, double level) {
        return to_numpy(vote_fraction(to_points(paths, "paths"), level));
      },
      py::arg("paths"), py::arg("level") = 0.0,
      "Share of the paths (columns) with f(x) ≥ level at each point (row).");
  m.def(
      "vote_set",
      [](const py::object& fractions, double cutoff) {
        return to_numpy(vote_set(to_vector(fractions, "fractions"), cutoff));
      },
      py::arg("fractions"), py::arg("cutoff") = 0.5,
      "0/1 indicator of {x : fraction ≥ cutoff}, cutoff in (0, 1] (the released set of L paths).");
  m.def(
      "smooth_fields",
      [](const py::object& fields, const Grid& grid, double bandwidth) {
        return to_numpy(smooth_fields(to_points(fields, "fields"), grid, bandwidth));
      },
      py::arg("fields"), py::arg("grid"), py::arg("bandwidth"),
      "Gaussian filter of each column (values on grid.points(), NaN = blank) with standard "
      "deviation `bandwidth` in coordinate units; cells beyond the edge or blank are left out and "
      "the weights renormalised (the `gpdp release --smooth` post-processing).");
  m.def(
      "run",
      [](const std::string& request) {
        const auto q = release_request_from_json(nlohmann::json::parse(request), {},
                                                 &preview::apply_preview_config);
        ReleaseOutcome o;
        {
          py::gil_scoped_release release;
          o = run_release(q);
        }
        py::dict d;
        d["summary"] = from_json(o.summary);
        d["certificate"] = from_json(o.certificate);
        d["files"] = o.files;
        return d;
      },
      py::arg("request"),
      "A certified release (the `gpdp release` command) of a JSON request (text; "
      "gpdp.release.request makes one): validates, accounts, draws with the secure RNG, records "
      "the release under the named dataset in the ledger, then writes the output folder "
      "atomically. Errors name parameters. Returns summary, certificate, files.");
  bind_release_batch(m);
}

}  // namespace gpdp::python
