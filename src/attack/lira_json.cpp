#include "lira_json.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace gpdp::attack {

using nlohmann::json;

namespace {
// JSON text has no infinity: σ = ∞ (covariance-only release) is written as the string "inf".
json number(double v) { return std::isinf(v) && v > 0 ? json("inf") : json(v); }
double number(const json& j) {
  if (j.is_string() && j.get<std::string>() == "inf")
    return std::numeric_limits<double>::infinity();
  return j.get<double>();
}

json to_json_observables(const Observables& o) {
  return {{"f_hat", o.f_hat}, {"log_v_hat", o.log_v_hat}};
}
Observables observables_from_json(const json& j) {
  return {j.at("f_hat").get<std::vector<double>>(), j.at("log_v_hat").get<std::vector<double>>()};
}

json latent_json(const LatentTanhMixture& m) {
  return {{"weight", m.weight}, {"m", m.m}, {"tau", m.tau}, {"s", m.s}, {"nodes", m.nodes}};
}
LatentTanhMixture latent_from_json(const json& j) {
  LatentTanhMixture m;
  j.at("weight").get_to(m.weight);
  j.at("m").get_to(m.m);
  j.at("tau").get_to(m.tau);
  j.at("s").get_to(m.s);
  j.at("nodes").get_to(m.nodes);
  return m;
}

json mixture_json(const std::optional<GaussianMixture2>& g) {
  if (!g) return nullptr;
  return {{"weight", g->weight}, {"mean", g->mean}, {"sd", g->sd}};
}
std::optional<GaussianMixture2> mixture_from_json(const json& j) {
  if (j.is_null()) return std::nullopt;
  GaussianMixture2 g;
  j.at("weight").get_to(g.weight);
  j.at("mean").get_to(g.mean);
  j.at("sd").get_to(g.sd);
  return g;
}
}  // namespace

void to_json(json& j, const ReleaseSetting& r) {
  j = {{"sigma", number(r.sigma)}, {"draws", r.draws}};
}
void from_json(const json& j, ReleaseSetting& r) {
  r.sigma = number(j.at("sigma"));
  j.at("draws").get_to(r.draws);
}

void to_json(json& j, const LiraOptions& o) {
  const ShadowSetting& s = o.shadow;
  j = {{"shadow",
        {{"n", s.n},
         {"noise", s.noise},
         {"kernel", s.kernel.name()},
         {"ell", s.kernel.lengthscale()},
         {"x0", s.x0},
         {"y0", s.y0}}},
       {"sizes", {{"shadow", o.sizes.shadow}, {"eval", o.sizes.eval}}},
       {"delta", o.delta},
       {"keep_observables", o.keep_observables},
       {"roc_points", o.roc_points},
       {"fit",
        {{"nodes", o.fit.nodes},
         {"bins", o.fit.bins},
         {"max_evaluations", o.fit.max_evaluations},
         {"s_min", o.fit.s_min}}}};
}
void from_json(const json& j, LiraOptions& o) {
  const json& s = j.at("shadow");
  s.at("n").get_to(o.shadow.n);
  s.at("noise").get_to(o.shadow.noise);
  o.shadow.kernel = Kernel::from_name(s.at("kernel").get<std::string>(), s.at("ell").get<double>());
  s.at("x0").get_to(o.shadow.x0);
  s.at("y0").get_to(o.shadow.y0);
  j.at("sizes").at("shadow").get_to(o.sizes.shadow);
  j.at("sizes").at("eval").get_to(o.sizes.eval);
  j.at("delta").get_to(o.delta);
  j.at("keep_observables").get_to(o.keep_observables);
  j.at("roc_points").get_to(o.roc_points);
  const json& f = j.at("fit");
  f.at("nodes").get_to(o.fit.nodes);
  f.at("bins").get_to(o.fit.bins);
  f.at("max_evaluations").get_to(o.fit.max_evaluations);
  f.at("s_min").get_to(o.fit.s_min);
}

void to_json(json& j, const SeedOutcome& o) {
  json roc = json::array();
  for (const auto& p : o.roc) roc.push_back({p.fpr, p.tpr});
  const EmpiricalEpsilon& e = o.metrics.epsilon;
  j = {{"release", o.release},
       {"auc", o.metrics.auc},
       {"tpr", o.metrics.tpr},
       {"epsilon",
        {{"estimate", e.estimate},
         {"lower", e.lower},
         {"threshold", e.threshold},
         {"confidence", e.confidence}}},
       {"roc", roc},
       {"model",
        {{"f_in", latent_json(o.model.f_in)},
         {"f_out", latent_json(o.model.f_out)},
         {"v_in", mixture_json(o.model.v_in)},
         {"v_out", mixture_json(o.model.v_out)}}}};
  if (o.shadow_in) j["shadow_in"] = to_json_observables(*o.shadow_in);
  if (o.shadow_out) j["shadow_out"] = to_json_observables(*o.shadow_out);
}
void from_json(const json& j, SeedOutcome& o) {
  j.at("release").get_to(o.release);
  j.at("auc").get_to(o.metrics.auc);
  j.at("tpr").get_to(o.metrics.tpr);
  const json& e = j.at("epsilon");
  e.at("estimate").get_to(o.metrics.epsilon.estimate);
  e.at("lower").get_to(o.metrics.epsilon.lower);
  e.at("threshold").get_to(o.metrics.epsilon.threshold);
  e.at("confidence").get_to(o.metrics.epsilon.confidence);
  o.roc.clear();
  for (const auto& p : j.at("roc")) o.roc.push_back({p.at(0).get<double>(), p.at(1).get<double>()});
  const json& m = j.at("model");
  o.model.f_in = latent_from_json(m.at("f_in"));
  o.model.f_out = latent_from_json(m.at("f_out"));
  o.model.v_in = mixture_from_json(m.at("v_in"));
  o.model.v_out = mixture_from_json(m.at("v_out"));
  if (j.contains("shadow_in")) o.shadow_in = observables_from_json(j.at("shadow_in"));
  if (j.contains("shadow_out")) o.shadow_out = observables_from_json(j.at("shadow_out"));
}

}  // namespace gpdp::attack
