#include "gpdp/release/mechanism_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::release {

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
}  // namespace

json mechanism_to_json(const privacy::GpMechanism& m, long count) {
  const bool functional = m.kind == privacy::MechanismKind::Functional;
  json j{{"kind", functional ? kFunctional : kPosteriorSample},
         {"count", count},
         {"dim", m.dim},
         {"n", m.n},
         {"r", m.r},
         {"M_Y", m.M_Y},
         {"lemma", privacy::to_string(m.lemma)}};
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

CountedMechanism mechanism_from_json(const json& j, const std::string& source) {
  try {
    const std::string kind = j.is_object() ? j.value("kind", "") : "";
    if (kind != kPosteriorSample && kind != kFunctional) {
      throw InputError(fmt::format("{}: not a {} or {} mechanism description", source,
                                   kPosteriorSample, kFunctional));
    }
    CountedMechanism c;
    auto& m = c.mechanism;
    c.count = j.at("count").get<long>();
    m.dim = j.at("dim").get<int>();
    m.n = j.at("n").get<long>();
    m.r = j.at("r").get<double>();
    if (kind == kFunctional) {
      m.kind = privacy::MechanismKind::Functional;
      m.noise_scale = j.at("noise_scale").get<double>();
    } else {
      m.sigma = number(j.at("sigma"));
      m.eta = j.at("eta").get<double>();
    }
    m.M_Y = j.at("M_Y").get<double>();
    const std::string lemma = j.at("lemma").get<std::string>();
    m.lemma =
        lemma == "user" ? privacy::SensitivityLemma::User : privacy::parse_sensitivity_lemma(lemma);
    if (j.contains("kernel")) {
      m.kernel = Kernel::from_name(j["kernel"].at("name").get<std::string>(),
                                   j["kernel"].at("ell").get<double>());
    }
    if (j.contains("domain")) m.domain = Box::parse(j["domain"].get<std::string>());
    if (j.contains("kappa")) m.kappa = j["kappa"].get<double>();
    if (j.contains("rkhs_norm")) m.rkhs_norm = j["rkhs_norm"].get<double>();
    if (j.contains("user_Vn")) m.user_Vn = j["user_Vn"].get<double>();
    if (j.contains("user_Delta_n")) m.user_Delta_n = j["user_Delta_n"].get<double>();
    require(c.count >= 1, fmt::format("{}: count must be ≥ 1", source));
    return c;
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: malformed mechanism description ({})", source, e.what()));
  }
}

privacy::Accountant compose(const std::vector<CountedMechanism>& mechanisms) {
  privacy::Accountant acc;
  for (const auto& c : mechanisms) acc.add(privacy::rdp_curve(c.mechanism), c.count);
  return acc;
}

}  // namespace gpdp::release
