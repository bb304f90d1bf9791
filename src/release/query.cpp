// `gpdp query`: new points of a kept path, drawn conditionally on everything it has answered.
#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/release/kept_path.hpp"
#include "gpdp/release/outputs.hpp"
#include "gpdp/release/release.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::release {

namespace {

// The data of the release, byte for byte (the posterior is rebuilt from them).
PreparedData release_data(const QueryRequest& q, const KeptPath& s) {
  PreparedData prepared = prepare_data(q.data_path, s.input);
  if (prepared.sha256 != s.dataset_sha256) {
    throw InputError(
        fmt::format("{}: SHA-256 {} differs from the data of the kept path ({}); a query "
                    "needs exactly the data file of the release",
                    q.data_path, prepared.sha256, s.dataset_sha256));
  }
  return prepared;
}

// Answers are only given for a path that a ledger accounted for.
std::string check_recorded(const QueryRequest& q, const KeptPath& s) {
  const std::string ledger_path = q.ledger_path.empty() ? s.ledger : q.ledger_path;
  if (!Ledger::open_existing(ledger_path).release_with_path(s.path_id)) {
    throw PrivacyError(
        fmt::format("ledger {} has no release with this kept path (id {}); refusing to "
                    "answer unaccounted queries",
                    ledger_path, s.path_id));
  }
  return ledger_path;
}

// The new points in the release's declared CRS: points in another CRS (q.crs) are transformed to
// it; a CRS for a release without one is refused (never silently mixed).
Evaluation query_points(const QueryRequest& q, const KeptPath& s,
                        const std::optional<gis::GeoFrame>& geo) {
  Evaluation eval = load_evaluation(q.evaluation, s.names);
  if (!q.crs.empty()) {
    require_parameter(geo.has_value(), "crs",
                      fmt::format("crs {}: the kept path was released without a CRS (unitless "
                                  "coordinates); give the points in those coordinates, without crs",
                                  q.crs));
    const gis::Crs from = gis::Crs::parse(q.crs);
    if (from.id() != geo->declared().id()) {
      eval.points = gis::Transformer(from, geo->declared()).apply(eval.points, "query points");
      eval.names = s.names;  // now the release's axes
    }
  }
  check_in_domain(eval, *s.input.domain);
  return eval;
}

}  // namespace

nlohmann::json run_query(const QueryRequest& q) {
  require_parameter(!q.out_csv.empty(), "out_csv", "out_csv (a CSV file) is required");
  KeptPath s = load_kept_path(q.path_file, q.key);
  const PreparedData prepared = release_data(q, s);
  const std::string ledger_path = check_recorded(q, s);
  std::optional<gis::GeoFrame> geo;
  if (!s.input.crs.empty()) geo.emplace(s.input.crs, s.input.model_crs, *s.input.domain);
  const Evaluation eval = query_points(q, s, geo);
  const Points model_points = geo ? geo->to_model(eval.points, "query points") : eval.points;
  const Dataset& data = prepared.data;
  const Posterior posterior(s.kernel, data.X, data.y, {s.r, s.sigma});
  const Granularity lattice = release_granularity(data.n(), s.input.M_Y, s.r, s.sigma, s.eta);
  require(lattice.exponent == s.lattice_exponent,
          fmt::format("{}: inconsistent rounding lattice", q.path_file));
  auto rng = make_rng(q.insecure_seed);
  Eigen::MatrixXd released(eval.points.rows(), static_cast<Eigen::Index>(s.paths.size()));
  for (std::size_t l = 0; l < s.paths.size(); ++l) {
    SamplePath path(posterior, s.eta, s.paths[l].points, s.paths[l].values);
    const Eigen::VectorXd v = path.evaluate(model_points, *rng);
    released.col(static_cast<Eigen::Index>(l)) =
        v.unaryExpr([&](double x) { return snap(x, lattice); });
    s.paths[l] = {path.points(), path.values()};
  }
  // The path now remembers the new answers: save it before the answers leave.
  save_kept_path(q.path_file, s, q.key);
  const double center = s.input.center.value_or(0.0), scale = s.input.scale.value_or(1.0);
  io::write_file_atomic(q.out_csv, draws_csv(eval.points, eval.names, released, released, center,
                                             scale, (s.threshold - center) / scale, 0.5));
  return {{"out", q.out_csv},
          {"points", eval.points.rows()},
          {"paths", s.paths.size()},
          {"path_id", s.path_id},
          {"ledger", ledger_path},
          {"budget_consumed", 0},
          {"crs", geo ? nlohmann::json(geo->declared().id()) : nlohmann::json(nullptr)},
          {"granularity", lattice.lambda},
          {"private", !q.insecure_seed.has_value()}};
}

}  // namespace gpdp::release
