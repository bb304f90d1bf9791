// Stage 6 of a release: after the ledger commit, the kept path state (private), then the release
// folder in one rename, then (if asked) the non-private evaluation maps into their own folder.
#include <fmt/format.h>

#include <filesystem>

#include "gpdp/io/csv.hpp"
#include "gpdp/release/kept_path.hpp"
#include "gpdp/release/outputs.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/sha256.hpp"
#include "gpdp/release/stages.hpp"
#include "io/atomic_file.hpp"

namespace gpdp::release {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Non-private maps for the data holder's own evaluation: watermarked, never in the release folder.
void write_internal_eval(const ReleaseRequest& q, const ValidatedRelease& v,
                         const Posterior& posterior) {
  const fs::path dir(q.internal_eval_dir);
  fs::create_directories(dir);
  const Evaluation& eval = v.evaluation;
  const Eigen::VectorXd mean = posterior.mean(v.model_points);
  const Eigen::VectorXd prob = posterior.excursion_probability(v.model_points, v.level);
  std::string csv = "point,posterior_mean,excursion_probability\n";
  for (Eigen::Index i = 0; i < mean.size(); ++i) {
    csv += fmt::format("{},{},{}\n", i, io::format_number(v.center + v.scale * mean(i)),
                       io::format_number(prob(i)));
  }
  io::write_file_atomic((dir / "NOT_FOR_RELEASE_posterior.csv").string(), csv);
  if (!eval.grid) return;
  const std::string format = to_string(q.image_format);
  const MapText mean_text{"NOT FOR RELEASE — computed from μ_D directly (no privacy)",
                          "posterior mean μ_D", "posterior mean", "NOT FOR RELEASE"};
  const Eigen::MatrixXd mean_response = (mean.array() * v.scale + v.center).matrix();
  io::write_file_atomic(
      (dir / ("NOT_FOR_RELEASE_posterior_mean." + format)).string(),
      render_map(eval.on_grid(mean_response), *eval.grid, q.threshold, mean_text, format));
  if (eval.grid->dim() != 2) return;
  const MapText p_text{"NOT FOR RELEASE — computed from μ_D, k_D directly (no privacy)",
                       "excursion probability p_D; contour at 0.5", "p_D", "NOT FOR RELEASE"};
  io::write_file_atomic((dir / ("NOT_FOR_RELEASE_excursion_probability." + format)).string(),
                        render_map(eval.on_grid(prob), *eval.grid, 0.5, p_text, format));
}

json summary_json(const ReleaseRequest& q, const ValidatedRelease& v, const ReleaseAccounting& a,
                  const ReleasedPaths& p, const ReleaseOutcome& o) {
  const auto& g = a.guarantee;
  json s{{"out", q.out_dir},
         {"files", o.files},
         {"n", v.prepared.data.n()},
         {"clipped", v.prepared.clipped},
         {"points", v.evaluation.points.rows()},
         {"draws", q.draws},
         {"epsilon", g.epsilon},
         {"delta", q.delta},
         {"alpha_star", g.alpha},
         {"conversion", privacy::to_string(q.conversion)},
         {"r", a.mechanism.r},
         {"sigma", a.mechanism.sigma},
         {"eta", a.mechanism.eta},
         {"mechanism", o.certificate["mechanism"]},
         {"ell", a.mechanism.kernel->lengthscale()},
         {"sensitivity", privacy::to_string(a.mechanism.lemma)},
         {"rng", p.rng},
         {"private", !q.insecure_seed.has_value()},
         {"granularity", p.lattice.lambda},
         {"sampler", p.sampler},
         {"fraction_in_set", p.in_set.size() ? p.in_set.mean() : 0.0},
         {"ledger", o.certificate["ledger"]},
         {"dataset", o.certificate["dataset"]},
         {"risk", o.certificate["risk"]}};
  if (q.keep_path) s["kept_path"] = q.keep_path->file;
  // For the data holder's terminal only (a count of the private data: never in the certificate).
  s["warnings"] = json::array();
  const auto& f = a.identity.fingerprint;
  if (const long duplicates = f.records - static_cast<long>(f.hashes.size()); duplicates > 0) {
    s["warnings"].push_back(fmt::format(
        "{} data row(s) repeat another row exactly (same covariates and response): each copy "
        "counts as a record of its own, so an individual with k identical rows is protected only "
        "as a group of k records (about k·ε); remove repeats that are one observation entered "
        "twice",
        duplicates));
  }
  if (!q.internal_eval_dir.empty()) s["internal_eval"] = q.internal_eval_dir;
  if (o.certificate.contains("calibration")) s["calibration"] = o.certificate["calibration"];
  if (o.certificate.contains("grid_mean")) s["grid_mean"] = o.certificate["grid_mean"];
  if (o.certificate.contains("prior_mean")) s["prior_mean"] = o.certificate["prior_mean"];
  if (o.certificate.contains("auto")) s["auto"] = o.certificate["auto"];
  return s;
}

}  // namespace

void check_room_for(const ReleaseRequest& q, const ReleasedPaths& p, const Files& files) {
  std::uintmax_t bytes = 64 << 10;  // the certificate
  for (const auto& [name, content] : files) bytes += content.size();
  check_room(fs::absolute(q.out_dir).parent_path().string(), bytes, "out_dir");
  if (!q.keep_path) return;
  // A kept path holds every answered point and unsnapped value as JSON text (≤ 25 characters a
  // number), written beside the file before it replaces it.
  std::uintmax_t numbers = 0;
  for (const auto& path : p.paths)
    numbers += static_cast<std::uintmax_t>(path.points().size() + path.values().size());
  check_room(fs::absolute(q.keep_path->file).parent_path().string(), 25 * numbers + (64 << 10),
             "keep_path");
}

ReleaseOutcome publish(const ReleaseRequest& q, const ValidatedRelease& v,
                       const ReleaseAccounting& a, const ReleasedPaths& p, Files files,
                       Certified c) {
  try {
    if (c.kept) save_kept_path(q.keep_path->file, *c.kept, q.keep_path->key);
    json outputs = json::array();
    for (const auto& [name, content] : files)
      outputs.push_back({{"file", name}, {"sha256", sha256_hex(content)}});
    c.certificate["outputs"] = outputs;
    files["certificate.json"] = c.certificate.dump(2) + "\n";
    publish_folder(q.out_dir, files);
  } catch (...) {
    std::error_code ec;
    if (c.kept) fs::remove(q.keep_path->file, ec);  // the path of a release never published
    throw;
  }
  if (!q.internal_eval_dir.empty()) {
    if (!p.paths.empty()) {
      write_internal_eval(q, v, p.paths.front().posterior());
    } else {  // the functional mechanism keeps no sample paths
      const auto& m = a.mechanism;
      write_internal_eval(
          q, v, Posterior(*m.kernel, v.model_covariates(), v.prepared.data.y, {m.r, m.sigma}));
    }
  }
  ReleaseOutcome o;
  o.certificate = std::move(c.certificate);
  for (const auto& entry : files) o.files.push_back(entry.first);
  o.summary = summary_json(q, v, a, p, o);
  return o;
}

}  // namespace gpdp::release
