#pragma once
// Releases with kept paths for the `gpdp serve` tests, made with the CLI as a data holder would
// (`gpdp release --keep-path`), and the config that serves them. Test data only (seeded).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/paths.hpp"

namespace gpdp::test {

// n points uniform on [0,1]^2 with responses in [-1, 1].
inline std::string serve_test_data(int n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < n; ++i) csv += fmt::format("{},{},{}\n", u(gen), u(gen), 2 * u(gen) - 1);
  return csv;
}

struct ServedRelease {
  std::string id, out, path, data;
};

// `gpdp release` of `data` into dir/<id> with its path kept in dir/<id>.gpdp (ledger dir/l.sqlite).
inline ServedRelease make_served_release(const TempDir& dir, const std::string& id,
                                         const std::string& data, const std::string& flags) {
  ServedRelease r{id, dir.file(id), dir.file(id + ".gpdp"), data};
  const auto res = run_cli(
      fmt::format("release --data {} --domain 0:1,0:1 --ell 0.3 --r 3 --threshold 0 --delta 1e-3 "
                  "--dataset serve-test --ledger {} --out {} --keep-path {} {}",
                  data, dir.file("l.sqlite"), r.out, r.path, flags));
  EXPECT_EQ(res.exit_code, 0) << res.err;
  return r;
}

inline std::string release_entry(const ServedRelease& r, const std::string& extra = "") {
  return fmt::format(R"({{"id": "{}", "release_dir": "{}", "path": "{}", "data": "{}"{}}})", r.id,
                     r.out, r.path, r.data, extra.empty() ? "" : ", " + extra);
}

// Writes dir/<name> serving `entries` with the given "limits" object; returns its path.
inline std::string write_serve_config(const TempDir& dir, const std::vector<std::string>& entries,
                                      const std::string& limits = "{}",
                                      const std::string& name = "serve.json",
                                      const std::string& extra = "") {
  std::string list;
  for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
  const std::string file = dir.file(name);
  write_text(file, fmt::format(R"({{"releases": [{}], "limits": {}{}}})", list, limits,
                               extra.empty() ? "" : ", " + extra));
  return file;
}

}  // namespace gpdp::test
