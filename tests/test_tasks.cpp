// The task seam (gpdp/tasks): registry dispatch and its errors, ThreadExecutor's order and
// determinism on 1 and 4 threads, CallbackExecutor's transport, CBOR keeping doubles exact, and
// the product's registry holding none of the research tools' kinds (the lab registry all).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/tasks/cbor.hpp"
#include "gpdp/tasks/executor.hpp"
#include "gpdp/tasks/registry.hpp"

using gpdp::tasks::Task;
using nlohmann::json;

namespace {
json twice(const json& p) { return 2 * p.at("x").get<long>(); }
json negate(const json& p) { return -p.at("x").get<long>(); }
// Finishes in reverse order of index (later tasks sleep less), to show order is restored.
json slow_square(const json& p) {
  const long i = p.at("i").get<long>();
  std::this_thread::sleep_for(std::chrono::milliseconds(2 * (20 - i)));
  return i * i;
}

std::vector<Task> normals_tasks(long count) {
  std::vector<Task> tasks;
  for (long i = 0; i < count; ++i)
    tasks.push_back({"rng.normals", {{"seed", 17}, {"index", i}, {"count", 5}}});
  return tasks;
}
}  // namespace

TEST(TaskRegistry, DispatchesOnKind) {
  gpdp::tasks::Registry registry;
  registry.add("twice", &twice);
  registry.add("negate", &negate);
  EXPECT_EQ(registry.run({"twice", {{"x", 21}}}).get<long>(), 42);
  EXPECT_EQ(registry.run({"negate", {{"x", 21}}}).get<long>(), -21);
  EXPECT_EQ(registry.kinds(), (std::vector<std::string>{"negate", "twice"}));
}

TEST(TaskRegistry, UnknownKindIsAClearError) {
  gpdp::tasks::Registry registry;
  registry.add("twice", &twice);
  try {
    registry.run({"thrice", {{"x", 1}}});
    FAIL() << "an unknown kind ran";
  } catch (const gpdp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown task kind 'thrice'"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("known: twice"), std::string::npos) << e.what();
  }
  EXPECT_THROW(registry.add("twice", &negate), gpdp::InputError);
  EXPECT_THROW(gpdp::tasks::run_task({"no.such.kind", json::object()}), gpdp::InputError);
}

TEST(TaskRegistry, BuiltinKindsRun) {
  const json normals = gpdp::tasks::run_task(normals_tasks(1).front());
  ASSERT_EQ(normals.size(), 5u);
  EXPECT_NE(normals[0].get<double>(), normals[1].get<double>());
}

TEST(ThreadExecutor, ResultsInTaskOrderWhateverTheFinishingOrder) {
  gpdp::tasks::Registry registry;
  registry.add("slow_square", &slow_square);
  std::vector<Task> tasks;
  for (long i = 0; i < 20; ++i) tasks.push_back({"slow_square", {{"i", i}}});
  gpdp::tasks::ThreadExecutor executor(4, registry);
  long last_done = 0;
  const auto results = executor.map(tasks, [&](long done, long total) {
    EXPECT_EQ(done, last_done + 1);
    EXPECT_EQ(total, 20);
    last_done = done;
  });
  EXPECT_EQ(last_done, 20);
  ASSERT_EQ(results.size(), 20u);
  for (long i = 0; i < 20; ++i) EXPECT_EQ(results[static_cast<std::size_t>(i)].get<long>(), i * i);
}

TEST(ThreadExecutor, SameResultsOnOneAndFourThreads) {
  const auto tasks = normals_tasks(64);
  gpdp::tasks::ThreadExecutor one(1);
  gpdp::tasks::ThreadExecutor four(4);
  const auto a = one.map(tasks);
  const auto b = four.map(tasks);
  ASSERT_EQ(a.size(), 64u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a[0], a[1]) << "tasks share a stream";
  // The stream comes from (seed, index), not from the position in the list.
  const auto alone = one.map({tasks[37]});
  EXPECT_EQ(alone[0], a[37]);
}

