#include "gpdp/release/release.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <memory>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/release/mechanism_json.hpp"
#include "gpdp/release/outputs.hpp"
#include "gpdp/release/sha256.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/version.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;

struct Evaluation {
  Points points;
  std::optional<Grid> grid;
  std::vector<std::string> names;
};

// Query points: the grid or the points file (columns named like the data's covariates, or
// x1..xd), all inside the declared domain.
Evaluation evaluation_points(const ReleaseRequest& q, const Dataset& data, const Box& domain) {
  Evaluation e;
  e.names = data.covariate_names;
  if (q.grid) {
    require(q.points_file.empty(), "give one of --grid/--grid2d or --points, not both");
    require(q.grid->dim() == data.dim(), fmt::format("the grid has {} dimension(s) but the data have {}",
                                                     q.grid->dim(), data.dim()));
    e.grid = *q.grid;
    e.points = q.grid->points();
  } else {
    require(!q.points_file.empty(), "give where to evaluate: --grid, --grid2d or --points FILE");
    const auto table = io::read_csv(q.points_file);
    require(!table.rows.empty(), fmt::format("{}: no query points after the header", q.points_file));
    bool named = true;
    for (const auto& n : e.names) {
      named = named && std::find(table.header.begin(), table.header.end(), n) != table.header.end();
    }
    if (!named) {
      for (int i = 0; i < data.dim(); ++i) e.names[static_cast<std::size_t>(i)] = fmt::format("x{}", i + 1);
    }
    e.points = table.numeric(e.names);
    for (Eigen::Index i = 0; i < e.points.rows(); ++i) {
      require(domain.contains(e.points.row(i).transpose()),
              fmt::format("{}:{}: query point outside the declared domain {}", q.points_file,
                          table.line_numbers[static_cast<std::size_t>(i)], domain.to_string()));
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
  return {{"epsilon", g.epsilon},   {"delta", g.delta},
          {"alpha_star", g.alpha},  {"rdp_at_alpha_star", g.rdp},
          {"alpha_max", std::isinf(g.alpha_max) ? json("inf") : json(g.alpha_max)},
          {"conversion", privacy::to_string(g.conversion)},
          {"conversion_citation", privacy::conversion_citation(g.conversion)},
          {"note", g.note()}};
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
            "--keep-path must lie outside --out (the path state is private, the release folder public)");
  }
  if (!q.internal_eval_dir.empty()) {
    require(!path_within(q.internal_eval_dir, q.out_dir) && !path_within(q.out_dir, q.internal_eval_dir),
            "--internal-eval DIR must be separate from --out: non-private maps never enter a release folder");
  }
  const PreparedData prepared = prepare_data(q.data_path, q.input);
  const Dataset& data = prepared.data;
  const Box& domain = *q.input.domain;
  const Evaluation eval = evaluation_points(q, data, domain);
  const double center = q.input.center.value_or(0.0), scale = q.input.scale.value_or(1.0);
  const double level = (q.threshold - center) / scale;  // threshold in model units

  // ---- 2. account --------------------------------------------------------------------------
  privacy::GpMechanism mech;
  mech.kernel = Kernel::from_name(q.kernel, q.ell);
  mech.dim = data.dim();
  mech.domain = domain;
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
    const auto cal = privacy::calibrate(mech, q.draws, what, {*q.target_epsilon, q.delta, q.conversion});
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

  // ---- 3. draw, snap, render (memory only) ----------------------------------------------------
  const Posterior posterior(*mech.kernel, data.X, data.y, {mech.r, mech.sigma});
  auto rng = make_rng(q.insecure_seed);
  const SampleOptions options{q.method, mech.eta};
  Draws draws = eval.grid ? sample(posterior, *eval.grid, q.draws, *rng, options)
                          : sample(posterior, eval.points, q.draws, *rng, options);
  const Granularity lattice = release_granularity(mech.n, mech.M_Y, mech.r, mech.sigma, mech.eta);
  Eigen::MatrixXd released = draws.values.unaryExpr([&](double v) { return snap(v, lattice); });
  draws.values.setZero();  // the unsnapped values stay only in the kept path state (if any)

  const std::string rng_text = q.insecure_seed
                                   ? fmt::format("seeded xoshiro256** seed={} (NOT PRIVATE)", *q.insecure_seed)
                                   : rng->description();
  const std::string path_id = q.keep_path.empty() ? "" : random_id();
  std::map<std::string, std::string> files;
  files["draws.csv"] = draws_csv(eval.points, eval.names, released, center, scale, level, q.vote_cutoff);
  const std::string eps_text = fmt::format("ε = {:.3g}, δ = {:.2g} ({}), L = {}", guarantee.epsilon,
                                           q.delta, privacy::to_string(q.conversion), q.draws);
  if (eval.grid) {
    const Eigen::MatrixXd values = (released.array() * scale + center).matrix();
    const std::string title =
        fmt::format("gpdp release{}: {}", q.insecure_seed ? " (NOT PRIVATE: seeded)" : "", eps_text);
    const std::string value_label = fmt::format("released path ({}{})", data.response_name,
                                                q.input.transform == ResponseTransform::Log ? ", log" : "");
    if (eval.grid->dim() == 2) {
      // The map: the first path, or the vote fraction over L paths (released set: vote ≥ c).
      if (q.draws == 1) {
        files["map." + q.image_format] = render_map(values.col(0), *eval.grid, q.threshold,
            {title, fmt::format("one posterior sample path; contour at t = {}", q.threshold), value_label, ""},
            q.image_format);
        files["excursion.geojson"] = excursion_geojson(values.col(0), *eval.grid, q.threshold,
            fmt::format("{{released path ≥ {}}}", q.threshold));
      } else {
        const Eigen::VectorXd votes = vote_fraction(released, level);
        files["map." + q.image_format] = render_map(votes, *eval.grid, q.vote_cutoff,
            {title, fmt::format("fraction of {} paths ≥ t = {}; contour at c = {}", q.draws, q.threshold,
                                q.vote_cutoff), "vote fraction", ""},
            q.image_format);
        files["excursion.geojson"] = excursion_geojson(votes, *eval.grid, q.vote_cutoff,
            fmt::format("{{vote fraction of {} released paths ≥ {} is ≥ {}}}", q.draws, q.threshold, q.vote_cutoff));
      }
    } else {
      files["map." + q.image_format] =
          render_map(values, *eval.grid, q.threshold, {title, "released sample path(s)", value_label, ""},
                     q.image_format);
    }
  }

  json cert{
      {"gpdp_version", kVersion},
      {"private", !q.insecure_seed.has_value()},
      {"input", {{"file", std::filesystem::path(q.data_path).filename().string()},
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
      {"kernel", {{"name", mech.kernel->name()}, {"ell", mech.kernel->lengthscale()}}},
      {"theta", {{"ell", mech.kernel->lengthscale()}, {"r", mech.r}, {"sigma", mech.sigma}}},
      {"eta", mech.eta},
      {"M_Y", mech.M_Y},
      {"sensitivity", {{"lemma", privacy::to_string(mech.lemma)},
                       {"assumptions", privacy::lemma_assumptions(mech.lemma)},
                       {"Delta_n", bounds.Delta_n},
                       {"V_n", bounds.Vn},
                       {"V_n_source", bounds.Vn_source},
                       {"kappa", bounds.kappa},
                       {"theorem", bounds.theorem}}},
      {"draws", q.draws},
      {"guarantee", guarantee_json(guarantee)},
      {"mechanism", mechanism_to_json(mech, q.draws)},
      {"rng", rng_text},
      {"rounding", {{"granularity", lattice.lambda},
                    {"exponent", lattice.exponent},
                    {"std_floor", lattice.std_floor},
                    {"value_bound", lattice.value_bound},
                    {"reasoning", lattice.reasoning}}},
      {"sampler", {{"method", draws.method}, {"detail", draws.detail}}},
      {"threshold", {{"t", q.threshold}, {"model_units", level}, {"vote_cutoff", q.vote_cutoff}}},
      {"evaluation", {{"points", eval.points.rows()},
                      {"grid", eval.grid ? json(q.grid ? (q.grid->dim() == 1 ? "1-D" : "2-D") : "") : json(nullptr)},
                      {"points_file", q.points_file.empty() ? json(nullptr)
                                                            : json(std::filesystem::path(q.points_file).filename().string())}}},
      {"covered_by_guarantee", "every file listed in 'outputs': all are functions of the released, "
                               "snapped sample paths only"},
      {"timestamp", utc_timestamp()}};
  if (!calibration.is_null()) cert["calibration"] = calibration;
  if (!path_id.empty()) cert["kept_path_id"] = path_id;
  if (q.insecure_seed) {
    cert["warning"] = "NOT PRIVATE: drawn with a user-chosen seed; anyone who knows the seed can "
                      "remove the noise. Never publish this release.";
  }

  // ---- 4. ledger: check the budget and record, durably ----------------------------------------
  const std::string ledger_path = q.ledger_path.empty() ? default_ledger_path(q.data_path) : q.ledger_path;
  LedgerEntry entry;
  entry.dataset_sha256 = prepared.sha256;
  entry.created = cert["timestamp"].get<std::string>();
  entry.mechanism = cert["mechanism"];
  entry.epsilon = guarantee.epsilon;
  entry.delta = q.delta;
  entry.conversion = privacy::to_string(q.conversion);
  entry.parameters = {{"theta", cert["theta"]}, {"eta", mech.eta}, {"draws", q.draws},
                      {"rng", rng_text}, {"threshold", q.threshold}, {"points", eval.points.rows()}};
  entry.out_dir = std::filesystem::absolute(q.out_dir).string();
  entry.path_id = path_id;
  const privacy::Conversion conversion = q.conversion;
  Ledger ledger(ledger_path);
  const LedgerDecision decision =
      ledger.record(entry, q.budget, [conversion](const std::vector<LedgerEntry>& all, double delta) {
        std::vector<CountedMechanism> ms;
        for (const auto& e : all) ms.push_back(mechanism_from_json(e.mechanism, "ledger release " + std::to_string(e.id)));
        return compose(ms).epsilon(delta, conversion).epsilon;
      });
  json ledger_json{{"path", ledger_path}, {"release_id", decision.id}};
  if (decision.budget) {
    ledger_json["budget"] = {{"epsilon", decision.budget->epsilon}, {"delta", decision.budget->delta}};
    ledger_json["epsilon_spent_total"] = decision.epsilon_after;
    ledger_json["epsilon_remaining"] = decision.budget->epsilon - decision.epsilon_after;
  }
  cert["ledger"] = ledger_json;

  // ---- 5. publish ---------------------------------------------------------------------------
  json outputs = json::array();
  for (const auto& [name, content] : files) outputs.push_back({{"file", name}, {"sha256", sha256_hex(content)}});
  cert["outputs"] = outputs;
  files["certificate.json"] = cert.dump(2) + "\n";
  publish_folder(q.out_dir, files);

  ReleaseOutcome outcome;
  outcome.certificate = cert;
  for (const auto& [name, content] : files) outcome.files.push_back(name);
  const Eigen::VectorXd votes = vote_fraction(released, level);
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
                     {"r", mech.r}, {"sigma", mech.sigma}, {"eta", mech.eta}, {"ell", q.ell},
                     {"lemma", privacy::to_string(mech.lemma)},
                     {"rng", rng_text},
                     {"private", !q.insecure_seed.has_value()},
                     {"granularity", lattice.lambda},
                     {"sampler", draws.method},
                     {"fraction_in_set", votes.size() ? (votes.array() >= q.vote_cutoff).cast<double>().mean() : 0.0},
                     {"ledger", ledger_json}};
  if (!calibration.is_null()) outcome.summary["calibration"] = calibration;
  return outcome;
}

std::string format_summary(const json& s) {
  std::string out;
  out += fmt::format("gpdp release → {}{}\n", s["out"].get<std::string>(),
                     s["private"].get<bool>() ? "" : "   *** NOT PRIVATE (seeded RNG) ***");
  out += fmt::format("  data        n = {} records, {} response(s) clipped to ±M_Y\n", s["n"].get<long>(),
                     s["clipped"].get<long>());
  out += fmt::format("  θ           ℓ = {}, r = {:.6g}, σ = {}, η = {:.6g}   (Δ_n: Lemma {})\n",
                     s["ell"].get<double>(), s["r"].get<double>(), s["sigma"].get<double>(),
                     s["eta"].get<double>(), s["lemma"].get<std::string>());
  if (s.contains("calibration")) {
    out += fmt::format("  calibrated  {} for target ε = {}\n", s["calibration"]["solved"].get<std::string>(),
                       s["calibration"]["target_epsilon"].get<double>());
  }
  out += fmt::format("  guarantee   ({:.4g}, {:.3g})-DP for {} path(s) at {} points  [α* = {:.4g}, {}]\n",
                     s["epsilon"].get<double>(), s["delta"].get<double>(), s["draws"].get<int>(),
                     s["points"].get<long>(), s["alpha_star"].get<double>(), s["conversion"].get<std::string>());
  out += fmt::format("  sampling    {} ; {} ; values snapped to multiples of {:.3g}\n",
                     s["sampler"].get<std::string>(), s["rng"].get<std::string>(), s["granularity"].get<double>());
  out += fmt::format("  map         {:.1f}% of the evaluated points in the released excursion set\n",
                     100.0 * s["fraction_in_set"].get<double>());
  const auto& l = s["ledger"];
  if (l.contains("budget")) {
    out += fmt::format("  budget      spent ε = {:.4g} of {} (δ = {:.3g}); remaining {:.4g}   [ledger {} #{}]\n",
                       l["epsilon_spent_total"].get<double>(), l["budget"]["epsilon"].get<double>(),
                       l["budget"]["delta"].get<double>(), l["epsilon_remaining"].get<double>(),
                       l["path"].get<std::string>(), l["release_id"].get<long>());
  } else {
    out += fmt::format("  budget      none set (use --budget-epsilon/--budget-delta)   [ledger {} #{}]\n",
                       l["path"].get<std::string>(), l["release_id"].get<long>());
  }
  std::string files;
  for (const auto& f : s["files"]) files += f.get<std::string>() + " ";
  out += fmt::format("  files       {}\n", files);
  return out;
}

}  // namespace gpdp::release
