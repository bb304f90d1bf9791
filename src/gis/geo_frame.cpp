#include "gpdp/gis/geo_frame.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"

namespace gpdp::gis {
namespace {

Crs model_crs_of(const Crs& declared, const std::string& model_crs, const Box& domain,
                 std::string& rule) {
  require_parameter(
      domain.dim() == 2, "crs",
      fmt::format("crs {} needs 2-D covariates, the domain has {}", declared.id(), domain.dim()));
  if (!declared.geographic()) {
    if (!model_crs.empty())
      throw ParameterError(
          {"model_crs", "crs"},
          fmt::format("model_crs applies to a geographic crs only; {} is projected "
                      "and is used as it is",
                      declared.id()));
    rule = "the declared CRS is projected: used as it is";
    return declared;
  }
  if (!model_crs.empty()) {
    const Crs m = Crs::parse(model_crs);
    require_parameter(!m.geographic(), "model_crs",
                      fmt::format("model_crs {}: must be a projected CRS", model_crs));
    rule = "given (--model-crs)";
    return m;
  }
  rule = "the WGS 84 UTM zone of the centre of the declared domain";
  return utm_crs_for(domain);
}

}  // namespace

GeoFrame::GeoFrame(const std::string& crs, const std::string& model_crs, const Box& declared_domain)
    : declared_(Crs::parse(crs)),
      model_(model_crs_of(declared_, model_crs, declared_domain, rule_)),
      model_domain_(declared_domain) {
  if (reprojects()) {
    to_model_.emplace(declared_, model_);
    model_domain_ = to_model_->bounds(declared_domain, "domain");
  }
}

Points GeoFrame::to_model(const Points& declared_points, const std::string& what) const {
  return to_model_ ? to_model_->apply(declared_points, what) : declared_points;
}

nlohmann::json GeoFrame::to_json() const {
  return {{"declared", declared_.id()},
          {"declared_name", declared_.name()},
          {"model", model_.id()},
          {"model_name", model_.name()},
          {"model_units", model_.unit()},
          {"model_rule", rule_},
          {"model_domain", model_domain_.to_string()}};
}

}  // namespace gpdp::gis
