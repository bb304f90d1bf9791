#include "release_summary.hpp"

#include <fmt/format.h>

namespace gpdp::cli {

namespace {

using nlohmann::json;

double tpr_at(const json& risk, const char* fpr) { return risk["tpr_at_fpr"][fpr].get<double>(); }

std::string risk_line(const json& risk) {
  std::string line =
      fmt::format("an attacker at 1 % false positives identifies at most {:.3g} % (this release)",
                  100.0 * tpr_at(risk, "0.01"));
  if (risk.contains("budget")) {
    line +=
        fmt::format("; {:.3g} % against the whole budget", 100.0 * tpr_at(risk["budget"], "0.01"));
  }
  return line;
}

std::string budget_line(const json& l) {
  if (!l.contains("budget")) {
    return fmt::format("none set (use --budget-epsilon/--budget-delta)   [ledger {} #{}]",
                       l["path"].get<std::string>(), l["release_id"].get<long>());
  }
  const auto& orders = l["filter"]["orders"];
  const std::string filter =
      orders.size() == 1 ? fmt::format("Rényi filter at α = {:.4g}", orders[0].get<double>())
                         : fmt::format("Rényi filter at {} orders", orders.size());
  return fmt::format("spent ε = {:.4g} of {} (δ = {:.3g}); remaining {:.4g}   [{}; ledger {} #{}]",
                     l["epsilon_spent_total"].get<double>(), l["budget"]["epsilon"].get<double>(),
                     l["budget"]["delta"].get<double>(), l["epsilon_remaining"].get<double>(),
                     filter, l["path"].get<std::string>(), l["release_id"].get<long>());
}

std::string dataset_line(const json& d) {
  const long earlier = d["earlier_releases"].get<long>();
  std::string line =
      fmt::format("{}: {} records, {}", d["name"].get<std::string>(), d["records"].get<long>(),
                  earlier == 0 ? std::string("its first release")
                               : fmt::format("{} earlier release(s)", earlier));
  for (const auto& o : d["overlap_override"]) {
    line += fmt::format(
        "; released DESPITE data shared with '{}' ({} records, {} rows of the file, {} records at "
        "the same covariates)",
        o["dataset"].get<std::string>(), o["shared"].get<long>(), o.value("shared_rows", 0L),
        o.value("shared_covariates", 0L));
  }
  return line;
}

}  // namespace

std::string format_release_summary(const json& s) {
  std::string out;
  out += fmt::format("gpdp release → {}{}\n", s["out"].get<std::string>(),
                     s["private"].get<bool>() ? "" : "   *** NOT PRIVATE (seeded RNG) ***");
  out += fmt::format("  data        n = {} records, {} response(s) clipped to ±M_Y\n",
                     s["n"].get<long>(), s["clipped"].get<long>());
  out += fmt::format("  dataset     {}\n", dataset_line(s["dataset"]));
  if (s.contains("auto"))
    out += fmt::format("  auto        {}\n", s["auto"]["line"].get<std::string>());
  const std::string kind = s.contains("mechanism") ? s["mechanism"].value("kind", "") : "";
  if (kind == "grid-mean") {
    out += fmt::format(
        "  mechanism   grid mean: {} cells, noise s_S = {:.6g} (sums), s_N = {:.6g} (counts); map: "
        "GP (ℓ = {}, r = {:.6g}, σ = {}) fitted to the noisy cell means\n",
        s["grid_mean"]["cells"].get<long>(), s["mechanism"]["noise_scale"].get<double>(),
        s["mechanism"]["count_noise"].get<double>(), s["ell"].get<double>(), s["r"].get<double>(),
        s["sigma"].get<double>());
  } else if (kind == "functional") {
    out += fmt::format(
        "  mechanism   functional μ_D + s·g: ℓ = {}, r = {:.6g}, s = {:.6g}   (Δ_n: Lemma {})\n",
        s["ell"].get<double>(), s["r"].get<double>(), s["mechanism"]["noise_scale"].get<double>(),
        s["sensitivity"].get<std::string>());
  } else {
    out += fmt::format("  θ           ℓ = {}, r = {:.6g}, σ = {}, η = {:.6g}   (Δ_n: Lemma {})\n",
                       s["ell"].get<double>(), s["r"].get<double>(), s["sigma"].get<double>(),
                       s["eta"].get<double>(), s["sensitivity"].get<std::string>());
  }
  if (s.contains("prior_mean")) {
    const auto& p = s["prior_mean"];
    out += fmt::format(
        "  prior mean  {:.6g} (response units){}\n", p["response_units"].get<double>(),
        p["mode"] == "dp" ? fmt::format("   (private: s = {:.4g}, ε = {:.4g} of the total)",
                                        p["noise_scale"].get<double>(), p["epsilon"].get<double>())
                          : std::string("   (public)"));
  }
  if (s.contains("calibration")) {
    out += fmt::format("  calibrated  {} for target ε = {}\n",
                       s["calibration"]["solved"].get<std::string>(),
                       s["calibration"]["target_epsilon"].get<double>());
  }
  out += fmt::format(
      "  guarantee   ({:.4g}, {:.3g})-DP for {} path(s) at {} points  [α* = {:.4g}, {}]\n",
      s["epsilon"].get<double>(), s["delta"].get<double>(), s["draws"].get<int>(),
      s["points"].get<long>(), s["alpha_star"].get<double>(), s["conversion"].get<std::string>());
  out += fmt::format("  risk        {}\n", risk_line(s["risk"]));
  out += fmt::format("  sampling    {} ; {} ; values snapped to multiples of {:.3g}\n",
                     s["sampler"].get<std::string>(), s["rng"].get<std::string>(),
                     s["granularity"].get<double>());
  out +=
      fmt::format("  map         {:.1f}% of the evaluated points in the released excursion set\n",
                  100.0 * s["fraction_in_set"].get<double>());
  out += fmt::format("  budget      {}\n", budget_line(s["ledger"]));
  std::string files;
  for (const auto& f : s["files"]) files += f.get<std::string>() + " ";
  out += fmt::format("  files       {}\n", files);
  return out;
}

}  // namespace gpdp::cli
