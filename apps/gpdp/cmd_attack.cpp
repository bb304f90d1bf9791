// gpdp attack: the LiRA-style membership-inference attack of docs/mathematics.md §4 (paper §4, App.
// C) against L released posterior sample paths, next to the (ε, δ) bound of the same release.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gpdp/attack/bound.hpp"
#include "gpdp/attack/roc_plot.hpp"
#include "gpdp/attack/sweep.hpp"
#include "gpdp/error.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/privacy/risk.hpp"
#include "options.hpp"

namespace gpdp::cli {

namespace {

struct AttackArgs {
  KernelOptions kernel;
  HyperOptions hyper;
  int draws = 1;
  long n = 10;
  long shadow = 10000;
  long eval = 10000;
  int seeds = 10;
  std::uint64_t seed = 20260616;
  double noise = 0.0;
  double delta = 0.05;
  std::string conversion = "mironov";
  int threads = 0;
  bool benchmark = false;
  bool json = false;
  bool quiet = false;
  std::string roc_path;
  std::string roc_csv_path;
};

std::string level_key(double level) { return fmt::format("{:g}", level); }

nlohmann::json by_level(const std::array<attack::MeanSd, 3>& v, bool sd) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t k = 0; k < 3; ++k)
    j[level_key(attack::kFprLevels[k])] = sd ? v[k].sd : v[k].mean;
  return j;
}

