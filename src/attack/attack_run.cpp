#include "gpdp/attack/attack_run.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <optional>

#include "gpdp/attack/attack_options.hpp"
#include "gpdp/attack/bound.hpp"
#include "gpdp/attack/sweep.hpp"
#include "gpdp/error.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/privacy/json.hpp"
#include "gpdp/privacy/risk.hpp"
#include "io/atomic_file.hpp"
#include "roc_plot.hpp"

namespace gpdp::attack {

namespace {

std::string level_key(double level) { return fmt::format("{:g}", level); }

nlohmann::json by_level(const std::array<MeanSd, 3>& v, bool sd) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t k = 0; k < 3; ++k) j[level_key(kFprLevels[k])] = sd ? v[k].sd : v[k].mean;
  return j;
}

nlohmann::json summary_json(const AttackSummary& s) {
  nlohmann::json j;
  j["auc"] = s.auc.mean;
  j["auc_sd"] = s.auc.sd;
  j["tpr_at_fpr"] = by_level(s.tpr, false);
  j["tpr_at_fpr_sd"] = by_level(s.tpr, true);
  j["excess_tpr_at_fpr"] = by_level(s.excess_tpr, false);
  j["excess_tpr_at_fpr_sd"] = by_level(s.excess_tpr, true);
  j["empirical_epsilon"] = s.epsilon_estimate.mean;
  j["empirical_epsilon_sd"] = s.epsilon_estimate.sd;
  j["empirical_epsilon_lower95"] = s.epsilon_lower.mean;
  j["empirical_epsilon_lower95_sd"] = s.epsilon_lower.sd;
  return j;
}

std::string summary_text(const std::string& title, const AttackSummary& s) {
  std::string out = fmt::format("{}\n", title);
  out += fmt::format("  AUC                 {:.4f} ± {:.4f}\n", s.auc.mean, s.auc.sd);
  for (std::size_t k = 0; k < 3; ++k) {
    out += fmt::format("  TPR @ FPR = {:<6g}  {:.4f} ± {:.4f}   (excess {:+.4f} ± {:.4f})\n",
                       kFprLevels[k], s.tpr[k].mean, s.tpr[k].sd, s.excess_tpr[k].mean,
                       s.excess_tpr[k].sd);
  }
  out += fmt::format("  empirical ε         {:.3f} ± {:.3f}   (95 % lower bound {:.3f} ± {:.3f})\n",
                     s.epsilon_estimate.mean, s.epsilon_estimate.sd, s.epsilon_lower.mean,
                     s.epsilon_lower.sd);
  return out;
}

LiraOptions lira_options(const AttackRequest& a) {
  LiraOptions o;
  o.shadow.n = a.n;
  o.shadow.noise = a.noise;
  o.shadow.kernel = Kernel::from_name(a.kernel, a.ell);
  o.shadow.validate();
  o.sizes = {a.shadow, a.eval};
  o.delta = a.delta;
  return o;
}

// The ROC curves over seeds (linear and log-log) with the bound's region.
void save_roc(const AttackRequest& a, const std::vector<SeedOutcome>& seeds,
              const privacy::Guarantee& bound) {
  plot::Figure fig(1200, 560, 1, 2);
  const std::string label = fmt::format("LiRA, {} seeds", a.seeds);
  draw_roc(fig.panel(0, 0).title("ROC"), seeds, bound.epsilon, a.delta, false, label);
  draw_roc(fig.panel(0, 1).title("ROC (log-log)"), seeds, bound.epsilon, a.delta, true, label);
  fig.suptitle(fmt::format("r = {:g}, σ = {:g}, L = {}, n = {}: bound ε = {:.3g} at δ = {:g}", a.r,
                           a.sigma, a.draws, a.n, bound.epsilon, a.delta));
  fig.save(a.roc_path);
}