TEST(ThreadExecutor, RethrowsATaskFailure) {
  gpdp::tasks::ThreadExecutor executor(2);
  auto tasks = normals_tasks(8);
  tasks[5].kind = "rng.typo";
  EXPECT_THROW(executor.map(tasks), gpdp::InputError);
}

TEST(TaskCbor, RoundTripsDoublesBitForBit) {
  const double denormal_min = std::numeric_limits<double>::denorm_min();
  const std::vector<double> values = {0.1,
                                      -0.0,
                                      1.0 / 3.0,
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(),
                                      denormal_min,
                                      -denormal_min * 12345,
                                      std::numeric_limits<double>::min() / 3,  // denormal
                                      std::numeric_limits<double>::max(),
                                      1e-310,
                                      0.5f,  // exactly a float: stored compactly, still exact
                                      std::nextafter(1.0, 2.0)};
  json value = {{"values", values}, {"nan", std::numeric_limits<double>::quiet_NaN()}};
  const json back = gpdp::tasks::from_cbor(gpdp::tasks::to_cbor(value));
  const auto got = back.at("values").get<std::vector<double>>();
  ASSERT_EQ(got.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(values[i]))
        << "value " << i << " = " << values[i];
  }
  EXPECT_TRUE(std::isnan(back.at("nan").get<double>()));
  EXPECT_THROW(gpdp::tasks::from_cbor("\xff\x01"), gpdp::InputError);
}

TEST(CallbackExecutor, TransportsTextParamsAndCborResults) {
  std::vector<std::pair<std::string, std::string>> seen;
  gpdp::tasks::CallbackExecutor executor([&](const auto& described) {
    seen = described;
    std::vector<std::string> out;
    for (const auto& [kind, params] : described)
      out.push_back(gpdp::tasks::to_cbor(gpdp::tasks::run_task({kind, json::parse(params)})));
    return out;
  });
  const auto tasks = normals_tasks(6);
  long reported = 0;
  const auto results = executor.map(tasks, [&](long done, long) { reported = done; });
  EXPECT_EQ(reported, 6);
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_EQ(seen[2].first, "rng.normals");
  EXPECT_EQ(json::parse(seen[2].second), tasks[2].params);
  EXPECT_EQ(results, gpdp::tasks::ThreadExecutor(2).map(tasks));
}

TEST(CallbackExecutor, RefusesNonFiniteParamsAndMissingResults) {
  gpdp::tasks::CallbackExecutor executor([](const auto&) { return std::vector<std::string>{}; });
  EXPECT_THROW(executor.map({{"rng.normals", {{"x", std::nan("")}}}}), gpdp::InputError);
  EXPECT_THROW(executor.map(normals_tasks(2)), gpdp::Error);
}

// The product (gpdp) runs the public search's and the release's tasks; the research tools' (the
// utility study, the attack, OPS, the auditor) are only in the lab registry, on top of the
// product's.
TEST(Registries, TheProductHoldsNoResearchToolsKindAndTheLabHoldsAll) {
  const auto product = gpdp::tasks::builtin_registry().kinds();
  const auto lab = gpdp::lab::registry().kinds();
  const auto has = [](const std::vector<std::string>& kinds, const std::string& kind) {
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
  };
  EXPECT_TRUE(has(product, "rng.normals"));
  for (const auto& kind : product) {
    EXPECT_TRUE(has(lab, kind)) << kind;
    for (const char* prefix : {"utility.", "attack.", "ops.", "audit."}) {
      EXPECT_NE(kind.rfind(prefix, 0), 0U) << kind;
    }
  }
  for (const char* kind : {"utility.search", "attack.lira", "ops.repeat", "audit.ascent"}) {
    EXPECT_TRUE(has(lab, kind)) << kind;
  }
  EXPECT_GT(lab.size(), product.size());
}
