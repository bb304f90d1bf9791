#include "gpdp/release/release.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>

#include "gpdp/error.hpp"
#include "gpdp/geometry/excursion_polygons.hpp"
#include "gpdp/geometry/raster_frame.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/gis/geotiff.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/io/points_file.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/release/mechanism_json.hpp"
#include "gpdp/release/outputs.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/sha256.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/sample_path.hpp"
#include "gpdp/version.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;

struct Evaluation {
  Points points;
  std::optional<Grid> grid;
  std::vector<Eigen::Index> cells;  // with a mask: the grid cells evaluated (rows of grid points)
  std::vector<std::string> names;
  bool masked() const { return !cells.empty(); }
  // A field on the evaluated points spread onto the full grid (blank = NaN outside the mask).
  Eigen::MatrixXd on_grid(const Eigen::MatrixXd& values) const {
    if (!masked()) return values;
    Eigen::MatrixXd full = Eigen::MatrixXd::Constant(grid->size(), values.cols(), std::nan(""));
    for (std::size_t i = 0; i < cells.size(); ++i)
      full.row(cells[i]) = values.row(static_cast<Eigen::Index>(i));
    return full;
  }
};

// Grid cells within half a step (per axis) of some mask point.
std::vector<Eigen::Index> masked_cells(const Grid& grid, const std::string& mask_file,
                                       const std::vector<std::string>& names) {
  require(grid.dim() == 2, "--mask needs a 2-D grid (--grid2d)");
  const Eigen::MatrixXd m = io::read_points_file(mask_file, names).points;
  const auto& ax = grid.axes();
  std::vector<char> keep(static_cast<std::size_t>(grid.size()), 0);
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    long idx[2];
    bool inside = true;
    for (int a = 0; a < 2; ++a) {
      const double step = ax[a].step() > 0 ? ax[a].step() : 1.0;
      idx[a] = std::lround((m(i, a) - ax[a].lo) / step);
      inside = inside && idx[a] >= 0 && idx[a] < ax[a].count &&
               std::abs(m(i, a) - ax[a].at(idx[a])) <= step / 2;
    }
    if (inside) keep[static_cast<std::size_t>(idx[0] + idx[1] * ax[0].count)] = 1;
  }
  std::vector<Eigen::Index> cells;
  for (std::size_t c = 0; c < keep.size(); ++c) {
    if (keep[c]) cells.push_back(static_cast<Eigen::Index>(c));
  }
  require(!cells.empty(), fmt::format("{}: no mask point falls on the grid", mask_file));
  return cells;
}

// Query points: the grid or the points file (columns named like the data's covariates, or
// x1..xd), all inside the declared domain.
Evaluation evaluation_points(const ReleaseRequest& q, const Dataset& data, const Box& domain) {
  Evaluation e;
  e.names = data.covariate_names;
  if (q.grid) {
    require(q.points_file.empty(), "give one of --grid/--grid2d or --points, not both");
    require(q.grid->dim() == data.dim(),
            fmt::format("the grid has {} dimension(s) but the data have {}", q.grid->dim(),
                        data.dim()));
    // A 2-D grid's cells must have a width (the excursion polygons and map.tif are pixels):
    // refused here, before anything is drawn.
    if (q.grid->dim() == 2) (void)geometry::raster_frame(*q.grid);
    e.grid = *q.grid;
    e.points = q.grid->points();
    if (!q.mask_file.empty()) {
      e.cells = masked_cells(*q.grid, q.mask_file, e.names);
      Points kept(static_cast<Eigen::Index>(e.cells.size()), e.points.cols());
      for (std::size_t i = 0; i < e.cells.size(); ++i)
        kept.row(static_cast<Eigen::Index>(i)) = e.points.row(e.cells[i]);
      e.points = kept;
    }
  } else {
    require(q.mask_file.empty(), "--mask applies to --grid2d only");
    require(!q.points_file.empty(), "give where to evaluate: --grid, --grid2d or --points FILE");
    const io::PointsFile file = io::read_points_file(q.points_file, e.names);
    e.names = file.names;
    e.points = file.points;
    for (Eigen::Index i = 0; i < e.points.rows(); ++i) {
      require(domain.contains(e.points.row(i).transpose()),
              fmt::format("{}:{}: query point outside the declared domain {}", q.points_file,
                          file.lines[static_cast<std::size_t>(i)], domain.to_string()));
    }
    return e;
  }
  for (Eigen::Index i = 0; i < e.points.rows(); ++i) {
    require(domain.contains(e.points.row(i).transpose()),
            fmt::format("the grid leaves the declared domain {} (point {})", domain.to_string(),
                        fmt::join(e.points.row(i), ", ")));
  }
  return e;
}

