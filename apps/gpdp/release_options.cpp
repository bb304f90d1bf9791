#include "release_options.hpp"

#include "gpdp/error.hpp"

namespace gpdp::cli {

void add_input_flags(CLI::App* app, InputFlags& f) {
  app->add_option("--config", f.config,
                  "JSON input description: x, y, domain, M_Y, policy, transform, center, scale "
                  "(flags given on the command line win)");
  app->add_option("--domain", f.domain,
                  "Declared covariate domain lo:hi per axis, e.g. 0:1,0:1 (public; never inferred "
                  "from the data; a covariate outside it is an error)");
  app->add_option("--M-Y", f.M_Y, "Response bound M_Y: the guarantee needs |y| ≤ M_Y")
      ->capture_default_str();
  app->add_option("--response-policy", f.policy,
                  "clip (clip to ±M_Y and report the count) or reject (error on |y| > M_Y)")
      ->capture_default_str();
  app->add_option("--transform", f.transform,
                  "Public response transform before centring: none or log")
      ->capture_default_str();
  app->add_option("--center", f.center, "Public centring C: y ← (y − C)/B before clipping")
      ->capture_default_str();
  app->add_option("--scale", f.scale, "Public scale B > 0: y ← (y − C)/B before clipping")
      ->capture_default_str();
  app->add_option("--crs", f.crs,
                  "Coordinate reference system of the covariates, domain, grid, mask and points "
                  "(AUTH:CODE, 2-D, e.g. EPSG:28992; geographic ones such as EPSG:4326 are "
                  "projected before modelling). Without it coordinates are unitless and no RFC "
                  "7946 GeoJSON is written");
  app->add_option("--model-crs", f.model_crs,
                  "With a geographic --crs: the projected CRS to model in (default: the UTM zone "
                  "of the domain's centre)");
}

release::InputSpec to_input_spec(const DataOptions& data, const InputFlags& f, const CLI::App* app,
                                 bool require_domain) {
  release::InputSpec spec;
  if (!f.config.empty()) spec = release::load_input_config(f.config, spec);
  const auto given = [app](const char* flag) { return app->count(flag) > 0; };
  if (given("--x")) spec.x_columns = data.x_columns;
  if (given("--y")) spec.y_column = data.y_column;
  if (given("--domain")) spec.domain = Box::parse(f.domain);
  if (given("--M-Y")) spec.M_Y = f.M_Y;
  if (given("--response-policy")) spec.policy = release::parse_response_policy(f.policy);
  if (given("--transform")) spec.transform = release::parse_response_transform(f.transform);
  if (given("--center")) spec.center = f.center;
  if (given("--scale")) spec.scale = f.scale;
  if (given("--crs")) spec.crs = f.crs;
  if (given("--model-crs")) spec.model_crs = f.model_crs;
  require(!spec.scale || *spec.scale > 0, "--scale must be positive");
  require(spec.M_Y > 0, "--M-Y must be positive");
  require(spec.domain.has_value() || !require_domain,
          "--domain lo:hi,... is required (the covariate domain is declared, never inferred from "
          "the private data)");
  return spec;
}

void add_path_key_flags(CLI::App* app, PathKeyFlags& f) {
  app->add_option("--path-key", f.key_file,
                  "Key file (32 bytes or 64 hex digits) encrypting the kept path");
  app->add_option("--path-passphrase-env", f.passphrase_env,
                  "Name of an environment variable holding a passphrase for the kept path");
}

release::PathKey to_path_key(const PathKeyFlags& f) {
  require(f.key_file.empty() || f.passphrase_env.empty(),
          "give --path-key or --path-passphrase-env, not both");
  if (!f.key_file.empty()) return release::key_from_file(f.key_file);
  if (!f.passphrase_env.empty()) return release::key_from_env(f.passphrase_env);
  return {};
}

}  // namespace gpdp::cli
