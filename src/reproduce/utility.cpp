// gpdp-lab reproduce table1 | table2 | table3 | table4 | fig7 | fig8 | fig4-lucas: the
// privacy–utility excursion-set experiments of paper §5 and App. D (docs/mathematics.md §5; method
// and differences in docs/utility.md). Every target writes Markdown + CSV (+ JSON, PNG) into --out.
#include "utility.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/experiments/hexbin.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/public_search.hpp"
#include "gpdp/experiments/utility_study.hpp"
#include "gpdp/experiments/utility_table.hpp"
#include "gpdp/gis/excursion_polygons.hpp"
#include "gpdp/gis/geotiff.hpp"
#include "gpdp/gis/rfc7946.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/io/data_dir.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "gpdp/tasks/executor.hpp"
#include "gpdp/version.hpp"
#include "io/atomic_file.hpp"

namespace gpdp::reproduce {

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
    return {{"NSR = 0.11",
             {"2·10^4", "52.7 [52.0, 53.4]", "2.26 [2.25, 2.26]", "115% [67%, 187%]",
              "0.957 [0.932, 0.976]", "0.854 [0.799, 0.895]", "—", "10.1% [7.0%, 14.8%]"}},
            {"NSR = 0.43",
             {"500", "17.7 [17.6, 17.9]", "2.21 [2.20, 2.22]", "33.5% [14.0%, 60.6%]",
              "0.922 [0.877, 0.956]", "0.833 [0.774, 0.880]", "—", "8.7% [5.5%, 13.4%]"}},
            {"NSR = 1.00",
             {"63.6", "8.47 [8.42, 8.53]", "2.15 [2.14, 2.15]", "8.8% [0.2%, 19.4%]",
              "0.874 [0.806, 0.927]", "0.797 [0.720, 0.855]", "—", "7.7% [4.1%, 13.1%]"}},
            {"NSR = 1.50",
             {"21.4", "6.01 [5.97, 6.05]", "2.08 [2.07, 2.09]", "2.2% [0%, 7.4%]",
              "0.844 [0.760, 0.905]", "0.772 [0.680, 0.839]", "—", "7.3% [2.9%, 13.4%]"}}};
  }
  if (target == "table3") {
    return {{"n = 50",
             {"90.4", "6.63 [6.55, 6.70]", "1.13 [1.12, 1.13]", "14.2% [1.3%, 33.0%]",
              "0.852 [0.790, 0.915]", "0.727 [0.629, 0.811]", "0.082 [0.055, 0.109]",
              "8.7% [5.5%, 13.4%]"}},
            {"n = 100",
             {"63.6", "8.47 [8.42, 8.53]", "2.15 [2.14, 2.15]", "8.8% [0.2%, 19.4%]",
              "0.874 [0.806, 0.927]", "0.797 [0.720, 0.855]", "0.056 [0.040, 0.080]",
              "7.7% [4.1%, 13.1%]"}},
            {"n = 200",
             {"39.0", "13.0 [12.9, 13.0]", "2.17 [2.16, 2.17]", "4.3% [0%, 11.5%]",
              "0.888 [0.831, 0.935]", "0.835 [0.767, 0.880]", "0.051 [0.039, 0.069]",
              "5.7% [2.9%, 10.0%]"}},
            {"n = 400",
             {"16.7", "14.6 [14.5, 14.6]", "4.25 [4.25, 4.26]", "0.6% [0%, 2.7%]",
              "0.913 [0.878, 0.946]", "0.874 [0.822, 0.909]", "0.038 [0.027, 0.049]",
              "4.1% [2.4%, 6.7%]"}}};
  }
  if (target == "table4") {
    return {{"NSR = 0.11",
             {"10^7", "211.8 [210.8, 212.8]", "5.64 [5.63, 5.64]", "527.5% [392.5%, 638.4%]",
              "0.979 [0.974, 0.983]", "0.824 [0.798, 0.850]", "0.034 [0.029, 0.039]",
              "16.8% [13.8%, 19.4%]"}},
            {"NSR = 0.43",
             {"10^5", "96.63 [96.24, 97.00]", "5.59 [5.58, 5.59]", "197.0% [153.6%, 240.5%]",
              "0.950 [0.939, 0.959]", "0.800 [0.772, 0.829]", "0.039 [0.033, 0.045]",
              "15.8% [12.7%, 18.4%]"}},
            {"NSR = 1.00",
             {"2·10^3", "39.55 [39.42, 39.67]", "5.47 [5.47, 5.48]", "91.5% [69.9%, 114.3%]",
              "0.908 [0.888, 0.927]", "0.776 [0.743, 0.808]", "0.048 [0.041, 0.057]",
              "14.5% [10.4%, 18.8%]"}}};
  }
  return {};
}

