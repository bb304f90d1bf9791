// tasks::run_together: drivers on one executor, their lists merged into one map per round. Each
// driver gets its own results in its own order; the executor sees one list per round (as many
// rounds as the longest driver has maps); driver and executor exceptions reach the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpdp/tasks/registry.hpp"
#include "gpdp/tasks/together.hpp"

using gpdp::tasks::Driver;
using gpdp::tasks::Executor;
using gpdp::tasks::Task;
using nlohmann::json;

namespace {

// Squares {"x": x}; records the size of every list it is given; throws on {"x": "fail"}.
class Recording final : public Executor {
 public:
  std::vector<json> map(const std::vector<Task>& tasks,
                        const gpdp::tasks::Progress& = {}) override {
    sizes.push_back(tasks.size());
    std::vector<json> out;
    for (const auto& t : tasks) {
      if (t.params.at("x").is_string()) throw std::runtime_error("task failed");
      out.push_back(t.params.at("x").get<long>() * t.params.at("x").get<long>());
    }
    return out;
  }
  std::vector<std::size_t> sizes;
};

std::vector<Task> squares(long from, long count) {
  std::vector<Task> tasks;
  for (long x = from; x < from + count; ++x) tasks.push_back({"square", {{"x", x}}});
  return tasks;
}

// Driver d maps `maps` lists of d + 1 tasks each (x = 100 d + 10 round + i), summing the results.
Driver summing(long d, int maps, std::vector<long>& sums) {
  return [d, maps, &sums](Executor& e) {
    long sum = 0;
    for (int round = 0; round < maps; ++round) {
      const auto results = e.map(squares(100 * d + 10 * round, d + 1));
      EXPECT_EQ(results.size(), static_cast<std::size_t>(d + 1));
      for (std::size_t i = 0; i < results.size(); ++i) {
        const long x = 100 * d + 10 * round + static_cast<long>(i);
        EXPECT_EQ(results[i].get<long>(), x * x) << "driver " << d << ", round " << round;
        sum += results[i].get<long>();
      }
    }
    sums[static_cast<std::size_t>(d)] = sum;
  };
}

}  // namespace

TEST(RunTogether, EachDriverGetsItsOwnResultsFromOneMapPerRound) {
  Recording executor;
  std::vector<long> sums(3, -1);
  // Drivers with 3, 1 and 2 maps of 1, 2 and 3 tasks.
  gpdp::tasks::run_together(executor,
                            {summing(0, 3, sums), summing(1, 1, sums), summing(2, 2, sums)});
  EXPECT_EQ(executor.sizes, (std::vector<std::size_t>{1 + 2 + 3, 1 + 3, 1}));
  std::vector<long> alone(3, -1);
  for (long d = 0; d < 3; ++d) {
    Recording own;
    summing(d, d == 0 ? 3 : d == 1 ? 1 : 2, alone)(own);
  }
  EXPECT_EQ(sums, alone);
}

TEST(RunTogether, NoDriversAndDriversWithoutTasks) {
  Recording executor;
  gpdp::tasks::run_together(executor, {});
  std::atomic<int> ran{0};
  gpdp::tasks::run_together(executor, {[&](Executor&) { ++ran; }, [&](Executor&) { ++ran; }});
  EXPECT_EQ(ran, 2);
  EXPECT_TRUE(executor.sizes.empty());
}

TEST(RunTogether, ADriverFailureIsRethrownAfterTheOthersFinish) {
  Recording executor;
  std::vector<long> sums(3, -1);
  auto failing = [](Executor& e) {
    e.map(squares(0, 2));
    throw std::invalid_argument("driver failed");
  };
  EXPECT_THROW(gpdp::tasks::run_together(executor, {summing(0, 3, sums), failing}),
               std::invalid_argument);
  EXPECT_EQ(sums[0], 0 + 100 + 400);  // the other driver ran to its end
}

TEST(RunTogether, AnExecutorFailureReachesTheDriversOfThatRound) {
  Recording executor;
  std::atomic<int> caught{0};
  auto waits = [&](Executor& e) {
    try {
      e.map(squares(0, 1));
    } catch (const std::runtime_error&) {
      ++caught;
      throw;
    }
  };
  auto fails = [](Executor& e) { e.map({{"square", {{"x", "fail"}}}}); };
  EXPECT_THROW(gpdp::tasks::run_together(executor, {waits, fails}), std::runtime_error);
  EXPECT_EQ(caught, 1);
}
