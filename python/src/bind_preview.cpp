// gpdp._core.preview: `gpdp preview` as a library call (gpdp/preview): predicted utility of a
// release per ε and candidate configuration, from public inputs only; returns the preview.json
// object as a dict; calibrated(): `gpdp preview --calibrate-epsilon` on records given as arrays.
#include <pybind11/stl.h>

#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/preview/calibrated_preview.hpp"
#include "gpdp/preview/command.hpp"
#include "gpdp/preview/preview.hpp"
#include "gpdp/preview/report.hpp"
#include "gpdp/preview/request_from_json.hpp"
#include "gpdp/release/prepared_release.hpp"

namespace gpdp::python {

void bind_preview(py::module_& m) {
  m.def(
      "run",
      [](const std::string& domain, std::optional<Grid> grid, const py::object& points,
         std::vector<Eigen::Index> cells, double level, long n, std::vector<double> epsilons,
         double delta, std::optional<double> ell, std::optional<double> sigma,
         std::optional<double> r, const py::object& proxy_X, const py::object& proxy_y,
         const std::string& kernel, double M_Y, const std::string& lemma,
         const std::string& conversion, std::vector<int> draws, bool functional, int simulations,
         std::uint64_t seed, int threads) {
        preview::PreviewRequest q;
        q.domain = Box::parse(domain);
        if (grid) {
          q.evaluation.grid = *grid;
          const Points all = grid->points();
          q.evaluation.points = all;
          if (!cells.empty()) {
            q.evaluation.cells = cells;
            q.evaluation.points.resize(static_cast<Eigen::Index>(cells.size()), all.cols());
            for (std::size_t i = 0; i < cells.size(); ++i)
              q.evaluation.points.row(static_cast<Eigen::Index>(i)) = all.row(cells[i]);
          }
        } else {
          q.evaluation.points = to_points(points, "points");
        }
        q.level = level;
        q.n = n;
        q.epsilons = std::move(epsilons);
        q.delta = delta;
        q.ell = ell;
        q.sigma = sigma;
        q.r_reference = r;
        if (!proxy_X.is_none()) {
          q.proxy = preview::ProxyData{to_points(proxy_X, "proxy_X"), to_vector(proxy_y, "proxy_y"),
                                       "python", ""};
        }
        q.kernel = kernel;
        q.M_Y = M_Y;
        q.lemma = privacy::parse_sensitivity_lemma(lemma);
        q.conversion = privacy::parse_conversion(conversion);
        q.draws = std::move(draws);
        q.functional = functional;
        q.simulations = simulations;
        q.seed = seed;
        q.threads = threads;
        preview::PreviewResult result;
        {
          py::gil_scoped_release release;
          result = preview::run_preview(q);
        }
        const nlohmann::json j = preview::preview_json(q, result, nlohmann::json::object());
        return py::module_::import("json").attr("loads")(j.dump());
      },
      py::kw_only(), py::arg("domain"), py::arg("grid") = py::none(),
      py::arg("points") = py::none(), py::arg("cells") = std::vector<Eigen::Index>{},
      py::arg("level") = 0.0, py::arg("n"), py::arg("epsilons"), py::arg("delta"),
      py::arg("ell") = py::none(), py::arg("sigma") = py::none(), py::arg("r") = py::none(),
      py::arg("proxy_X") = py::none(), py::arg("proxy_y") = py::none(), py::arg("kernel") = "exp",
      py::arg("M_Y") = 1.0, py::arg("lemma") = "b1-sharp", py::arg("conversion") = "cks",
      py::arg("draws") = std::vector<int>{1, 3, 5, 9}, py::arg("functional") = true,
      py::arg("simulations") = 16, py::arg("seed") = 1, py::arg("threads") = 0,
      "The preview of gpdp preview (docs/utility.md): evaluation on `grid` (a gpdp.Grid; `cells`: "
      "the evaluated rows of grid.points(), like --mask) or at `points`; θ = (ell, sigma, r) "
      "given, or chosen on the public proxy (proxy_X, proxy_y in model units). Returns the "
      "preview.json object (a dict). Seeded: the same seed gives the same preview.");
  m.def(
      "calibrated",
      [](const py::object& X, const py::object& y, const py::object& points, const py::dict& input,
         const py::dict& options, double calibrate_epsilon, const std::vector<double>& epsilons,
         const std::string& ledger, const std::string& dataset, const std::string& ledger_key,
         std::optional<std::uint64_t> insecure_seed) {
        const auto json_of = [](const py::object& o) {
          return nlohmann::json::parse(
              py::str(py::module_::import("json").attr("dumps")(o)).cast<std::string>());
        };
        release::ReleaseRequest q =
            release::prepared_request(json_of(input), json_of(options), "gpdp.preview.calibrated");
        require_parameter(q.input.domain.has_value(), "domain",
                          "gpdp.preview.calibrated: input must declare the 'domain'");
        q.dataset = dataset;
        q.ledger_path = ledger;
        q.ledger_key_path = ledger_key;
        q.insecure_seed = insecure_seed;
        q.out_dir = "(gpdp.preview.calibrated)";
        const Points x = to_points(X, "X");
        const Eigen::VectorXd raw = to_vector(y, "y", x.rows());
        std::vector<std::string> names = q.input.x_columns;
        for (Eigen::Index j = static_cast<Eigen::Index>(names.size()); j < x.cols(); ++j)
          names.push_back("x" + std::to_string(j + 1));
        release::check_dataset_name(q.dataset);
        require_parameter(!q.ledger_path.empty(), "ledger",
                          "gpdp.preview.calibrated spends ε on the records: give ledger=");
        preview::CalibratedPreview p;
        {
          py::gil_scoped_release release;
          const release::ValidatedRelease v = release::validated(
              q, release::prepare_data_from_arrays(x, raw, q.input),
              release::evaluation_at(to_points(points, "points", static_cast<int>(x.cols())), names,
                                     *q.input.domain));
          p = preview::run_calibrated_preview(q, v, calibrate_epsilon, epsilons);
        }
        return py::module_::import("json").attr("loads")(preview::calibrated_json(p).dump());
      },
      py::kw_only(), py::arg("X"), py::arg("y"), py::arg("points"), py::arg("input"),
      py::arg("options"), py::arg("calibrate_epsilon"), py::arg("epsilons"), py::arg("ledger"),
      py::arg("dataset"), py::arg("ledger_key") = "", py::arg("insecure_seed") = py::none(),
      "gpdp preview --calibrate-epsilon on raw records X (n x d), y (raw responses): spends "
      "calibrate_epsilon on --mechanism auto's DP summary (recorded in `ledger` as a release of "
      "`dataset`; insecure_seed: a seeded, NOT private draw) and predicts auto's candidates at "
      "each "
      "ε of `epsilons` on simulations calibrated by it. input: the --config keys (domain, "
      "transform, center, scale, M_Y, ...); options: gpdp release's public parameters (kernel, "
      "ell, r, sigma, threshold, delta, conversion, sensitivity). `points`: evaluation points "
      "(checked against the domain). Returns preview.json's 'calibration' object (a dict).");
  m.def(
      "command",
      [](const std::string& request) {
        const auto c = preview::preview_request_from_json(nlohmann::json::parse(request));
        preview::PreviewCommandOutcome o;
        {
          py::gil_scoped_release release;
          o = preview::run_preview_command(c);
        }
        py::dict d;
        d["report"] = py::module_::import("json").attr("loads")(o.report.dump());
        d["text"] = o.text;
        d["files"] = o.files;
        return d;
      },
      py::arg("request"),
      "The `gpdp preview` command of a JSON request (text; gpdp.preview.request makes one), read "
      "as the CLI reads it: writes the preview into its out folder. Errors name parameters. "
      "Returns report (preview.json's object), text (what the CLI prints), files.");
}

}  // namespace gpdp::python
