// `gpdp-lab reproduce TARGET` as one declared request (command.hpp).
#include "gpdp/reproduce/command.hpp"

#include <filesystem>

#include "gpdp/error.hpp"
#include "gpdp/reproduce/targets.hpp"
#include "release/option_values.hpp"

namespace gpdp::reproduce {

std::vector<options::OptionSpec> reproduce_options() {
  using options::option;
  using options::OptionScope;
  using options::OptionType;
  const Options d;
  return {
      option("target", OptionType::Text, nullptr, "What to reproduce (see --list)").as_positional(),
      option("--out", OptionType::Text, nullptr, "Output folder (created if missing)"),
      option("--quick", OptionType::Flag, d.quick,
             "Reduced sizes for a quick look (the output says so)"),
      option("--pairs", OptionType::Integer, nullptr,
             "Number of (f*, D) pairs / repetitions (0 = paper's)"),
      option("--seed", OptionType::Integer, d.seed,
             "Seed of the experiment (experiments are seeded, not private)"),
      option("--threads", OptionType::Integer, d.threads, "Worker threads (0 = all cores)")
          .in_scope(OptionScope::Cli),
      option("--conversion", OptionType::Text, d.conversion,
             "RDP→(ε,δ) conversion: mironov or cks"),
      option("--sensitivity", OptionType::Text, nullptr,
             "Δ_n lemma of the utility experiments' privacy constraint (default: the paper's, "
             "B.7 in 1-D and B.1 in 2-D; e.g. b1-sharp)"),
      option("--data-dir", OptionType::Text, nullptr,
             "Folder holding the data sets of fig4-lucas / ops-* (default: $GPDP_DATA_DIR, "
             "the install's share/gpdp/data, the repository's data/)"),
      option("--list", OptionType::Flag, false, "List the available targets"),
  };
}

Request reproduce_request_from_json(const nlohmann::json& request) {
  const auto o = release::declared_values(reproduce_options(), request, "reproduce");
  Request r;
  r.list = o.flag("list");
  if (o.has("target")) r.target = o.text("target");
  if (r.list || r.target.empty()) return r;
  find_target(r.target);
  Options& a = r.options;
  if (o.has("out")) a.out_dir = o.text("out");
  a.quick = o.flag("quick");
  if (o.has("pairs")) a.pairs = o.integer("pairs");
  a.seed = o.unsigned_integer("seed");
  a.conversion = o.text("conversion");
  if (o.has("sensitivity")) a.sensitivity = o.text("sensitivity");
  if (o.has("data-dir")) a.data_dir = o.text("data-dir");
  require_parameter(!a.out_dir.empty(), "out", "reproduce: out DIR is required");
  require_parameter(a.conversion == "mironov" || a.conversion == "cks", "conversion",
                    "conversion must be mironov or cks");
  return r;
}

void run_request(const Request& request, tasks::Executor& executor) {
  std::filesystem::create_directories(request.options.out_dir);
  find_target(request.target).run(request.target, request.options, executor);
}

}  // namespace gpdp::reproduce