std::unique_ptr<Rng> make_rng(const std::optional<std::uint64_t>& seed) {
  if (seed) return std::make_unique<SeededRng>(*seed);
  return std::make_unique<SecureRng>();
}

std::string random_id() {
  if (sodium_init() < 0) throw Error("libsodium could not be initialised");
  std::array<unsigned char, 16> id{};
  randombytes_buf(id.data(), id.size());
  std::array<char, 33> hex{};
  sodium_bin2hex(hex.data(), hex.size(), id.data(), id.size());
  return std::string(hex.data(), 32);
}

json guarantee_json(const privacy::Guarantee& g) {
  return {{"epsilon", g.epsilon},
          {"delta", g.delta},
          {"alpha_star", g.alpha},
          {"rdp_at_alpha_star", g.rdp},
          {"alpha_max", std::isinf(g.alpha_max) ? json("inf") : json(g.alpha_max)},
          {"conversion", privacy::to_string(g.conversion)},
          {"conversion_citation", privacy::conversion_citation(g.conversion)},
          {"note", g.note()}};
}

}  // namespace

namespace {

Composer composer_for(privacy::Conversion conversion) {
  return [conversion](const std::vector<LedgerEntry>& all, double delta) {
    std::vector<CountedMechanism> ms;
    for (const auto& e : all) {
      ms.push_back(mechanism_from_json(e.mechanism, fmt::format("ledger release {}", e.id)));
    }
    return compose(ms).epsilon(delta, conversion).epsilon;
  };
}

json matrix_json(const Eigen::MatrixXd& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

Eigen::MatrixXd matrix_from_json(const json& rows, Eigen::Index cols) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()), cols);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (Eigen::Index j = 0; j < cols; ++j)
      m(static_cast<Eigen::Index>(i), j) = rows[i].at(static_cast<std::size_t>(j)).get<double>();
  }
  return m;
}

// The input description of a kept path; the columns as resolved on the data (never empty).
json input_json(const InputSpec& in, const Dataset& data) {
  json j{{"x", data.covariate_names},        {"y", in.y_column},
         {"domain", in.domain->to_string()}, {"M_Y", in.M_Y},
         {"policy", to_string(in.policy)},   {"transform", to_string(in.transform)}};
  if (in.center) j["center"] = *in.center;
  if (in.scale) j["scale"] = *in.scale;
  if (!in.crs.empty()) j["crs"] = in.crs;
  if (!in.model_crs.empty()) j["model_crs"] = in.model_crs;
  return j;
}

// Non-private maps for the data holder's own evaluation: watermarked, never in --out.
void write_internal_eval(const std::string& dir, const Posterior& posterior, const Evaluation& eval,
                         const Points& model_points, double center, double scale, double level,
                         double threshold, const std::string& format) {
  std::filesystem::create_directories(dir);
  const Eigen::VectorXd mean = posterior.mean(model_points);
  const Eigen::VectorXd p = posterior.excursion_probability(model_points, level);
  std::string csv = "point,posterior_mean,excursion_probability\n";
  for (Eigen::Index i = 0; i < mean.size(); ++i) {
    csv += fmt::format("{},{},{}\n", i, io::format_number(center + scale * mean(i)),
                       io::format_number(p(i)));
  }
  io::write_file_atomic((std::filesystem::path(dir) / "NOT_FOR_RELEASE_posterior.csv").string(),
                        csv);
  if (!eval.grid) return;
  const MapText mean_text{"NOT FOR RELEASE — computed from μ_D directly (no privacy)",
                          "posterior mean μ_D", "posterior mean", "NOT FOR RELEASE"};
  const Eigen::MatrixXd mean_response = (mean.array() * scale + center).matrix();
  io::write_file_atomic(
      (std::filesystem::path(dir) / ("NOT_FOR_RELEASE_posterior_mean." + format)).string(),
      render_map(eval.on_grid(mean_response), *eval.grid, threshold, mean_text, format));
  if (eval.grid->dim() == 2) {
    const MapText p_text{"NOT FOR RELEASE — computed from μ_D, k_D directly (no privacy)",
                         "excursion probability p_D; contour at 0.5", "p_D", "NOT FOR RELEASE"};
    io::write_file_atomic(
        (std::filesystem::path(dir) / ("NOT_FOR_RELEASE_excursion_probability." + format)).string(),
        render_map(eval.on_grid(p), *eval.grid, 0.5, p_text, format));
  }
}

// The released set at each evaluated point, as draws.csv's in_set column has it (the vote set of
// release/postprocess.hpp; for one path: the path ≥ level).
std::vector<char> released_set(const Eigen::MatrixXd& set_fields, double level, double cutoff) {
  const Eigen::VectorXd in = vote_set(vote_fraction(set_fields, level), cutoff);
  std::vector<char> out(static_cast<std::size_t>(in.size()));
  for (Eigen::Index i = 0; i < in.size(); ++i) out[static_cast<std::size_t>(i)] = in(i) > 0;
  return out;
}

