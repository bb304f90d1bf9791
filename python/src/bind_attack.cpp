// gpdp._core.attack: the LiRA membership-inference experiment (paper §4, App. C).
#include <pybind11/stl.h>

#include <limits>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/attack/attack_run.hpp"
#include "gpdp/attack/lira.hpp"
#include "gpdp/attack/roc.hpp"
#include "gpdp/attack/sweep.hpp"

namespace gpdp::python {

namespace {

using namespace gpdp::attack;

py::array_t<double> roc_array(const std::vector<RocPoint>& roc) {
  py::array_t<double> out({static_cast<py::ssize_t>(roc.size()), py::ssize_t{2}});
  auto v = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < roc.size(); ++i) {
    v(static_cast<py::ssize_t>(i), 0) = roc[i].fpr;
    v(static_cast<py::ssize_t>(i), 1) = roc[i].tpr;
  }
  return out;
}

std::vector<double> to_std(const py::handle& obj, const std::string& name) {
  const Eigen::VectorXd v = to_vector(obj, name);
  return {v.data(), v.data() + v.size()};
}

py::dict observables_dict(const Observables& o) {
  py::dict d;
  d["f_hat"] = py::array_t<double>(static_cast<py::ssize_t>(o.f_hat.size()), o.f_hat.data());
  d["log_v_hat"] =
      py::array_t<double>(static_cast<py::ssize_t>(o.log_v_hat.size()), o.log_v_hat.data());
  return d;
}

// The driver of `gpdp-lab attack`, its seeds dispatched through `map_tasks` (gpdp.distributed): the
// same report and files as the CLI.
void bind_attack_driver(py::module_& m) {
  m.def(
      "run_attack",
      [](const std::string& request, const py::function& map_tasks) {
        const AttackRequest parsed = attack_request_from_json(nlohmann::json::parse(request));
        tasks::CallbackExecutor executor = callback_executor(map_tasks);
        const py::gil_scoped_release release;
        return run_attack(parsed, executor);
      },
      py::arg("request"), py::arg("map_tasks"),
      "`gpdp-lab attack` with its seeds as tasks: request = JSON of the flags (attack_run.hpp), "
      "map_tasks([(kind, params)]) -> [CBOR bytes]. Returns the report `gpdp-lab attack` prints.");
}

}  // namespace

void bind_attack(py::module_& m) {
  m.attr("FPR_LEVELS") = py::make_tuple(kFprLevels[0], kFprLevels[1], kFprLevels[2]);

  py::class_<ReleaseSetting>(m, "ReleaseSetting",
                             "What the attacker sees: L = draws released values at x₀ with prior "
                             "scale sigma (inf: covariance only; draws = 0: exact μ_D, k_D).")
      .def(py::init([](double sigma, int draws) {
             return ReleaseSetting{sigma, draws};
           }),
           py::arg("sigma") = 1.0, py::arg("draws") = 1)
      .def_readonly("sigma", &ReleaseSetting::sigma)
      .def_readonly("draws", &ReleaseSetting::draws)
      .def_property_readonly("label", &ReleaseSetting::label)
      .def("__repr__",
           [](const ReleaseSetting& r) { return "gpdp.attack.ReleaseSetting(" + r.label() + ")"; });

  py::class_<EmpiricalEpsilon>(m, "EmpiricalEpsilon")
      .def_readonly("estimate", &EmpiricalEpsilon::estimate)
      .def_readonly("lower", &EmpiricalEpsilon::lower)
      .def_readonly("threshold", &EmpiricalEpsilon::threshold)
      .def_readonly("confidence", &EmpiricalEpsilon::confidence);

  py::class_<SeedOutcome>(m, "LiraOutcome", "One seed, one release setting.")
      .def_readonly("release", &SeedOutcome::release)
      .def_property_readonly("auc", [](const SeedOutcome& s) { return s.metrics.auc; })
      .def_property_readonly(
          "tpr",
          [](const SeedOutcome& s) {
            py::dict d;
            for (int i = 0; i < 3; ++i) d[py::float_(kFprLevels[i])] = s.metrics.tpr[i];
            return d;
          },
          "TPR at FPR = 0.1, 0.01, 0.001 (dict keyed by the FPR).")
      .def_property_readonly("epsilon", [](const SeedOutcome& s) { return s.metrics.epsilon; })
      .def_property_readonly(
          "roc", [](const SeedOutcome& s) { return roc_array(s.roc); },
          "(k, 2) array of (FPR, TPR) points (thinned, log-spaced in FPR).")
      .def_property_readonly("shadow_in",
                             [](const SeedOutcome& s) -> py::object {
                               return s.shadow_in ? py::object(observables_dict(*s.shadow_in))
                                                  : py::none();
                             })
      .def_property_readonly("shadow_out", [](const SeedOutcome& s) -> py::object {
        return s.shadow_out ? py::object(observables_dict(*s.shadow_out)) : py::none();
      });

  m.def(
      "lira",
      [](double r, const std::vector<ReleaseSetting>& releases, std::uint64_t seed, long n,
         double noise, double ell, double x0, double y0, long shadow, long eval, double delta,
         bool keep_observables, int roc_points) {
        LiraOptions o;
        o.shadow.n = n;
        o.shadow.noise = noise;
        o.shadow.kernel = Kernel::exponential(ell);
        o.shadow.x0 = x0;
        o.shadow.y0 = y0;
        o.shadow.validate();
        o.sizes.shadow = shadow;
        o.sizes.eval = eval;
        o.delta = delta;
        o.keep_observables = keep_observables;
        o.roc_points = roc_points;
        py::gil_scoped_release release;
        return run_lira(o, r, releases, seed);
      },
      py::kw_only(), py::arg("r"), py::arg("releases"), py::arg("seed"), py::arg("n") = 10,
      py::arg("noise") = 0.0, py::arg("ell") = 1.0, py::arg("x0") = 0.5, py::arg("y0") = 1.0,
      py::arg("shadow") = 10000, py::arg("eval") = 10000, py::arg("delta") = 0.05,
      py::arg("keep_observables") = false, py::arg("roc_points") = 200,
      "One seed of the LiRA attack at effective ridge r for every release setting (the same "
      "streams as `gpdp-lab attack`/the sweeps for the same (seed, r, σ, L)).");

  m.def(
      "roc_curve",
      [](const py::object& in, const py::object& out) {
        return roc_array(roc_curve(to_std(in, "in_scores"), to_std(out, "out_scores")));
      },
      py::arg("in_scores"), py::arg("out_scores"), "Empirical ROC, (k, 2) array of (FPR, TPR).");
  m.def(
      "auc",
      [](const py::object& in, const py::object& out) {
        return auc(to_std(in, "in_scores"), to_std(out, "out_scores"));
      },
      py::arg("in_scores"), py::arg("out_scores"));
  m.def(
      "tpr_at_fpr",
      [](const py::object& in, const py::object& out, double alpha) {
        return tpr_at_fpr(to_std(in, "in_scores"), to_std(out, "out_scores"), alpha);
      },
      py::arg("in_scores"), py::arg("out_scores"), py::arg("fpr"));
  bind_attack_driver(m);
  m.def("dp_max_tpr", &dp_max_tpr, py::arg("fpr"), py::arg("epsilon"), py::arg("delta"),
        "The largest TPR an (ε, δ)-DP mechanism allows at a given FPR.");
}

}  // namespace gpdp::python