// What the guarantee allows any membership attacker against this release (privacy/risk.hpp).
privacy::AttackRisk release_risk(const AttackRequest& a, const LiraOptions& o,
                                 const privacy::Guarantee& bound) {
  privacy::Accountant composition;
  composition.add(attack_mechanism(o.shadow, a.r, a.sigma), a.draws);
  return privacy::attack_risk(composition, bound);
}

struct Findings {
  privacy::Guarantee bound;
  privacy::Conversion conversion;
  AttackSummary summary;
  std::optional<AttackSummary> exact;
};

std::string report_json(const AttackRequest& a, const LiraOptions& o, const Findings& f) {
  nlohmann::json j = summary_json(f.summary);
  j["epsilon"] = f.bound.epsilon;
  j["delta"] = a.delta;
  j["alpha"] = f.bound.alpha;
  j["conversion"] = privacy::to_string(f.conversion);
  j["sensitivity_lemma"] = privacy::to_string(attack_mechanism(o.shadow, a.r, a.sigma).lemma);
  j["r"] = a.r;
  j["sigma"] = privacy::number_or_inf(a.sigma);
  j["draws"] = a.draws;
  j["n"] = a.n;
  j["kernel"] = o.shadow.kernel.name();
  j["noise"] = a.noise;
  j["shadow"] = a.shadow;
  j["eval"] = a.eval;
  j["seeds"] = a.seeds;
  j["seed"] = a.seed;
  j["rng"] = "seeded xoshiro256** (experiment, NOT private)";
  j["fpr_levels"] = {kFprLevels[0], kFprLevels[1], kFprLevels[2]};
  j["risk"] = privacy::to_json(release_risk(a, o, f.bound));
  if (f.exact) j["non_private_benchmark"] = summary_json(*f.exact);
  return j.dump(2) + "\n";
}

std::string report_text(const AttackRequest& a, const LiraOptions& o, const Findings& f) {
  std::string out =
      "LiRA membership inference at x0 = 1/2, target z0 = (1/2, 1) (docs/mathematics.md §4)\n";
  out += fmt::format("release   r = {:g}, sigma = {:g}, L = {}, n = {}, kernel {}, M_xi = {:g}\n",
                     a.r, a.sigma, a.draws, a.n, o.shadow.kernel.name(), a.noise);
  out += fmt::format(
      "bound     epsilon = {:.6g} at delta = {:g} (lemma {}, conversion {}, alpha* = {:.6g})\n",
      f.bound.epsilon, a.delta, privacy::to_string(attack_mechanism(o.shadow, a.r, a.sigma).lemma),
      privacy::to_string(f.conversion), f.bound.alpha);
  out += fmt::format(
      "sizes     {} shadow + {} evaluation datasets per hypothesis, {} seeds from {} "
      "(seeded xoshiro256**, experiment, NOT private)\n",
      a.shadow, a.eval, a.seeds, a.seed);
  out += summary_text("attack (mean ± sd over seeds)", f.summary);
  if (f.exact) {
    out += summary_text("non-private benchmark (sees mu_D(x0), k_D(x0,x0) exactly)", *f.exact);
  }
  out += fmt::format(
      "check     at FPR = 0.1 the guarantee allows TPR ≤ {:.4f} (RDP region and (ε, δ)); "
      "attack {:.4f}\n",
      release_risk(a, o, f.bound).points.back().tpr, f.summary.tpr[0].mean);
  return out;
}

}  // namespace

