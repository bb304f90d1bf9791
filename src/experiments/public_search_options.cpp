#include "public_search_options.hpp"

#include "gpdp/experiments/public_search_run.hpp"

namespace gpdp::experiments {

std::vector<options::OptionSpec> public_search_options() {
  using options::option;
  using options::OptionScope;
  using options::OptionType;
  const PublicSearchRequest d;  // the defaults
  return {
      option("--data", OptionType::Text, nullptr,
             "Public training CSV (covariates in [0,1]^d, |y| ≤ 1)")
          .as_required(),
      option("--validation", OptionType::Text, nullptr, "Public validation CSV (same columns)")
          .as_required(),
      option("--x", OptionType::TextList, nullptr, "Covariate column names (default x1, x2, ...)"),
      option("--y", OptionType::Text, d.y, "Response column"),
      option("--target-epsilon", OptionType::Real, d.target_epsilon,
             "ε₀: the private θ has ε_L(θ) < ε₀"),
      option("--delta", OptionType::Real, nullptr, "δ (default n^(−1.1))"),
      option("--n", OptionType::Integer, nullptr,
             "Size of the PRIVATE data set the release will use (default: rows of --data)"),
      option("--paths", OptionType::Integer, d.paths, "L: released paths (composed)"),
      option("--threshold", OptionType::Real, d.threshold, "Excursion level t"),
      option("--conversion", OptionType::Text, d.conversion, "RDP→(ε,δ): mironov or cks"),
      option("--ell-range", OptionType::Text, nullptr, "Coarse ℓ grid lo:hi:count (log-spaced)"),
      option("--r-range", OptionType::Text, nullptr, "Coarse r grid lo:hi:count"),
      option("--sigma-range", OptionType::Text, nullptr, "Coarse σ grid lo:hi:count"),
      option("--refine", OptionType::Integer, d.refine, "Refinement rounds around the top 3"),
      option("--out", OptionType::Text, nullptr, "Also write the JSON result to this file"),
      option("--json", OptionType::Flag, d.json, "Print JSON instead of text"),
      option("--threads", OptionType::Integer, 0,
             "Threads running the θ evaluations (one task per ℓ of a round; 0 = all cores)")
          .in_scope(OptionScope::Cli),
      option("--quiet", OptionType::Flag, false, "No progress on stderr")
          .in_scope(OptionScope::FrontEnd),
  };
}

}  // namespace gpdp::experiments
