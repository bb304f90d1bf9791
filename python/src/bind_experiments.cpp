// gpdp._core.experiments: the excursion-set experiments (paper §5, App. D).
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <cmath>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/hexbin.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/privacy_constraint.hpp"
#include "gpdp/experiments/public_search.hpp"
#include "gpdp/experiments/public_search_run.hpp"
#include "gpdp/experiments/utility_study.hpp"
#include "gpdp/experiments/utility_table.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::python {

namespace {

using namespace gpdp::experiments;

py::dict pair_dict(const ExcursionPair& p) {
  py::dict d;
  d["X"] = to_numpy(Eigen::MatrixXd(p.X));
  d["y"] = to_numpy(p.y);
  d["field"] = to_numpy(p.field);
  d["truth"] = to_numpy(p.truth);
  return d;
}

py::dict theta_dict(const Theta& t) {
  py::dict d;
  d["ell"] = t.ell;
  d["r"] = t.r;
  d["sigma"] = t.sigma;
  return d;
}

py::dict choice_dict(const ThetaChoice& c) {
  py::dict d = theta_dict(c.theta);
  d["mean_bce"] = c.mean_bce;
  d["epsilon"] = c.epsilon;
  d["cutoff_C"] = c.cutoff_C;
  d["validation_iou"] = c.validation_iou;
  return d;
}

// The StudySpec of gpdp.experiments.excursion's arguments.
StudySpec study_spec(int dim, long n, double nsr, long pairs, long validation_pairs,
                     std::uint64_t seed, double epsilon_max, int paths, double delta, int releases,
                     const std::string& grid, int refinement_rounds, int threads, int keep_examples,
                     double smoothing_bandwidth) {
  StudySpec spec;
  spec.dim = dim;
  spec.field1d.n = n;
  spec.field1d.nsr = nsr;
  spec.field2d.n = n;
  spec.field2d.nsr = nsr;
  spec.grid = grid.empty() ? (dim == 1 ? Grid::parse("0:1:800") : Grid::parse("0:1:64,0:1:64"))
                           : Grid::parse(grid);
  spec.pairs = pairs;
  spec.validation_pairs = validation_pairs;
  spec.seed = seed;
  spec.search.coarse = default_search_grid(dim);
  spec.search.refinement_rounds = refinement_rounds;
  spec.epsilon_max = epsilon_max;
  spec.privacy.paths = paths;
  spec.privacy.delta = delta;
  spec.releases = releases;
  spec.threads = threads;
  spec.keep_examples = keep_examples;
  spec.smoothing_bandwidth = smoothing_bandwidth;
  spec.label = "NSR = " + std::to_string(nsr) + ", n = " + std::to_string(n);
  return spec;
}

// What gpdp.experiments.excursion returns: θ, ε, cutoffs, per-pair columns,
// examples, the table.
py::dict study_dict(const StudyResult& r) {
  py::dict d;
  d["theta_unconstrained"] = theta_dict(r.theta_unconstrained);
  d["theta_private"] = theta_dict(r.theta_private);
  d["epsilon_unconstrained"] = r.epsilon_unconstrained;
  d["epsilon_private"] = r.epsilon_private;
  d["cutoff_C"] = r.cutoff_C;
  d["cutoff_c"] = r.cutoff_c;
  d["sampler_method"] = r.sampler_method;
  const auto column = [&r](auto get) {
    py::array_t<double> a(static_cast<py::ssize_t>(r.pairs.size()));
    for (std::size_t i = 0; i < r.pairs.size(); ++i)
      a.mutable_at(static_cast<py::ssize_t>(i)) = get(r.pairs[i]);
    return a;
  };
  py::dict per_pair;
  per_pair["d_eff_unconstrained"] =
      column([](const PairOutcome& p) { return p.d_eff_unconstrained; });
  per_pair["d_eff_private"] = column([](const PairOutcome& p) { return p.d_eff_private; });
  per_pair["bce_unconstrained"] = column([](const PairOutcome& p) { return p.bce_unconstrained; });
  per_pair["bce_private"] = column([](const PairOutcome& p) { return p.bce_private; });
  per_pair["iou_unconstrained"] = column([](const PairOutcome& p) { return p.iou_unconstrained; });
  per_pair["iou_release_mean"] = column([](const PairOutcome& p) { return p.iou_release_mean; });
  per_pair["iou_release_sd"] = column([](const PairOutcome& p) { return p.iou_release_sd; });
  d["pairs"] = per_pair;
  py::list examples;
  for (const auto& e : r.examples) {
    py::dict x = pair_dict(e.pair);
    x["p_unconstrained"] = to_numpy(e.p_unconstrained);
    x["releases"] = to_numpy(e.releases);
    examples.append(x);
  }
  d["examples"] = examples;
  d["table_markdown"] = utility_table_markdown({r}, "setting");
  return d;
}

// noise_bound_from_nsr, field_1d, plume_2d: the synthetic (f*, D) pairs.
void bind_fields(py::module_& m) {
  m.def("noise_bound_from_nsr", &noise_bound_from_nsr, py::arg("nsr"));
  m.def(
      "field_1d",
      [](const Grid& grid, long n, double nsr, double ell_gen, Rng& rng) {
        return pair_dict(generate_field_1d(Field1dSpec{n, nsr, ell_gen}, grid, rng));
      },
      py::arg("grid"), py::kw_only(), py::arg("n") = 100, py::arg("nsr") = 1.0,
      py::arg("ell_gen") = 1.0, py::arg("rng"),
      "A 1-D synthetic (f*, D) pair (paper eq. 8): dict X, y, field, truth.");
  m.def(
      "plume_2d",
      [](const Grid& grid, long n, double nsr, Rng& rng) {
        Plume2dSpec spec;
        spec.n = n;
        spec.nsr = nsr;
        return pair_dict(generate_plume_2d(spec, grid, rng));
      },
      py::arg("grid"), py::kw_only(), py::arg("n") = 400, py::arg("nsr") = 1.0, py::arg("rng"),
      "A 2-D plume (f*, D) pair (App. D.1): dict X, y, field, truth.");
}

// trapezoid_weights, integrated_bce, intersection_over_union,
// excursion_epsilon.
void bind_metrics(py::module_& m) {
  m.def(
      "trapezoid_weights", [](const Grid& g) { return to_numpy(trapezoid_weights(g)); },
      py::arg("grid"));
  m.def(
      "integrated_bce",
      [](const py::object& p, const py::object& truth, const py::object& w) {
        const Eigen::VectorXd pv = to_vector(p, "p");
        return integrated_bce(pv, to_vector(truth, "truth"), to_vector(w, "weights"));
      },
      py::arg("p"), py::arg("truth"), py::arg("weights"));
  m.def(
      "intersection_over_union",
      [](const py::object& a, const py::object& b, const py::object& w) {
        const Eigen::VectorXd av = to_vector(a, "a");
        return intersection_over_union(av, to_vector(b, "b"), to_vector(w, "weights"));
      },
      py::arg("a"), py::arg("b"), py::arg("weights"));
  m.def(
      "excursion_epsilon",
      [](double ell, double r, double sigma, long n, int dim, int paths, double delta,
         const std::string& conversion) {
        ExcursionPrivacy p;
        p.n = n;
        p.dim = dim;
        p.paths = paths;
        p.delta = delta;
        p.conversion = privacy::parse_conversion(conversion);
        return p.epsilon(Theta{ell, r, sigma});
      },
      py::kw_only(), py::arg("ell"), py::arg("r"), py::arg("sigma"), py::arg("n"),
      py::arg("dim") = 1, py::arg("paths") = 1, py::arg("delta") = 0.005,
      py::arg("conversion") = "mironov",
      "ε_L(θ) of the excursion experiments (exponential kernel on [0,1]^d, "
      "Lemma B.7 in 1-D, B.1 "
      "otherwise).");
}

// excursion: the whole study of one setting.
void bind_study(py::module_& m) {
  m.def(
      "excursion",
      [](int dim, long n, double nsr, long pairs, long validation_pairs, std::uint64_t seed,
         double epsilon_max, int paths, double delta, int releases, const std::string& grid,
         int refinement_rounds, int threads, int keep_examples, double smoothing_bandwidth,
         const std::function<void(const std::string&)>& progress) {
        const StudySpec spec = study_spec(dim, n, nsr, pairs, validation_pairs, seed, epsilon_max,
                                          paths, delta, releases, grid, refinement_rounds, threads,
                                          keep_examples, smoothing_bandwidth);
        StudyResult r;
        {
          py::gil_scoped_release release;
          std::function<void(const std::string&)> report;
          if (progress) {
            report = [&progress](const std::string& s) {
              py::gil_scoped_acquire acquire;
              progress(s);
            };
          }
          tasks::ThreadExecutor executor(spec.threads, lab::registry());
          r = run_study(spec, executor, report);
        }
        return study_dict(r);
      },
      py::kw_only(), py::arg("dim") = 1, py::arg("n") = 100, py::arg("nsr") = 1.0,
      py::arg("pairs") = 1000, py::arg("validation_pairs") = 1000, py::arg("seed") = 20260616,
      py::arg("epsilon_max") = 10.0, py::arg("paths") = 1, py::arg("delta") = 0.005,
      py::arg("releases") = 50, py::arg("grid") = "", py::arg("refinement_rounds") = 2,
      py::arg("threads") = 0, py::arg("keep_examples") = 0, py::arg("smoothing_bandwidth") = 0.0,
      py::arg("progress") = nullptr,
      "The privacy-utility excursion-set study of paper §5 for one setting "
      "(seeded; the same "
      "pipeline as `gpdp-lab reproduce table1`...). Returns a dict: selected θ, ε, "
      "cutoffs, per-pair "
      "metrics, examples, and the Markdown table.");
}

// search_public_data: θ chosen on public data, as `gpdp search`.
void bind_public_search(py::module_& m) {
  m.def(
      "search_public_data",
      [](const py::object& train_X, const py::object& train_y, const py::object& validation_X,
         const py::object& validation_y, long n, double target_epsilon, double delta,
         double threshold, int paths, const std::string& conversion, int refinement_rounds,
         int threads) {
        const Points X = to_points(train_X, "train_X");
        const Eigen::VectorXd y = to_vector(train_y, "train_y");
        const Points V = to_points(validation_X, "validation_X");
        const Eigen::VectorXd v = to_vector(validation_y, "validation_y");
        PublicSearchSpec spec;
        spec.threshold = threshold;
        spec.target_epsilon = target_epsilon;
        spec.privacy.n = n > 0 ? n : static_cast<long>(X.rows());
        spec.privacy.dim = static_cast<int>(X.cols());
        spec.privacy.paths = paths;
        spec.privacy.delta =
            delta > 0 ? delta : std::pow(static_cast<double>(spec.privacy.n), -1.1);
        spec.privacy.conversion = privacy::parse_conversion(conversion);
        spec.refinement_rounds = refinement_rounds;
        PublicSearchResult r;
        {
          py::gil_scoped_release release;
          tasks::ThreadExecutor executor(threads);
          r = search_public_data(X, y, V, indicator_at_least(v, threshold), spec, executor);
        }
        py::dict d;
        d["unconstrained"] = choice_dict(r.unconstrained);
        d["private"] = choice_dict(r.constrained);
        d["n_private"] = spec.privacy.n;
        d["delta"] = spec.privacy.delta;
        d["privacy"] = spec.privacy.description();
        d["candidates"] = r.candidates;
        return d;
      },
      py::arg("train_X"), py::arg("train_y"), py::arg("validation_X"), py::arg("validation_y"),
      py::kw_only(), py::arg("n") = 0, py::arg("target_epsilon") = 10.0, py::arg("delta") = 0.0,
      py::arg("threshold") = 0.0, py::arg("paths") = 1, py::arg("conversion") = "mironov",
      py::arg("refinement_rounds") = 2, py::arg("threads") = 0,
      "Privacy-constrained θ = (ℓ, r, σ) selection on PUBLIC data (as `gpdp "
      "search`): fit on "
      "train, score by the mean BCE at the validation points against "
      "1{validation_y ≥ threshold}. "
      "n: size of the PRIVATE data set (default: rows of train_X); delta "
      "default n^(-1.1). Returns "
      "a dict with 'unconstrained' and 'private' choices (ell, r, sigma, "
      "mean_bce, epsilon, "
      "cutoff_C, validation_iou). Neither input may be the private data.");
}

// The driver of `gpdp search`, its θ evaluations dispatched through `map_tasks`
// (gpdp.distributed): the same report and --out file as the CLI.
void bind_public_search_driver(py::module_& m) {
  m.def(
      "run_public_search",
      [](const std::string& request, const py::function& map_tasks, bool quiet) {
        const PublicSearchRequest parsed =
            public_search_request_from_json(nlohmann::json::parse(request));
        tasks::CallbackExecutor executor = callback_executor(map_tasks);
        const py::gil_scoped_release release;
        return run_public_search(parsed, executor, search_progress(quiet));
      },
      py::arg("request"), py::arg("map_tasks"), py::arg("quiet") = false,
      "`gpdp search` with its θ evaluations as tasks: request = JSON of the flags (keys: the long "
      "flags without dashes, public_search_run.hpp), map_tasks([(kind, params)]) -> [CBOR bytes]; "
      "quiet: no progress lines on stderr. "
      "Returns the report `gpdp search` prints (and writes `out` if given).");
}

// hexbin: hexagon medians over a declared box, as `gpdp hexbin`.
void bind_hexbin(py::module_& m) {
  m.def(
      "hexbin",
      [](const py::object& xy, const py::object& values, const Box& box, double width) {
        const Points p = to_points(xy, "xy");
        const Eigen::VectorXd v = to_vector(values, "values");
        const HexLattice lattice{box, width};
        const HexbinResult r = hexbin(p, v, lattice);
        const auto k = static_cast<Eigen::Index>(r.cells.size());
        Eigen::VectorXd column(k), row(k), median(k), count(k);
        Eigen::MatrixXd centre(k, 2);
        for (Eigen::Index i = 0; i < k; ++i) {
          const HexCell& c = r.cells[static_cast<std::size_t>(i)];
          column[i] = static_cast<double>(c.column);
          row[i] = static_cast<double>(c.row);
          centre(i, 0) = c.x;
          centre(i, 1) = c.y;
          median[i] = c.median;
          count[i] = static_cast<double>(c.count);
        }
        py::dict d;
        d["column"] = to_numpy(column);
        d["row"] = to_numpy(row);
        d["centre"] = to_numpy(centre);
        d["unit"] = to_numpy(unit_square_coordinates(centre, box));
        d["median"] = to_numpy(median);
        d["count"] = to_numpy(count);
        d["dropped_outside"] = r.dropped_outside;
        return d;
      },
      py::arg("xy"), py::arg("values"), py::kw_only(), py::arg("box"), py::arg("width"),
      "Median of `values` per hexagon of width `width` over the DECLARED box "
      "(as `gpdp hexbin`): "
      "dict of column, row, centre (k x 2), unit (centres scaled to [0,1]^2 by "
      "the box's longer "
      "side), median, count, dropped_outside. The lattice depends on box and "
      "width only.");
}

}  // namespace

void bind_experiments(py::module_& m) {
  bind_fields(m);
  bind_metrics(m);
  bind_study(m);
  bind_public_search(m);
  bind_public_search_driver(m);
  bind_hexbin(m);
}

}  // namespace gpdp::python