nlohmann::json summary_json(const attack::AttackSummary& s) {
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

void print_summary(const std::string& title, const attack::AttackSummary& s) {
  fmt::print("{}\n", title);
  fmt::print("  AUC                 {:.4f} ± {:.4f}\n", s.auc.mean, s.auc.sd);
  for (std::size_t k = 0; k < 3; ++k) {
    fmt::print("  TPR @ FPR = {:<6g}  {:.4f} ± {:.4f}   (excess {:+.4f} ± {:.4f})\n",
               attack::kFprLevels[k], s.tpr[k].mean, s.tpr[k].sd, s.excess_tpr[k].mean,
               s.excess_tpr[k].sd);
  }
  fmt::print("  empirical ε         {:.3f} ± {:.3f}   (95 % lower bound {:.3f} ± {:.3f})\n",
             s.epsilon_estimate.mean, s.epsilon_estimate.sd, s.epsilon_lower.mean,
             s.epsilon_lower.sd);
}

void check(const AttackArgs& a) {
  require(std::isfinite(a.hyper.r) && a.hyper.r > 0,
          fmt::format("--r must be positive, got {}", a.hyper.r));
  require(!std::isnan(a.hyper.sigma) && a.hyper.sigma > 0,
          fmt::format("--sigma must be positive (or inf: covariance-only release), got {}",
                      a.hyper.sigma));
  require(a.hyper.eta == 0.0, "--eta: the attack probes the plain release (η = 0) only");
  require(a.draws >= 1, fmt::format("--draws must be ≥ 1, got {}", a.draws));
  require(a.n >= 1, fmt::format("--n must be ≥ 1, got {}", a.n));
  require(a.shadow >= 10, fmt::format("--shadow must be ≥ 10, got {}", a.shadow));
  require(a.eval >= 10, fmt::format("--eval must be ≥ 10, got {}", a.eval));
  require(a.seeds >= 1, fmt::format("--seeds must be ≥ 1, got {}", a.seeds));
  require(a.delta > 0 && a.delta < 1, fmt::format("--delta must be in (0, 1), got {}", a.delta));
  require(a.noise >= 0 && a.noise < 1,
          fmt::format("--noise (M_ξ) must be in [0, 1), got {}", a.noise));
  for (const auto* p : {&a.roc_path, &a.roc_csv_path}) {
    if (p->empty()) continue;
    const auto parent = std::filesystem::path(*p).parent_path();
    require(parent.empty() || std::filesystem::is_directory(parent),
            fmt::format("--roc/--roc-csv: folder '{}' does not exist", parent.string()));
  }
  if (!a.roc_path.empty()) {
    const auto ext = std::filesystem::path(a.roc_path).extension().string();
    require(ext == ".png" || ext == ".svg",
            fmt::format("--roc: '{}' must end in .png or .svg", a.roc_path));
  }
}

attack::SweepOptions sweep_options(const AttackArgs& a) {
  attack::SweepOptions o;
  o.lira.shadow.n = a.n;
  o.lira.shadow.noise = a.noise;
  o.lira.shadow.kernel = to_kernel(a.kernel);
  o.lira.shadow.validate();
  o.lira.sizes = {a.shadow, a.eval};
  o.lira.delta = a.delta;
  o.seeds = a.seeds;
  o.base_seed = a.seed;
  o.threads = a.threads;
  if (!a.quiet) o.progress = attack::stderr_progress("attack");
  return o;
}

// The ROC curves over seeds (linear and log-log) with the bound's region.
void save_roc(const AttackArgs& a, const std::vector<attack::SeedOutcome>& seeds,
              const privacy::Guarantee& bound) {
  plot::Figure fig(1200, 560, 1, 2);
  const std::string label = fmt::format("LiRA, {} seeds", a.seeds);
  attack::draw_roc(fig.panel(0, 0).title("ROC"), seeds, bound.epsilon, a.delta, false, label);
  attack::draw_roc(fig.panel(0, 1).title("ROC (log-log)"), seeds, bound.epsilon, a.delta, true,
                   label);
  fig.suptitle(fmt::format("r = {:g}, σ = {:g}, L = {}, n = {}: bound ε = {:.3g} at δ = {:g}",
                           a.hyper.r, a.hyper.sigma, a.draws, a.n, bound.epsilon, a.delta));
  fig.save(a.roc_path);
}

// What the guarantee allows any membership attacker against this release (privacy/risk.hpp).
privacy::AttackRisk release_risk(const AttackArgs& a, const attack::SweepOptions& o,
                                 const privacy::Guarantee& bound) {
  privacy::Accountant composition;
  composition.add(attack::attack_mechanism(o.lira.shadow, a.hyper.r, a.hyper.sigma), a.draws);
  return privacy::attack_risk(composition, bound);
}

nlohmann::json attack_json(const AttackArgs& a, const attack::SweepOptions& o,
                           const privacy::Guarantee& bound, privacy::Conversion conversion,
                           const attack::AttackSummary& summary,
                           const std::optional<attack::AttackSummary>& exact) {
  nlohmann::json j = summary_json(summary);
  j["epsilon"] = bound.epsilon;
  j["delta"] = a.delta;
  j["alpha"] = bound.alpha;
  j["conversion"] = privacy::to_string(conversion);
  j["sensitivity_lemma"] =
      privacy::to_string(attack::attack_mechanism(o.lira.shadow, a.hyper.r, a.hyper.sigma).lemma);
  j["r"] = a.hyper.r;
  j["sigma"] = std::isinf(a.hyper.sigma) ? nlohmann::json("inf") : nlohmann::json(a.hyper.sigma);
  j["draws"] = a.draws;
  j["n"] = a.n;
  j["kernel"] = o.lira.shadow.kernel.name();
  j["noise"] = a.noise;
  j["shadow"] = a.shadow;
  j["eval"] = a.eval;
  j["seeds"] = a.seeds;
  j["seed"] = a.seed;
  j["rng"] = "seeded xoshiro256** (experiment, NOT private)";
  j["fpr_levels"] = {attack::kFprLevels[0], attack::kFprLevels[1], attack::kFprLevels[2]};
  j["risk"] = privacy::to_json(release_risk(a, o, bound));
  if (exact) j["non_private_benchmark"] = summary_json(*exact);
  return j;
}

void print_report(const AttackArgs& a, const attack::SweepOptions& o,
                  const privacy::Guarantee& bound, privacy::Conversion conversion,
                  const attack::AttackSummary& summary,
                  const std::optional<attack::AttackSummary>& exact) {
  fmt::print(
      "LiRA membership inference at x0 = 1/2, target z0 = (1/2, 1) (docs/mathematics.md §4)\n");
  fmt::print("release   r = {:g}, sigma = {:g}, L = {}, n = {}, kernel {}, M_xi = {:g}\n",
             a.hyper.r, a.hyper.sigma, a.draws, a.n, o.lira.shadow.kernel.name(), a.noise);
  fmt::print(
      "bound     epsilon = {:.6g} at delta = {:g} (lemma {}, conversion {}, alpha* = {:.6g})\n",
      bound.epsilon, a.delta,
      privacy::to_string(attack::attack_mechanism(o.lira.shadow, a.hyper.r, a.hyper.sigma).lemma),
      privacy::to_string(conversion), bound.alpha);
  fmt::print(
      "sizes     {} shadow + {} evaluation datasets per hypothesis, {} seeds from {} "
      "(seeded xoshiro256**, experiment, NOT private)\n",
      a.shadow, a.eval, a.seeds, a.seed);
  print_summary("attack (mean ± sd over seeds)", summary);
  if (exact) print_summary("non-private benchmark (sees mu_D(x0), k_D(x0,x0) exactly)", *exact);
  fmt::print(
      "check     at FPR = 0.1 the guarantee allows TPR ≤ {:.4f} (RDP region and (ε, δ)); "
      "attack {:.4f}\n",
      release_risk(a, o, bound).points.back().tpr, summary.tpr[0].mean);
}

void run(const AttackArgs& a) {
  check(a);
  const auto conversion = privacy::parse_conversion(a.conversion);
  const attack::SweepOptions o = sweep_options(a);
  std::vector<attack::ReleaseSetting> releases{{a.hyper.sigma, a.draws}};
  if (a.benchmark) releases.push_back({a.hyper.sigma, 0});
  const auto bound = attack::attack_guarantee(o.lira.shadow, a.hyper.r, a.hyper.sigma, a.draws,
                                              a.delta, conversion);
  const auto results = attack::run_sweep({{a.hyper.r, releases}}, o);
  const auto seeds = attack::across_seeds(results, 0, 0);
  const auto summary = attack::summarise(seeds);
  std::optional<attack::AttackSummary> exact;
  if (a.benchmark) exact = attack::summarise(attack::across_seeds(results, 0, 1));
  if (!a.roc_path.empty()) save_roc(a, seeds, bound);
  if (!a.roc_csv_path.empty()) io::write_file_atomic(a.roc_csv_path, attack::roc_csv(seeds));
  if (a.json) {
    fmt::print("{}\n", attack_json(a, o, bound, conversion, summary, exact).dump(2));
    return;
  }
  print_report(a, o, bound, conversion, summary, exact);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "attack",
      "LiRA-style membership-inference attack (paper §4, App. C) against L released posterior\n"
      "sample paths at x0 = 1/2: shadow datasets under H_in (z0 = (1/2, 1) is in D) and H_out,\n"
      "density models fitted by maximum likelihood, evaluation on independent datasets. Reports\n"
      "AUC, TPR at FPR = 0.1/0.01/0.001, excess TPR and an empirical lower bound on ε (95 %,\n"
      "Clopper–Pearson), next to the accountant's (ε, δ) bound for the same release.");
  auto args = std::make_shared<AttackArgs>();
  add_kernel_options(sub, args->kernel);
  add_hyper_options(sub, args->hyper);
  sub->add_option("--draws,-L", args->draws, "Number of released sample paths L ≥ 1")
      ->capture_default_str();
  sub->add_option("--n", args->n, "Dataset size |D|")->capture_default_str();
  sub->add_option("--shadow", args->shadow, "Shadow datasets per hypothesis (fit)")
      ->capture_default_str();
  sub->add_option("--eval", args->eval, "Evaluation datasets per hypothesis")
      ->capture_default_str();
  sub->add_option("--seeds", args->seeds, "Independent repetitions (mean ± sd)")
      ->capture_default_str();
  sub->add_option("--seed", args->seed, "First seed (seed i = seed + i; experiments are seeded)")
      ->capture_default_str();
  sub->add_option("--noise", args->noise, "Response noise bound M_ξ ∈ [0, 1)")
      ->capture_default_str();
  sub->add_option("--delta", args->delta, "δ of the (ε, δ) bound and of the empirical ε")
      ->capture_default_str();
  sub->add_option("--conversion", args->conversion, "RDP→(ε,δ) conversion: mironov or cks")
      ->capture_default_str();
  sub->add_option("--threads", args->threads, "Worker threads (0 = all cores)");
  sub->add_flag("--benchmark", args->benchmark,
                "Also run the non-private benchmark that sees μ_D(x0) and k_D(x0,x0) exactly");
  sub->add_option("--roc", args->roc_path,
                  "Write the ROC curves (linear and log-log) with the bound (.png/.svg)");
  sub->add_option("--roc-csv", args->roc_csv_path, "Write the ROC points of every seed as CSV");
  sub->add_flag("--json", args->json,
                "Print the results as JSON (means over seeds, *_sd companions)");
  sub->add_flag("--quiet", args->quiet, "No progress on stderr");
  sub->footer(
      "Example: gpdp attack --r 0.1 --sigma 5 --draws 3 --shadow 10000 --eval 10000 --seeds 10");
  sub->callback([args] { run(*args); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
