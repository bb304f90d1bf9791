#pragma once
// A release prepared once and drawn many times with seeds: what a utility benchmark measures
// (bench/utility_frontier.py through Python gpdp.mechanisms). From the public parameters of a
// ReleaseRequest, the private records (raw, as parsed) and the evaluation points it runs the
// stages of `gpdp release` that need no ledger and write nothing: validation (the same response
// transform, clipping and domain checks), the accounting (calibration, every part's ε, the
// composed (ε, δ)) and the map mechanism's preparation (map_mechanism.hpp: the factorisations,
// once). Each draw(seed) is then the release `gpdp release --insecure-seed seed` would publish on
// the same records and points: the same MapMechanism, the same snapping, the same released set
// (draw.cpp released_paths). Seeded: NOT private; nothing is recorded in any ledger.
#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "gpdp/release/map_mechanism.hpp"
#include "gpdp/release/stages.hpp"

namespace gpdp::release {

// One seeded release: the fields and what is read from them.
struct MapRelease {
  Eigen::MatrixXd fields;                      // m x L released values (snapped), model units
  Eigen::VectorXd set;                         // the released set: 1/0 per point
  std::optional<Eigen::VectorXd> probability;  // the mechanism's map of P(f ≥ t), if it has one
  std::optional<double> prior_mean;  // the prior mean m₀ the fields are offset by (model units)
  // --mechanism auto: the choice's report (the certificate's "auto" block: the candidates, their
  // predicted accuracy, the chosen one, ε spent choosing vs on the map).
  std::optional<nlohmann::json> choice;
};

struct AutoPlan;

class PreparedRelease {
 public:
  // `request`: the public parameters (mechanism, L, δ, conversion, calibration goal, threshold,
  // vote cutoff, smoothing, sampler) and the input description (domain, M_Y, transform, ...);
  // its data, output, ledger and dataset fields are not used. `records`: X (n x d, declared CRS)
  // and the RAW responses. `evaluation`: the points (declared CRS; a grid for smoothing).
  PreparedRelease(const ReleaseRequest& request, const Eigen::MatrixXd& X,
                  const Eigen::VectorXd& raw_response, Evaluation evaluation);
  PreparedRelease(PreparedRelease&&) noexcept;
  ~PreparedRelease();

  // The composed (ε, δ) of one release, every part included.
  const privacy::Guarantee& guarantee() const { return accounting_.guarantee; }
  const ReleaseAccounting& accounting() const { return accounting_; }
  const ValidatedRelease& validated() const { return validated_; }
  // The certificate's description of the mechanism and its privacy (certify.hpp privacy_json).
  nlohmann::json describe() const;
  // The release drawn with SeededRng(seed). Not reentrant. --mechanism auto: the summary is drawn
  // and the candidate chosen first, as `gpdp release --mechanism auto --insecure-seed seed` does;
  // PrivacyError when it refuses (refuse-if-useless).
  MapRelease draw(std::uint64_t seed);

 private:
  ReleaseRequest request_;
  ValidatedRelease validated_;
  ReleaseAccounting accounting_;
  std::unique_ptr<MapMechanism> mechanism_;
  std::unique_ptr<AutoPlan> plan_;  // --mechanism auto: the plan (mechanism_ is then unused)
};

// The request of a prepared release from JSON objects: `input` the input description (the keys of
// parse_input_config: x, y, domain, M_Y, policy, transform, center, scale, crs, model_crs) and
// `options` the public parameters named like `gpdp release`'s flags without "--"
// (option_values.hpp public_parameter_keys). An unknown or non-public option (data, out, ledger,
// ...) is a ParameterError naming it; `where` prefixes the messages.
ReleaseRequest prepared_request(const nlohmann::json& input, const nlohmann::json& options,
                                const std::string& where);

// Evaluation points given as an array (declared CRS), checked against the declared domain; the
// coordinate names are the covariates'.
Evaluation evaluation_at(const Points& points, const std::vector<std::string>& names,
                         const Box& domain);

}  // namespace gpdp::release
