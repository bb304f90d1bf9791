// gpdp reproduce table1 | table2 | table3 | table4 | fig7 | fig8 | fig4-lucas: the privacy–utility
// excursion-set experiments of paper §5 and App. D (SPEC §5; method and differences in
// docs/utility.md). Every target writes Markdown + CSV (+ JSON, PNG) into --out.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/experiments/utility_study.hpp"
#include "gpdp/experiments/utility_table.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/version.hpp"
#include "reproduce.hpp"
#include "reproduce_utility.hpp"

namespace gpdp::cli {

namespace gx = gpdp::experiments;

namespace {

struct Setting {
  std::string label;
  int dim;
  double nsr;
  long n;
};

// The paper's published numbers, transcribed (Tables 2, 3, 4; Table 1 = medians of Table 2).
struct PaperColumn {
  std::string label;
  std::vector<std::string> rows;  // same order as utility_table rows 1-8
};

std::vector<PaperColumn> paper_numbers(const std::string& target) {
  if (target == "table1" || target == "table2") {
    return {{"NSR = 0.11", {"2·10^4", "52.7 [52.0, 53.4]", "2.26 [2.25, 2.26]", "115% [67%, 187%]", "0.957 [0.932, 0.976]", "0.854 [0.799, 0.895]", "—", "10.1% [7.0%, 14.8%]"}},
            {"NSR = 0.43", {"500", "17.7 [17.6, 17.9]", "2.21 [2.20, 2.22]", "33.5% [14.0%, 60.6%]", "0.922 [0.877, 0.956]", "0.833 [0.774, 0.880]", "—", "8.7% [5.5%, 13.4%]"}},
            {"NSR = 1.00", {"63.6", "8.47 [8.42, 8.53]", "2.15 [2.14, 2.15]", "8.8% [0.2%, 19.4%]", "0.874 [0.806, 0.927]", "0.797 [0.720, 0.855]", "—", "7.7% [4.1%, 13.1%]"}},
            {"NSR = 1.50", {"21.4", "6.01 [5.97, 6.05]", "2.08 [2.07, 2.09]", "2.2% [0%, 7.4%]", "0.844 [0.760, 0.905]", "0.772 [0.680, 0.839]", "—", "7.3% [2.9%, 13.4%]"}}};
  }
  if (target == "table3") {
    return {{"n = 50", {"90.4", "6.63 [6.55, 6.70]", "1.13 [1.12, 1.13]", "14.2% [1.3%, 33.0%]", "0.852 [0.790, 0.915]", "0.727 [0.629, 0.811]", "0.082 [0.055, 0.109]", "8.7% [5.5%, 13.4%]"}},
            {"n = 100", {"63.6", "8.47 [8.42, 8.53]", "2.15 [2.14, 2.15]", "8.8% [0.2%, 19.4%]", "0.874 [0.806, 0.927]", "0.797 [0.720, 0.855]", "0.056 [0.040, 0.080]", "7.7% [4.1%, 13.1%]"}},
            {"n = 200", {"39.0", "13.0 [12.9, 13.0]", "2.17 [2.16, 2.17]", "4.3% [0%, 11.5%]", "0.888 [0.831, 0.935]", "0.835 [0.767, 0.880]", "0.051 [0.039, 0.069]", "5.7% [2.9%, 10.0%]"}},
            {"n = 400", {"16.7", "14.6 [14.5, 14.6]", "4.25 [4.25, 4.26]", "0.6% [0%, 2.7%]", "0.913 [0.878, 0.946]", "0.874 [0.822, 0.909]", "0.038 [0.027, 0.049]", "4.1% [2.4%, 6.7%]"}}};
  }
  if (target == "table4") {
    return {{"NSR = 0.11", {"10^7", "211.8 [210.8, 212.8]", "5.64 [5.63, 5.64]", "527.5% [392.5%, 638.4%]", "0.979 [0.974, 0.983]", "0.824 [0.798, 0.850]", "0.034 [0.029, 0.039]", "16.8% [13.8%, 19.4%]"}},
            {"NSR = 0.43", {"10^5", "96.63 [96.24, 97.00]", "5.59 [5.58, 5.59]", "197.0% [153.6%, 240.5%]", "0.950 [0.939, 0.959]", "0.800 [0.772, 0.829]", "0.039 [0.033, 0.045]", "15.8% [12.7%, 18.4%]"}},
            {"NSR = 1.00", {"2·10^3", "39.55 [39.42, 39.67]", "5.47 [5.47, 5.48]", "91.5% [69.9%, 114.3%]", "0.908 [0.888, 0.927]", "0.776 [0.743, 0.808]", "0.048 [0.041, 0.057]", "14.5% [10.4%, 18.8%]"}}};
  }
  return {};
}

std::string paper_markdown(const std::string& target, const std::string& header) {
  const auto cols = paper_numbers(target);
  if (cols.empty()) return "";
  const std::vector<std::string> names{"ε, unconstrained", "d_eff, unconstrained", "d_eff, ε < 10",
                                       "relative BCE increase", "IoU, unconstrained",
                                       "1-path IoU mean, ε < 10", "1-path IoU SD, ε < 10",
                                       "relative IoU gap"};
  std::string out = fmt::format("| {} (paper) |", header);
  std::string rule = "|---|";
  for (const auto& c : cols) {
    out += " " + c.label + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += "| " + names[i] + " |";
    for (const auto& c : cols) out += " " + c.rows[i] + " |";
    out += "\n";
  }
  return out;
}

std::vector<Setting> settings_of(const std::string& target) {
  if (target == "table1" || target == "table2") {
    return {{"NSR = 0.11", 1, 0.11, 100}, {"NSR = 0.43", 1, 0.43, 100}, {"NSR = 1.00", 1, 1.0, 100},
            {"NSR = 1.50", 1, 1.5, 100}};
  }
  if (target == "table3") {
    return {{"n = 50", 1, 1.0, 50}, {"n = 100", 1, 1.0, 100}, {"n = 200", 1, 1.0, 200},
            {"n = 400", 1, 1.0, 400}};
  }
  return {{"NSR = 0.11", 2, 0.11, 400}, {"NSR = 0.43", 2, 0.43, 400}, {"NSR = 1.00", 2, 1.0, 400}};
}

void progress_line(const std::string& s) { std::fprintf(stderr, "reproduce: %s\n", s.c_str()); }

}  // namespace

gx::StudySpec utility_study_spec(int dim, double nsr, long n, const ReproduceOptions& o,
                                 const std::string& label) {
  gx::StudySpec s;
  s.label = label;
  s.dim = dim;
  s.seed = o.seed;
  s.threads = o.threads;
  s.privacy.conversion = privacy::parse_conversion(o.conversion);
  s.search.coarse = gx::default_search_grid(dim);
  const long default_pairs = o.quick ? (dim == 1 ? 100 : 20) : 1000;
  s.pairs = o.pairs > 0 ? o.pairs : default_pairs;
  s.validation_pairs = s.pairs;
  s.releases = o.quick ? 20 : 50;
  if (dim == 1) {
    s.field1d = {n, nsr, 1.0};
    s.grid = Grid::parse("0:1:800");
    s.privacy.delta = 0.005;
  } else {
    s.field2d.n = n;
    s.field2d.nsr = nsr;
    s.grid = Grid::parse(o.quick ? "0:1:24,0:1:24" : "0:1:40,0:1:40");
    s.privacy.delta = 0.001;  // Figure 7 caption: |D| = 400, δ = 0.001
    s.smoothing_bandwidth = 0.03;
  }
  return s;
}

std::string utility_run_header(const gx::StudySpec& s, const ReproduceOptions& o, const std::string& target) {
  return fmt::format(
      "gpdp {} · `gpdp reproduce {} --seed {} --conversion {}{}{}` · seeded RNG (xoshiro256**, an "
      "experiment, NOT a private release)\n\n"
      "Scale: {} pairs (validation {}), B = {} releases of L = {} path(s), grid {} ({} points), "
      "ε₀ = {}. Privacy: {}.\n",
      kVersion, target, o.seed, o.conversion, o.quick ? " --quick" : "",
      o.pairs > 0 ? fmt::format(" --pairs {}", o.pairs) : "", s.pairs, s.validation_pairs, s.releases,
      s.privacy.paths, s.dim == 1 ? "0:1:800" : (o.quick ? "24 x 24" : "40 x 40"), s.grid.size(),
      s.epsilon_max, s.privacy.description());
}

namespace {

void run_table(const std::string& target, const ReproduceOptions& o) {
  const auto settings = settings_of(target);
  std::vector<gx::StudyResult> results;
  nlohmann::json runs = nlohmann::json::array();
  const auto t0 = std::chrono::steady_clock::now();
  std::string header;
  for (const auto& st : settings) {
    const gx::StudySpec spec = utility_study_spec(st.dim, st.nsr, st.n, o, st.label);
    if (header.empty()) {
      gx::StudySpec shown = spec;
      shown.privacy.n = st.n;
      shown.privacy.dim = st.dim;
      header = utility_run_header(shown, o, target);
    }
    results.push_back(gx::run_study(spec, progress_line));
    const auto& r = results.back();
    runs.push_back({{"setting", st.label},
                    {"theta_unconstrained", {r.theta_unconstrained.ell, r.theta_unconstrained.r, r.theta_unconstrained.sigma}},
                    {"theta_private", {r.theta_private.ell, r.theta_private.r, r.theta_private.sigma}},
                    {"epsilon_unconstrained", std::isfinite(r.epsilon_unconstrained) ? r.epsilon_unconstrained : -1.0},
                    {"epsilon_private", r.epsilon_private},
                    {"cutoff_C", r.cutoff_C},
                    {"cutoff_c", r.cutoff_c},
                    {"distinct_thetas", r.distinct_thetas},
                    {"sampler", r.sampler_method},
                    {"seconds", {{"generate", r.seconds_generate}, {"search", r.seconds_search},
                                 {"validation", r.seconds_validation}, {"release", r.seconds_release}}}});
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string column = target == "table3" ? "|D| (NSR = 1)" : (target == "table4" ? "NSR (2-D, |D| = 400)" : "NSR (|D| = 100)");
  std::string md = fmt::format("# {} — privacy vs utility, excursion sets\n\n{}\nWall time: {:.1f} s.\n\n"
                               "## gpdp (median [IQR] over pairs)\n\n{}\n## Paper\n\n{}",
                               target, header, seconds, gx::utility_table_markdown(results, column),
                               paper_markdown(target, column));
  const std::filesystem::path out(o.out_dir);
  io::write_file_atomic((out / (target + ".md")).string(), md);
  io::write_file_atomic((out / (target + ".csv")).string(), gx::utility_table_csv(results));
  nlohmann::json j{{"target", target}, {"version", kVersion}, {"seed", o.seed},
                   {"rng", "seeded xoshiro256** (experiment, not private)"},
                   {"conversion", o.conversion}, {"quick", o.quick}, {"seconds", seconds}, {"runs", runs}};
  io::write_file_atomic((out / (target + ".json")).string(), j.dump(2) + "\n");
  std::fputs(md.c_str(), stdout);
}

const bool registered = [] {
  for (const char* t : {"table1", "table2", "table3", "table4"}) {
    const std::string name = t;
    const std::string what =
        name == "table3" ? "1-D excursion sets: privacy-utility vs |D| at NSR = 1 (paper Table 3)"
        : name == "table4" ? "2-D plume excursion sets, |D| = 400 (paper Table 4)"
                           : fmt::format("1-D excursion sets: privacy-utility vs NSR, |D| = 100 (paper Table {})",
                                         name == "table1" ? "1" : "2");
    register_reproduction({name, what, [name](const ReproduceOptions& o) { run_table(name, o); }});
  }
  return true;
}();

}  // namespace
}  // namespace gpdp::cli