std::string paper_markdown(const std::string& target, const std::string& header) {
  const auto cols = paper_numbers(target);
  if (cols.empty()) return "";
  const std::vector<std::string> names{"ε, unconstrained",      "d_eff, unconstrained",
                                       "d_eff, ε < 10",         "relative BCE increase",
                                       "IoU, unconstrained",    "1-path IoU mean, ε < 10",
                                       "1-path IoU SD, ε < 10", "relative IoU gap"};
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
    return {{"NSR = 0.11", 1, 0.11, 100},
            {"NSR = 0.43", 1, 0.43, 100},
            {"NSR = 1.00", 1, 1.0, 100},
            {"NSR = 1.50", 1, 1.5, 100}};
  }
  if (target == "table3") {
    return {{"n = 50", 1, 1.0, 50},
            {"n = 100", 1, 1.0, 100},
            {"n = 200", 1, 1.0, 200},
            {"n = 400", 1, 1.0, 400}};
  }
  return {{"NSR = 0.11", 2, 0.11, 400}, {"NSR = 0.43", 2, 0.43, 400}, {"NSR = 1.00", 2, 1.0, 400}};
}

void progress_line(const std::string& s) { std::fprintf(stderr, "reproduce: %s\n", s.c_str()); }

// The StudySpec of one setting at the scale asked for (--quick, --pairs, --seed, --conversion).
gx::StudySpec utility_study_spec(int dim, double nsr, long n, const Options& o,
                                 const std::string& label) {
  gx::StudySpec s;
  s.label = label;
  s.dim = dim;
  s.seed = o.seed;
  s.threads = o.threads;
  s.privacy.conversion = privacy::parse_conversion(o.conversion);
  if (!o.sensitivity.empty()) s.privacy.lemma = privacy::parse_sensitivity_lemma(o.sensitivity);
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

std::string utility_run_header(const gx::StudySpec& s, const Options& o,
                               const std::string& target) {
  return fmt::format(
      "gpdp {} · `gpdp-lab reproduce {} --seed {} --conversion {}{}{}{}` · seeded RNG "
      "(xoshiro256**, "
      "an experiment, NOT a private release)\n\n"
      "{}Scale: {} pairs (validation {}), B = {} releases of L = {} path(s), grid {} ({} points), "
      "ε₀ = {}. Privacy: {}.\n",
      kVersion, target, o.seed, o.conversion, o.quick ? " --quick" : "",
      o.pairs > 0 ? fmt::format(" --pairs {}", o.pairs) : "",
      o.sensitivity.empty() ? "" : " --sensitivity " + o.sensitivity,
      o.quick ? "**QUICK run: reduced sizes for a quick look, not the paper's scale.** " : "",
      s.pairs, s.validation_pairs, s.releases, s.privacy.paths,
      s.dim == 1 ? "0:1:800" : (o.quick ? "24 x 24" : "40 x 40"), s.grid.size(), s.epsilon_max,
      s.privacy.description());
}

void run_table(const std::string& target, const Options& o, tasks::Executor& executor) {
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
    results.push_back(gx::run_study(spec, executor, progress_line));
    const auto& r = results.back();
    runs.push_back(
        {{"setting", st.label},
         {"theta_unconstrained",
          {r.theta_unconstrained.ell, r.theta_unconstrained.r, r.theta_unconstrained.sigma}},
         {"theta_private", {r.theta_private.ell, r.theta_private.r, r.theta_private.sigma}},
         {"epsilon_unconstrained",
          std::isfinite(r.epsilon_unconstrained) ? r.epsilon_unconstrained : -1.0},
         {"epsilon_private", r.epsilon_private},
         {"cutoff_C", r.cutoff_C},
         {"cutoff_c", r.cutoff_c},
         {"distinct_thetas", r.distinct_thetas},
         {"search_work_per_pair",
          {{"reductions", r.reductions_per_pair},
           {"single_ridge_fits", r.single_ridge_fits_per_pair}}},
         {"sampler", r.sampler_method},
         {"seconds",
          {{"generate", r.seconds_generate},
           {"search", r.seconds_search},
           {"validation", r.seconds_validation},
           {"release", r.seconds_release}}}});
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // No "|" in the header cell: it would split the Markdown column.
  const std::string column = target == "table3"
                                 ? "size n (NSR = 1)"
                                 : (target == "table4" ? "NSR (2-D, n = 400)" : "NSR (n = 100)");
  std::string md = fmt::format(
      "# {} — privacy vs utility, excursion sets\n\n{}\nWall time: {:.1f} s.\n\n"
      "## gpdp (median [IQR] over pairs)\n\n{}\n## Paper\n\n{}",
      target, header, seconds, gx::utility_table_markdown(results, column),
      paper_markdown(target, column));
  const std::filesystem::path out(o.out_dir);
  io::write_file_atomic((out / (target + ".md")).string(), md);
  io::write_file_atomic((out / (target + ".csv")).string(), gx::utility_table_csv(results));
  nlohmann::json j{{"target", target},
                   {"version", kVersion},
                   {"seed", o.seed},
                   {"rng", "seeded xoshiro256** (experiment, not private)"},
                   {"conversion", o.conversion},
                   {"quick", o.quick},
                   {"seconds", seconds},
                   {"runs", runs}};
  io::write_file_atomic((out / (target + ".json")).string(), j.dump(2) + "\n");
  std::fputs(md.c_str(), stdout);
}

// ---- Figures 7 and 8: 2-D examples -------------------------------------------------------------

void run_figure_2d(const std::string& target, double nsr, const Options& o,
                   tasks::Executor& executor) {
  Options scaled = o;
  if (o.pairs <= 0) scaled.pairs = o.quick ? 10 : 1000;  // θ and C chosen on this many (Table 4's)
  gx::StudySpec spec = utility_study_spec(2, nsr, 400, scaled, fmt::format("NSR = {:.2f}", nsr));
  spec.keep_examples = 3;
  spec.releases = std::max(spec.releases, 3);
  const gx::StudyResult r = gx::run_study(spec, executor, progress_line);
  const Grid& g = spec.grid;
  plot::Figure fig(1200, 1150, 3, 3);
  fig.suptitle(
      fmt::format("NSR = {:.2f}, |D| = 400: truth, non-private {{p_D ≥ {:.2f}}}, "
                  "private one-path (ε = {:.2f} < {}, δ = {})",
                  nsr, r.cutoff_C, r.epsilon_private, spec.epsilon_max, spec.privacy.delta));
  for (int row = 0; row < 3; ++row) {
    const auto& ex = r.examples[static_cast<std::size_t>(row)];
    auto& a = fig.panel(row, 0);
    a.heatmap(ex.pair.field, g, {.map = plot::Colormap::diverging, .colorbar = false});
    a.contour(ex.pair.field, g, 0.0, {.color = plot::colors::black, .width = 2.0});
    a.scatter(ex.pair.X.col(0).eval(), ex.pair.X.col(1).eval(),
              {.color = plot::colors::black, .size = 1.5});
    a.title(fmt::format("pair {}: f* and data", row + 1));
    auto& b = fig.panel(row, 1);
    b.heatmap(ex.pair.truth, g,
              {.map = plot::Colormap::gray, .vmin = -1.0, .vmax = 2.5, .colorbar = false});
    b.contour(ex.p_unconstrained, g, r.cutoff_C, {.color = plot::colors::blue, .width = 2.0});
    b.title(fmt::format("non-private p_D = {:.2f} vs truth (IoU {:.3f})", r.cutoff_C,
                        r.pairs[static_cast<std::size_t>(row)].iou_unconstrained));
    auto& c = fig.panel(row, 2);
    c.heatmap(ex.pair.truth, g,
              {.map = plot::Colormap::gray, .vmin = -1.0, .vmax = 2.5, .colorbar = false});
    const plot::Color colors[3] = {plot::colors::red, plot::colors::green, plot::colors::orange};
    for (int k = 0; k < 3; ++k) {
      c.contour(ex.releases.col(k).eval(), g, 0.5,
                {.color = colors[k], .dashed = true, .width = 1.6});
    }
    c.title("private one-path releases (3 draws)");
  }
  const std::filesystem::path out(o.out_dir);
  fig.save((out / (target + ".png")).string());
  const std::string md = fmt::format(
      "# {} — 2-D excursion examples (NSR = {:.2f})\n\n{}\nθ* = ({:.3g}, {:.3g}, {:.3g}), θ_priv = "
      "({:.3g}, {:.3g}, {:.3g}), "
      "ε(θ_priv) = {:.3g}, C = {:.2f}; smoothing bandwidth {} before thresholding at "
      "0.\n\n![{}]({}.png)\n",
      target, nsr, utility_run_header(r.spec, o, target), r.theta_unconstrained.ell,
      r.theta_unconstrained.r, r.theta_unconstrained.sigma, r.theta_private.ell, r.theta_private.r,
      r.theta_private.sigma, r.epsilon_private, r.cutoff_C, spec.smoothing_bandwidth, target,
      target);
  io::write_file_atomic((out / (target + ".md")).string(), md);
  std::fputs(md.c_str(), stdout);
}

// ---- Figure 4 on Lucas County house sales (App. D.2 method) -------------------------------------

struct HexData {
  Points uv;            // centres in [0,1]² (longer box side = 1)
  Eigen::VectorXd raw;  // median log price − t
  Eigen::VectorXd y;    // clip(raw, −B, B)/B
};

HexData hex_year(const io::CsvTable& t, const std::set<std::string>& years,
                 const gx::HexLattice& lattice, double threshold, double clip) {
  const std::size_t cy = t.column("syear"), cx = t.column("x"), cyy = t.column("y"),
                    cp = t.column("price");
  std::vector<Eigen::Index> keep;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    if (years.contains(t.rows[i][cy])) keep.push_back(static_cast<Eigen::Index>(i));
  }
  Eigen::MatrixXd xy(static_cast<Eigen::Index>(keep.size()), 2);
  Eigen::VectorXd v(static_cast<Eigen::Index>(keep.size()));
  for (std::size_t k = 0; k < keep.size(); ++k) {
    const auto& row = t.rows[static_cast<std::size_t>(keep[k])];
    const auto i = static_cast<Eigen::Index>(k);
    xy(i, 0) = std::stod(row[cx]);
    xy(i, 1) = std::stod(row[cyy]);
    v[i] = std::log(std::stod(row[cp]));
  }
  const auto cells = gx::hexbin(xy, v, lattice).cells;
  HexData d;
  Eigen::MatrixXd centres(static_cast<Eigen::Index>(cells.size()), 2);
  d.raw.resize(static_cast<Eigen::Index>(cells.size()));
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    centres(i, 0) = cells[k].x;
    centres(i, 1) = cells[k].y;
    d.raw[i] = cells[k].median - threshold;
  }
  d.uv = gx::unit_square_coordinates(centres, lattice.box);
  d.y = (d.raw.array().max(-clip).min(clip) / clip).matrix();
  return d;
}

