// Stage 4 of a release: every output file rendered in memory from the released paths only:
// draws.csv; with a grid the map; with a 2-D grid the polygons of the released set (cell-based) and
// map.tif (Cloud-Optimized GeoTIFF).
#include <fmt/format.h>

#include <cmath>

#include "gpdp/gis/excursion_polygons.hpp"
#include "gpdp/gis/geotiff.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/outputs.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/stages.hpp"
#include "gpdp/version.hpp"

namespace gpdp::release {

namespace {

// cells.csv: the grid mean's released table (its DP output) and what the map made of it: per cell
// its bounds and centre (model CRS), the noisy sum and count, and for the cells the map used
// (kept = 1) the clamped mean and its noise variance (model units).
std::string cells_csv(const CellTable& t, const privacy::GpMechanism& m,
                      const ValidatedRelease& v) {
  const CellPosterior p = cell_posterior(t, m);
  const auto& names = v.prepared.data.covariate_names;
  std::string out = "cell,";
  for (const auto& n : names) out += fmt::format("{0}_lo,{0}_hi,{0}_centre,", io::csv_field(n));
  out += "noisy_sum,noisy_count,kept,mean,variance\n";
  std::vector<long> kept_row(static_cast<std::size_t>(t.layout.size()), -1);
  for (std::size_t j = 0; j < p.kept.size(); ++j)
    kept_row[static_cast<std::size_t>(p.kept[j])] = static_cast<long>(j);
  for (Eigen::Index k = 0; k < t.layout.size(); ++k) {
    const Box b = t.layout.bounds(k);
    out += fmt::format("{},", k + 1);
    for (int a = 0; a < b.dim(); ++a) {
      out +=
          fmt::format("{},{},{},", io::format_number(b.lower()(a)), io::format_number(b.upper()(a)),
                      io::format_number(0.5 * (b.lower()(a) + b.upper()(a))));
    }
    out += io::format_number(t.sums(k)) + "," + io::format_number(t.counts(k));
    const long j = kept_row[static_cast<std::size_t>(k)];
    out += j < 0 ? ",0,,\n"
                 : fmt::format(",1,{},{}\n", io::format_number(p.means(j)),
                               io::format_number(p.variances(j)));
  }
  return out;
}

// The released set at each evaluated point, as draws.csv's in_set column has it (the vote set of
// release/postprocess.hpp; for one path: the path ≥ level).
std::vector<char> released_set(const Eigen::VectorXd& in) {
  std::vector<char> out(static_cast<std::size_t>(in.size()));
  for (Eigen::Index i = 0; i < in.size(); ++i) out[static_cast<std::size_t>(i)] = in(i) > 0;
  return out;
}

// The released set on the whole grid (outside a mask: not in the set).
std::vector<char> set_on_grid(const Evaluation& eval, const std::vector<char>& in_set) {
  if (!eval.masked()) return in_set;
  std::vector<char> full(static_cast<std::size_t>(eval.grid->size()), 0);
  for (std::size_t i = 0; i < eval.cells.size(); ++i)
    full[static_cast<std::size_t>(eval.cells[i])] = in_set[i];
  return full;
}

// map.tif's bands: the released value(s) in response units (as in draws.csv), for L > 1 the vote
// fraction, for the grid mean its probability map, and the in-set mask (1/0); NaN outside a mask.
std::vector<gis::RasterBand> raster_bands(const ValidatedRelease& v, const ReleasedPaths& p,
                                          const std::vector<char>& in_set) {
  const Evaluation& eval = v.evaluation;
  const std::string& response = v.prepared.data.response_name;
  auto column = [](const Eigen::VectorXd& x) { return std::vector<double>(x.begin(), x.end()); };
  std::vector<gis::RasterBand> bands;
  const auto L = p.values.cols();
  for (Eigen::Index l = 0; l < L; ++l) {
    const Eigen::VectorXd value =
        eval.on_grid((p.values.col(l).array() * v.scale + v.center).matrix());
    bands.push_back(
        {L == 1 ? fmt::format("released value ({}, response units)", response)
                : fmt::format("released value, path {} ({}, response units)", l + 1, response),
         column(value)});
  }
  if (L > 1) {
    bands.push_back(
        {"vote fraction (paths ≥ t)", column(eval.on_grid(vote_fraction(p.set_fields, v.level)))});
  }
  if (p.probability.size() > 0)
    bands.push_back(
        {"P(f ≥ t) of the grid mean's post-processing GP", column(eval.on_grid(p.probability))});
  const Eigen::VectorXd evaluated =
      eval.on_grid(Eigen::VectorXd::Ones(static_cast<Eigen::Index>(eval.points.rows())));
  std::vector<double> mask(in_set.size());
  for (std::size_t k = 0; k < in_set.size(); ++k)
    mask[k] = std::isnan(evaluated(static_cast<Eigen::Index>(k))) ? std::nan("") : in_set[k];
  bands.push_back({"in_set (1 = in the released set, 0 = not)", mask});
  return bands;
}

// 2-D grid: the map with the released set's outline, the set's polygons and map.tif.
void render_2d(const ReleaseRequest& q, const ValidatedRelease& v, const ReleasedPaths& p,
               const MapText& text, Files& files) {
  const Evaluation& eval = v.evaluation;
  const std::string format = to_string(q.image_format);
  const std::vector<char> in_set = set_on_grid(eval, released_set(p.in_set));
  const auto polygons = gis::set_polygons(in_set, *eval.grid);
  const std::string smoothed =
      q.smooth > 0 ? fmt::format(" (smoothed, bandwidth {})", q.smooth) : "";
  if (q.draws == 1) {
    const Eigen::VectorXd values =
        eval.on_grid((p.set_fields.col(0).array() * v.scale + v.center).matrix());
    files["map." + format] =
        render_map(values, *eval.grid, q.threshold,
                   {text.title,
                    fmt::format("{}{}; outline: released set {{{} ≥ {}}}",
                                p.table ? "grid mean: the GP mean of the noisy cell means"
                                        : "one posterior sample path",
                                smoothed, p.table ? "map" : "path", q.threshold),
                    text.value_label, ""},
                   format, &polygons);
  } else {
    const Eigen::VectorXd votes = eval.on_grid(vote_fraction(p.set_fields, v.level));
    files["map." + format] = render_map(
        votes, *eval.grid, q.vote_cutoff,
        {text.title,
         fmt::format("fraction of {} paths ≥ t = {}{}; outline: released set {{fraction ≥ {}}}",
                     q.draws, q.threshold, smoothed, q.vote_cutoff),
         "vote fraction", ""},
        format, &polygons);
  }
  const std::string description =
      q.draws == 1 ? fmt::format("{{released path ≥ {}}}", q.threshold)
                   : fmt::format("{{vote fraction of {} released paths ≥ {} is ≥ {}}}", q.draws,
                                 q.threshold, q.vote_cutoff);
  std::optional<gis::Crs> crs;
  if (v.geo) crs = v.geo->declared();
  auto [name, content] =
      excursion_file(polygons, crs, {{"description", description}, {"release_uid", v.release_uid}});
  files[name] = std::move(content);
  files["map.tif"] = gis::cog_geotiff(
      *eval.grid, crs, raster_bands(v, p, in_set),
      {{"GPDP_RELEASE_UID", v.release_uid},
       {"GPDP_VERSION", kVersion},
       {"GPDP_RELEASED_SET", description},
       {"GPDP_CERTIFICATE", "certificate.json beside this file lists it with its SHA-256"}});
}

}  // namespace

Files render(const ReleaseRequest& q, const ValidatedRelease& v, const ReleaseAccounting& a,
             const ReleasedPaths& p) {
  const Evaluation& eval = v.evaluation;
  Files files;
  files["draws.csv"] = draws_csv(eval.points, eval.names, p.values, p.set_fields, p.in_set,
                                 v.center, v.scale, v.level, p.probability);
  if (p.table) files["cells.csv"] = cells_csv(*p.table, a.mechanism, v);
  if (!eval.grid) return files;
  const MapText text{
      fmt::format("gpdp release{}: ε = {:.3g}, δ = {:.2g} ({}), L = {}",
                  q.insecure_seed ? " (NOT PRIVATE: seeded)" : "", a.guarantee.epsilon, q.delta,
                  privacy::to_string(q.conversion), q.draws),
      "",
      fmt::format("{} ({}{})", p.table ? "released map" : "released path",
                  v.prepared.data.response_name,
                  q.input.transform == ResponseTransform::Log ? ", log" : ""),
      ""};
  if (eval.grid->dim() == 2) {
    render_2d(q, v, p, text, files);
    return files;
  }
  const Eigen::MatrixXd values = eval.on_grid((p.set_fields.array() * v.scale + v.center).matrix());
  files["map." + to_string(q.image_format)] = render_map(
      values, *eval.grid, q.threshold,
      {text.title,
       p.table ? "grid mean: the GP mean of the noisy cell means" : "released sample path(s)",
       text.value_label, ""},
      to_string(q.image_format));
  return files;
}

}  // namespace gpdp::release
