#include "gpdp/privacy/event.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::privacy {

using nlohmann::json;

namespace {
// JSON has no infinity: σ = ∞ (covariance-only limit) is written as the string "inf".
json number(double v) { return std::isinf(v) ? json("inf") : json(v); }
double number(const json& j) {
  if (j.is_string() && j.get<std::string>() == "inf")
    return std::numeric_limits<double>::infinity();
  return j.get<double>();
}
}  // namespace

namespace {
constexpr const char* kPosteriorSample = "gp-posterior-sample";
constexpr const char* kFunctional = "gp-functional-mean";
constexpr const char* kGridMean = "grid-mean";
constexpr const char* kPriorMean = "prior-mean";

// The grid mean and the prior mean: Gaussian mechanisms on aggregates (no kernel, θ or lemma).
json aggregate_json(const Event& e) {
  const GpMechanism& m = e.mechanism;
  json j{{"kind", m.kind == MechanismKind::GridMean ? kGridMean : kPriorMean},
         {"count", e.count},
         {"n", m.n},
         {"M_Y", m.M_Y},
         {"noise_scale", m.noise_scale}};
  if (m.kind == MechanismKind::GridMean) {
    j["count_noise"] = grid_mean_count_noise(m);
    j["cells"] = m.cells;
  }
  return j;
}

Event aggregate_from_json(const json& j, const std::string& kind) {
  Event e;
  GpMechanism& m = e.mechanism;
  m.kind = kind == kGridMean ? MechanismKind::GridMean : MechanismKind::PriorMean;
  e.count = j.at("count").get<long>();
  m.n = j.at("n").get<long>();
  m.M_Y = j.at("M_Y").get<double>();
  m.noise_scale = j.at("noise_scale").get<double>();
  if (m.kind == MechanismKind::GridMean) {
    m.count_noise = j.at("count_noise").get<double>();
    m.cells = j.at("cells").get<std::vector<long>>();
  }
  return e;
}

}  // namespace

json to_json(const Event& e) {
  const GpMechanism& m = e.mechanism;
  if (m.kind == MechanismKind::GridMean || m.kind == MechanismKind::PriorMean)
    return aggregate_json(e);
  const bool functional = m.kind == MechanismKind::Functional;
  json j{{"kind", functional ? kFunctional : kPosteriorSample},
         {"count", e.count},
         {"dim", m.dim},
         {"n", m.n},
         {"r", m.r},
         {"M_Y", m.M_Y},
         {"lemma", to_string(m.lemma)}};
  if (functional) {
    j["noise_scale"] = m.noise_scale;
  } else {
    j["sigma"] = number(m.sigma);
    j["eta"] = m.eta;
  }
  if (m.kernel) j["kernel"] = {{"name", m.kernel->name()}, {"ell", m.kernel->lengthscale()}};
  if (m.domain) j["domain"] = m.domain->to_string();
  if (m.kappa) j["kappa"] = *m.kappa;
  if (m.rkhs_norm >= 0) j["rkhs_norm"] = m.rkhs_norm;
  if (m.user_Vn) j["user_Vn"] = *m.user_Vn;
  if (m.user_Delta_n) j["user_Delta_n"] = *m.user_Delta_n;
  return j;
}

Event event_from_json(const json& j, const std::string& source) {
  try {
    const std::string kind = j.is_object() ? j.value("kind", "") : "";
    if (kind == kGridMean || kind == kPriorMean) {
      Event e = aggregate_from_json(j, kind);
      require(e.count >= 1, fmt::format("{}: count must be ≥ 1", source));
      return e;
    }
    if (kind != kPosteriorSample && kind != kFunctional) {
      throw InputError(fmt::format("{}: not a {}, {}, {} or {} mechanism description", source,
                                   kPosteriorSample, kFunctional, kGridMean, kPriorMean));
    }
    Event e;
    GpMechanism& m = e.mechanism;
    e.count = j.at("count").get<long>();
    m.dim = j.at("dim").get<int>();
    m.n = j.at("n").get<long>();
    m.r = j.at("r").get<double>();
    if (kind == kFunctional) {
      m.kind = MechanismKind::Functional;
      m.noise_scale = j.at("noise_scale").get<double>();
    } else {
      m.sigma = number(j.at("sigma"));
      m.eta = j.at("eta").get<double>();
    }
    m.M_Y = j.at("M_Y").get<double>();
    const std::string lemma = j.at("lemma").get<std::string>();
    m.lemma = lemma == "user" ? SensitivityLemma::User : parse_sensitivity_lemma(lemma);
    if (j.contains("kernel")) {
      m.kernel = Kernel::from_name(j["kernel"].at("name").get<std::string>(),
                                   j["kernel"].at("ell").get<double>());
    }
    if (j.contains("domain")) m.domain = Box::parse(j["domain"].get<std::string>());
    if (j.contains("kappa")) m.kappa = j["kappa"].get<double>();
    if (j.contains("rkhs_norm")) m.rkhs_norm = j["rkhs_norm"].get<double>();
    if (j.contains("user_Vn")) m.user_Vn = j["user_Vn"].get<double>();
    if (j.contains("user_Delta_n")) m.user_Delta_n = j["user_Delta_n"].get<double>();
    require(e.count >= 1, fmt::format("{}: count must be ≥ 1", source));
    return e;
  } catch (const json::exception& ex) {
    throw InputError(fmt::format("{}: malformed mechanism description ({})", source, ex.what()));
  }
}

}  // namespace gpdp::privacy
