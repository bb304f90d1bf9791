// gpdp-lab ops' one request (ops/ops_command.hpp): the CLI's --print-request is the options given
// (no defaults), the reader applies the table's defaults and refuses bad values naming parameters
// (the CLI spells them as flags), and the library's run reports what the CLI prints.
// test_ops_data_cli.cpp checks the command's accuracies and its JSON keys.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/ops/ops_command.hpp"
#include "gpdp/tasks/executor.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

TEST(OpsRequest, CliPrintsTheOptionsGivenAndTheReaderAppliesTheDefaults) {
  const auto r = run_lab_cli(
      "ops --data abalone --method dpsgld --epsilon 2 --seed 3 --tau 40 --threads 2 --json "
      "--print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json printed = json::parse(r.out);
  EXPECT_EQ(
      printed,
      (json{
          {"data", "abalone"}, {"method", "dpsgld"}, {"epsilon", 2.0}, {"seed", 3}, {"tau", 40}}));
  const auto q = ops::ops_request_from_json(printed);
  EXPECT_EQ(q.source.data, "abalone");
  EXPECT_EQ(q.source.data_dir, "");
  EXPECT_EQ(q.method, ops::Method::dpsgld);
  EXPECT_EQ(q.epsilon, 2.0);
  EXPECT_EQ(q.seed, std::optional<std::uint64_t>{3});
  EXPECT_EQ(q.options.dpsgld.sgld.tau, 40);
  const ops::OpsRequest d;
  const ops::MethodOptions& m = d.options;
  EXPECT_EQ(q.source.label, d.source.label);
  EXPECT_EQ(q.repeats, d.repeats);
  EXPECT_EQ(q.options.dpsgld.delta, m.dpsgld.delta);
  EXPECT_EQ(q.options.radius, m.radius);
  EXPECT_EQ(q.options.ops.calibration, m.ops.calibration);
  EXPECT_EQ(q.options.ops.hmc.chains, m.ops.hmc.chains);
  EXPECT_EQ(q.options.ops.hmc.samples, m.ops.hmc.samples);
  EXPECT_EQ(q.options.lambda, m.lambda);
  EXPECT_EQ(q.options.hybrid_split, m.hybrid_split);
  EXPECT_EQ(q.options.dpsgld_average, m.dpsgld_average);
  EXPECT_EQ(q.options.validation, m.validation);
  // The prior's sd is one setting of both samplers.
  const auto sd = ops::ops_request_from_json(
      {{"data", "abalone"}, {"method", "hybrid"}, {"epsilon", 1}, {"prior-sd", 2.5}});
  EXPECT_EQ(sd.options.ops.prior_sd, 2.5);
  EXPECT_EQ(sd.options.dpsgld.sgld.prior_sd, 2.5);
  // The non-private reference needs no epsilon.
  const auto ref = ops::ops_request_from_json({{"data", "adult"}, {"method", "nonprivate"}});
  EXPECT_EQ(ref.method, ops::Method::nonprivate);
  EXPECT_FALSE(ref.seed.has_value());
}

TEST(OpsRequest, BadValuesNameTheirParameter) {
  const auto parameter = [](const json& change) {
    json request = {{"data", "abalone"}, {"method", "ops"}, {"epsilon", 1.0}};
    request.update(change);
    for (const auto& [key, value] : change.items())
      if (value.is_null()) request.erase(key);
    try {
      ops::ops_request_from_json(request);
    } catch (const ParameterError& e) {
      return e.parameters();
    }
    return std::vector<std::string>{"accepted"};
  };
  using names = std::vector<std::string>;
  EXPECT_EQ(parameter({{"method", "magic"}}), names{"method"});
  EXPECT_EQ(parameter({{"method", nullptr}}), names{"method"});
  EXPECT_EQ(parameter({{"epsilon", nullptr}}), names{"epsilon"});
  EXPECT_EQ(parameter({{"epsilon", 0.0}}), names{"epsilon"});
  EXPECT_EQ(parameter({{"epsilon", -1.0}}), names{"epsilon"});
  EXPECT_EQ(parameter({{"epsilon", "much"}}), names{"epsilon"});
  EXPECT_EQ(parameter({{"calibration", "3B"}}), names{"calibration"});
  EXPECT_EQ(parameter({{"dpsgld-estimate", "median"}}), names{"dpsgld_estimate"});
  EXPECT_EQ(parameter({{"repeats", "abc"}}), names{"repeats"});
  EXPECT_EQ(parameter({{"repeats", 1LL << 40}}), names{"repeats"});
  EXPECT_EQ(parameter({{"seed", -1}}), names{"seed"});
  EXPECT_EQ(parameter({{"data", nullptr}}), names{"data"});
  EXPECT_EQ(parameter({{"method", "nonprivate"}, {"epsilon", nullptr}}), names{"accepted"});
  EXPECT_EQ(parameter(json::object()), names{"accepted"});
  EXPECT_THROW(ops::ops_request_from_json({{"data", "abalone"}, {"method", "ops"}, {"colour", 1}}),
               InputError);

  // The CLI spells the parameters as its flags, as before the options were a table.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"--method magic --epsilon 1",
       "--method must be one of ops, dpsgld, hybrid, objpert, outpert, nonprivate; got 'magic'"},
      {"--method ops", "--epsilon E (> 0) is required"},
      {"--method dpsgld --epsilon 1 --dpsgld-estimate x",
       "--dpsgld-estimate must be average or last"},
      {"--method ops --epsilon 1 --calibration 3B",
       "--calibration must be 4B, 4LR or 2Delta, got '3B'"},
      {"--method ops --epsilon 1 --repeats abc", "--repeats: expected a whole number, got 'abc'"},
  };
  for (const auto& [args, message] : refused) {
    const auto r = run_lab_cli("ops --data abalone --data-dir " + data_dir() + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.err, "gpdp-lab: error: " + message + "\n") << args;
  }
}

TEST(OpsRequest, RunReportsWhatTheCliPrints) {
  auto q = ops::ops_request_from_json({{"data", "abalone"},
                                       {"data-dir", data_dir()},
                                       {"method", "outpert"},
                                       {"epsilon", 2.0},
                                       {"repeats", 3},
                                       {"seed", 9}});
  tasks::ThreadExecutor executor(2, lab::registry());
  std::vector<long> heard;
  const auto out = ops::run_ops(q, executor, [&](long done, long total) {
    EXPECT_EQ(total, 3);
    heard.push_back(done);
  });
  EXPECT_EQ(heard.size(), 3u);
  EXPECT_EQ(out.report["method"], "outpert");
  EXPECT_EQ(out.report["repeats"], 3);
  EXPECT_EQ(out.text.substr(out.text.size() - out.randomness.size() - 3),
            "  " + out.randomness + "\n");
  const std::string args = "ops --data abalone --data-dir " + data_dir() +
                           " --method outpert --epsilon 2 --repeats 3 --seed 9";
  const auto text = run_lab_cli(args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, out.text);
  const auto as_json = run_lab_cli(args + " --json --threads 1");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
  EXPECT_EQ(as_json.out, out.report.dump(2) + "\n");
  EXPECT_NE(as_json.err.find("gpdp-lab ops: " + out.randomness + "\n"), std::string::npos);
  // The non-private reference reports no epsilon, whatever was given.
  q.method = ops::Method::nonprivate;
  q.repeats = 1;
  EXPECT_TRUE(ops::run_ops(q, executor).report["epsilon"].is_null());
}

}  // namespace
}  // namespace gpdp::test
