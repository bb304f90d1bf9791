#include "release_options.hpp"

#include "gpdp/error.hpp"
#include "gpdp/release/release_options.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

void add_input_flags(CLI::App* app, InputFlags& f) {
  const auto specs = release::input_options();
  add_spec_option(app, specs, "--config", f.config);
  add_spec_option(app, specs, "--domain", f.domain);
  add_spec_option(app, specs, "--M-Y", f.M_Y);
  add_spec_option(app, specs, "--response-policy", f.policy);
  add_spec_option(app, specs, "--transform", f.transform);
  add_spec_option(app, specs, "--center", f.center);
  add_spec_option(app, specs, "--scale", f.scale);
  app->add_flag("--sign", f.sign, find_spec(specs, "--sign").help);
  add_spec_option(app, specs, "--crs", f.crs);
  add_spec_option(app, specs, "--model-crs", f.model_crs);
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
  if (given("--sign")) spec.sign = f.sign;
  if (given("--crs")) spec.crs = f.crs;
  if (given("--model-crs")) spec.model_crs = f.model_crs;
  require(!spec.scale || *spec.scale > 0, "--scale must be positive");
  require(spec.M_Y > 0, "--M-Y must be positive");
  require(spec.domain.has_value() || !require_domain,
          "--domain lo:hi,... is required (the covariate domain is declared, never inferred from "
          "the private data)");
  return spec;
}

}  // namespace gpdp::cli
