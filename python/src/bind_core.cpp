// gpdp._core: Kernel, Box, Grid, Rng, Posterior, sample(), SamplePath.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <variant>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/domain.hpp"
#include "gpdp/factorisation.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/sample_path.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp::python {

namespace {

Eigen::VectorXd to_coordinates(const py::handle& obj, const std::string& name) {
  if (PyFloat_Check(obj.ptr()) || PyLong_Check(obj.ptr())) {
    return Eigen::VectorXd::Constant(1, obj.cast<double>());
  }
  return to_vector(obj, name);
}

// The generator to use: `rng` if given, else a fresh SecureRng kept alive by `holder`.
Rng& resolve_rng(const py::object& rng, std::unique_ptr<Rng>& holder) {
  if (rng.is_none()) {
    holder = std::make_unique<SecureRng>();
    return *holder;
  }
  if (!py::isinstance<Rng>(rng)) {
    throw py::type_error("rng must be a gpdp.SeededRng, a gpdp.SecureRng or None (secure), got " +
                         std::string(py::str(py::type::of(rng).attr("__name__"))));
  }
  return rng.cast<Rng&>();
}

// The path object: the library's SamplePath plus the generator it draws from for its lifetime.
class PySamplePath {
 public:
  PySamplePath(Posterior posterior, double eta, py::object rng)
      : path_(std::move(posterior), eta), rng_object_(std::move(rng)) {
    rng_ = &resolve_rng(rng_object_, own_rng_);
  }

  py::array_t<double> operator()(const py::handle& xs) {
    Eigen::VectorXd v;
    if (py::isinstance<Grid>(xs)) {
      const Grid& grid = xs.cast<const Grid&>();
      py::gil_scoped_release release;
      v = path_.evaluate(grid, *rng_);
    } else {
      const Points pts = to_points(xs, "xs");
      py::gil_scoped_release release;
      v = path_.evaluate(pts, *rng_);
    }
    return to_numpy(v);
  }

  const SamplePath& path() const { return path_; }
  const Rng& rng() const { return *rng_; }

