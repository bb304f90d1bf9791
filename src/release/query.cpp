// `gpdp query`: new points of a kept path, drawn conditionally on everything it has answered.
#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/release/kept_path.hpp"
#include "gpdp/release/lazy_answers.hpp"
#include "gpdp/release/outputs.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/release.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/rng.hpp"
#include "io/atomic_file.hpp"
#include "open_path.hpp"

namespace gpdp::release {

namespace {

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
  require_parameter(!q.out_csv.empty(), "out", "out (a CSV file) is required");
  // One identity, one history (open_path.hpp): the id locked, the file the ledger's generation.
  OpenPath open(q.path_file, q.key, q.ledger_path, q.insecure_seed.has_value());
  KeptPath s = open.state();
  const PreparedData prepared = kept_path_data(q.data_path, s);
  std::optional<gis::GeoFrame> geo;
  if (!s.input.crs.empty()) geo.emplace(s.input.crs, s.input.model_crs, *s.input.domain);
  const Evaluation eval = query_points(q, s, geo);
  const Points model_points = geo ? geo->to_model(eval.points, "query points") : eval.points;
  const KeptPathModel model = kept_path_model(s, prepared, q.path_file);
  const Granularity& lattice = model.lattice;
  auto rng = make_rng(q.insecure_seed);
  const Eigen::MatrixXd released = answer_points(s, model.posterior, lattice, model_points, *rng);
  // The path now remembers the new answers: save it (file and ledger) before the answers leave.
  open.save(s);
  const double center = s.input.center.value_or(0.0), scale = s.input.scale.value_or(1.0);
  ExcursionRule rule;  // the vote of the kept paths at c = 0.5 (no smoothing: scattered points)
  rule.level = (s.threshold - center) / scale;
  rule.cutoff = 0.5;
  io::write_file_atomic(q.out_csv,
                        draws_csv(eval.points, eval.names, released, released,
                                  excursion_set(rule, released), center, scale, rule.level));
  return {{"out", q.out_csv},
          {"points", eval.points.rows()},
          {"paths", s.paths.size()},
          {"path_id", s.path_id},
          {"ledger", open.ledger()},
          {"budget_consumed", 0},
          {"crs", geo ? nlohmann::json(geo->declared().id()) : nlohmann::json(nullptr)},
          {"granularity", lattice.lambda},
          {"private", open.is_private()}};
}

}  // namespace gpdp::release
