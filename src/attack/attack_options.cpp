#include "gpdp/attack/attack_options.hpp"

#include "gpdp/attack/attack_run.hpp"
#include "options/model_options.hpp"

namespace gpdp::attack {

std::vector<options::OptionSpec> attack_options() {
  using options::option;
  using options::OptionScope;
  using options::OptionType;
  const AttackRequest d;  // the defaults
  const std::vector<options::OptionSpec> own{
      option("--draws", OptionType::Integer, d.draws, "Number of released sample paths L ≥ 1")
          .with_alias("-L"),
      option("--n", OptionType::Integer, d.n, "Dataset size |D|"),
      option("--shadow", OptionType::Integer, d.shadow, "Shadow datasets per hypothesis (fit)"),
      option("--eval", OptionType::Integer, d.eval, "Evaluation datasets per hypothesis"),
      option("--seeds", OptionType::Integer, d.seeds,
             "Independent repetitions (mean ± sd; one task each)"),
      option("--seed", OptionType::Integer, d.seed,
             "First seed (seed i = seed + i; experiments are seeded)"),
      option("--noise", OptionType::Real, d.noise, "Response noise bound M_ξ ∈ [0, 1)"),
      option("--delta", OptionType::Real, d.delta, "δ of the (ε, δ) bound and of the empirical ε"),
      option("--conversion", OptionType::Text, d.conversion,
             "RDP→(ε,δ) conversion: mironov or cks"),
      option("--benchmark", OptionType::Flag, d.benchmark,
             "Also run the non-private benchmark that sees μ_D(x0) and k_D(x0,x0) exactly"),
      option("--roc", OptionType::Text, nullptr,
             "Write the ROC curves (linear and log-log) with the bound (.png/.svg)")
          .with_key("roc_path"),
      option("--roc-csv", OptionType::Text, nullptr, "Write the ROC points of every seed as CSV")
          .with_key("roc_csv_path"),
      option("--json", OptionType::Flag, d.json,
             "Print the results as JSON (means over seeds, *_sd companions)"),
      option("--threads", OptionType::Integer, 0, "Worker threads (0 = all cores)")
          .in_scope(OptionScope::Cli),
      option("--quiet", OptionType::Flag, false, "No progress on stderr")
          .in_scope(OptionScope::FrontEnd),
  };
  return options::concat(options::concat(options::kernel_options(d.kernel, d.ell),
                                         options::hyper_options(d.r, d.sigma, d.eta)),
                         own);
}

}  // namespace gpdp::attack
