// gpdp._core.release: `gpdp release` / `gpdp query` as library calls (secure RNG, ledger, atomic
// outputs). The input description is the same JSON object as the CLI's --config file.
#include <pybind11/stl.h>

#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/release.hpp"

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
      [](const std::string& data, const std::string& out_dir, const py::dict& input,
         const std::string& dataset, const std::string& ledger, const std::string& kernel,
         double ell, double r, double sigma, double eta, const std::string& sensitivity, int draws,
         double delta, const std::string& conversion, std::optional<double> target_epsilon,
         const std::string& solve, double threshold, double vote_cutoff,
         std::optional<std::string> grid, const std::string& points, const std::string& sampler,
         const std::string& image_format, const std::string& ledger_key,
         std::optional<std::pair<double, double>> budget, const std::vector<double>& budget_orders,
         bool new_dataset_despite_overlap, std::optional<std::uint64_t> insecure_seed,
         std::optional<double> snap_covariates) {
        ReleaseRequest q;
        q.data_path = data;
        q.out_dir = out_dir;
        const std::string text = py::str(py::module_::import("json").attr("dumps")(input));
        q.input = parse_input_config(text, "input");
        q.dataset = dataset;
        q.new_dataset_despite_overlap = new_dataset_despite_overlap;
        q.mechanism.kernel = Kernel::from_name(kernel, ell);
        q.mechanism.r = r;
        q.mechanism.sigma = sigma;
        q.mechanism.eta = eta;
        q.mechanism.lemma = privacy::parse_sensitivity_lemma(sensitivity);
        q.draws = draws;
        q.delta = delta;
        q.conversion = privacy::parse_conversion(conversion);
        if (target_epsilon) {
          q.calibration = CalibrationGoal{
              privacy::parse_calibration_parameter(solve.empty() ? "r" : solve), *target_epsilon};
        }
        q.threshold = threshold;
        q.vote_cutoff = vote_cutoff;
        if (grid) {
          q.evaluation = GridPoints{Grid::parse(*grid), ""};
        } else {
          q.evaluation = FilePoints{points};
        }
        q.sampler = parse_sampler_method(sampler);
        q.snap_covariates = snap_covariates;
        q.image_format = parse_image_format(image_format);
        q.ledger_path = ledger;
        q.ledger_key_path = ledger_key;
        if (budget) {
          q.budget = Budget{budget->first, budget->second};
          q.budget_orders = budget_orders;
        }
        q.insecure_seed = insecure_seed;
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
      py::kw_only(), py::arg("data"), py::arg("out_dir"), py::arg("input"), py::arg("dataset"),
      py::arg("ledger"), py::arg("kernel") = "exp", py::arg("ell") = 1.0, py::arg("r") = 1.0,
      py::arg("sigma") = 1.0, py::arg("eta") = 0.0, py::arg("sensitivity") = "b1-sharp",
      py::arg("draws") = 1, py::arg("delta"), py::arg("conversion") = "cks",
      py::arg("target_epsilon") = py::none(), py::arg("solve") = "", py::arg("threshold") = 0.0,
      py::arg("vote_cutoff") = 0.5, py::arg("grid") = py::none(), py::arg("points") = "",
      py::arg("sampler") = "auto", py::arg("image_format") = "png", py::arg("ledger_key") = "",
      py::arg("budget") = py::none(), py::arg("budget_orders") = std::vector<double>{},
      py::arg("new_dataset_despite_overlap") = false, py::arg("insecure_seed") = py::none(),
      py::arg("snap_covariates") = py::none(),
      "A certified release (the `gpdp release` command): validates, accounts (optionally "
      "calibrating r or eta to target_epsilon), draws with the secure RNG, records the release "
      "under the named dataset in the ledger (identity by records, Rényi filter), then writes "
      "out_dir atomically. input: the --config JSON object, e.g. "
      "{'x': ['x1'], 'y': 'y', 'domain': '0:1', 'M_Y': 1}. snap_covariates=F snaps the covariates "
      "to a fine lattice of the grid first (each moved ≤ F·ℓ; `gpdp release --snap-covariates`). "
      "Errors name these keyword arguments. "
      "Returns summary, certificate, files.");
  bind_release_batch(m);
}

}  // namespace gpdp::python
