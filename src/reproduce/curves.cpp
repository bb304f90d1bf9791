// gpdp-lab curves: the (ε, δ) curves of the paper's Figure 1 (ε vs r, vs σ and vs L) for both
// conversions, as CSV and a figure, as one declared request (curves.hpp).
#include "gpdp/reproduce/curves.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "io/atomic_file.hpp"
#include "release/option_values.hpp"

namespace gpdp::reproduce {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The three settings of Figure 1: generic Δ (Lemma B.1), RKHS Δ (Lemma B.8), added noise η = σ.
struct Setting {
  std::string name;
  std::string title;
  privacy::SensitivityLemma lemma;
  bool noise;
};

std::vector<double> log_space(double lo, double hi, int m) {
  std::vector<double> v(m);
  for (int i = 0; i < m; ++i) v[i] = lo * std::pow(hi / lo, static_cast<double>(i) / (m - 1));
  return v;
}

std::string fmt_num(double v) { return std::isinf(v) ? "inf" : fmt::format("{:.17g}", v); }

const std::vector<privacy::Conversion> kConversions = {privacy::Conversion::Mironov,
                                                       privacy::Conversion::CKS};

// Figure 1 being drawn: a 3 x 3 grid of panels (rows: ε vs r, vs σ, vs L; columns: the settings)
// and the CSV of every point.
class Curves {
 public:
  explicit Curves(const CurvesRequest& a) : a_(a), fig_(1500, 1250, 3, 3) {
    fig_.suptitle(
        fmt::format("(ε, δ) bounds, n = {}, δ = {:g}, κ² = {:g}, M_Y = {:g}, V_n = V̄_n "
                    "(solid: Mironov, dashed: CKS)",
                    a.n, a.delta, a.kappa2, a.M_Y));
    rs_ = log_space(0.1, 1000.0, a.points);
    sigmas_ = log_space(0.01, 100.0, a.points);
    for (double L : log_space(1.0, 1e4, a.points)) {
      const double rounded = std::round(L);
      if (Ls_.empty() || rounded > Ls_.back()) Ls_.push_back(rounded);
    }
  }

  // Column `col` of the figure: the three sweeps of one setting.
  void add_setting(const Setting& s, int col) {
    auto& by_r = fig_.panel(0, col);
    auto& by_sigma = fig_.panel(1, col);
    auto& by_L = fig_.panel(2, col);
    by_r.title(s.title).xlabel("r").ylabel("ε").xlog().ylog();
    by_sigma.xlabel("σ").ylabel("ε").xlog().ylog();
    by_L.xlabel("draws L").ylabel("ε").xlog().ylog();
    sweep_r(s, by_r);
    sweep_sigma_and_draws(s, by_sigma, by_L);
    by_r.legend();
    by_sigma.legend();
    by_L.legend(plot::LegendPosition::upper_left);
  }

  CurvesOutput write() {
    std::filesystem::create_directories(a_.out_dir);
    const auto csv_path = (std::filesystem::path(a_.out_dir) / "curves.csv").string();
    const auto fig_path = (std::filesystem::path(a_.out_dir) / ("curves." + a_.format)).string();
    const std::string image = fig_.render(a_.format);
    io::write_file_atomic(csv_path, csv_);
    io::write_file_atomic(fig_path, image);
    return {csv_path, fig_path};
  }

 private:
  privacy::GpMechanism mechanism(const Setting& s, double r, double sigma) const {
    privacy::GpMechanism m;
    m.kappa = std::sqrt(a_.kappa2);  // "a kernel with k(x,x) = 1 and κ² = kappa2"
    m.n = a_.n;
    m.r = r;
    m.sigma = sigma;
    m.eta = s.noise ? sigma : 0.0;
    m.M_Y = a_.M_Y;
    m.lemma = s.lemma;
    m.rkhs_norm = a_.rkhs_norm;
    return m;
  }

