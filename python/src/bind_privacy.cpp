// gpdp._core.privacy: mechanisms (dp_accounting's "events"), RDP curves, the accountant,
// calibration.
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/auditor/audit.hpp"
#include "gpdp/auditor/audit_run.hpp"
#include "gpdp/auditor/audit_study.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/bounds.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/event.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/privacy/rdp.hpp"
#include "gpdp/privacy/risk.hpp"

namespace gpdp::python {

namespace {

using namespace gpdp::auditor;
using namespace gpdp::privacy;

// f applied to a float (-> float) or elementwise to an array (-> float64 array of the same shape).
py::object vectorise(const py::object& x, const std::function<double(double)>& f) {
  if (PyFloat_Check(x.ptr()) || PyLong_Check(x.ptr())) return py::float_(f(x.cast<double>()));
  py::array a = as_float64(x, "alpha");
  py::array_t<double> out(a.request().shape);
  auto in = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
  const double* src = in.data();
  double* dst = out.mutable_data();
  for (py::ssize_t i = 0; i < in.size(); ++i) dst[i] = f(src[i]);
  return out;
}

GpMechanism make_mechanism(const std::optional<Kernel>& kernel, int dim,
                           const std::optional<Box>& domain, std::optional<double> kappa, long n,
                           double r, double sigma, double eta, double M_Y, const std::string& lemma,
                           std::optional<double> rkhs_norm, std::optional<double> Vn,
                           std::optional<double> Delta_n) {
  GpMechanism m;
  m.kernel = kernel;
  m.dim = dim;
  m.domain = domain;
  m.kappa = kappa;
  m.n = n;
  m.r = r;
  m.sigma = sigma;
  m.eta = eta;
  m.M_Y = M_Y;
  m.user_Vn = Vn;
  if (Delta_n) {
    m.lemma = SensitivityLemma::User;
    m.user_Delta_n = Delta_n;
  } else {
    m.lemma = parse_sensitivity_lemma(lemma);
  }
  m.rkhs_norm = rkhs_norm.value_or(-1.0);
  resolve_bounds(m);  // every check (InputError / PrivacyError) at construction
  return m;
}

std::string mechanism_repr(const GpMechanism& m) {
  std::string s =
      "gpdp.privacy.GpMechanism(kernel=" + (m.kernel ? m.kernel->name() : std::string("None"));
  if (m.kernel) s += ", ell=" + std::string(py::str(py::float_(m.kernel->lengthscale())));
  s += ", dim=" + std::to_string(m.dim) + ", n=" + std::to_string(m.n) +
       ", r=" + std::string(py::str(py::float_(m.r))) +
       ", sigma=" + std::string(py::str(py::float_(m.sigma))) +
       ", eta=" + std::string(py::str(py::float_(m.eta))) +
       ", M_Y=" + std::string(py::str(py::float_(m.M_Y))) + ", lemma=" + to_string(m.lemma) + ")";
  return s;
}

// The privacy maps of the lemmas (ψ_α, V_n, Φ_n, Δ_n, ε_α) and RdpCurve.
void bind_rdp_maps(py::module_& m) {
  m.def("psi_alpha", &psi_alpha, py::arg("alpha"), py::arg("tau"), "ψ_α(τ) of Lemma A.3.");
  m.def("noisy_tau", &noisy_tau, py::arg("Vn"), py::arg("r"), py::arg("sigma"), py::arg("eta"),
        "τ̃ of Proposition 2.");
  m.def("gp_rdp", &gp_rdp, py::arg("alpha"), py::arg("Vn"), py::arg("Delta_n"), py::arg("r"),
        py::arg("sigma"), py::arg("eta") = 0.0, "ε_α of one draw (Theorem 3.1 / Proposition 2).");
  m.def("gp_alpha_max", &gp_alpha_max, py::arg("Vn"), py::arg("r"), py::arg("sigma"),
        py::arg("eta") = 0.0);
  m.def("posterior_variance_scale", &posterior_variance_scale, py::arg("kappa"), py::arg("n"),
        py::arg("r"), "V̄_n(r) of Proposition 3.");
  m.def("phi_n", &phi_n, py::arg("Vn"), py::arg("r"), "Φ_n(r) of Lemma B.1.");
  m.def(
      "lemma_assumptions",
      [](const std::string& lemma) { return lemma_assumptions(parse_sensitivity_lemma(lemma)); },
      py::arg("lemma"));
  m.def(
      "conversion_citation",
      [](const std::string& c) { return conversion_citation(parse_conversion(c)); },
      py::arg("conversion"));
  py::class_<RdpCurve>(m, "RdpCurve", "α ↦ ε_α of one release on its open range (1, alpha_max).")
      .def(
          "__call__", [](const RdpCurve& c, const py::object& a) { return vectorise(a, c); },
          py::arg("alpha"))
      .def_property_readonly("alpha_max", &RdpCurve::alpha_max)
      .def_property_readonly("description", &RdpCurve::description);
}

// GpMechanism (a mechanism as data) and its ResolvedBounds.
void bind_mechanism(py::module_& m) {
  py::class_<ResolvedBounds>(m, "ResolvedBounds", "The numbers the bound uses and their sources.")
      .def_readonly("kappa", &ResolvedBounds::kappa)
      .def_readonly("Vn", &ResolvedBounds::Vn)
      .def_readonly("Delta_n", &ResolvedBounds::Delta_n)
      .def_readonly("tau", &ResolvedBounds::tau)
      .def_readonly("alpha_max", &ResolvedBounds::alpha_max)
      .def_readonly("Vn_source", &ResolvedBounds::Vn_source)
      .def_readonly("Delta_source", &ResolvedBounds::Delta_source)
      .def_readonly("theorem", &ResolvedBounds::theorem);
  py::class_<GpMechanism>(
      m, "GpMechanism",
      "One posterior-sampling release described as data (dp_accounting's "
      "event). lemma: b1|b1-sharp|b4|b5|b7|b8 (Delta_n= overrides it: your proof).")
      .def(py::init(&make_mechanism), py::kw_only(), py::arg("kernel") = py::none(),
           py::arg("dim") = 1, py::arg("domain") = py::none(), py::arg("kappa") = py::none(),
           py::arg("n"), py::arg("r"), py::arg("sigma") = 1.0, py::arg("eta") = 0.0,
           py::arg("M_Y") = 1.0, py::arg("lemma") = "b1-sharp", py::arg("rkhs_norm") = py::none(),
           py::arg("Vn") = py::none(), py::arg("Delta_n") = py::none())
      .def_property_readonly("kernel", [](const GpMechanism& g) { return g.kernel; })
      .def_readonly("dim", &GpMechanism::dim)
      .def_readonly("n", &GpMechanism::n)
      .def_readonly("r", &GpMechanism::r)
      .def_readonly("sigma", &GpMechanism::sigma)
      .def_readonly("eta", &GpMechanism::eta)
      .def_readonly("M_Y", &GpMechanism::M_Y)
      .def_property_readonly("lemma", [](const GpMechanism& g) { return to_string(g.lemma); })
      .def("bounds", &resolve_bounds, "κ, V_n, Δ_n, τ̃ and the admissible range, with sources.")
      .def("curve", [](const GpMechanism& g) { return rdp_curve(g); })
      .def(
          "rdp",
          [](const GpMechanism& g, const py::object& a) { return vectorise(a, rdp_curve(g)); },
          py::arg("alpha"), "ε_α of one draw; +inf outside (1, alpha_max).")
      .def_property_readonly("alpha_max",
                             [](const GpMechanism& g) { return resolve_bounds(g).alpha_max; })
      .def("__repr__", &mechanism_repr);
}

// Guarantee and Accountant: composition and (ε, δ) conversion.
void bind_accountant(py::module_& m) {
  py::class_<Guarantee>(m, "Guarantee", "An (ε, δ) statement with the optimal order α*.")
      .def_readonly("epsilon", &Guarantee::epsilon)
      .def_readonly("delta", &Guarantee::delta)
      .def_readonly("alpha", &Guarantee::alpha)
      .def_readonly("rdp", &Guarantee::rdp)
      .def_readonly("alpha_max", &Guarantee::alpha_max)
      .def_property_readonly("conversion",
                             [](const Guarantee& g) { return to_string(g.conversion); })
      .def_readonly("pinned_low", &Guarantee::pinned_low)
      .def_readonly("pinned_high", &Guarantee::pinned_high)
      .def_readonly("clamped", &Guarantee::clamped)
      .def_readonly("unclamped_epsilon", &Guarantee::unclamped_epsilon)
      .def_property_readonly("note", &Guarantee::note)
      .def("__repr__", [](const Guarantee& g) {
        return "gpdp.privacy.Guarantee(epsilon=" + std::string(py::str(py::float_(g.epsilon))) +
               ", delta=" + std::string(py::str(py::float_(g.delta))) +
               ", alpha=" + std::string(py::str(py::float_(g.alpha))) +
               ", conversion=" + to_string(g.conversion) + ")";
      });
  py::class_<Accountant>(m, "Accountant",
                         "Composes releases in RDP (Mironov 2017 Prop. 1) and converts to (ε, δ).")
      .def(py::init<>())
      .def(
          "compose",
          [](Accountant& a, const GpMechanism& g, long count) -> Accountant& {
            return a.add(g, count);
          },
          py::arg("mechanism"), py::arg("count") = 1, py::return_value_policy::reference_internal,
          "Adds `count` independent (possibly adaptive) releases; returns self.")
      .def(
          "record",
          [](const Accountant& a) {
            return py::module_::import("json").attr("loads")(a.record().dump());
          },
          "The events composed so far as the versioned record the ledger stores (a dict).")
      .def_static(
          "replay",
          [](const py::dict& record) {
            const std::string text = py::str(py::module_::import("json").attr("dumps")(record));
            return Accountant::replay(nlohmann::json::parse(text), "record");
          },
          py::arg("record"), "The accountant that composed the events of `record`.")
      .def(
          "attack_risk",
          [](const Accountant& a, double delta, const std::string& c) {
            const auto risk = attack_risk(a, a.epsilon(delta, parse_conversion(c)));
            return py::module_::import("json").attr("loads")(to_json(risk).dump());
          },
          py::arg("delta"), py::arg("conversion") = "cks",
          "Largest membership-attack TPR at FPR 0.001, 0.01, 0.1: tpr_at_fpr, with the RDP-region "
          "and (epsilon, delta) bounds it is the smaller of.")
      .def(
          "compose",
          [](Accountant& a, const RdpCurve& c, long count) -> Accountant& {
            return a.add(c, count);
          },
          py::arg("curve"), py::arg("count") = 1, py::return_value_policy::reference_internal)
      .def_property_readonly("total_releases", &Accountant::total_releases)
      .def_property_readonly("alpha_max", &Accountant::alpha_max)
      .def(
          "rdp",
          [](const Accountant& a, const py::object& x) {
            return vectorise(x, [&a](double alpha) { return a.rdp(alpha); });
          },
          py::arg("alpha"))
      .def(
          "epsilon",
          [](const Accountant& a, double delta, const std::string& c) {
            return a.epsilon(delta, parse_conversion(c));
          },
          py::arg("delta"), py::arg("conversion") = "cks", "The full (ε, δ) statement at δ.")
      .def(
          "delta",
          [](const Accountant& a, double eps, const std::string& c) {
            return a.delta(eps, parse_conversion(c));
          },
          py::arg("epsilon"), py::arg("conversion") = "cks")
      .def(
          "get_epsilon",
          [](const Accountant& a, double delta, const std::string& c) {
            return a.epsilon(delta, parse_conversion(c)).epsilon;
          },
          py::arg("target_delta"), py::arg("conversion") = "cks")
      .def(
          "get_delta",
          [](const Accountant& a, double eps, const std::string& c) {
            return a.delta(eps, parse_conversion(c)).delta;
          },
          py::arg("target_epsilon"), py::arg("conversion") = "cks")
      .def_property_readonly("description", &Accountant::description);
}

// Calibration: solving r or η for a target ε.
void bind_calibration(py::module_& m) {
  py::class_<Calibration>(m, "Calibration")
      .def_property_readonly("parameter",
                             [](const Calibration& c) { return to_string(c.parameter); })
      .def_readonly("value", &Calibration::value)
      .def_readonly("mechanism", &Calibration::mechanism)
      .def_readonly("draws", &Calibration::draws)
      .def_readonly("achieved", &Calibration::achieved)
      .def_readonly("note", &Calibration::note)
      .def("__repr__", [](const Calibration& c) {
        return "gpdp.privacy.Calibration(" + to_string(c.parameter) + "=" +
               std::string(py::str(py::float_(c.value))) +
               ", epsilon=" + std::string(py::str(py::float_(c.achieved.epsilon))) + ")";
      });
  m.def(
      "account",
      [](const GpMechanism& g, long draws, double delta, const std::string& c) {
        return account(g, draws, delta, parse_conversion(c));
      },
      py::arg("mechanism"), py::kw_only(), py::arg("draws") = 1, py::arg("delta"),
      py::arg("conversion") = "cks", "ε(δ) of `draws` independent releases.");
  m.def(
      "calibrate",
      [](const GpMechanism& g, const std::string& solve, double epsilon, double delta, long draws,
         const std::string& c) {
        return calibrate(g, draws, parse_calibration_parameter(solve),
                         CalibrationTarget{epsilon, delta, parse_conversion(c)});
      },
      py::arg("mechanism"), py::kw_only(), py::arg("solve") = "r", py::arg("epsilon"),
      py::arg("delta"), py::arg("draws") = 1, py::arg("conversion") = "cks",
      "The smallest r / eta / sigma, or the largest number of draws, meeting (epsilon, delta); "
      "raises PrivacyError when infeasible.");
}

// `gpdp-lab audit` with its local searches as tasks dispatched through `map_tasks`
// (gpdp.distributed): the same report as the CLI.
void bind_audit_driver(py::module_& m) {
  m.def(
      "run_audit",
      [](const std::string& request, const py::function& map_tasks) {
        const AuditRequest parsed = audit_request_from_json(nlohmann::json::parse(request));
        tasks::CallbackExecutor executor = callback_executor(map_tasks);
        AuditRun run;
        {
          const py::gil_scoped_release release;
          run = auditor::run_audit(parsed, executor);
        }
        return py::make_tuple(run.report, run.violation);
      },
      py::arg("request"), py::arg("map_tasks"),
      "`gpdp-lab audit` with its local searches as tasks: request = JSON of the options "
      "(audit_run.hpp; gpdp.distributed.options builds it), map_tasks([(kind, params)]) -> [CBOR "
      "bytes]. Returns (the report `gpdp-lab audit` prints, violation).");
}

// `gpdp-lab audit-study` with every audit's local searches as tasks dispatched through `map_tasks`:
// the same table and --out JSON as the CLI.
void bind_audit_study_driver(py::module_& m) {
  m.def(
      "audit_study",
      [](const std::string& request, const py::function& map_tasks, bool quiet) {
        const AuditStudyRequest r = audit_study_request_from_json(nlohmann::json::parse(request));
        tasks::CallbackExecutor executor = callback_executor(map_tasks);
        AuditStudy study;
        {
          const py::gil_scoped_release release;
          study = run_audit_study(r, executor, [quiet](const std::string& line) {
            if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
          });
        }
        return py::make_tuple(study.markdown, study.violation);
      },
      py::arg("request"), py::arg("map_tasks"), py::arg("quiet") = false,
      "`gpdp-lab audit-study`: request = JSON {\"max-n\": 155, \"out\": \"study.json\"} (out: the "
      "JSON file written, optional), map_tasks([(kind, params)]) -> [CBOR bytes]; returns "
      "(markdown table, whether a row violates a lemma). One line per finished row on stderr "
      "unless quiet.");
}

}  // namespace

void bind_privacy(py::module_& m) {
  bind_rdp_maps(m);
  bind_mechanism(m);
  bind_accountant(m);
  bind_calibration(m);
  bind_audit_driver(m);
  bind_audit_study_driver(m);
}

}  // namespace gpdp::python
