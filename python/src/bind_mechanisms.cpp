// gpdp._core.mechanisms: a release prepared once and drawn with seeds
// (release/prepared_release.hpp) — what the utility benchmark measures, through the same map
// mechanism `gpdp release` draws with.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/release/prepared_release.hpp"

namespace gpdp::python {

namespace {

using namespace gpdp::release;

nlohmann::json to_json(const py::object& obj) {
  return nlohmann::json::parse(
      py::str(py::module_::import("json").attr("dumps")(obj)).cast<std::string>());
}

py::object from_json(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

}  // namespace

void bind_mechanisms(py::module_& m) {
  py::class_<PreparedRelease>(m, "PreparedRelease",
                              "A release prepared once (validated, accounted, factorised); "
                              "release(seed) draws one seeded (NOT private) release.")
      .def_property_readonly(
          "epsilon", [](const PreparedRelease& p) { return p.guarantee().epsilon; },
          "ε(δ) of one release, every part composed")
      .def_property_readonly(
          "delta", [](const PreparedRelease& p) { return p.guarantee().delta; }, "δ")
      .def(
          "describe", [](const PreparedRelease& p) { return from_json(p.describe()); },
          "The certificate's account of the mechanism: kernel, theta, eta, mechanism, M_Y, "
          "sensitivity, draws, guarantee, parts (each event and its own ε), privacy_record, "
          "calibration.")
      .def(
          "release",
          [](PreparedRelease& p, std::uint64_t seed) {
            MapRelease r;
            {
              py::gil_scoped_release release;
              r = p.draw(seed);
            }
            py::dict d;
            d["fields"] = to_numpy(r.fields);
            d["set"] = to_numpy(r.set);
            d["probability"] = r.probability ? py::object(to_numpy(*r.probability)) : py::none();
            d["prior_mean"] = r.prior_mean ? py::object(py::float_(*r.prior_mean)) : py::none();
            d["auto"] = r.choice ? from_json(*r.choice) : py::none();
            return d;
          },
          py::arg("seed"),
          "One release drawn with SeededRng(seed) (NOT private): fields (m x L, model units), "
          "set (m, 1/0), probability (m or None: the grid mean's P(f ≥ t)), prior_mean (the "
          "prior mean m₀ the fields include, model units, or None), auto (mechanism auto: the "
          "choice's "
          "report, the certificate's 'auto' block; else None).");
  m.def(
      "prepare",
      [](const py::object& X, const py::object& y, const py::object& points,
         const std::optional<Grid>& grid, const py::dict& input, const py::dict& options) {
        const ReleaseRequest q =
            prepared_request(to_json(input), to_json(options), "gpdp.mechanisms.prepare");
        const Points x = to_points(X, "X");
        const Eigen::VectorXd raw = to_vector(y, "y", x.rows());
        require_parameter(points.is_none() != !grid.has_value(), "points",
                          "gpdp.mechanisms.prepare: give exactly one of points= and grid=");
        std::vector<std::string> names = q.input.x_columns;
        if (names.empty()) {
          for (Eigen::Index j = 0; j < x.cols(); ++j) names.push_back("x" + std::to_string(j + 1));
        }
        require_parameter(q.input.domain.has_value(), "domain",
                          "gpdp.mechanisms.prepare: input must declare the 'domain'");
        Evaluation e = grid ? evaluation_at(grid->points(), names, *q.input.domain)
                            : evaluation_at(to_points(points, "points", static_cast<int>(x.cols())),
                                            names, *q.input.domain);
        e.grid = grid;
        py::gil_scoped_release release;
        return PreparedRelease(q, x, raw, std::move(e));
      },
      py::kw_only(), py::arg("X"), py::arg("y"), py::arg("points") = py::none(),
      py::arg("grid") = py::none(), py::arg("input"), py::arg("options"),
      "Prepares a release on raw records X (n x d, declared coordinates), y (raw responses) at "
      "points (m x d) or on a grid: input = the --config keys (domain, M_Y, transform, center, "
      "scale, policy, ...), options = gpdp release's option names without '--' (mechanism, "
      "kernel, ell, r, sigma, eta, sensitivity, draws, vote-cutoff, target-epsilon, solve, delta, "
      "conversion, threshold, smooth, sampler, ...).");
}

}  // namespace gpdp::python