// The three private paths as GIS layers in the county's CRS, EPSG:2834 (NAD83(HARN) / Ohio North,
// metres; the unit grid spans the declared box 484000:539000 × 195000:230000): fig4-lucas.tif
// (the smoothed paths, model units) and fig4-lucas.geojson (RFC 7946: the set {path 1 ≥ 0}).
void write_fig4_gis(const std::filesystem::path& out, const Grid& unit_grid,
                    const Eigen::MatrixXd& paths) {
  const Grid metres({{484000.0, 539000.0, unit_grid.axes()[0].count},
                     {195000.0, 230000.0, unit_grid.axes()[1].count}});
  const gis::Crs ohio = gis::Crs::parse("EPSG:2834");
  std::vector<gis::RasterBand> bands;
  for (Eigen::Index k = 0; k < paths.cols(); ++k) {
    bands.push_back(
        {fmt::format("private path {} (smoothed, model units; > 0: above $100k)", k + 1),
         std::vector<double>(paths.col(k).begin(), paths.col(k).end())});
  }
  io::write_file_atomic(
      (out / "fig4-lucas.tif").string(),
      gis::cog_geotiff(metres, ohio, bands,
                       {{"GPDP_FIGURE", "fig4-lucas"},
                        {"GPDP_PRIVATE", "no: seeded paths of a reproduced figure"}}));
  const auto polygons = gis::excursion_polygons(paths.col(0).eval(), metres, 0.0);
  io::write_file_atomic(
      (out / "fig4-lucas.geojson").string(),
      gis::rfc7946_feature_collection(
          polygons, ohio,
          {{"description",
            "{private path 1 ≥ 0}: median sale price above $100k (seeded paths "
            "of a reproduced figure: NOT a private release)"},
           {"convention", "cell-based: the grid's pixels whose node is in the set"}})
              .dump(1) +
          "\n");
}

// The declared (public) domain: the county's extent in EPSG:2834 metres, 1.5 km hexagons; the
// excursion is a median sale price above $100k, centred log prices clipped to ±B = ±1.
constexpr const char* kLucasBox = "484000:539000,195000:230000";
constexpr double kLucasHexWidth = 1500.0;
constexpr double kLucasClip = 1.0;
// Fixed Gaussian smoothing of the released paths before thresholding (post-processing, App. D.1):
// bandwidth in unit coordinates (1.1 km).
constexpr double kLucasBandwidth = 0.02;

// The public years (1993–96 to fit, 1997 to score) and the private one (1998), as hexagons.
struct LucasYears {
  HexData train, val, priv;
};

LucasYears lucas_years(const io::CsvTable& table) {
  const gx::HexLattice lattice{Box::parse(kLucasBox), kLucasHexWidth};
  const double threshold = std::log(100000.0);
  LucasYears y{hex_year(table, {"1993", "1994", "1995", "1996"}, lattice, threshold, kLucasClip),
               hex_year(table, {"1997"}, lattice, threshold, kLucasClip),
               hex_year(table, {"1998"}, lattice, threshold, kLucasClip)};
  std::fprintf(stderr,
               "reproduce: fig4-lucas: %ld / %ld / %ld hexagons (1993-96 train, 1997 validation, "
               "1998 private); the privacy unit is one hexagon's median, not one sale\n",
               static_cast<long>(y.train.uv.rows()), static_cast<long>(y.val.uv.rows()),
               static_cast<long>(y.priv.uv.rows()));
  return y;
}

// θ and C on the public years (the same selection as `gpdp search`, its θ evaluations as tasks on
// `executor`), for n = the private hexagons.
struct LucasChoice {
  gx::ExcursionPrivacy privacy;
  gx::PublicSearchResult chosen;
};

LucasChoice lucas_search(const LucasYears& y, const Options& o, tasks::Executor& executor) {
  const long n = y.priv.uv.rows();
  gx::PublicSearchSpec spec;
  spec.threshold = 0.0;
  spec.target_epsilon = 10.0;
  spec.privacy.n = n;
  spec.privacy.dim = 2;
  spec.privacy.delta = std::pow(static_cast<double>(n), -1.1);
  spec.privacy.conversion = privacy::parse_conversion(o.conversion);
  if (!o.sensitivity.empty()) spec.privacy.lemma = privacy::parse_sensitivity_lemma(o.sensitivity);
  spec.grid = gx::default_search_grid(2);
  spec.refinement_rounds = o.quick ? 1 : 2;
  spec.progress = [](const std::string& s) { progress_line(s); };
  return {spec.privacy,
          gx::search_public_data(y.train.uv, y.train.y, y.val.uv,
                                 gx::indicator_at_least(y.val.raw, 1e-300) /* raw > 0 */, spec,
                                 executor)};
}

// On the 1998 data: p_D at θ* and three private one-path releases at θ_priv (smoothed), on a grid
// over the unit coordinates and the same grid in km for drawing.
struct LucasMaps {
  Grid grid, km;
  Eigen::VectorXd p;
  Eigen::MatrixXd paths;
};

LucasMaps lucas_maps(const HexData& priv, const gx::PublicSearchResult& chosen, const Options& o) {
  const gx::Theta& free = chosen.unconstrained.theta;
  const gx::Theta& theta = chosen.constrained.theta;
  const double aspect = 35.0 / 55.0;
  const Grid grid({{0.0, 1.0, o.quick ? 40 : 64}, {0.0, aspect, o.quick ? 26 : 41}});
  const Grid km({{0.0, 55.0, grid.axes()[0].count}, {0.0, 35.0, grid.axes()[1].count}});
  const Posterior post_free(Kernel::exponential(free.ell), priv.uv, priv.y, {free.r, free.sigma});
  const Posterior post_priv(Kernel::exponential(theta.ell), priv.uv, priv.y,
                            {theta.r, theta.sigma});
  Eigen::VectorXd p = post_free.excursion_probability(grid.points(), 0.0);
  SeededRng rng(o.seed);
  const Draws draws = sample(post_priv, grid, 3, rng);
  Eigen::MatrixXd paths = release::smooth_fields(draws.values, grid, kLucasBandwidth);
  return {grid, km, std::move(p), std::move(paths)};
}

void save_lucas_figure(const LucasYears& y, const LucasChoice& c, const LucasMaps& maps,
                       const std::string& path) {
  const long n = y.priv.uv.rows();
  const double C = c.chosen.unconstrained.cutoff_C;
  plot::Figure fig(1000, 720);
  auto& ax = fig.panel();
  ax
      .title(fmt::format(
          "Lucas County 1998: median sale price > $100k (n = {} hexagons, ε = {:.2f}, δ = n^-1.1)",
          n, c.chosen.constrained.epsilon))
      .xlabel("east (km)")
      .ylabel("north (km)");
  std::vector<double> hx, hy, lx, ly;
  for (Eigen::Index i = 0; i < n; ++i) {
    (y.priv.raw[i] > 0 ? hx : lx).push_back(y.priv.uv(i, 0) * 55.0);
    (y.priv.raw[i] > 0 ? hy : ly).push_back(y.priv.uv(i, 1) * 55.0);
  }
  ax.scatter(lx, ly,
             {.label = "hexagon median ≤ $100k", .color = plot::Color::hex(0x9ecae1), .size = 3.0});
  ax.scatter(hx, hy,
             {.label = "hexagon median > $100k", .color = plot::Color::hex(0xfd8d3c), .size = 3.0});
  ax.contour(maps.p, maps.km, C,
             {.label = fmt::format("non-private p_D = {:.2f}", C),
              .color = plot::colors::black,
              .width = 2.2});
  const plot::Color colors[3] = {plot::colors::red, plot::colors::green,
                                 plot::Color::hex(0x9467bd)};
  for (int k = 0; k < 3; ++k) {
    ax.contour(maps.paths.col(k).eval(), maps.km, 0.0,
               {.label = fmt::format("private path {}", k + 1),
                .color = colors[k],
                .dashed = true,
                .width = 1.6});
  }
  ax.legend(plot::LegendPosition::lower_right);
  fig.save(path);
}

