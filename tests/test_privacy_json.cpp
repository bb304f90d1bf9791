// The JSON forms of the privacy types (privacy/json.hpp): the exact text of the event record the
// ledger stores, the round trips that readers rely on, and the variants each writer prints.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/json.hpp"

using namespace gpdp;
using namespace gpdp::privacy;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

GpMechanism posterior_sample() {
  GpMechanism m;
  m.kernel = Kernel::exponential(0.5);
  m.n = 100;
  m.r = 0.5;
  m.sigma = kInf;  // the covariance-only limit: written "inf"
  m.eta = 0.25;
  m.kappa = 0.1;
  return m;
}

GpMechanism grid_mean() {
  GpMechanism m;
  m.kind = MechanismKind::GridMean;
  m.n = 100;
  m.noise_scale = 2.0;
  m.cells = {3, 4};
  return m;
}

}  // namespace

TEST(PrivacyJson, EventRecordTextIsFixed) {
  // The ledger keeps these records: their text may not drift.
  EXPECT_EQ(to_json(Event{grid_mean(), 1}).dump(),
            R"({"M_Y":1.0,"cells":[3,4],"count":1,"count_noise":2.0,"kind":"grid-mean",)"
            R"("n":100,"noise_scale":2.0})");
  EXPECT_EQ(to_json(Event{posterior_sample(), 3}).dump(),
            R"({"M_Y":1.0,"count":3,"dim":1,"eta":0.25,"kappa":0.1,)"
            R"("kernel":{"ell":0.5,"name":"exp"},"kind":"gp-posterior-sample",)"
            R"("lemma":"b1-sharp","n":100,"r":0.5,"sigma":"inf"})");
}

TEST(PrivacyJson, EventIsTheMechanismPlusItsCount) {
  for (const GpMechanism& m : {posterior_sample(), grid_mean()}) {
    nlohmann::json j = to_json(m);
    EXPECT_FALSE(j.contains("count"));
    j["count"] = 2;
    EXPECT_EQ(j, to_json(Event{m, 2}));
    const Event e = event_from_json(j, "t");
    EXPECT_EQ(e.count, 2);
    EXPECT_EQ(to_json(e.mechanism), to_json(m));
    EXPECT_EQ(to_json(mechanism_from_json(to_json(m), "t")), to_json(m));
  }
  EXPECT_EQ(mechanism_from_json(to_json(posterior_sample()), "t").sigma, kInf);
}

TEST(PrivacyJson, EveryKindRoundTripsUnderItsRecordName) {
  GpMechanism functional = posterior_sample();
  functional.kind = MechanismKind::Functional;
  functional.noise_scale = 0.7;
  GpMechanism prior_mean;
  prior_mean.kind = MechanismKind::PriorMean;
  prior_mean.n = 50;
  prior_mean.noise_scale = 0.3;
  GpMechanism labels = prior_mean;
  labels.kind = MechanismKind::LabelDisagreement;
  labels.noise_scale = 9.0;
  const std::vector<std::pair<GpMechanism, std::string>> kinds = {
      {posterior_sample(), "gp-posterior-sample"},
      {functional, "gp-functional-mean"},
      {grid_mean(), "grid-mean"},
      {prior_mean, "prior-mean"},
      {labels, "label-disagreement"}};
  // One case per enumerator (LabelDisagreement is the last).
  ASSERT_EQ(kinds.size(), static_cast<std::size_t>(MechanismKind::LabelDisagreement) + 1);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const auto& [m, name] = kinds[i];
    EXPECT_EQ(static_cast<std::size_t>(m.kind), i);
    const nlohmann::json j = to_json(m);
    EXPECT_EQ(j.at("kind"), name);
    EXPECT_EQ(is_aggregate(m.kind), !j.contains("r")) << name;
    const GpMechanism back = mechanism_from_json(j, "t");
    EXPECT_EQ(back.kind, m.kind) << name;
    EXPECT_EQ(to_json(back), j) << name;
    const Event e = event_from_json(to_json(Event{m, 2}), "t");
    EXPECT_EQ(e.mechanism.kind, m.kind) << name;
    EXPECT_EQ(e.count, 2);
  }
}

TEST(PrivacyJson, MalformedDescriptionsNameTheirSource) {
  nlohmann::json j = to_json(Event{grid_mean(), 1});
  j["kind"] = "laplace";
  EXPECT_THROW(
      {
        try {
          event_from_json(j, "ledger row 7");
        } catch (const InputError& e) {
          EXPECT_STREQ(e.what(),
                       "ledger row 7: not a gp-posterior-sample, gp-functional-mean, grid-mean, "
                       "prior-mean or label-disagreement mechanism description");
          throw;
        }
      },
      InputError);
  j = to_json(Event{grid_mean(), 0});
  EXPECT_THROW(event_from_json(j, "t"), InputError);  // count ≥ 1
  j = to_json(grid_mean());
  j.erase("noise_scale");
  EXPECT_THROW(mechanism_from_json(j, "t"), InputError);
}

TEST(PrivacyJson, NoiseBlockPerKind) {
  EXPECT_EQ(noise_json(posterior_sample()), nlohmann::json::object());
  GpMechanism f = posterior_sample();
  f.kind = MechanismKind::Functional;
  f.noise_scale = 0.7;
  EXPECT_EQ(noise_json(f), (nlohmann::json{{"noise_scale", 0.7}}));
  // The grid mean's count noise as it applies: the public default s_S / M_Y when not given.
  EXPECT_EQ(noise_json(grid_mean()),
            (nlohmann::json{{"noise_scale", 2.0}, {"count_noise", 2.0}, {"cells", {3, 4}}}));
}

TEST(PrivacyJson, DrawFormRoundTripsTheSamplingFields) {
  GpMechanism m = grid_mean();
  m.kernel = Kernel::exponential(0.3);
  m.dim = 2;
  m.r = 0.8;
  m.domain = Box::parse("0:1,0:2");
  const GpMechanism back = mechanism_from_draw_json(draw_json(m));
  EXPECT_EQ(draw_json(back), draw_json(m));
  EXPECT_EQ(back.kind, MechanismKind::GridMean);
  EXPECT_EQ(back.count_noise, 0.0);  // as given, not as it applies
  EXPECT_EQ(back.domain->to_string(), m.domain->to_string());
}

TEST(PrivacyJson, GuaranteeForms) {
  Accountant a;
  a.add(posterior_sample(), 1);
  const Guarantee g = a.epsilon(1e-5, Conversion::CKS);
  const nlohmann::json cert = to_json(g);
  EXPECT_EQ(cert.at("alpha_max"), g.alpha_max);
  EXPECT_EQ(cert.at("alpha_star"), g.alpha);
  EXPECT_EQ(cert.at("rdp_at_alpha_star"), g.rdp);
  EXPECT_EQ(cert.at("conversion"), "cks");
  EXPECT_EQ(brief_json(g), (nlohmann::json{{"epsilon", g.epsilon},
                                           {"delta", 1e-5},
                                           {"alpha", g.alpha},
                                           {"rdp", g.rdp},
                                           {"conversion", "cks"}}));
  Guarantee unbounded = g;
  unbounded.alpha_max = kInf;
  EXPECT_EQ(to_json(unbounded).at("alpha_max"), "inf");
}

TEST(PrivacyJson, InfinityIsTheStringInf) {
  EXPECT_EQ(number_or_inf(kInf), "inf");
  EXPECT_EQ(number_or_inf(1.5), 1.5);
  EXPECT_EQ(number_or_inf(nlohmann::json("inf")), kInf);
  EXPECT_EQ(number_or_inf(nlohmann::json(0.25)), 0.25);
}
