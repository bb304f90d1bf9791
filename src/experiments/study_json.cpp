#include "study_json.hpp"

#include "gpdp/error.hpp"

namespace gpdp::experiments {

namespace {
using nlohmann::json;

json grid_to_json(const Grid& grid) {
  json axes = json::array();
  for (const auto& a : grid.axes()) axes.push_back({a.lo, a.hi, a.count});
  return axes;
}

Grid grid_from_json(const json& axes) {
  std::vector<GridAxis> out;
  for (const auto& a : axes)
    out.push_back({a.at(0).get<double>(), a.at(1).get<double>(), a.at(2).get<long>()});
  return Grid(std::move(out));
}
}  // namespace

json study_spec_to_json(const StudySpec& s) {
  require(!s.privacy.lemma || *s.privacy.lemma != privacy::SensitivityLemma::User,
          "study: a user-supplied sensitivity cannot be sent to workers");
  const auto& f1 = s.field1d;
  const auto& f2 = s.field2d;
  const auto& p = s.privacy;
  return {
      {"label", s.label},
      {"dim", s.dim},
      {"field1d", {f1.n, f1.nsr, f1.ell_gen}},
      {"field2d",
       {f2.n, f2.nsr, f2.plumes, f2.quantile, f2.width_min, f2.width_max, f2.amplitude_min,
        f2.amplitude_max, f2.steepness}},
      {"grid", grid_to_json(s.grid)},
      {"pairs", s.pairs},
      {"validation_pairs", s.validation_pairs},
      {"seed", s.seed},
      {"search",
       {{"ell", s.search.coarse.ell},
        {"r", s.search.coarse.r},
        {"sigma", s.search.coarse.sigma},
        {"refinement_rounds", s.search.refinement_rounds},
        {"top_k", s.search.top_k}}},
      {"epsilon_max", s.epsilon_max},
      {"privacy",
       {{"n", p.n},
        {"dim", p.dim},
        {"paths", p.paths},
        {"delta", p.delta},
        {"M_Y", p.M_Y},
        {"conversion", privacy::to_string(p.conversion)},
        {"lemma", p.lemma ? json(privacy::to_string(*p.lemma)) : json(nullptr)}}},
      {"releases", s.releases},
      {"smoothing_bandwidth", s.smoothing_bandwidth},
      {"probability_cutoffs", s.probability_cutoffs},
      {"threads", s.threads},
      {"keep_examples", s.keep_examples},
      {"sampler", to_string(s.sampler)},
      {"search_route", static_cast<int>(s.search_route)},
  };
}

StudySpec study_spec_from_json(const json& j) {
  StudySpec s;
  s.label = j.at("label").get<std::string>();
  s.dim = j.at("dim").get<int>();
  const auto& f1 = j.at("field1d");
  s.field1d = {f1.at(0).get<long>(), f1.at(1).get<double>(), f1.at(2).get<double>()};
  const auto& f2 = j.at("field2d");
  s.field2d = {f2.at(0).get<long>(),   f2.at(1).get<double>(), f2.at(2).get<int>(),
               f2.at(3).get<double>(), f2.at(4).get<double>(), f2.at(5).get<double>(),
               f2.at(6).get<double>(), f2.at(7).get<double>(), f2.at(8).get<double>()};
  s.grid = grid_from_json(j.at("grid"));
  s.pairs = j.at("pairs").get<long>();
  s.validation_pairs = j.at("validation_pairs").get<long>();
  s.seed = j.at("seed").get<std::uint64_t>();
  const auto& search = j.at("search");
  s.search.coarse = {search.at("ell").get<std::vector<double>>(),
                     search.at("r").get<std::vector<double>>(),
                     search.at("sigma").get<std::vector<double>>()};
  s.search.refinement_rounds = search.at("refinement_rounds").get<int>();
  s.search.top_k = search.at("top_k").get<int>();
  s.epsilon_max = j.at("epsilon_max").get<double>();
  const auto& p = j.at("privacy");
  s.privacy.n = p.at("n").get<long>();
  s.privacy.dim = p.at("dim").get<int>();
  s.privacy.paths = p.at("paths").get<int>();
  s.privacy.delta = p.at("delta").get<double>();
  s.privacy.M_Y = p.at("M_Y").get<double>();
  s.privacy.conversion = privacy::parse_conversion(p.at("conversion").get<std::string>());
  if (!p.at("lemma").is_null())
    s.privacy.lemma = privacy::parse_sensitivity_lemma(p.at("lemma").get<std::string>());
  s.releases = j.at("releases").get<int>();
  s.smoothing_bandwidth = j.at("smoothing_bandwidth").get<double>();
  s.probability_cutoffs = j.at("probability_cutoffs").get<std::vector<double>>();
  s.threads = j.at("threads").get<int>();
  s.keep_examples = j.at("keep_examples").get<int>();
  s.sampler = parse_sampler_method(j.at("sampler").get<std::string>());
  s.search_route = static_cast<PosteriorRoute>(j.at("search_route").get<int>());
  return s;
}

}  // namespace gpdp::experiments
