// gpdp release / query / ledger end to end through the CLI: the certificate equals the
// accountant, clipping is counted, the budget is enforced, bad inputs change nothing.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "gpdp/io/csv.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/sha256.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// n = 30 points in [0,1]², responses in [-1.5, 1.5]; `clipped` of them beyond ±1.
std::string synthetic_csv(int* clipped) {
  std::mt19937_64 gen(7);  // test data only
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::string csv = "lon,lat,value\n";
  *clipped = 0;
  for (int i = 0; i < 30; ++i) {
    const double x = u(gen), y = u(gen);
    const double v = 3.0 * (u(gen) - 0.5);
    *clipped += std::abs(v) > 1.0;
    csv += fmt::format("{},{},{}\n", x, y, v);
  }
  return csv;
}

struct Fixture {
  test::TempDir dir;
  int clipped = 0;
  std::string data = dir.file("d.csv");
  std::string ledger = dir.file("ledger.sqlite");
  Fixture() { test::write_text(data, synthetic_csv(&clipped)); }
  std::string base() const {
    return fmt::format(
        "release --data {} --x lon,lat --y value --domain 0:1,0:1 --kernel exp --ell 0.3 "
        "--sigma 1 --r 3 --grid2d 0:1:12,0:1:10 --threshold 0 --delta 1e-3 --ledger {} ",
        data, ledger);
  }
  long rows() const {
    if (!fs::exists(ledger)) return 0;
    return static_cast<long>(release::Ledger::open_existing(ledger)
                                 .releases(release::sha256_hex(test::read_text(data)))
                                 .size());
  }
};