// "lo:hi:count,..." of a grid, exactly (Grid::parse reads it back).
std::string grid_spec(const Grid& grid) {
  std::vector<std::string> axes;
  for (const auto& a : grid.axes())
    axes.push_back(
        fmt::format("{}:{}:{}", io::format_number(a.lo), io::format_number(a.hi), a.count));
  return fmt::format("{}", fmt::join(axes, ","));
}

// map.tif's bands: the released value(s) in response units (as in draws.csv), for L > 1 the vote
// fraction, and the in-set mask (1/0); NaN outside a mask.
std::vector<gis::RasterBand> raster_bands(const Evaluation& eval, const Eigen::MatrixXd& released,
                                          const Eigen::MatrixXd& set_fields,
                                          const std::vector<char>& in_set, double center,
                                          double scale, double level, const std::string& response) {
  auto column = [](const Eigen::VectorXd& v) { return std::vector<double>(v.begin(), v.end()); };
  std::vector<gis::RasterBand> bands;
  const auto L = released.cols();
  for (Eigen::Index l = 0; l < L; ++l) {
    const Eigen::VectorXd value = eval.on_grid((released.col(l).array() * scale + center).matrix());
    bands.push_back(
        {L == 1 ? fmt::format("released value ({}, response units)", response)
                : fmt::format("released value, path {} ({}, response units)", l + 1, response),
         column(value)});
  }
  if (L > 1)
    bands.push_back(
        {"vote fraction (paths ≥ t)", column(eval.on_grid(vote_fraction(set_fields, level)))});
  const Eigen::VectorXd evaluated =
      eval.on_grid(Eigen::VectorXd::Ones(static_cast<Eigen::Index>(eval.points.rows())));
  std::vector<double> mask(in_set.size());
  for (std::size_t k = 0; k < in_set.size(); ++k)
    mask[k] = std::isnan(evaluated(static_cast<Eigen::Index>(k))) ? std::nan("") : in_set[k];
  bands.push_back({"in_set (1 = in the released set, 0 = not)", mask});
  return bands;
}

// The released set on the whole grid (outside a mask: not in the set).
std::vector<char> set_on_grid(const Evaluation& eval, const std::vector<char>& in_set) {
  if (!eval.masked()) return in_set;
  std::vector<char> full(static_cast<std::size_t>(eval.grid->size()), 0);
  for (std::size_t i = 0; i < eval.cells.size(); ++i)
    full[static_cast<std::size_t>(eval.cells[i])] = in_set[i];
  return full;
}

// Every output file, in memory, from the released values only.
std::map<std::string, std::string> render_outputs(
    const ReleaseRequest& q, const Evaluation& eval, const Eigen::MatrixXd& set_fields,
    const Eigen::MatrixXd& released, const privacy::Guarantee& guarantee,
    const std::string& response_name, double center, double scale, double level,
    const std::optional<gis::GeoFrame>& geo, const std::string& release_uid) {
  std::map<std::string, std::string> files;
  files["draws.csv"] =
      draws_csv(eval.points, eval.names, released, set_fields, center, scale, level, q.vote_cutoff);
  if (!eval.grid) return files;
  const std::string eps_text = fmt::format("ε = {:.3g}, δ = {:.2g} ({}), L = {}", guarantee.epsilon,
                                           q.delta, privacy::to_string(q.conversion), q.draws);
  const std::string title =
      fmt::format("gpdp release{}: {}", q.insecure_seed ? " (NOT PRIVATE: seeded)" : "", eps_text);
  const std::string value_label =
      fmt::format("released path ({}{})", response_name,
                  q.input.transform == ResponseTransform::Log ? ", log" : "");
  const Eigen::MatrixXd values = eval.on_grid((set_fields.array() * scale + center).matrix());
  const std::string image = "map." + q.image_format;
  if (eval.grid->dim() == 1) {
    files[image] = render_map(values, *eval.grid, q.threshold,
                              {title, "released sample path(s)", value_label, ""}, q.image_format);
    return files;
  }
  const std::vector<char> in_set =
      set_on_grid(eval, released_set(set_fields, level, q.vote_cutoff));
  const auto polygons = geometry::set_polygons(in_set, *eval.grid);
  const std::string smoothed =
      q.smooth > 0 ? fmt::format(" (smoothed, bandwidth {})", q.smooth) : "";
  if (q.draws == 1) {
    files[image] =
        render_map(values.col(0), *eval.grid, q.threshold,
                   {title,
                    fmt::format("one posterior sample path{}; outline: released set {{path ≥ {}}}",
                                smoothed, q.threshold),
                    value_label, ""},
                   q.image_format, &polygons);
  } else {
    const Eigen::VectorXd votes = eval.on_grid(vote_fraction(set_fields, level));
    files[image] = render_map(votes, *eval.grid, q.vote_cutoff,
                              {title,
                               fmt::format("fraction of {} paths ≥ t = {}{}; outline: released "
                                           "set {{fraction ≥ {}}}",
                                           q.draws, q.threshold, smoothed, q.vote_cutoff),
                               "vote fraction", ""},
                              q.image_format, &polygons);
  }
  const std::string description =
      q.draws == 1 ? fmt::format("{{released path ≥ {}}}", q.threshold)
                   : fmt::format("{{vote fraction of {} released paths ≥ {} is ≥ {}}}", q.draws,
                                 q.threshold, q.vote_cutoff);
  std::optional<gis::Crs> crs;
  if (geo) crs = geo->declared();
  auto [name, content] =
      excursion_file(polygons, crs, {{"description", description}, {"release_uid", release_uid}});
  files[name] = std::move(content);
  files["map.tif"] = gis::cog_geotiff(
      *eval.grid, crs,
      raster_bands(eval, released, set_fields, in_set, center, scale, level, response_name),
      {{"GPDP_RELEASE_UID", release_uid},
       {"GPDP_VERSION", kVersion},
       {"GPDP_RELEASED_SET", description},
       {"GPDP_CERTIFICATE", "certificate.json beside this file lists it with its SHA-256"}});
  return files;
}

