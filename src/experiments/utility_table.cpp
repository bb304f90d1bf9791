#include "gpdp/experiments/utility_table.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>

#include "gpdp/io/csv.hpp"

namespace gpdp::experiments {

namespace {
using Metric = std::function<double(const PairOutcome&)>;

Quartiles of(const StudyResult& r, const Metric& m) {
  std::vector<double> v;
  v.reserve(r.pairs.size());
  for (const auto& p : r.pairs) v.push_back(m(p));
  return quartiles(std::move(v));
}

std::string number(double v) {
  if (!std::isfinite(v)) return v > 0 ? "∞" : "n/a";
  if (std::fabs(v) >= 1e4) {
    const int e = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    return fmt::format("{:.2g}·10^{}", v / std::pow(10.0, e), e);
  }
  return fmt::format("{:.3g}", v);
}
std::string fixed3(double v) { return fmt::format("{:.3f}", v); }
std::string percent(double v) { return fmt::format("{:.1f}%", 100.0 * v); }

std::string cell(const Quartiles& q, std::string (*f)(double)) {
  return fmt::format("{} [{}, {}]", f(q.median), f(q.q1), f(q.q3));
}

struct Row {
  std::string name;
  std::function<std::string(const StudyResult&)> value;
};

std::vector<Row> rows() {
  const Metric deff_u = [](const PairOutcome& p) { return p.d_eff_unconstrained; };
  const Metric deff_p = [](const PairOutcome& p) { return p.d_eff_private; };
  const Metric bce = [](const PairOutcome& p) { return p.relative_bce_increase(); };
  const Metric iou_u = [](const PairOutcome& p) { return p.iou_unconstrained; };
  const Metric iou_m = [](const PairOutcome& p) { return p.iou_release_mean; };
  const Metric iou_s = [](const PairOutcome& p) { return p.iou_release_sd; };
  const Metric gap = [](const PairOutcome& p) { return p.relative_iou_gap(); };
  auto eps0 = [](const StudyResult& r) { return number(r.spec.epsilon_max); };
  return {
      {"ε, unconstrained", [](const StudyResult& r) { return number(r.epsilon_unconstrained); }},
      {"d_eff, unconstrained", [=](const StudyResult& r) { return cell(of(r, deff_u), number); }},
      {"d_eff, ε < ε₀", [=](const StudyResult& r) { return cell(of(r, deff_p), number); }},
      {"relative BCE increase", [=](const StudyResult& r) { return cell(of(r, bce), percent); }},
      {"IoU, unconstrained", [=](const StudyResult& r) { return cell(of(r, iou_u), fixed3); }},
      {"1-path IoU mean, ε < ε₀", [=](const StudyResult& r) { return cell(of(r, iou_m), fixed3); }},
      {"1-path IoU SD, ε < ε₀", [=](const StudyResult& r) { return cell(of(r, iou_s), fixed3); }},
      {"relative IoU gap", [=](const StudyResult& r) { return cell(of(r, gap), percent); }},
      {"ε of θ_priv (must be < ε₀)",
       [=](const StudyResult& r) {
         return fmt::format("{:.3g} (ε₀ = {})", r.epsilon_private, eps0(r));
       }},
      {"θ* = (ℓ, r, σ)",
       [](const StudyResult& r) {
         const auto& t = r.theta_unconstrained;
         return fmt::format("({:.3g}, {:.3g}, {:.3g})", t.ell, t.r, t.sigma);
       }},
      {"θ_priv = (ℓ, r, σ)",
       [](const StudyResult& r) {
         const auto& t = r.theta_private;
         return fmt::format("({:.3g}, {:.3g}, {:.3g})", t.ell, t.r, t.sigma);
       }},
      {"cutoffs C, c",
       [](const StudyResult& r) { return fmt::format("{:.2f}, {:.2f}", r.cutoff_C, r.cutoff_c); }},
  };
}
}  // namespace

std::string utility_table_markdown(const std::vector<StudyResult>& results,
                                   const std::string& header) {
  std::string out = fmt::format("| {} |", header);
  std::string rule = "|---|";
  for (const auto& r : results) {
    out += fmt::format(" {} |", r.spec.label);
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const auto& row : rows()) {
    out += fmt::format("| {} |", row.name);
    for (const auto& r : results) out += fmt::format(" {} |", row.value(r));
    out += "\n";
  }
  return out;
}

std::string utility_table_csv(const std::vector<StudyResult>& results) {
  const std::vector<std::pair<std::string, Metric>> metrics{
      {"d_eff_unconstrained", [](const PairOutcome& p) { return p.d_eff_unconstrained; }},
      {"d_eff_private", [](const PairOutcome& p) { return p.d_eff_private; }},
      {"relative_bce_increase", [](const PairOutcome& p) { return p.relative_bce_increase(); }},
      {"iou_unconstrained", [](const PairOutcome& p) { return p.iou_unconstrained; }},
      {"iou_1path_mean", [](const PairOutcome& p) { return p.iou_release_mean; }},
      {"iou_1path_sd", [](const PairOutcome& p) { return p.iou_release_sd; }},
      {"relative_iou_gap", [](const PairOutcome& p) { return p.relative_iou_gap(); }},
  };
  std::string out =
      "setting,dim,n,nsr,pairs,validation_pairs,releases,paths,delta,conversion,epsilon_max,"
      "epsilon_unconstrained,epsilon_private,ell_star,r_star,sigma_star,ell_priv,r_priv,sigma_priv,"
      "cutoff_C,cutoff_c";
  for (const auto& [name, m] : metrics) out += fmt::format(",{0}_median,{0}_q1,{0}_q3", name);
  out += "\n";
  for (const auto& r : results) {
    const auto& s = r.spec;
    const double nsr = s.dim == 1 ? s.field1d.nsr : s.field2d.nsr;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}", io::csv_field(s.label), s.dim,
                       s.privacy.n, io::format_number(nsr), s.pairs, s.validation_pairs, s.releases,
                       s.privacy.paths, io::format_number(s.privacy.delta),
                       privacy::to_string(s.privacy.conversion), io::format_number(s.epsilon_max));
    for (const double v :
         {r.epsilon_unconstrained, r.epsilon_private, r.theta_unconstrained.ell,
          r.theta_unconstrained.r, r.theta_unconstrained.sigma, r.theta_private.ell,
          r.theta_private.r, r.theta_private.sigma, r.cutoff_C, r.cutoff_c}) {
      out += "," + (std::isfinite(v) ? io::format_number(v) : std::string("inf"));
    }
    for (const auto& [name, m] : metrics) {
      const Quartiles q = of(r, m);
      out += fmt::format(",{},{},{}", io::format_number(q.median), io::format_number(q.q1),
                         io::format_number(q.q3));
    }
    out += "\n";
  }
  return out;
}

}  // namespace gpdp::experiments
