// A release prepared once and drawn with seeds (prepared_release.hpp): the stages of `gpdp
// release` without the ledger and the files.
#include "gpdp/release/prepared_release.hpp"

#include <fmt/format.h>

#include "gpdp/release/auto_mechanism.hpp"
#include "gpdp/release/evaluation.hpp"
#include "gpdp/rng.hpp"
#include "option_values.hpp"

namespace gpdp::release {

ReleaseRequest prepared_request(const nlohmann::json& input, const nlohmann::json& options,
                                const std::string& where) {
  require_parameter(input.is_object(), "input",
                    fmt::format("{}: input must be an object (the input config's keys)", where));
  require_parameter(options.is_object(), "options",
                    fmt::format("{}: options must be an object (gpdp release's options)", where));
  const auto& keys = public_parameter_keys();
  for (const auto& [key, value] : options.items()) {
    if (keys.count(key) == 0) {
      throw ParameterError(
          {key}, fmt::format("{}: '{}' is not a public parameter of a release (known: {})", where,
                             key, fmt::join(keys, ", ")));
    }
  }
  ReleaseRequest q;
  q.input = parse_input_config(input.dump(), where + ": input");
  read_public_parameters(OptionValues(options, where + ": options"), q);
  return q;
}

Evaluation evaluation_at(const Points& points, const std::vector<std::string>& names,
                         const Box& domain) {
  require_parameter(points.rows() >= 1, "points", "points: needs at least one point");
  require_parameter(
      points.cols() == static_cast<Eigen::Index>(names.size()), "points",
      fmt::format("points have {} coordinate(s) but the records {}", points.cols(), names.size()));
  require_parameter(points.allFinite(), "points", "points contain NaN or Inf");
  Evaluation e;
  e.points = points;
  e.names = names;
  check_in_domain(e, domain);
  return e;
}

PreparedRelease::PreparedRelease(const ReleaseRequest& request, const Eigen::MatrixXd& X,
                                 const Eigen::VectorXd& raw_response, Evaluation evaluation)
    : request_(request) {
  request_.keep_path.reset();
  request_.insecure_seed.reset();
  check_public_parameters(request_);
  PreparedData prepared = prepare_data_from_arrays(X, raw_response, request_.input);
  validated_ = release::validated(request_, std::move(prepared), std::move(evaluation));
  if (request_.auto_mechanism) {
    plan_ = std::make_unique<AutoPlan>(plan_auto(request_, validated_));
    accounting_ = planned_accounting(*plan_);
    return;
  }
  accounting_ = account_mechanism(request_, validated_);
  mechanism_ = std::make_unique<MapMechanism>(draw_spec(request_, validated_, accounting_));
}

PreparedRelease::PreparedRelease(PreparedRelease&&) noexcept = default;
PreparedRelease::~PreparedRelease() = default;

nlohmann::json PreparedRelease::describe() const {
  nlohmann::json j = privacy_json(request_, accounting_);
  if (plan_) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const auto& c : plan_->candidates) candidates.push_back(c.name);
    j["auto"] = {{"candidates", candidates},
                 {"choose_fraction", plan_->spec.choose_fraction},
                 {"candidate_target_epsilon", plan_->candidate_epsilon},
                 {"note", "the choice is made at each release (draw)"}};
  }
  return j;
}

MapRelease PreparedRelease::draw(std::uint64_t seed) {
  if (plan_) {
    const AutoChoice choice = draw_summary_and_choose(*plan_, seed);
    if (choice.useless && plan_->spec.refuse_if_useless)
      throw PrivacyError("refuse-if-useless: " + choice.report["line"].get<std::string>());
    ChosenRelease chosen = chosen_release(*plan_, choice.winner, choice.report);
    chosen.request.insecure_seed = seed;
    const ReleaseAccounting a = account_mechanism(chosen.request, chosen.validated);
    const ReleasedPaths p = draw_and_snap(chosen.request, chosen.validated, a);
    std::optional<Eigen::VectorXd> probability;
    if (p.probability.size() > 0) probability = p.probability;
    return {p.values, p.in_set, probability, p.prior_mean, choice.report};
  }
  SeededRng rng(seed);
  SnappedDraws draws = mechanism_->draw(rng, false);
  draws.rng = rng.description();
  const ReleasedPaths p = released_paths(request_, validated_, accounting_, std::move(draws));
  std::optional<Eigen::VectorXd> probability;
  if (p.probability.size() > 0) probability = p.probability;
  return {p.values, p.in_set, probability, p.prior_mean, std::nullopt};
}

}  // namespace gpdp::release