// Runs the post-processing between the draw and the ledger. The draw exists only in memory
// then: an error there records nothing and writes nothing, and its message says so.
template <class F>
auto after_the_draw(F&& step) {
  try {
    return step();
  } catch (const std::exception& e) {
    throw Error(fmt::format(
        "{} — this happened after the draw, in post-processing: nothing was recorded in the "
        "ledger and nothing was released (no privacy budget spent)",
        e.what()));
  }
}

}  // namespace

ReleaseOutcome run_release(const ReleaseRequest& q) {
  // ---- 1. validate -------------------------------------------------------------------------
  require(q.delta > 0 && q.delta < 1, fmt::format("--delta must lie in (0, 1), got {}", q.delta));
  require(q.draws >= 1, fmt::format("--draws must be ≥ 1, got {}", q.draws));
  require(q.vote_cutoff > 0 && q.vote_cutoff <= 1, "--vote-cutoff must lie in (0, 1]");
  require(q.image_format == "png" || q.image_format == "svg", "--image must be png or svg");
  require(std::isfinite(q.threshold), "--threshold must be finite");
  check_output_dir(q.out_dir);
  if (!q.keep_path.empty()) {
    require(!path_within(q.keep_path, q.out_dir),
            "--keep-path must lie outside --out (the path state is private, the release folder "
            "public)");
  }
  if (!q.internal_eval_dir.empty()) {
    require(!path_within(q.internal_eval_dir, q.out_dir) &&
                !path_within(q.out_dir, q.internal_eval_dir),
            "--internal-eval DIR must be separate from --out: non-private maps never enter a "
            "release folder");
  }
  const PreparedData prepared = prepare_data(q.data_path, q.input);
  const Dataset& data = prepared.data;
  const Box& domain = *q.input.domain;
  const Evaluation eval = evaluation_points(q, data, domain);
  // With a CRS: the data were projected to the model CRS by prepare_data; the evaluation points
  // are projected the same way (outputs stay in the declared CRS).
  std::optional<gis::GeoFrame> geo;
  if (!q.input.crs.empty()) geo.emplace(q.input.crs, q.input.model_crs, domain);
  const Points model_points = geo ? geo->to_model(eval.points, "evaluation points") : eval.points;
  const bool grid_sampler = eval.grid && !eval.masked() && !(geo && geo->reprojects());
  const std::string release_uid = random_id();
  const double center = q.input.center.value_or(0.0), scale = q.input.scale.value_or(1.0);
  const double level = (q.threshold - center) / scale;  // threshold in model units

  // ---- 2. account --------------------------------------------------------------------------
  privacy::GpMechanism mech;
  mech.kernel = Kernel::from_name(q.kernel, q.ell);
  mech.dim = data.dim();
  mech.domain = geo ? geo->model_domain() : domain;
  mech.n = data.n();
  mech.r = q.r;
  mech.sigma = q.sigma;
  mech.eta = q.eta;
  mech.M_Y = q.input.M_Y;
  mech.lemma = q.lemma;
  json calibration;
  if (q.target_epsilon) {
    const auto what = privacy::parse_calibration_parameter(q.solve.empty() ? "r" : q.solve);
    require(what == privacy::CalibrationParameter::R || what == privacy::CalibrationParameter::Eta,
            "--solve must be r or eta");
    const auto cal =
        privacy::calibrate(mech, q.draws, what, {*q.target_epsilon, q.delta, q.conversion});
    mech = cal.mechanism;
    calibration = {{"target_epsilon", *q.target_epsilon},
                   {"solved", privacy::to_string(what)},
                   {"value", cal.value},
                   {"note", cal.note}};
  }
  const auto bounds = privacy::resolve_bounds(mech);
  privacy::Accountant accountant;
  accountant.add(privacy::rdp_curve(mech, bounds), q.draws);
  const privacy::Guarantee guarantee = accountant.epsilon(q.delta, q.conversion);

  const std::string ledger_path =
      q.ledger_path.empty() ? default_ledger_path(q.data_path) : q.ledger_path;
  const std::string rng_text =
      q.insecure_seed ? fmt::format("seeded xoshiro256** seed={} (NOT PRIVATE)", *q.insecure_seed)
                      : std::string("secure (libsodium randombytes)");
  const std::string path_id = q.keep_path.empty() ? "" : random_id();
  LedgerEntry entry;
  entry.dataset_sha256 = prepared.sha256;
  entry.mechanism = mechanism_to_json(mech, q.draws);
  entry.epsilon = guarantee.epsilon;
  entry.delta = q.delta;
  entry.conversion = privacy::to_string(q.conversion);
  entry.parameters = {{"theta", {{"ell", q.ell}, {"r", mech.r}, {"sigma", mech.sigma}}},
                      {"eta", mech.eta},
                      {"draws", q.draws},
                      {"rng", rng_text},
                      {"threshold", q.threshold},
                      {"points", eval.points.rows()}};
  entry.out_dir = std::filesystem::absolute(q.out_dir).string();
  entry.path_id = path_id;
  Ledger ledger(ledger_path);
  ledger.check(entry, q.budget, composer_for(q.conversion));  // early refusal; record() decides

  // ---- 3. draw, snap, render (memory only) ----------------------------------------------------
  const Posterior posterior(*mech.kernel, data.X, data.y, {mech.r, mech.sigma});
  auto rng = make_rng(q.insecure_seed);
  std::vector<SamplePath> paths;
  Eigen::MatrixXd raw(eval.points.rows(), q.draws);
  std::string method;
  for (int l = 0; l < q.draws; ++l) {
    paths.emplace_back(posterior, mech.eta);
    raw.col(l) = grid_sampler ? paths.back().evaluate(*eval.grid, *rng)
                              : paths.back().evaluate(model_points, *rng);
    if (l == 0) method = paths.back().last_method();
  }
  const Granularity lattice = release_granularity(mech.n, mech.M_Y, mech.r, mech.sigma, mech.eta);
  const Eigen::MatrixXd released = raw.unaryExpr([&](double v) { return snap(v, lattice); });
  raw.setZero();  // the unsnapped values live on only in the kept path state (if any)

  // The fields the excursion set is read from: the released paths, optionally smoothed
  // (post-processing of released values only).
  Eigen::MatrixXd set_fields = released;
  if (q.smooth > 0) {
    require(eval.grid && eval.grid->dim() == 2, "--smooth needs a 2-D grid (--grid2d)");
    const Eigen::MatrixXd smoothed = smooth_fields(eval.on_grid(released), *eval.grid, q.smooth);
    for (Eigen::Index i = 0; i < set_fields.rows(); ++i) {
      set_fields.row(i) = smoothed.row(eval.masked() ? eval.cells[static_cast<std::size_t>(i)] : i);
    }
  }
  const std::map<std::string, std::string> rendered = after_the_draw([&] {
    return render_outputs(q, eval, set_fields, released, guarantee, data.response_name, center,
                          scale, level, geo, release_uid);
  });
  std::map<std::string, std::string> files = rendered;

  json cert{
      {"gpdp_version", kVersion},
      {"private", !q.insecure_seed.has_value()},
      {"input",
       {{"file", std::filesystem::path(q.data_path).filename().string()},
        {"sha256", prepared.sha256},
        {"bytes", prepared.file_bytes},
        {"n", data.n()},
        {"covariates", data.covariate_names},
        {"response", data.response_name},
        {"transform", to_string(q.input.transform)},
        {"center", center},
        {"scale", scale},
        {"response_policy", to_string(q.input.policy)},
        {"M_Y", q.input.M_Y},
        {"clipped", prepared.clipped}}},
      {"domain", domain.to_string()},
      {"crs", geo ? geo->to_json() : json(nullptr)},
      {"release_uid", release_uid},
      {"kernel", {{"name", mech.kernel->name()}, {"ell", mech.kernel->lengthscale()}}},
      {"theta", {{"ell", mech.kernel->lengthscale()}, {"r", mech.r}, {"sigma", mech.sigma}}},
      {"eta", mech.eta},
      {"M_Y", mech.M_Y},
      {"sensitivity",
       {{"lemma", privacy::to_string(mech.lemma)},
        {"assumptions", privacy::lemma_assumptions(mech.lemma)},
        {"Delta_n", bounds.Delta_n},
        {"V_n", bounds.Vn},
        {"V_n_source", bounds.Vn_source},
        {"kappa", bounds.kappa},
        {"theorem", bounds.theorem}}},
      {"draws", q.draws},
      {"guarantee", guarantee_json(guarantee)},
      {"mechanism", entry.mechanism},
      {"rng", rng_text},
      {"rounding",
       {{"granularity", lattice.lambda},
        {"exponent", lattice.exponent},
        {"std_floor", lattice.std_floor},
        {"value_bound", lattice.value_bound},
        {"reasoning", lattice.reasoning}}},
      {"sampler", method},
      {"threshold",
       {{"t", q.threshold},
        {"model_units", level},
        {"vote_cutoff", q.vote_cutoff},
        {"smoothing_bandwidth", q.smooth}}},
      {"evaluation",
       {{"points", eval.points.rows()},
        {"grid", q.grid ? json(q.grid->dim() == 1 ? "1-D grid" : "2-D grid") : json(nullptr)},
        {"grid_spec", q.grid ? json(grid_spec(*q.grid)) : json(nullptr)},
        {"mask", q.mask_file.empty()
                     ? json(nullptr)
                     : json(std::filesystem::path(q.mask_file).filename().string())},
        {"points_file", q.points_file.empty()
                            ? json(nullptr)
                            : json(std::filesystem::path(q.points_file).filename().string())}}},
      {"covered_by_guarantee",
       "every file listed in 'outputs': all are functions of the released, "
       "snapped sample paths only"},
      {"timestamp", utc_timestamp()}};
  if (!calibration.is_null()) cert["calibration"] = calibration;
  if (!path_id.empty()) cert["kept_path_id"] = path_id;
  if (q.insecure_seed) {
    cert["warning"] =
        "NOT PRIVATE: drawn with a user-chosen seed; anyone who knows the seed can "
        "remove the noise. Never publish this release.";
  }

  // ---- 4. ledger: check the budget and record, durably ----------------------------------------
  entry.created = cert["timestamp"].get<std::string>();
  const LedgerDecision decision = ledger.record(entry, q.budget, composer_for(q.conversion));
  json ledger_json{{"path", ledger_path}, {"release_id", decision.id}};
  if (decision.budget) {
    ledger_json["budget"] = {{"epsilon", decision.budget->epsilon},
                             {"delta", decision.budget->delta}};
    ledger_json["epsilon_spent_total"] = decision.epsilon_after;
    ledger_json["epsilon_remaining"] = decision.budget->epsilon - decision.epsilon_after;
  }
  cert["ledger"] = ledger_json;

  // ---- 5. publish: the kept path state first, then the release folder -------------------------
  if (!q.keep_path.empty()) {
    json state{{"format", "gpdp-path-1"},
               {"path_id", path_id},
               {"dataset_sha256", prepared.sha256},
               {"input", input_json(q.input, data)},
               {"kernel", {{"name", mech.kernel->name()}, {"ell", mech.kernel->lengthscale()}}},
               {"r", mech.r},
               {"sigma", mech.sigma},
               {"eta", mech.eta},
               {"threshold", q.threshold},
               {"lattice_exponent", lattice.exponent},
               {"ledger", std::filesystem::absolute(ledger_path).string()},
               {"release_id", decision.id},
               {"dim", data.dim()},
               {"names", eval.names},
               {"paths", json::array()}};
    for (const auto& path : paths) {
      state["paths"].push_back(
          {{"points", matrix_json(path.points())}, {"values", matrix_json(path.values())}});
    }
    save_path_file(q.keep_path, state.dump(), q.path_key);
  }
  json outputs = json::array();
  for (const auto& [name, content] : files)
    outputs.push_back({{"file", name}, {"sha256", sha256_hex(content)}});
  cert["outputs"] = outputs;
  files["certificate.json"] = cert.dump(2) + "\n";
  publish_folder(q.out_dir, files);
  if (!q.internal_eval_dir.empty()) {
    write_internal_eval(q.internal_eval_dir, posterior, eval, model_points, center, scale, level,
                        q.threshold, q.image_format);
  }

  ReleaseOutcome outcome;
  outcome.certificate = cert;
  for (const auto& [name, content] : files) outcome.files.push_back(name);
  const Eigen::VectorXd votes = vote_fraction(set_fields, level);
  const double share_in_set = votes.size() ? vote_set(votes, q.vote_cutoff).mean() : 0.0;
  outcome.summary = {{"out", q.out_dir},
                     {"files", outcome.files},
                     {"n", data.n()},
                     {"clipped", prepared.clipped},
                     {"points", eval.points.rows()},
                     {"draws", q.draws},
                     {"epsilon", guarantee.epsilon},
                     {"delta", q.delta},
                     {"alpha_star", guarantee.alpha},
                     {"conversion", privacy::to_string(q.conversion)},
                     {"r", mech.r},
                     {"sigma", mech.sigma},
                     {"eta", mech.eta},
                     {"ell", q.ell},
                     {"lemma", privacy::to_string(mech.lemma)},
                     {"rng", rng_text},
                     {"private", !q.insecure_seed.has_value()},
                     {"granularity", lattice.lambda},
                     {"sampler", method},
                     {"fraction_in_set", share_in_set},
                     {"ledger", ledger_json}};
  if (!path_id.empty()) outcome.summary["kept_path"] = q.keep_path;
  if (!q.internal_eval_dir.empty()) outcome.summary["internal_eval"] = q.internal_eval_dir;
  if (!calibration.is_null()) outcome.summary["calibration"] = calibration;
  return outcome;
}