TEST(CliRelease, CertificateEqualsAccountantAndOutputsAreSnapped) {
  Fixture f;
  const auto r = test::run_cli(f.base() + "--draws 3 --insecure-seed 5 --out " + f.dir.file("out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cert = json::parse(test::read_text(f.dir.file("out/certificate.json")));
  // The accountant, called directly with the same public inputs.
  privacy::GpMechanism m;
  m.kernel = Kernel::exponential(0.3);
  m.dim = 2;
  m.domain = Box::parse("0:1,0:1");
  m.n = 30;
  m.r = 3;
  m.sigma = 1;
  m.M_Y = 1;
  const auto g = privacy::account(m, 3, 1e-3, privacy::Conversion::CKS);
  const auto b = privacy::resolve_bounds(m);
  EXPECT_DOUBLE_EQ(cert["guarantee"]["epsilon"].get<double>(), g.epsilon);
  EXPECT_DOUBLE_EQ(cert["guarantee"]["alpha_star"].get<double>(), g.alpha);
  EXPECT_DOUBLE_EQ(cert["guarantee"]["delta"].get<double>(), 1e-3);
  EXPECT_EQ(cert["guarantee"]["conversion"], "cks");
  EXPECT_DOUBLE_EQ(cert["sensitivity"]["Delta_n"].get<double>(), b.Delta_n);
  EXPECT_DOUBLE_EQ(cert["sensitivity"]["V_n"].get<double>(), b.Vn);
  EXPECT_DOUBLE_EQ(cert["sensitivity"]["kappa"].get<double>(), std::exp(-std::sqrt(2.0) / 0.3));
  EXPECT_EQ(cert["sensitivity"]["lemma"], "b1");
  EXPECT_EQ(cert["draws"], 3);
  EXPECT_EQ(cert["input"]["n"], 30);
  EXPECT_EQ(cert["input"]["clipped"], f.clipped);
  EXPECT_EQ(cert["input"]["sha256"], release::sha256_hex(test::read_text(f.data)));
  EXPECT_EQ(cert["private"], false);
  EXPECT_NE(cert["rng"].get<std::string>().find("NOT PRIVATE"), std::string::npos);
  EXPECT_EQ(cert["gpdp_version"], "0.1.0");
  // Every listed output exists with the stated hash; nothing else is in the folder.
  std::set<std::string> listed{"certificate.json"};
  for (const auto& o : cert["outputs"]) {
    listed.insert(o["file"].get<std::string>());
    EXPECT_EQ(o["sha256"], release::sha256_hex(
                               test::read_text(f.dir.file("out/" + o["file"].get<std::string>()))));
  }
  std::set<std::string> present;
  for (const auto& e : fs::directory_iterator(f.dir.file("out")))
    present.insert(e.path().filename().string());
  EXPECT_EQ(listed, present);
  // No --crs: the polygons in grid units (excursion-grid.json, not RFC 7946 GeoJSON), map.tif
  // without a CRS.
  EXPECT_TRUE(present.count("map.png") && present.count("excursion-grid.json") &&
              present.count("map.tif") && present.count("draws.csv"));
  EXPECT_FALSE(present.count("excursion.geojson"));
  // Released values are multiples of the certified granularity.
  const double lambda = cert["rounding"]["granularity"].get<double>();
  const auto table = io::read_csv(f.dir.file("out/draws.csv"));
  ASSERT_EQ(table.rows.size(), 120u);
  const auto draws = table.numeric({"draw_1", "draw_2", "draw_3"});
  for (Eigen::Index i = 0; i < draws.size(); ++i) EXPECT_EQ(std::fmod(draws(i), lambda), 0.0);
  // The ledger recorded it with the same ε.
  EXPECT_EQ(f.rows(), 1);
}

TEST(CliRelease, CalibrationMeetsTargetAndBudgetIsEnforced) {
  Fixture f;
  const std::string budget = "--budget-epsilon 1.3 --budget-delta 1e-3 ";
  auto r = test::run_cli(f.base() + budget + "--target-epsilon 1 --json --out " + f.dir.file("a"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json s = json::parse(r.out);
  EXPECT_LE(s["epsilon"].get<double>(), 1.0);
  EXPECT_GT(s["epsilon"].get<double>(), 0.99);
  // Two releases of ε = 1 compose (RDP) to more than 1.3: refused, nothing written or recorded.
  r = test::run_cli(f.base() + budget + "--target-epsilon 1 --out " + f.dir.file("b"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("budget exceeded"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(f.dir.file("b")));
  EXPECT_EQ(f.rows(), 1);
  // A smaller release still fits; the ledger's totals agree.
  r = test::run_cli(f.base() + "--target-epsilon 0.2 --out " + f.dir.file("c"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(f.rows(), 2);
  r = test::run_cli("ledger show --json " + f.ledger);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json l = json::parse(r.out);
  ASSERT_EQ(l["datasets"].size(), 1u);
  EXPECT_LE(l["datasets"][0]["epsilon_spent"].get<double>(), 1.3);
  EXPECT_GT(l["datasets"][0]["epsilon_spent"].get<double>(), 1.0);
  EXPECT_EQ(l["datasets"][0]["releases"].size(), 2u);
}

// Each bad input: exit code 2, one line on stderr, no output folder, no ledger change.
TEST(CliRelease, BadInputBatteryChangesNothing) {
  Fixture f;
  ASSERT_EQ(test::run_cli(f.base() + "--out " + f.dir.file("first")).exit_code, 0);
  const auto w = [&](const std::string& name, const std::string& text) {
    test::write_text(f.dir.file(name), text);
    return f.dir.file(name);
  };
  const std::string ok_rows = "0.1,0.2,0.3\n0.4,0.5,0.6\n";
  const std::string ro = f.dir.file("readonly");
  fs::create_directories(ro);
  fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
  const std::string garbage_ledger = w("garbage.sqlite", std::string(3000, 'g'));
  const std::string core =
      "--x lon,lat --y value --kernel exp --ell 0.3 --sigma 1 --r 3 --grid2d 0:1:5,0:1:5 "
      "--threshold 0 ";
  struct Case {
    std::string what, args, expect;
  };
  const std::vector<Case> cases = {
      {"missing file", "--data " + f.dir.file("nope.csv") + " --domain 0:1,0:1 --delta 1e-3",
       "cannot open"},
      {"empty file", "--data " + w("e.csv", "") + " --domain 0:1,0:1 --delta 1e-3", "empty"},
      {"header only", "--data " + w("h.csv", "lon,lat,value\n") + " --domain 0:1,0:1 --delta 1e-3",
       "no data rows"},
      {"non-numeric",
       "--data " + w("nn.csv", "lon,lat,value\n0.1,abc,1\n" + ok_rows) +
           " --domain 0:1,0:1 --delta 1e-3",
       "nn.csv:2"},
      {"NaN",
       "--data " + w("nan.csv", "lon,lat,value\n" + ok_rows + "0.1,0.1,nan\n") +
           " --domain 0:1,0:1 --delta 1e-3",
       "nan.csv:4"},
      {"Inf",
       "--data " + w("inf.csv", "lon,lat,value\n" + ok_rows + "0.1,0.1,inf\n") +
           " --domain 0:1,0:1 --delta 1e-3",
       "inf.csv:4"},
      {"column count",
       "--data " + w("cc.csv", "lon,lat,value\n" + ok_rows + "0.1,0.1\n") +
           " --domain 0:1,0:1 --delta 1e-3",
       "cc.csv:4"},
      {"duplicate header",
       "--data " + w("dh.csv", "lon,lon,value\n" + ok_rows) + " --domain 0:1,0:1 --delta 1e-3",
       "duplicate"},
      {"outside domain",
       "--data " + w("od.csv", "lon,lat,value\n" + ok_rows + "0.1,1.5,0\n") +
           " --domain 0:1,0:1 --delta 1e-3",
       "od.csv:4"},
      {"reject policy",
       "--data " + w("rp.csv", "lon,lat,value\n" + ok_rows + "0.1,0.5,2\n") +
           " --domain 0:1,0:1 --delta 1e-3 --response-policy reject",
       "rp.csv:4"},
      {"n below 2",
       "--data " + w("n1.csv", "lon,lat,value\n0.1,0.2,0.3\n") + " --domain 0:1,0:1 --delta 1e-3",
       "n ≥ 2"},
      {"delta zero", "--data " + f.data + " --domain 0:1,0:1 --delta 0", "--delta"},
      {"delta one", "--data " + f.data + " --domain 0:1,0:1 --delta 1", "--delta"},
      {"no domain", "--data " + f.data + " --delta 1e-3", "--domain"},
      {"infeasible target",
       "--data " + f.data +
           " --domain 0:1,0:1 --delta 1e-3 --target-epsilon 1e-20 --solve r --conversion mironov",
       "infeasible"},
      {"out not writable", "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --out " + ro + "/x",
       "not writable"},
      {"out under a file",
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --out " + f.data + "/x",
       "does not exist"},
      {"out not empty",
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --out " + f.dir.file("first"),
       "not empty"},
      {"corrupted ledger",
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --ledger " + garbage_ledger, "ledger"},
      {"Lemma B.7 on 2-D data (false there, docs/privacy.md)",
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --lemma b7", "in d ≥ 2 it is false"},
      {"internal-eval inside out",
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --internal-eval " +
           f.dir.file("o2/eval"),
       "--internal-eval"},
  };
  for (const auto& c : cases) {
    if (c.what == "out not writable" && ::geteuid() == 0) continue;  // root writes anywhere
    std::string args = "release " + core + c.args + " ";
    if (c.args.find("--ledger") == std::string::npos) args += "--ledger " + f.ledger + " ";
    if (c.args.find("--out") == std::string::npos) args += "--out " + f.dir.file("o2") + " ";
    const auto r = test::run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.what << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.what << ": " << r.err;
    EXPECT_FALSE(fs::exists(f.dir.file("o2"))) << c.what;
    EXPECT_EQ(f.rows(), 1) << c.what;
  }
  EXPECT_EQ(test::read_text(garbage_ledger), std::string(3000, 'g'));
  fs::permissions(ro, fs::perms::owner_all);
  // A corrupted kept path file.
  ASSERT_EQ(
      test::run_cli(f.base() + "--keep-path " + f.dir.file("p.gpdp") + " --out " + f.dir.file("kp"))
          .exit_code,
      0);
  std::string bytes = test::read_text(f.dir.file("p.gpdp"));
  bytes[bytes.size() / 2] ^= 0x40;
  test::write_text(f.dir.file("p.gpdp"), bytes);
  w("q.csv", "lon,lat\n0.5,0.5\n");
  const auto r =
      test::run_cli("query " + f.dir.file("p.gpdp") + " --data " + f.data + " --points " +
                    f.dir.file("q.csv") + " --out " + f.dir.file("q-out.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("not a usable gpdp path file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(f.dir.file("q-out.csv")));
}

TEST(CliRelease, QueryNeedsTheSameDataAndConsumesNoBudget) {
  Fixture f;
  test::write_text(f.dir.file("key"), std::string(64, '3'));
  ASSERT_EQ(test::run_cli(f.base() + "--keep-path " + f.dir.file("p.gpdp") + " --path-key " +
                          f.dir.file("key") + " --out " + f.dir.file("out"))
                .exit_code,
            0);
  test::write_text(f.dir.file("q.csv"), "lon,lat\n0.25,0.75\n0.5,0.5\n");
  const std::string query = "query " + f.dir.file("p.gpdp") + " --path-key " + f.dir.file("key") +
                            " --points " + f.dir.file("q.csv") + " --out " + f.dir.file("q1.csv") +
                            " --data ";
  auto r = test::run_cli(query + f.data);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(f.rows(), 1);
  // A point asked again returns the same value (0.5,0.5 was not on the grid; now it is known).
  const auto first = io::read_csv(f.dir.file("q1.csv")).numeric({"draw_1"});
  fs::remove(f.dir.file("q1.csv"));
  r = test::run_cli(query + f.data);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(io::read_csv(f.dir.file("q1.csv")).numeric({"draw_1"}), first);
  // Different data bytes: refused.
  test::write_text(f.dir.file("d2.csv"), test::read_text(f.data) + "0.5,0.5,0\n");
  r = test::run_cli(query + f.dir.file("d2.csv"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("SHA-256"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpdp
