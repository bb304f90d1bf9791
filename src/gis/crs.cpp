#include "gpdp/gis/crs.hpp"

#include <fmt/format.h>
#include <proj.h>

#include <cmath>
#include <regex>

#include "gpdp/error.hpp"

namespace gpdp::gis {
namespace {

// A PROJ context that logs nothing (errors are reported through our exceptions).
std::shared_ptr<PJ_CONTEXT> context() {
  std::shared_ptr<PJ_CONTEXT> ctx(proj_context_create(), proj_context_destroy);
  if (!ctx) throw Error("PROJ: could not create a context");
  proj_log_level(ctx.get(), PJ_LOG_NONE);
  return ctx;
}

std::string last_error(PJ_CONTEXT* ctx) {
  const int e = proj_context_errno(ctx);
  return e == 0 ? std::string("unknown reason") : proj_context_errno_string(ctx, e);
}

struct PjDeleter {
  void operator()(PJ* p) const { proj_destroy(p); }
};
using PjPtr = std::unique_ptr<PJ, PjDeleter>;

std::string text_or(const char* s, const std::string& fallback) { return s ? s : fallback; }

}  // namespace

struct Crs::Impl {
  std::shared_ptr<PJ_CONTEXT> ctx;
  PjPtr crs;
};

Crs::Crs(std::shared_ptr<const Impl> impl, std::string id)
    : impl_(std::move(impl)), id_(std::move(id)) {}

Crs Crs::parse(const std::string& text) {
  static const std::regex auth_code("[A-Za-z][A-Za-z0-9_]*:[A-Za-z0-9_.]+");
  require(std::regex_match(text, auth_code),
          fmt::format("crs '{}': give the coordinate reference system as AUTH:CODE, e.g. "
                      "EPSG:28992 (projected) or EPSG:4326 (longitude/latitude)",
                      text));
  auto impl = std::make_shared<Impl>();
  impl->ctx = context();
  impl->crs.reset(proj_create(impl->ctx.get(), text.c_str()));
  require(impl->crs != nullptr,
          fmt::format("crs '{}': PROJ does not know it ({})", text, last_error(impl->ctx.get())));
  const PJ_TYPE type = proj_get_type(impl->crs.get());
  const bool projected = type == PJ_TYPE_PROJECTED_CRS;
  const bool geographic = type == PJ_TYPE_GEOGRAPHIC_2D_CRS;
  require(projected || geographic,
          fmt::format("crs '{}' ({}): not a 2-D projected or geographic coordinate reference "
                      "system (3-D, vertical, compound and geocentric systems are not supported)",
                      text, text_or(proj_get_name(impl->crs.get()), "?")));
  const PjPtr cs(proj_crs_get_coordinate_system(impl->ctx.get(), impl->crs.get()));
  require(cs && proj_cs_get_axis_count(impl->ctx.get(), cs.get()) == 2,
          fmt::format("crs '{}': needs exactly 2 axes", text));
  return Crs(std::move(impl), text);
}

std::string Crs::name() const { return text_or(proj_get_name(impl_->crs.get()), id_); }

bool Crs::geographic() const {
  return proj_get_type(impl_->crs.get()) == PJ_TYPE_GEOGRAPHIC_2D_CRS;
}

std::string Crs::unit() const {
  const PjPtr cs(proj_crs_get_coordinate_system(impl_->ctx.get(), impl_->crs.get()));
  const char* unit = nullptr;
  proj_cs_get_axis_info(impl_->ctx.get(), cs.get(), 0, nullptr, nullptr, nullptr, nullptr, &unit,
                        nullptr, nullptr);
  return text_or(unit, "unknown");
}

std::string Crs::wkt() const {
  return text_or(proj_as_wkt(impl_->ctx.get(), impl_->crs.get(), PJ_WKT2_2019, nullptr), "");
}

Box Crs::area_of_use() const {
  double w = -180, s = -90, e = 180, n = 90;
  proj_get_area_of_use(impl_->ctx.get(), impl_->crs.get(), &w, &s, &e, &n, nullptr);
  return Box((Eigen::VectorXd(2) << w, s).finished(), (Eigen::VectorXd(2) << e, n).finished());
}

struct Transformer::Impl {
  std::shared_ptr<PJ_CONTEXT> ctx;
  PjPtr op;
  std::string from, to;
};

Transformer::Transformer(const Crs& from, const Crs& to) {
  auto impl = std::make_shared<Impl>();
  impl->ctx = context();
  impl->from = from.id();
  impl->to = to.id();
  const PjPtr op(proj_create_crs_to_crs_from_pj(impl->ctx.get(), from.impl_->crs.get(),
                                                to.impl_->crs.get(), nullptr, nullptr));
  require(op != nullptr, fmt::format("PROJ has no transformation from {} to {} ({})", from.id(),
                                     to.id(), last_error(impl->ctx.get())));
  impl->op.reset(proj_normalize_for_visualization(impl->ctx.get(), op.get()));
  require(impl->op != nullptr,
          fmt::format("PROJ could not order the axes from {} to {}", from.id(), to.id()));
  impl_ = std::move(impl);
}

Points Transformer::apply(const Points& xy, const std::string& what) const {
  require(xy.cols() == 2,
          fmt::format("{}: a 2-D CRS needs 2 coordinates, got {}", what, xy.cols()));
  Points out(xy.rows(), 2);
  for (Eigen::Index i = 0; i < xy.rows(); ++i) {
    PJ_COORD c = proj_coord(xy(i, 0), xy(i, 1), 0, 0);
    c = proj_trans(impl_->op.get(), PJ_FWD, c);
    require(std::isfinite(c.xy.x) && std::isfinite(c.xy.y),
            fmt::format("{}: point {} ({}, {}) cannot be transformed from {} to {}", what, i + 1,
                        xy(i, 0), xy(i, 1), impl_->from, impl_->to));
    out(i, 0) = c.xy.x;
    out(i, 1) = c.xy.y;
  }
  return out;
}

Box Transformer::bounds(const Box& box, const std::string& what) const {
  require(box.dim() == 2, fmt::format("{}: a 2-D CRS needs a 2-D box", what));
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  const int ok =
      proj_trans_bounds(impl_->ctx.get(), impl_->op.get(), PJ_FWD, box.lower()(0), box.lower()(1),
                        box.upper()(0), box.upper()(1), &x0, &y0, &x1, &y1, 21);
  require(ok != 0 && std::isfinite(x0) && std::isfinite(y0) && std::isfinite(x1) &&
              std::isfinite(y1) && x0 < x1 && y0 < y1,
          fmt::format("{} {}: PROJ cannot transform it from {} to {} ({})", what, box.to_string(),
                      impl_->from, impl_->to, last_error(impl_->ctx.get())));
  return Box((Eigen::VectorXd(2) << x0, y0).finished(), (Eigen::VectorXd(2) << x1, y1).finished());
}

Crs utm_crs_for(const Box& lonlat_domain) {
  require(lonlat_domain.dim() == 2, "a longitude/latitude domain has 2 dimensions");
  const double lon = 0.5 * (lonlat_domain.lower()(0) + lonlat_domain.upper()(0));
  const double lat = 0.5 * (lonlat_domain.lower()(1) + lonlat_domain.upper()(1));
  require(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90,
          fmt::format("domain {}: its centre ({}, {}) is not a longitude/latitude",
                      lonlat_domain.to_string(), lon, lat));
  const int zone = std::min(60, 1 + static_cast<int>(std::floor((lon + 180) / 6)));
  return Crs::parse(fmt::format("EPSG:{}", (lat >= 0 ? 32600 : 32700) + zone));
}

}  // namespace gpdp::gis
