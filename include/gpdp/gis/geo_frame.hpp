#pragma once
// The coordinate systems of one release (or preview, or query): the DECLARED CRS of the
// covariates, domain, grid, mask and points files (`--crs AUTH:CODE`, 2-D), and the projected
// MODEL CRS in which kernel distances are measured.
//   * declared projected (e.g. EPSG:28992): the model CRS is the declared one; coordinates are
//     used as they are (kernel distances in its units); --model-crs is refused.
//   * declared geographic (e.g. EPSG:4326): covariates and points are projected by PROJ before
//     modelling to `--model-crs` when given (it must be projected), else to the WGS 84 UTM zone of
//     the centre of the DECLARED domain (gis::utm_crs_for), never chosen from the data.
// The mechanism's domain is then the smallest box of the model CRS holding the image of the
// declared domain (PROJ's densified bounds), so every projected point lies in it.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "gpdp/domain.hpp"
#include "gpdp/gis/crs.hpp"
#include "gpdp/kernel.hpp"

namespace gpdp::gis {

class GeoFrame {
 public:
  // InputError for a bad CRS, a --model-crs with a projected --crs or one that is not projected,
  // or a domain PROJ cannot transform.
  GeoFrame(const std::string& crs, const std::string& model_crs, const Box& declared_domain);

  const Crs& declared() const { return declared_; }
  const Crs& model() const { return model_; }
  bool reprojects() const { return model_.id() != declared_.id(); }
  const Box& model_domain() const { return model_domain_; }
  // Points of the declared CRS in the model CRS (unchanged when nothing is reprojected).
  Points to_model(const Points& declared_points, const std::string& what) const;
  // For the certificate: declared and model CRS (id and name), the rule that chose the model CRS,
  // and the model domain.
  nlohmann::json to_json() const;

 private:
  Crs declared_;
  std::string rule_;  // set while model_ is chosen (declared before it)
  Crs model_;
  Box model_domain_;
  std::optional<Transformer> to_model_;
};

}  // namespace gpdp::gis