std::string lucas_markdown(const LucasYears& y, const LucasChoice& c, const std::string& data,
                           const Options& o) {
  const gx::ThetaChoice& free = c.chosen.unconstrained;
  const gx::ThetaChoice& priv = c.chosen.constrained;
  return fmt::format(
      "# fig4-lucas — Lucas County (OH) house prices, paper Figure 4 method (App. D.2)\n\n"
      "gpdp {} · `gpdp-lab reproduce fig4-lucas --seed {} --conversion {}` · data {} · paths drawn "
      "with a "
      "seeded RNG (reproducible figure, NOT a private release)\n\n"
      "Hexagons: 1.5 km lattice over the declared box 484000:539000,195000:230000 (EPSG:2834 m); "
      "response: median log price − log(100000), clipped to ±{} and divided by it (M_Y = 1); "
      "coordinates scaled to [0,1]² by the 55 km side.\n"
      "Public split: fit on 1993–1996 ({} hexagons), score on 1997 ({} hexagons); private: 1998 (n "
      "= {}).\n\n"
      "| | ℓ | r | σ | mean validation BCE | ε (δ = n^-1.1 = {:.3g}) |\n|---|---|---|---|---|---|\n"
      "| θ* (unconstrained) | {:.3g} | {:.3g} | {:.3g} | {:.4f} | {:.3g} |\n"
      "| θ_priv (ε < 10) | {:.3g} | {:.3g} | {:.3g} | {:.4f} | {:.3g} |\n\n"
      "Cutoff C = {:.2f} (validation IoU {:.3f}). Private paths smoothed by a fixed Gaussian "
      "filter "
      "(bandwidth {} in unit coordinates) before thresholding at 0 (post-processing). Privacy: "
      "{}.\n\n"
      "**The privacy unit is one hexagon's median, not one sale**: the guarantee protects the "
      "replacement of one hexagon's record (n = the private hexagons); one sale can move the "
      "median of its hexagon, and a sale moved across a hexagon border can change two medians, "
      "so this is NOT a per-sale guarantee (the paper's App. D.2 method, kept as published).\n\n"
      "![fig4-lucas](fig4-lucas.png)\n",
      kVersion, o.seed, o.conversion, data, kLucasClip, y.train.uv.rows(), y.val.uv.rows(),
      y.priv.uv.rows(), c.privacy.delta, free.theta.ell, free.theta.r, free.theta.sigma,
      free.mean_bce, free.epsilon, priv.theta.ell, priv.theta.r, priv.theta.sigma, priv.mean_bce,
      priv.epsilon, free.cutoff_C, free.validation_iou, kLucasBandwidth, c.privacy.description());
}

void run_fig4_lucas(const Options& o, tasks::Executor& executor) {
  const std::string path = io::find_data_file("lucas_county_oh_house_sales.csv", o.data_dir);
  const LucasYears years = lucas_years(io::read_csv(path));
  const LucasChoice choice = lucas_search(years, o, executor);
  const LucasMaps maps = lucas_maps(years.priv, choice.chosen, o);
  const std::filesystem::path out(o.out_dir);
  save_lucas_figure(years, choice, maps, (out / "fig4-lucas.png").string());
  const std::string md =
      lucas_markdown(years, choice, std::filesystem::path(path).filename().string(), o);
  io::write_file_atomic((out / "fig4-lucas.md").string(), md);
  write_fig4_gis(out, maps.grid, maps.paths);
  std::fputs(md.c_str(), stdout);
}

std::string table_description(const std::string& name) {
  if (name == "table3")
    return "1-D excursion sets: privacy-utility vs |D| at NSR = 1 (paper Table 3)";
  if (name == "table4") return "2-D plume excursion sets, |D| = 400 (paper Table 4)";
  return fmt::format("1-D excursion sets: privacy-utility vs NSR, |D| = 100 (paper Table {})",
                     name == "table1" ? "1" : "2");
}
}  // namespace

std::vector<Target> utility_targets() {
  std::vector<Target> targets;
  for (const char* t : {"table1", "table2", "table3", "table4"})
    targets.push_back({t, table_description(t)});
  targets.push_back({"fig7",
                     "2-D excursion examples at NSR = 1: truth, {p_D ≥ C}, private one-path "
                     "releases (paper Fig. 7)"});
  targets.push_back({"fig8", "2-D excursion examples at NSR = 0.11 (paper Fig. 8)"});
  targets.push_back({"fig4-lucas",
                     "Lucas County house prices: non-private vs private one-path excursion "
                     "boundaries (paper Fig. 4 method)"});
  return targets;
}

void run_utility(const std::string& name, const Options& options, tasks::Executor& executor) {
  if (name.starts_with("table") && name.size() == 6 && name[5] >= '1' && name[5] <= '4') {
    run_table(name, options, executor);
  } else if (name == "fig7") {
    run_figure_2d(name, 1.0, options, executor);
  } else if (name == "fig8") {
    run_figure_2d(name, 0.11, options, executor);
  } else if (name == "fig4-lucas") {
    run_fig4_lucas(options, executor);
  } else {
    throw InputError(fmt::format("reproduce: '{}' is not a utility target", name));
  }
}

}  // namespace gpdp::reproduce
