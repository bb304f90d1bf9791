// `gpdp-lab reproduce ops-abalone --quick --pairs 2`: ≈ 3 s since the OPS sampler was made fast
// (was ~35 s); kept in the slow suite beside the Adult runs (tests/slow/test_ops_adult.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "support/paths.hpp"

namespace {

std::string data_dir() { return gpdp::test::data_dir(); }

TEST(OpsCli, ReproduceQuickWritesCsvAndFigure) {
  gpdp::test::TempDir tmp;
  ::setenv("GPDP_DATA_DIR", data_dir().c_str(), 1);
  const auto r = gpdp::test::run_lab_cli("reproduce ops-abalone --quick --pairs 2 --out " +
                                         tmp.path().string());
  ::unsetenv("GPDP_DATA_DIR");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = gpdp::test::read_text(tmp.file("ops-abalone.csv"));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "dataset,method,epsilon,delta,repeats,accuracy_mean,accuracy_se,max_rhat,min_ess");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 1 + 5 * 3);
  EXPECT_TRUE(std::filesystem::exists(tmp.file("ops-abalone.png")));
  EXPECT_TRUE(std::filesystem::exists(tmp.file("ops-abalone.md")));
}

}  // namespace