json run_query(const QueryRequest& q) {
  require(!q.out_csv.empty(), "--out FILE.csv is required");
  const std::string text = load_path_file(q.path_file, q.key);
  json state;
  try {
    state = json::parse(text);
    require(state.value("format", "") == "gpdp-path-1", "");
  } catch (const std::exception&) {
    throw InputError(fmt::format("{}: not a gpdp path file (bad contents)", q.path_file));
  }
  try {
    InputSpec spec = parse_input_config(state.at("input").dump(), q.path_file);
    const PreparedData prepared = prepare_data(q.data_path, spec);
    if (prepared.sha256 != state.at("dataset_sha256").get<std::string>()) {
      throw InputError(
          fmt::format("{}: SHA-256 {} differs from the data of the kept path ({}); a query "
                      "needs exactly the data file of the release",
                      q.data_path, prepared.sha256, state["dataset_sha256"].get<std::string>()));
    }
    const std::string ledger_path =
        q.ledger_path.empty() ? state.at("ledger").get<std::string>() : q.ledger_path;
    const auto rows = Ledger::open_existing(ledger_path).releases(prepared.sha256);
    const std::string path_id = state.at("path_id").get<std::string>();
    const bool recorded = std::any_of(rows.begin(), rows.end(),
                                      [&](const LedgerEntry& e) { return e.path_id == path_id; });
    if (!recorded) {
      throw PrivacyError(
          fmt::format("ledger {} has no release with this kept path (id {}); refusing to "
                      "answer unaccounted queries",
                      ledger_path, path_id));
    }
    const Dataset& data = prepared.data;
    const int dim = state.at("dim").get<int>();
    std::vector<std::string> names = state.at("names").get<std::vector<std::string>>();
    Points xs;
    if (q.grid) {
      require(q.points_file.empty(), "give --points or --grid/--grid2d, not both");
      require(q.grid->dim() == dim,
              fmt::format("the grid has {} dimension(s), the path {}", q.grid->dim(), dim));
      xs = q.grid->points();
    } else {
      require(!q.points_file.empty(), "give the new points: --points FILE, --grid or --grid2d");
      const io::PointsFile file = io::read_points_file(q.points_file, names);
      names = file.names;
      xs = file.points;
    }
    // Points in another CRS than the release's are transformed to it; a CRS for a release
    // without one is refused (never silently mixed).
    std::optional<gis::GeoFrame> geo;
    if (!spec.crs.empty()) geo.emplace(spec.crs, spec.model_crs, *spec.domain);
    if (!q.crs.empty()) {
      require(geo.has_value(),
              fmt::format("--crs {}: the kept path was released without a CRS (unitless "
                          "coordinates); give the points in those coordinates, without --crs",
                          q.crs));
      if (gis::Crs::parse(q.crs).id() != geo->declared().id()) {
        xs = gis::Transformer(gis::Crs::parse(q.crs), geo->declared()).apply(xs, "query points");
        names = state.at("names").get<std::vector<std::string>>();  // now the release's axes
      }
    }
    for (Eigen::Index i = 0; i < xs.rows(); ++i) {
      require(spec.domain->contains(xs.row(i).transpose()),
              fmt::format("query point {} lies outside the declared domain {}", i + 1,
                          spec.domain->to_string()));
    }
    const Kernel kernel = Kernel::from_name(state.at("kernel").at("name").get<std::string>(),
                                            state["kernel"].at("ell").get<double>());
    const double r = state.at("r").get<double>(), sigma = state.at("sigma").get<double>(),
                 eta = state.at("eta").get<double>();
    const Posterior posterior(kernel, data.X, data.y, {r, sigma});
    const int exponent = state.at("lattice_exponent").get<int>();
    const Granularity lattice = release_granularity(data.n(), spec.M_Y, r, sigma, eta);
    require(lattice.exponent == exponent,
            fmt::format("{}: inconsistent rounding lattice", q.path_file));
    auto rng_owner = make_rng(q.insecure_seed);
    Rng& rng = *rng_owner;
    const Points model_xs = geo ? geo->to_model(xs, "query points") : xs;
    auto& kept = state.at("paths");
    Eigen::MatrixXd released(xs.rows(), static_cast<Eigen::Index>(kept.size()));
    for (std::size_t l = 0; l < kept.size(); ++l) {
      const Eigen::MatrixXd pts = matrix_from_json(kept[l].at("points"), dim);
      const Eigen::MatrixXd vals = matrix_from_json(kept[l].at("values"), 1);
      SamplePath path(posterior, eta, pts, vals.col(0));
      const Eigen::VectorXd v = path.evaluate(model_xs, rng);
      released.col(static_cast<Eigen::Index>(l)) =
          v.unaryExpr([&](double x) { return snap(x, lattice); });
      kept[l] = {{"points", matrix_json(path.points())}, {"values", matrix_json(path.values())}};
    }
    // The path now remembers the new answers: save it before the answers leave.
    save_path_file(q.path_file, state.dump(), q.key);
    const double center = spec.center.value_or(0.0), scale = spec.scale.value_or(1.0);
    const double threshold = state.at("threshold").get<double>();
    io::write_file_atomic(q.out_csv, draws_csv(xs, names, released, released, center, scale,
                                               (threshold - center) / scale, 0.5));
    return {{"out", q.out_csv},
            {"points", xs.rows()},
            {"paths", kept.size()},
            {"path_id", path_id},
            {"ledger", ledger_path},
            {"budget_consumed", 0},
            {"crs", geo ? json(geo->declared().id()) : json(nullptr)},
            {"granularity", lattice.lambda},
            {"private", !q.insecure_seed.has_value()}};
  } catch (const json::exception&) {
    throw InputError(
        fmt::format("{}: not a gpdp path file (missing or malformed fields)", q.path_file));
  }
}