void check(const AttackRequest& a) {
  require_parameter(std::isfinite(a.r) && a.r > 0, "r",
                    fmt::format("r must be positive, got {}", a.r));
  require_parameter(
      !std::isnan(a.sigma) && a.sigma > 0, "sigma",
      fmt::format("sigma must be positive (or inf: covariance-only release), got {}", a.sigma));
  require_parameter(a.eta == 0.0, "eta", "eta: the attack probes the plain release (η = 0) only");
  require_parameter(a.draws >= 1, "draws", fmt::format("draws must be ≥ 1, got {}", a.draws));
  require_parameter(a.n >= 1, "n", fmt::format("n must be ≥ 1, got {}", a.n));
  require_parameter(a.shadow >= 10, "shadow", fmt::format("shadow must be ≥ 10, got {}", a.shadow));
  require_parameter(a.eval >= 10, "eval", fmt::format("eval must be ≥ 10, got {}", a.eval));
  require_parameter(a.seeds >= 1, "seeds", fmt::format("seeds must be ≥ 1, got {}", a.seeds));
  require_parameter(a.delta > 0 && a.delta < 1, "delta",
                    fmt::format("delta must be in (0, 1), got {}", a.delta));
  require_parameter(a.noise >= 0 && a.noise < 1, "noise",
                    fmt::format("noise (M_ξ) must be in [0, 1), got {}", a.noise));
  for (const auto& [path, parameter] :
       {std::pair{&a.roc_path, "roc_path"}, std::pair{&a.roc_csv_path, "roc_csv_path"}}) {
    if (path->empty()) continue;
    const auto parent = std::filesystem::path(*path).parent_path();
    require_parameter(parent.empty() || std::filesystem::is_directory(parent), parameter,
                      fmt::format("{}: folder '{}' does not exist", parameter, parent.string()));
  }
  if (!a.roc_path.empty()) {
    const auto ext = std::filesystem::path(a.roc_path).extension().string();
    require_parameter(ext == ".png" || ext == ".svg", "roc_path",
                      fmt::format("roc_path: '{}' must end in .png or .svg", a.roc_path));
  }
}

AttackRequest attack_request_from_json(const nlohmann::json& j) {
  options::check_request_keys(attack_options(), j, "attack");
  AttackRequest a;
  a.kernel = j.value("kernel", a.kernel);
  a.ell = options::real_or(j, "ell", a.ell);
  a.r = options::real_or(j, "r", a.r);
  a.sigma = options::real_or(j, "sigma", a.sigma);
  a.eta = options::real_or(j, "eta", a.eta);
  a.draws = j.value("draws", a.draws);
  a.n = j.value("n", a.n);
  a.shadow = j.value("shadow", a.shadow);
  a.eval = j.value("eval", a.eval);
  a.seeds = j.value("seeds", a.seeds);
  a.seed = j.value("seed", a.seed);
  a.noise = options::real_or(j, "noise", a.noise);
  a.delta = options::real_or(j, "delta", a.delta);
  a.conversion = j.value("conversion", a.conversion);
  a.benchmark = j.value("benchmark", a.benchmark);
  a.json = j.value("json", a.json);
  a.roc_path = j.value("roc_path", a.roc_path);
  a.roc_csv_path = j.value("roc_csv_path", a.roc_csv_path);
  return a;
}

std::string run_attack(const AttackRequest& a, tasks::Executor& executor,
                       const std::function<void(long, long)>& progress) {
  check(a);
  Findings f;
  f.conversion = privacy::parse_conversion(a.conversion);
  SweepOptions o;
  o.lira = lira_options(a);
  o.seeds = a.seeds;
  o.base_seed = a.seed;
  o.progress = progress;
  std::vector<ReleaseSetting> releases{{a.sigma, a.draws}};
  if (a.benchmark) releases.push_back({a.sigma, 0});
  f.bound = attack_guarantee(o.lira.shadow, a.r, a.sigma, a.draws, a.delta, f.conversion);
  const auto results = run_sweep({{a.r, releases}}, o, executor);
  const auto seeds = across_seeds(results, 0, 0);
  f.summary = summarise(seeds);
  if (a.benchmark) f.exact = summarise(across_seeds(results, 0, 1));
  if (!a.roc_path.empty()) save_roc(a, seeds, f.bound);
  if (!a.roc_csv_path.empty()) io::write_file_atomic(a.roc_csv_path, roc_csv(seeds));
  return a.json ? report_json(a, o.lira, f) : report_text(a, o.lira, f);
}

}  // namespace gpdp::attack