 private:
  SamplePath path_;
  py::object rng_object_;  // keeps a user-supplied generator alive
  std::unique_ptr<Rng> own_rng_;
  Rng* rng_ = nullptr;
};

py::object sample_draws(const Posterior& p, const py::handle& xs, int n_draws,
                        const py::object& rng, const std::string& method, double eta,
                        bool full_output) {
  std::unique_ptr<Rng> holder;
  Rng& generator = resolve_rng(rng, holder);
  const SampleOptions options{parse_sampler_method(method), eta};
  Draws draws;
  if (py::isinstance<Grid>(xs)) {
    const Grid& grid = xs.cast<const Grid&>();
    py::gil_scoped_release release;
    draws = sample(p, grid, n_draws, generator, options);
  } else {
    const Points pts = to_points(xs, "xs");
    py::gil_scoped_release release;
    draws = sample(p, pts, n_draws, generator, options);
  }
  py::array_t<double> values = to_numpy(draws.values);
  if (!full_output) return values;
  return py::make_tuple(values, draws.method, draws.detail);
}

// Box and Grid: the declared domain and evaluation grids.
void bind_domains(py::module_& m) {
  py::class_<Box>(m, "Box",
                  "An axis-aligned covariate domain Ω = [lower, upper] (declared, never inferred "
                  "from data).")
      .def(py::init([](const py::object& lower, const py::object& upper) {
             return Box(to_coordinates(lower, "lower"), to_coordinates(upper, "upper"));
           }),
           py::arg("lower"), py::arg("upper"))
      .def_static("unit", &Box::unit, py::arg("dim"), "The unit box [0, 1]^dim.")
      .def_static("parse", &Box::parse, py::arg("text"),
                  "From 'lo:hi,lo:hi' (as the CLI's --domain).")
      .def_property_readonly("dim", &Box::dim)
      .def_property_readonly("lower", [](const Box& b) { return to_numpy(b.lower()); })
      .def_property_readonly("upper", [](const Box& b) { return to_numpy(b.upper()); })
      .def_property_readonly("diameter", &Box::diameter)
      .def("__repr__", [](const Box& b) { return "gpdp.Box('" + b.to_string() + "')"; });
  py::class_<Grid>(m, "Grid",
                   "A regular grid 'lo:hi:count' per axis (endpoints included); points() lists "
                   "them with the first axis varying fastest.")
      .def(py::init([](const std::string& text) { return Grid::parse(text); }), py::arg("spec"))
      .def_property_readonly("dim", &Grid::dim)
      .def_property_readonly("size", &Grid::size)
      .def_property_readonly("shape",
                             [](const Grid& g) {
                               py::tuple t(g.axes().size());
                               for (std::size_t i = 0; i < g.axes().size(); ++i)
                                 t[i] = g.axes()[i].count;
                               return t;
                             })
      .def_property_readonly(
          "axes",
          [](const Grid& g) {
            py::list out;
            for (const auto& a : g.axes()) {
              py::array_t<double> v(static_cast<py::ssize_t>(a.count));
              for (long i = 0; i < a.count; ++i) v.mutable_at(i) = a.at(i);
              out.append(v);
            }
            return out;
          },
          "The coordinates along each axis.")
      .def(
          "points", [](const Grid& g) { return to_numpy(Eigen::MatrixXd(g.points())); },
          "All grid points, (size, dim), first axis fastest.");
}

// Kernel: the covariance functions.
void bind_kernel(py::module_& m) {
  py::class_<Kernel>(m, "Kernel",
                     "Normalised isotropic covariance functions (k(x, x) = 1); the prior is "
                     "GP(0, σ² k).")
      .def_static("exponential", &Kernel::exponential, py::arg("ell"), "exp(-‖x-x'‖/ℓ)")
      .def_static("squared_exponential", &Kernel::squared_exponential, py::arg("ell"),
                  "exp(-‖x-x'‖²/(2ℓ²))")
      .def_static("matern32", &Kernel::matern32, py::arg("ell"))
      .def_static("matern52", &Kernel::matern52, py::arg("ell"))
      .def_static("constant", &Kernel::constant, "k ≡ 1 (Lemma B.4)")
      .def_static("diagonal", &Kernel::diagonal, "k(x, x') = 1{x = x'} (Lemma B.5)")
      .def_static("from_name", &Kernel::from_name, py::arg("name"), py::arg("ell") = 1.0,
                  "By CLI name: exp|exp1d|se|matern32|matern52|constant|diagonal.")
      .def_property_readonly("name", &Kernel::name)
      .def_property_readonly("lengthscale", &Kernel::lengthscale)
      .def("of_distance", &Kernel::of_distance, py::arg("distance"))
      .def(
          "cross",
          [](const Kernel& k, const py::object& a, const py::object& b) {
            return to_numpy(k.cross(to_points(a, "a"), to_points(b, "b")));
          },
          py::arg("a"), py::arg("b"), "K(A, B), shape (len(A), len(B)).")
      .def(
          "gram",
          [](const Kernel& k, const py::object& a) { return to_numpy(k.gram(to_points(a, "a"))); },
          py::arg("a"))
      .def(
          "kappa",
          [](const Kernel& k, const py::object& lower, const py::object& upper) {
            return k.kappa(Box(to_coordinates(lower, "lower"), to_coordinates(upper, "upper")));
          },
          py::arg("lower"), py::arg("upper"),
          "κ = inf k(x, x') over the box [lower, upper] (docs/mathematics.md §2).")
      .def(
          "kappa", [](const Kernel& k, const Box& box) { return k.kappa(box); }, py::arg("domain"))
      .def("__repr__", [](const Kernel& k) {
        return "gpdp.Kernel(" + k.name() +
               ", ell=" + std::string(py::str(py::float_(k.lengthscale()))) + ")";
      });
}

// Rng, SeededRng, SecureRng.
void bind_rngs(py::module_& m) {
  py::class_<Rng>(m, "Rng", "Base class of the random generators.")
      .def_property_readonly("is_secure", &Rng::is_secure)
      .def_property_readonly("description", &Rng::description)
      .def("next_u64", &Rng::next_u64)
      .def("uniform01", &Rng::uniform01)
      .def(
          "standard_normal",
          [](Rng& r, py::ssize_t size) {
            if (size < 0) throw py::value_error("size must be ≥ 0");
            py::array_t<double> out(size);
            r.fill_standard_normal(out.mutable_data(), static_cast<std::size_t>(size));
            return out;
          },
          py::arg("size"))
      .def("__repr__", [](const Rng& r) { return "<gpdp.Rng " + r.description() + ">"; });
  py::class_<SeededRng, Rng>(m, "SeededRng",
                             "xoshiro256** seeded through splitmix64: reproducible, NOT private "
                             "(experiments; the CLI's --seed).")
      .def(py::init<std::uint64_t>(), py::arg("seed"))
      .def_property_readonly("seed", &SeededRng::seed)
      .def("split", &SeededRng::split, py::arg("index"), "An independent stream for `index`.");
  py::class_<SecureRng, Rng>(m, "SecureRng",
                             "Operating-system entropy (libsodium): the generator for releases.")
      .def(py::init<>());
}

// Posterior: mean, variance, p_D, d_eff, exact draws.
void bind_posterior(py::module_& m) {
  py::class_<Posterior>(m, "Posterior",
                        "The GP posterior GP(μ_D, σ² k_D) of data (X, y) under θ = (ℓ, r, σ) "
                        "(docs/mathematics.md §1). X: (n, d) or (n,) float64; y: (n,).")
      .def(py::init([](const Kernel& kernel, const py::object& X, const py::object& y, double r,
                       double sigma) {
             Points pts = to_points(X, "X");
             Eigen::VectorXd values = to_vector(y, "y");
             return Posterior(kernel, std::move(pts), std::move(values), Hyperparameters{r, sigma});
           }),
           py::arg("kernel"), py::arg("X"), py::arg("y"), py::kw_only(), py::arg("r"),
           py::arg("sigma") = 1.0)
      .def_property_readonly("kernel", &Posterior::kernel)
      .def_property_readonly("r", &Posterior::r)
      .def_property_readonly("sigma", &Posterior::sigma)
      .def_property_readonly("n", &Posterior::n)
      .def_property_readonly("dim", &Posterior::dim)
      .def_property_readonly("X",
                             [](const Posterior& p) { return to_numpy(Eigen::MatrixXd(p.X())); })
      .def_property_readonly("y", [](const Posterior& p) { return to_numpy(p.y()); })
      .def(
          "weights", [](const Posterior& p) { return to_numpy(p.weights()); },
          "(K + r² I)⁻¹ y, the representer weights of μ_D.")
      .def(
          "mean",
          [](const Posterior& p, const py::object& xs) {
            return blockwise(points_view(xs, "xs"), p.n(),
                             [&p](const Points& b) { return p.mean(b); });
          },
          py::arg("xs"), "μ_D(xs), shape (m,).")
      .def(
          "variance",
          [](const Posterior& p, const py::object& xs) {
            return blockwise(points_view(xs, "xs"), p.n(),
                             [&p](const Points& b) { return p.variance(b); });
          },
          py::arg("xs"), "σ² k_D(x, x) at each point, shape (m,).")
      .def(
          "excursion_probability",
          [](const Posterior& p, const py::object& xs, double t) {
            return blockwise(points_view(xs, "xs"), p.n(),
                             [&p, t](const Points& b) { return p.excursion_probability(b, t); });
          },
          py::arg("xs"), py::arg("t") = 0.0, "p_D(x) = Φ((μ_D(x) − t)/(σ √k_D(x, x))).")
      .def(
          "covariance",
          [](const Posterior& p, const py::object& xs) {
            const Points pts = to_points(xs, "xs");
            return to_numpy(p.covariance(pts));
          },
          py::arg("xs"), "σ² k_D(xs, xs), shape (m, m).")
      .def(
          "cross_covariance",
          [](const Posterior& p, const py::object& a, const py::object& b) {
            return to_numpy(p.cross_covariance(to_points(a, "a"), to_points(b, "b")));
          },
          py::arg("a"), py::arg("b"))
      .def("effective_dimension", &Posterior::effective_dimension, "d_eff = tr(K (K + r² I)⁻¹).")
      .def("sample", &sample_draws, py::arg("xs"), py::kw_only(), py::arg("n_draws") = 1,
           py::arg("rng") = py::none(), py::arg("method") = "auto", py::arg("eta") = 0.0,
           py::arg("full_output") = false,
           "Exact draws of f_D (+ g, g ~ GP(0, η² k)) at xs (points or a gpdp.Grid): (m, n_draws). "
           "rng=None uses the secure generator. full_output=True returns (values, method, detail).")
      .def(
          "sample_path",
          [](const Posterior& p, const py::object& rng, double eta) {
            return std::make_unique<PySamplePath>(p, eta, rng);
          },
          py::kw_only(), py::arg("rng") = py::none(), py::arg("eta") = 0.0,
          "A lazily evaluated path: path(xs) draws new points conditionally on all earlier "
          "answers; a point asked twice returns the same value.");
}

// SamplePath: a lazily evaluated released path.
void bind_sample_path(py::module_& m) {
  py::class_<PySamplePath>(m, "SamplePath")
      .def("__call__", &PySamplePath::operator(), py::arg("xs"))
      .def_property_readonly("eta", [](const PySamplePath& s) { return s.path().eta(); })
      .def_property_readonly(
          "points",
          [](const PySamplePath& s) { return to_numpy(Eigen::MatrixXd(s.path().points())); })
      .def_property_readonly("values",
                             [](const PySamplePath& s) { return to_numpy(s.path().values()); })
      .def_property_readonly("last_method",
                             [](const PySamplePath& s) { return s.path().last_method(); })
      .def_property_readonly("rng_description",
                             [](const PySamplePath& s) { return s.rng().description(); })
      .def("__len__", [](const PySamplePath& s) { return s.path().size(); });
}

}  // namespace

// The device of the dense factorisations (gpdp/factorisation.hpp), process-wide.
void bind_factorisation(py::module_& m) {
  m.def(
      "set_factor_device",
      [](const std::string& device) { set_factor_device(parse_factor_device(device)); },
      py::arg("device"),
      "Run every later dense factorisation (Cholesky, eigendecomposition) on 'cpu' (default) or "
      "'gpu' (cuSOLVER). 'gpu' raises gpdp.ResourceError, with the reason, when this build has no "
      "CUDA support or no CUDA device is present. Random draws stay on the CPU's generator.");
  m.def(
      "factor_device", [] { return std::string(to_string(factor_device())); },
      "The device of the dense factorisations: 'cpu' or 'gpu'.");
  m.def("gpu_unavailable_reason", &gpu_unavailable_reason,
        "Why set_factor_device('gpu') would be refused here, or '' when a GPU can be used.");
}

void bind_core(py::module_& m) {
  bind_factorisation(m);
  bind_domains(m);
  bind_kernel(m);
  bind_rngs(m);
  bind_posterior(m);
  bind_sample_path(m);
}

}  // namespace gpdp::python
