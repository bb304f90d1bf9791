#include "gpdp/privacy/json.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/event.hpp"

namespace gpdp::privacy {

using nlohmann::json;

json number_or_inf(double v) { return std::isinf(v) ? json("inf") : json(v); }

double number_or_inf(const json& j) {
  if (j.is_string() && j.get<std::string>() == "inf")
    return std::numeric_limits<double>::infinity();
  return j.get<double>();
}

namespace {
// A description's "kind": the name of each MechanismKind in the records (the GP mechanisms'
// differ from to_string's option names), in the enum's order.
struct DescribedKind {
  MechanismKind kind;
  const char* name;
};
constexpr std::array<DescribedKind, 5> kDescribedKinds{{
    {MechanismKind::PosteriorSample, "gp-posterior-sample"},
    {MechanismKind::Functional, "gp-functional-mean"},
    {MechanismKind::GridMean, "grid-mean"},
    {MechanismKind::PriorMean, "prior-mean"},
    {MechanismKind::LabelDisagreement, "label-disagreement"},
}};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kDescribedKinds.size(); ++i)
    if (static_cast<std::size_t>(kDescribedKinds[i].kind) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kDescribedKinds: one row per MechanismKind, in the enum's order");

const char* described_name(MechanismKind kind) {
  return kDescribedKinds.at(static_cast<std::size_t>(kind)).name;
}

// The kind of a description; InputError naming `source` for none of the table's.
MechanismKind described_kind(const json& j, const std::string& source) {
  const std::string name = j.is_object() ? j.value("kind", "") : "";
  std::string names;
  for (std::size_t i = 0; i < kDescribedKinds.size(); ++i) {
    if (name == kDescribedKinds[i].name) return kDescribedKinds[i].kind;
    names += i == 0 ? "" : i + 1 == kDescribedKinds.size() ? " or " : ", ";
    names += kDescribedKinds[i].name;
  }
  throw InputError(fmt::format("{}: not a {} mechanism description", source, names));
}

// The grid mean, the prior mean and the label disagreement: Gaussian mechanisms on aggregates (no
// kernel, θ or lemma).
GpMechanism aggregate_from_json(const json& j, MechanismKind kind) {
  GpMechanism m;
  m.kind = kind;
  m.n = j.at("n").get<long>();
  m.M_Y = j.at("M_Y").get<double>();
  m.noise_scale = j.at("noise_scale").get<double>();
  if (m.kind == MechanismKind::GridMean) {
    m.count_noise = j.at("count_noise").get<double>();
    m.cells = j.at("cells").get<std::vector<long>>();
  }
  return m;
}

// The fields of a description whose kind is known (described_kind).
GpMechanism described_mechanism(const json& j, MechanismKind kind) {
  if (is_aggregate(kind)) return aggregate_from_json(j, kind);
  GpMechanism m;
  m.kind = kind;
  m.dim = j.at("dim").get<int>();
  m.n = j.at("n").get<long>();
  m.r = j.at("r").get<double>();
  if (kind == MechanismKind::Functional) {
    m.noise_scale = j.at("noise_scale").get<double>();
  } else {
    m.sigma = number_or_inf(j.at("sigma"));
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
  return m;
}

InputError malformed(const std::string& source, const json::exception& ex) {
  return InputError(fmt::format("{}: malformed mechanism description ({})", source, ex.what()));
}

}  // namespace

json noise_json(const GpMechanism& m) {
  json j = json::object();
  if (has_noise_scale(m.kind)) j["noise_scale"] = m.noise_scale;
  if (m.kind == MechanismKind::GridMean) {
    j["count_noise"] = grid_mean_count_noise(m);
    j["cells"] = m.cells;
  }
  return j;
}

json to_json(const GpMechanism& m) {
  if (is_aggregate(m.kind)) {
    json j{{"kind", described_name(m.kind)}, {"n", m.n}, {"M_Y", m.M_Y}};
    j.update(noise_json(m));
    return j;
  }
  const bool functional = m.kind == MechanismKind::Functional;
  json j{{"kind", described_name(m.kind)}, {"dim", m.dim}, {"n", m.n}, {"r", m.r}, {"M_Y", m.M_Y},
         {"lemma", to_string(m.lemma)}};
  if (functional) {
    j.update(noise_json(m));
  } else {
    j["sigma"] = number_or_inf(m.sigma);
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

GpMechanism mechanism_from_json(const json& j, const std::string& source) {
  try {
    return described_mechanism(j, described_kind(j, source));
  } catch (const json::exception& ex) {
    throw malformed(source, ex);
  }
}

json to_json(const Event& e) {
  json j = to_json(e.mechanism);
  j["count"] = e.count;
  return j;
}

Event event_from_json(const json& j, const std::string& source) {
  try {
    const MechanismKind kind = described_kind(j, source);
    Event e;
    e.count = j.at("count").get<long>();
    e.mechanism = described_mechanism(j, kind);
    require(e.count >= 1, fmt::format("{}: count must be ≥ 1", source));
    return e;
  } catch (const json::exception& ex) {
    throw malformed(source, ex);
  }
}

json draw_json(const GpMechanism& m) {
  return {{"kind", to_string(m.kind)},
          {"kernel", m.kernel->name()},
          {"ell", m.kernel->lengthscale()},
          {"r", m.r},
          {"sigma", m.sigma},
          {"eta", m.eta},
          {"noise_scale", m.noise_scale},
          {"count_noise", m.count_noise},
          {"cells", m.cells},
          {"domain", m.domain ? json(m.domain->to_string()) : json(nullptr)},
          {"dim", m.dim},
          {"n", m.n},
          {"M_Y", m.M_Y}};
}

GpMechanism mechanism_from_draw_json(const json& j) {
  GpMechanism m;
  m.kind = parse_mechanism_kind(j.at("kind").get<std::string>());
  m.kernel = Kernel::from_name(j.at("kernel").get<std::string>(), j.at("ell").get<double>());
  m.r = j.at("r").get<double>();
  m.sigma = j.at("sigma").get<double>();
  m.eta = j.at("eta").get<double>();
  m.noise_scale = j.at("noise_scale").get<double>();
  m.count_noise = j.at("count_noise").get<double>();
  m.cells = j.at("cells").get<std::vector<long>>();
  if (!j.at("domain").is_null()) m.domain = Box::parse(j.at("domain").get<std::string>());
  m.dim = j.at("dim").get<int>();
  m.n = j.at("n").get<long>();
  m.M_Y = j.at("M_Y").get<double>();
  return m;
}

json to_json(const Guarantee& g) {
  return {{"epsilon", g.epsilon},
          {"delta", g.delta},
          {"alpha_star", g.alpha},
          {"rdp_at_alpha_star", g.rdp},
          {"alpha_max", number_or_inf(g.alpha_max)},
          {"conversion", to_string(g.conversion)},
          {"conversion_citation", conversion_citation(g.conversion)},
          {"note", g.note()}};
}

json brief_json(const Guarantee& g) {
  return {{"epsilon", g.epsilon},
          {"delta", g.delta},
          {"alpha", g.alpha},
          {"rdp", g.rdp},
          {"conversion", to_string(g.conversion)}};
}

}  // namespace gpdp::privacy
