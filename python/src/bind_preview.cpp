// gpdp._core.preview: `gpdp preview` as a library call (gpdp/preview): predicted utility of a
// release per ε and candidate configuration, from public inputs only; returns the preview.json
// object as a dict.
#include <pybind11/stl.h>

#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/preview/preview.hpp"
#include "gpdp/preview/report.hpp"

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
}

}  // namespace gpdp::python
