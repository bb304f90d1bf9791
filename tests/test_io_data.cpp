// The shipped data sets: the lookup order of io::find_data_file (docs: data/README.md) and the
// gzip-compressed CSV reader.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/io/data_dir.hpp"
#include "gpdp/io/gzip.hpp"
#include "support/paths.hpp"

namespace {

namespace fs = std::filesystem;

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) {
      ::unsetenv(name_);
    } else {
      ::setenv(name_, old_.c_str(), 1);
    }
  }

 private:
  const char* name_;
  std::string old_;
};

TEST(DataDir, RepositoryDataFolderIsFoundFromTheExecutable) {
  ::unsetenv("GPDP_DATA_DIR");
  // The test binary lives in <repo>/<build>/, so <exe>/../data is the repository's data/.
  const std::string path = gpdp::io::find_data_file("abalone.csv");
  EXPECT_EQ(fs::path(path).filename(), "abalone.csv.gz");
  EXPECT_TRUE(fs::equivalent(fs::path(path).parent_path(), gpdp::test::data_dir()));
  // A plain file is preferred to NAME.gz in the same folder.
  EXPECT_EQ(fs::path(gpdp::io::find_data_file("meuse.csv")).filename(), "meuse.csv");
}

TEST(DataDir, ExplicitFolderIsTheOnlyOneTriedAndEnvironmentComesFirst) {
  gpdp::test::TempDir dir;
  gpdp::test::write_text(dir.file("own.csv"), "a\n1\n");
  EXPECT_EQ(gpdp::io::find_data_file("own.csv", dir.path().string()), dir.file("own.csv"));
  // Given explicitly, the repository's folder is not consulted.
  EXPECT_THROW(gpdp::io::find_data_file("abalone.csv", dir.path().string()), gpdp::InputError);
  {
    const ScopedEnv env("GPDP_DATA_DIR", dir.path().string());
    EXPECT_EQ(gpdp::io::data_dir_candidates("").front(), dir.path().string());
    EXPECT_EQ(gpdp::io::find_data_file("own.csv"), dir.file("own.csv"));
    // Not in $GPDP_DATA_DIR: the later folders are still searched.
    EXPECT_EQ(fs::path(gpdp::io::find_data_file("abalone.csv")).filename(), "abalone.csv.gz");
  }
  // No candidate is outside the install and the repository.
  for (const auto& d : gpdp::io::data_dir_candidates("")) {
    EXPECT_EQ(d.find("shared"), std::string::npos) << d;
  }
}

TEST(DataDir, MissingFileErrorListsEveryFolderTried) {
  try {
    gpdp::io::find_data_file("no-such-data.csv", "/nonexistent-folder");
    FAIL() << "expected InputError";
  } catch (const gpdp::InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("no-such-data.csv"), std::string::npos) << msg;
    EXPECT_NE(msg.find("/nonexistent-folder"), std::string::npos) << msg;
    // The library names the parameter; the CLI would print it as --data-dir.
    EXPECT_NE(msg.find("data_dir"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("--"), std::string::npos) << msg;
    EXPECT_EQ(e.parameters(), std::vector<std::string>{"data_dir"});
  }
}

TEST(Gzip, CompressedCsvReadsLikeTheRowsItHolds) {
  // UCI Abalone: 4177 rows of 9 columns; the first record is M,0.455,... (data/README.md).
  const auto table = gpdp::io::read_csv(gpdp::io::find_data_file("abalone.csv"));
  ASSERT_EQ(table.rows.size(), 4177u);
  EXPECT_EQ(table.header.size(), 9u);
  EXPECT_EQ(table.header.front(), "sex");
  EXPECT_EQ(table.rows.front().front(), "M");
  EXPECT_EQ(table.rows.front()[1], "0.455");
  EXPECT_EQ(table.line_numbers.back(), 4178u);
}

TEST(Gzip, CorruptOrTruncatedInputIsAnInputErrorNamingTheSource) {
  const std::string gz = gpdp::io::read_file(gpdp::io::find_data_file("abalone.csv"));
  EXPECT_THROW(gpdp::io::gunzip(gz.substr(0, gz.size() / 2), "half.gz"), gpdp::InputError);
  EXPECT_THROW(gpdp::io::gunzip("", "empty.gz"), gpdp::InputError);
  EXPECT_THROW(gpdp::io::gunzip("x1,y\n0.5,1\n", "plain.gz"), gpdp::InputError);
  try {
    gpdp::io::gunzip(gz.substr(0, 100), "data/half.csv.gz");
    FAIL() << "expected InputError";
  } catch (const gpdp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("data/half.csv.gz"), std::string::npos);
  }
  // Two concatenated members decompress to both contents (what `cat a.gz b.gz` produces).
  EXPECT_EQ(gpdp::io::gunzip(gz + gz, "twice.gz").size(), 2 * gpdp::io::gunzip(gz, "once").size());
}

}  // namespace
