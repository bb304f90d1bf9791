// The draw of a release as plain data (draw_task.hpp): the spec a worker receives, the exact draws
// snapped to the public lattice, and the worker's answer checked on the coordinator.
#include "gpdp/release/draw_task.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/privacy/json.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/map_mechanism.hpp"
#include "gpdp/release/request.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;

json columns_json(const Eigen::MatrixXd& m) {
  json cols = json::array();
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    cols.push_back(std::vector<double>(m.col(j).data(), m.col(j).data() + m.rows()));
  return cols;
}

// A rows x (number of columns) matrix from `columns_json`; InputError naming `what` otherwise.
Eigen::MatrixXd matrix_from_columns(const json& cols, Eigen::Index rows, const std::string& what) {
  require(cols.is_array(), fmt::format("{}: expected an array of columns", what));
  Eigen::MatrixXd m(rows, static_cast<Eigen::Index>(cols.size()));
  for (std::size_t j = 0; j < cols.size(); ++j) {
    const auto col = cols[j].get<std::vector<double>>();
    require(static_cast<Eigen::Index>(col.size()) == rows,
            fmt::format("{}: column {} has {} values, expected {}", what, j + 1, col.size(), rows));
    m.col(static_cast<Eigen::Index>(j)) = Eigen::Map<const Eigen::VectorXd>(col.data(), rows);
  }
  return m;
}

json grid_json(const Grid& grid) {
  json axes = json::array();
  for (const auto& a : grid.axes())
    axes.push_back({{"lo", a.lo}, {"hi", a.hi}, {"count", a.count}});
  return axes;
}

Grid grid_from_json(const json& axes) {
  std::vector<GridAxis> out;
  for (const auto& a : axes)
    out.push_back({a.at("lo").get<double>(), a.at("hi").get<double>(), a.at("count").get<long>()});
  return Grid(out);
}

}  // namespace

json to_json(const DrawSpec& s) {
  json j{{"X", columns_json(s.X)},
         {"y", columns_json(s.y)},
         {"n", s.X.rows()},
         {"mechanism", privacy::draw_json(s.mechanism)},
         {"points", columns_json(s.points)},
         {"m", s.points.rows()},
         {"grid", s.grid ? grid_json(*s.grid) : json(nullptr)},
         {"cells", s.cells},
         {"draws", s.draws},
         {"level", s.level},
         {"grid_map", to_string(s.grid_map)},
         {"prior_mean", s.prior_mean ? json(*s.prior_mean) : json(nullptr)},
         {"prior_mean_noise", s.prior_mean_noise},
         {"unclipped", s.unclipped.size() ? columns_json(s.unclipped) : json(nullptr)},
         {"sampler", to_string(s.sampler)},
         {"insecure_seed", s.insecure_seed ? json(*s.insecure_seed) : json(nullptr)}};
  return j;
}

DrawSpec draw_spec_from_json(const json& j) {
  DrawSpec s;
  const auto n = j.at("n").get<Eigen::Index>();
  s.X = matrix_from_columns(j.at("X"), n, "draw spec X");
  s.y = matrix_from_columns(j.at("y"), n, "draw spec y").col(0);
  s.mechanism = privacy::mechanism_from_draw_json(j.at("mechanism"));
  s.points = matrix_from_columns(j.at("points"), j.at("m").get<Eigen::Index>(), "draw spec points");
  if (!j.at("grid").is_null()) s.grid = grid_from_json(j.at("grid"));
  s.cells = j.at("cells").get<std::vector<Eigen::Index>>();
  s.draws = j.at("draws").get<int>();
  s.level = j.at("level").get<double>();
  s.grid_map = parse_grid_map(j.at("grid_map").get<std::string>());
  if (!j.at("prior_mean").is_null()) s.prior_mean = j.at("prior_mean").get<double>();
  s.prior_mean_noise = j.at("prior_mean_noise").get<double>();
  if (!j.at("unclipped").is_null())
    s.unclipped = matrix_from_columns(j.at("unclipped"), n, "draw spec unclipped").col(0);
  s.sampler = parse_sampler_method(j.at("sampler").get<std::string>());
  if (!j.at("insecure_seed").is_null())
    s.insecure_seed = j.at("insecure_seed").get<std::uint64_t>();
  return s;
}

Granularity lattice_of(const privacy::GpMechanism& m) {
  if (m.kind == privacy::MechanismKind::GridMean) return sum_lattice(m.n, m.M_Y, m.noise_scale);
  if (m.kind == privacy::MechanismKind::Functional)
    return functional_granularity(m.n, m.M_Y, m.r, m.noise_scale);
  return release_granularity(m.n, m.M_Y, m.r, m.sigma, m.eta);
}

SnappedDraws draw_snapped(const DrawSpec& s, bool keep_paths) {
  auto rng = make_rng(s.insecure_seed);
  SnappedDraws out = MapMechanism(s).draw(*rng, keep_paths);
  out.rng = rng_description(s.insecure_seed);
  return out;
}

json to_json(const SnappedDraws& d) {
  json j{{"sampler", d.sampler},
         {"rng", d.rng},
         {"prior_mean", d.prior_mean ? json(*d.prior_mean) : json(nullptr)}};
  if (d.table) {
    j["table"] = to_json(*d.table);
  } else {
    j["values"] = columns_json(d.values);
  }
  return j;
}

SnappedDraws snapped_draws_from_json(const json& j, const DrawSpec& spec,
                                     const Granularity& lattice, const std::string& source) {
  SnappedDraws d;
  try {
    d.sampler = j.at("sampler").get<std::string>();
    d.rng = j.at("rng").get<std::string>();
    if (!j.at("prior_mean").is_null()) {
      d.prior_mean = j.at("prior_mean").get<double>();
      require(std::abs(*d.prior_mean) <= spec.mechanism.M_Y || spec.prior_mean,
              fmt::format("{}: a drawn prior mean outside [−M_Y, M_Y]", source));
    }
    if (spec.mechanism.kind == privacy::MechanismKind::GridMean) {
      // The table is the DP output: checked on its lattices, the map recomputed from it here.
      CellTable t = cell_table_from_json(j.at("table"), source);
      const CellLayout layout = grid_mean_layout(spec.mechanism);
      require(t.layout.counts == layout.counts &&
                  t.layout.domain.to_string() == layout.domain.to_string(),
              fmt::format("{}: the table's cells are not the release's", source));
      check_on_lattices(t, spec.mechanism, source);
      const std::string rng = d.rng;
      d = grid_mean_draws(spec, std::move(t), rng);
    } else {
      d.values = matrix_from_columns(j.at("values"), spec.points.rows(), source);
    }
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: malformed draw result ({})", source, e.what()));
  }
  require(d.values.cols() == spec.draws,
          fmt::format("{}: {} draws returned, {} asked", source, d.values.cols(), spec.draws));
  require(d.rng == rng_description(spec.insecure_seed),
          fmt::format("{}: drawn with '{}', not the generator asked for", source, d.rng));
  if (d.table) return d;  // checked on its lattices above
  const bool on_lattice = d.values.unaryExpr([&](double x) { return snap(x, lattice) == x; }).all();
  require(on_lattice, fmt::format("{}: a returned value is not on the release's lattice", source));
  return d;
}

json draw_task(const json& params) {
  return to_json(draw_snapped(draw_spec_from_json(params), false));
}

std::vector<tasks::TaskKind> release_tasks() { return {{kDrawTaskKind, &draw_task}}; }

}  // namespace gpdp::release