  // ε of L draws of the mechanism, recorded in the CSV.
  double epsilon(const Setting& s, const std::string& sweep, privacy::Conversion c,
                 const privacy::GpMechanism& m, long L) {
    const auto g = privacy::account(m, L, a_.delta, c);
    csv_ += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.17g},{:.17g},{}\n", s.name, sweep,
                        privacy::to_string(c), privacy::to_string(m.lemma), m.n, a_.kappa2,
                        a_.delta, fmt_num(m.r), fmt_num(m.sigma), fmt_num(m.eta), L, g.epsilon,
                        g.alpha, g.pinned_low || g.pinned_high ? 1 : 0);
    return g.epsilon;
  }

  // ε vs r at σ = 0.1, 1, 10 (and ∞ without added noise).
  void sweep_r(const Setting& s, plot::Axes& panel) {
    std::vector<double> sigma_lines = {0.1, 1.0, 10.0};
    if (!s.noise) sigma_lines.push_back(kInf);
    for (std::size_t k = 0; k < sigma_lines.size(); ++k) {
      const auto colour = plot::cycle_color(static_cast<int>(k));
      for (const auto c : kConversions) {
        std::vector<double> eps;
        for (double r : rs_) eps.push_back(epsilon(s, "r", c, mechanism(s, r, sigma_lines[k]), 1));
        const bool mir = c == privacy::Conversion::Mironov;
        panel.line(
            rs_, eps,
            {.label = mir ? (std::isinf(sigma_lines[k]) ? std::string("σ = ∞ (covariance only)")
                                                        : fmt::format("σ = {:g}", sigma_lines[k]))
                          : "",
             .color = colour,
             .dashed = !mir});
      }
    }
  }

  // ε vs σ, and ε vs the number of draws L at σ = 1, for r = 1, 10, 100.
  void sweep_sigma_and_draws(const Setting& s, plot::Axes& by_sigma, plot::Axes& by_L) {
    const std::vector<double> r_lines = {1.0, 10.0, 100.0};
    for (std::size_t k = 0; k < r_lines.size(); ++k) {
      const auto colour = plot::cycle_color(static_cast<int>(k));
      for (const auto c : kConversions) {
        const bool mir = c == privacy::Conversion::Mironov;
        std::vector<double> eps;
        for (double sigma : sigmas_) {
          eps.push_back(epsilon(s, "sigma", c, mechanism(s, r_lines[k], sigma), 1));
        }
        by_sigma.line(sigmas_, eps,
                      {.label = mir ? fmt::format("r = {}", r_lines[k]) : "",
                       .color = colour,
                       .dashed = !mir});
        std::vector<double> eps_L;
        for (double L : Ls_) {
          eps_L.push_back(
              epsilon(s, "draws", c, mechanism(s, r_lines[k], 1.0), static_cast<long>(L)));
        }
        by_L.line(Ls_, eps_L,
                  {.label = mir ? fmt::format("r = {}, σ = 1", r_lines[k]) : "",
                   .color = colour,
                   .dashed = !mir});
      }
    }
  }

  const CurvesRequest& a_;
  plot::Figure fig_;
  std::string csv_ =
      "setting,sweep,conversion,lemma,n,kappa2,delta,r,sigma,eta,draws,epsilon,alpha,pinned\n";
  std::vector<double> rs_, sigmas_, Ls_;
};

}  // namespace

std::vector<options::OptionSpec> curves_options() {
  using options::option;
  using options::OptionType;
  const CurvesRequest d;
  return {
      option("--out", OptionType::Text, nullptr, "Output folder (created if missing)")
          .as_required(),
      option("--format", OptionType::Text, d.format, "Figure format: png or svg"),
      option("--n", OptionType::Integer, d.n, "Dataset size n"),
      option("--delta", OptionType::Real, d.delta, "δ"),
      option("--kappa2", OptionType::Real, d.kappa2, "κ² (the paper's Figure 1 uses 0.1)"),
      option("--M-Y", OptionType::Real, d.M_Y, "Response bound M_Y"),
      option("--rkhs-norm", OptionType::Real, d.rkhs_norm, "‖f*‖_H for the Lemma B.8 panels"),
      option("--points", OptionType::Integer, d.points, "Points per curve"),
  };
}

CurvesRequest curves_request_from_json(const nlohmann::json& request) {
  const auto o = release::declared_values(curves_options(), request, "curves");
  CurvesRequest a;
  a.out_dir = o.text("out");
  a.format = o.text("format");
  a.n = o.integer("n");
  a.delta = o.number("delta");
  a.kappa2 = o.number("kappa2");
  a.M_Y = o.number("M-Y");
  a.rkhs_norm = o.number("rkhs-norm");
  const long long points = o.integer("points");
  require_parameter(!a.out_dir.empty(), "out", "curves: out DIR is required");
  require_parameter(a.format == "png" || a.format == "svg", "format", "format must be png or svg");
  require_parameter(a.n >= 1, "n", "n must be ≥ 1");
  require_parameter(a.delta > 0 && a.delta < 1, "delta", "delta must lie in (0, 1)");
  require_parameter(a.kappa2 >= 0 && a.kappa2 <= 1, "kappa2", "kappa2 must lie in [0, 1]");
  require_parameter(points >= 2, "points", "points must be ≥ 2");
  require_parameter(points <= 100000, "points", "points must be at most 100000");
  a.points = static_cast<int>(points);
  return a;
}

CurvesOutput run_curves(const CurvesRequest& a,
                        const std::function<void(const std::string&)>& progress) {
  const std::vector<Setting> settings = {
      {"generic", "generic Δ_n (Lemma B.1)", privacy::SensitivityLemma::B1, false},
      {"rkhs", fmt::format("RKHS Δ_n (Lemma B.8, ‖f*‖ = {})", a.rkhs_norm),
       privacy::SensitivityLemma::B8, false},
      {"noise", "added GP noise η = σ (Prop. 2), Lemma B.1", privacy::SensitivityLemma::B1, true},
  };
  Curves curves(a);
  for (std::size_t col = 0; col < settings.size(); ++col) {
    progress(settings[col].name);
    curves.add_setting(settings[col], static_cast<int>(col));
  }
  return curves.write();
}

}  // namespace gpdp::reproduce
