// gpdp sample: exact draws of the posterior path f_D (+ g) on points or a grid, written as CSV, as
// one declared request (sample.hpp).
#include "gpdp/commands/sample.hpp"

#include <fmt/format.h>

#include <limits>
#include <memory>

#include "evaluate_posterior.hpp"
#include "gpdp/error.hpp"
#include "gpdp/rng.hpp"
#include "io/atomic_file.hpp"
#include "options/model_options.hpp"

namespace gpdp::commands {

namespace {
using nlohmann::json;
using options::option;
using options::OptionType;
}  // namespace

std::vector<options::OptionSpec> sample_options() {
  const SampleCommand d;
  auto specs = posterior_query_options();
  specs.push_back(option("--draws", OptionType::Integer, d.draws, "Number L of independent draws"));
  specs.push_back(option("--seed", OptionType::Integer, nullptr,
                         "Seed: reproducible experiment, NOT a private draw"));
  specs.push_back(option("--method", OptionType::Text, to_string(d.method),
                         "auto|dense|markov|pathwise (auto: markov for the 1-D exponential "
                         "kernel, pathwise on large grids when exact and cheaper — scattered "
                         "covariates are conditioned exactly on the grid's draw —, else dense; the "
                         "summary says why)"));
  return options::concat(specs, posterior_output_options());
}

SampleCommand sample_request_from_json(const json& request) {
  options::check_request_keys(sample_options(), request, "sample");
  SampleCommand c;
  const long long draws = request.value("draws", static_cast<long long>(c.draws));
  require_parameter(draws >= 1, "draws", fmt::format("draws must be ≥ 1, got {}", draws));
  require_parameter(
      draws <= std::numeric_limits<int>::max(), "draws",
      fmt::format("draws must be at most {}, got {}", std::numeric_limits<int>::max(), draws));
  c.draws = static_cast<int>(draws);
  c.out = request.value("out", c.out);
  require_parameter(!c.out.empty(), "out", "out FILE is required");
  c.method = parse_sampler_method(request.value("method", to_string(c.method)));
  c.query = read_posterior_query(request);
  if (request.contains("seed")) {
    const json& seed = request.at("seed");
    require_parameter(seed.is_number_unsigned() || seed.get<long long>() >= 0, "seed",
                      fmt::format("seed must be ≥ 0, got {}", seed.dump()));
    c.seed = seed.get<std::uint64_t>();
  }
  return c;
}

SampleOutcome run_sample_command(const SampleCommand& c,
                                 const std::function<void(std::uint64_t)>& on_seeded_draw) {
  const PosteriorQuery pq = load_posterior_query(c.query);
  const QueryPoints& q = pq.query;
  const std::unique_ptr<Rng> rng = make_rng(c.seed);
  if (c.seed && on_seeded_draw) on_seeded_draw(*c.seed);
  const SampleOptions options{c.method, c.query.eta};
  const Draws draws = q.grid ? sample(pq.posterior, *q.grid, c.draws, *rng, options)
                             : sample(pq.posterior, q.points, c.draws, *rng, options);
  std::vector<std::string> names;
  for (int l = 1; l <= c.draws; ++l) names.push_back(fmt::format("draw{}", l));
  io::write_file_atomic(c.out, points_csv(q, draws.values, names));

  json report = pq.summary("sample", c.query.eta);
  report["draws"] = c.draws;
  report["method"] = draws.method;
  report["detail"] = draws.detail;
  report["rng"] = rng->description();
  report["private_rng"] = rng->is_secure();
  report["out"] = c.out;
  const std::string text =
      fmt::format("wrote {} draw(s) at {} point(s) to {}\nmethod: {} ({})\nrandomness: {}\n",
                  c.draws, q.points.rows(), c.out, draws.method, draws.detail, rng->description());
  return {report, text};
}

}  // namespace gpdp::commands