std::string format_summary(const json& s) {
  std::string out;
  out += fmt::format("gpdp release → {}{}\n", s["out"].get<std::string>(),
                     s["private"].get<bool>() ? "" : "   *** NOT PRIVATE (seeded RNG) ***");
  out += fmt::format("  data        n = {} records, {} response(s) clipped to ±M_Y\n",
                     s["n"].get<long>(), s["clipped"].get<long>());
  out += fmt::format("  θ           ℓ = {}, r = {:.6g}, σ = {}, η = {:.6g}   (Δ_n: Lemma {})\n",
                     s["ell"].get<double>(), s["r"].get<double>(), s["sigma"].get<double>(),
                     s["eta"].get<double>(), s["lemma"].get<std::string>());
  if (s.contains("calibration")) {
    out += fmt::format("  calibrated  {} for target ε = {}\n",
                       s["calibration"]["solved"].get<std::string>(),
                       s["calibration"]["target_epsilon"].get<double>());
  }
  out += fmt::format(
      "  guarantee   ({:.4g}, {:.3g})-DP for {} path(s) at {} points  [α* = {:.4g}, {}]\n",
      s["epsilon"].get<double>(), s["delta"].get<double>(), s["draws"].get<int>(),
      s["points"].get<long>(), s["alpha_star"].get<double>(), s["conversion"].get<std::string>());
  out += fmt::format("  sampling    {} ; {} ; values snapped to multiples of {:.3g}\n",
                     s["sampler"].get<std::string>(), s["rng"].get<std::string>(),
                     s["granularity"].get<double>());
  out +=
      fmt::format("  map         {:.1f}% of the evaluated points in the released excursion set\n",
                  100.0 * s["fraction_in_set"].get<double>());
  const auto& l = s["ledger"];
  if (l.contains("budget")) {
    out += fmt::format(
        "  budget      spent ε = {:.4g} of {} (δ = {:.3g}); remaining {:.4g}   [ledger {} #{}]\n",
        l["epsilon_spent_total"].get<double>(), l["budget"]["epsilon"].get<double>(),
        l["budget"]["delta"].get<double>(), l["epsilon_remaining"].get<double>(),
        l["path"].get<std::string>(), l["release_id"].get<long>());
  } else {
    out += fmt::format(
        "  budget      none set (use --budget-epsilon/--budget-delta)   [ledger {} #{}]\n",
        l["path"].get<std::string>(), l["release_id"].get<long>());
  }
  std::string files;
  for (const auto& f : s["files"]) files += f.get<std::string>() + " ";
  out += fmt::format("  files       {}\n", files);
  return out;
}

}  // namespace gpdp::release
