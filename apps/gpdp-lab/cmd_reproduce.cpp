// gpdp-lab reproduce: one subcommand that dispatches to the registered paper experiments.
#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "reproduce.hpp"

namespace gpdp::cli {

namespace {
std::map<std::string, Reproduction>& reproductions() {
  static std::map<std::string, Reproduction> all;
  return all;
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "reproduce",
      "Regenerate a table or figure of the papers (CSV + Markdown + PNG/SVG in --out).\n"
      "Targets are listed by 'gpdp-lab reproduce --list'.");
  auto target = std::make_shared<std::string>();
  auto opts = std::make_shared<ReproduceOptions>();
  auto list = std::make_shared<bool>(false);
  sub->add_option("target", *target, "What to reproduce (see --list)");
  sub->add_option("--out", opts->out_dir, "Output folder (created if missing)");
  sub->add_flag("--quick", opts->quick, "Reduced sizes for a quick look (the output says so)");
  sub->add_option("--pairs", opts->pairs, "Number of (f*, D) pairs / repetitions (0 = paper's)");
  sub->add_option("--seed", opts->seed,
                  "Seed of the experiment (experiments are seeded, not private)")
      ->capture_default_str();
  sub->add_option("--threads", opts->threads, "Worker threads (0 = all cores)");
  sub->add_option("--conversion", opts->conversion, "RDP→(ε,δ) conversion: mironov or cks")
      ->capture_default_str();
  sub->add_option("--sensitivity", opts->sensitivity,
                  "Δ_n lemma of the utility experiments' privacy constraint (default: the paper's, "
                  "B.7 in 1-D and B.1 in 2-D; e.g. b1-sharp)");
  sub->add_option("--data-dir", opts->data_dir,
                  "Folder holding the data sets of fig4-lucas / ops-* (default: $GPDP_DATA_DIR, "
                  "the install's share/gpdp/data, the repository's data/)");
  sub->add_flag("--list", *list, "List the available targets");
  sub->callback([target, opts, list] {
    if (*list || target->empty()) {
      for (const auto& [name, r] : reproductions()) fmt::print("{:<14} {}\n", name, r.description);
      if (!*list) throw InputError("reproduce: name a target (listed above)");
      return;
    }
    const auto it = reproductions().find(*target);
    if (it == reproductions().end()) {
      throw InputError(
          fmt::format("reproduce: unknown target '{}' (see gpdp-lab reproduce --list)", *target));
    }
    require(!opts->out_dir.empty(), "reproduce: --out DIR is required");
    require(opts->conversion == "mironov" || opts->conversion == "cks",
            "--conversion must be mironov or cks");
    std::filesystem::create_directories(opts->out_dir);
    it->second.run(*opts);
  });
}

const bool registered = register_command(&setup);
}  // namespace

bool register_reproduction(Reproduction r) {
  const std::string name = r.name;
  reproductions().emplace(name, std::move(r));
  return true;
}

}  // namespace gpdp::cli
