// gpdp::parallel_for: every index runs exactly once on any thread count, the first exception
// reaches the caller, and OpenBLAS runs single-threaded inside the workers (restored afterwards).
#include <cblas.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gpdp/parallel.hpp"

TEST(ParallelFor, EveryIndexRunsExactlyOnce) {
  for (int threads : {1, 2, 5}) {
    std::vector<std::atomic<int>> hits(1000);
    gpdp::parallel_for(1000, threads, [&](long i) { ++hits[static_cast<std::size_t>(i)]; });
    for (const auto& h : hits) ASSERT_EQ(h.load(), 1) << threads << " threads";
  }
  gpdp::parallel_for(0, 4, [](long) { FAIL() << "no item to run"; });
}

// Each other item takes 50 µs, so the 100000 items would take seconds if the failure did not stop
// them: the worker that throws at item 3 would have to be descheduled that long for the other to
// finish them all (with instant items, a millisecond's preemption under load was enough).
TEST(ParallelFor, RethrowsTheFirstFailureAndStopsEarly) {
  std::atomic<long> ran{0};
  EXPECT_THROW(gpdp::parallel_for(100000, 2,
                                  [&](long i) {
                                    ++ran;
                                    if (i == 3) throw std::runtime_error("item 3");
                                    std::this_thread::sleep_for(std::chrono::microseconds(50));
                                  }),
               std::runtime_error);
  EXPECT_LT(ran.load(), 100000) << "items kept starting after the failure";
}

TEST(ParallelFor, BlasIsSingleThreadedInsideWorkersAndRestoredAfter) {
  openblas_set_num_threads(2);
  if (openblas_get_num_threads() != 2) GTEST_SKIP() << "this OpenBLAS cannot use 2 threads here";
  std::atomic<int> max_seen{0};
  gpdp::parallel_for(8, 2, [&](long) {
    int seen = openblas_get_num_threads();
    int cur = max_seen.load();
    while (seen > cur && !max_seen.compare_exchange_weak(cur, seen)) {
    }
  });
  EXPECT_EQ(max_seen.load(), 1);
  EXPECT_EQ(openblas_get_num_threads(), 2);
}
