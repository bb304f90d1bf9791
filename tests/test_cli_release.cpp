// gpdp release / query / ledger end to end through the CLI: the certificate equals the
// accountant, clipping is counted, the budget is enforced, bad inputs change nothing.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "gpdp/io/csv.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/risk.hpp"
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
  std::string base(const std::string& file = "", const std::string& dataset = "synthetic") const {
    return fmt::format(
        "release --data {} --x lon,lat --y value --domain 0:1,0:1 --kernel exp --ell 0.3 "
        "--sigma 1 --r 3 --grid2d 0:1:12,0:1:10 --threshold 0 --delta 1e-3 --ledger {} "
        "--dataset {} ",
        file.empty() ? data : file, ledger, dataset);
  }
  long rows(const std::string& dataset = "synthetic") const {
    if (!fs::exists(ledger)) return 0;
    const auto d = release::Ledger::open_existing(ledger).dataset(dataset);
    return d ? static_cast<long>(d->releases.size()) : 0;
  }
};

// The mechanism of Fixture::base() (30 records in [0,1]², exponential kernel ℓ = 0.3, σ = 1,
// M_Y = 1, Lemma S.1: the release's default sensitivity) at ridge r.
privacy::GpMechanism fixture_mechanism(double r) {
  privacy::GpMechanism m;
  m.kernel = Kernel::exponential(0.3);
  m.dim = 2;
  m.domain = Box::parse("0:1,0:1");
  m.n = 30;
  m.r = r;
  m.sigma = 1;
  m.M_Y = 1;
  m.lemma = privacy::SensitivityLemma::B1Sharp;
  return m;
}

TEST(CliRelease, CertificateEqualsAccountantAndOutputsAreSnapped) {
  Fixture f;
  const auto r = test::run_cli(f.base() + "--draws 3 --insecure-seed 5 --out " + f.dir.file("out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cert = json::parse(test::read_text(f.dir.file("out/certificate.json")));
  // The accountant, called directly with the same public inputs.
  const privacy::GpMechanism m = fixture_mechanism(3.0);
  const auto g = privacy::account(m, 3, 1e-3, privacy::Conversion::CKS);
  privacy::Accountant composition;
  composition.add(m, 3);
  const auto risk = privacy::attack_risk(composition, g);
  const auto b = privacy::resolve_bounds(m);
  EXPECT_DOUBLE_EQ(cert["guarantee"]["epsilon"].get<double>(), g.epsilon);
  EXPECT_DOUBLE_EQ(cert["guarantee"]["alpha_star"].get<double>(), g.alpha);
  EXPECT_DOUBLE_EQ(cert["guarantee"]["delta"].get<double>(), 1e-3);
  EXPECT_EQ(cert["guarantee"]["conversion"], "cks");
  EXPECT_DOUBLE_EQ(cert["sensitivity"]["Delta_n"].get<double>(), b.Delta_n);
  EXPECT_DOUBLE_EQ(cert["sensitivity"]["V_n"].get<double>(), b.Vn);
  EXPECT_DOUBLE_EQ(cert["sensitivity"]["kappa"].get<double>(), std::exp(-std::sqrt(2.0) / 0.3));
  EXPECT_EQ(cert["sensitivity"]["lemma"], "b1-sharp");
  EXPECT_EQ(cert["draws"], 3);
  EXPECT_EQ(cert["input"]["n"], 30);
  EXPECT_EQ(cert["input"]["clipped"], f.clipped);
  EXPECT_EQ(cert["input"]["sha256"], release::sha256_hex(test::read_text(f.data)));
  EXPECT_EQ(cert["private"], false);
  EXPECT_NE(cert["rng"].get<std::string>().find("NOT PRIVATE"), std::string::npos);
  EXPECT_EQ(cert["gpdp_version"], "0.1.0");
  // The attack risk of this release: the accountant's numbers, at the three FPRs.
  for (const auto& p : risk.points) {
    EXPECT_DOUBLE_EQ(cert["risk"]["tpr_at_fpr"][fmt::format("{:g}", p.fpr)].get<double>(), p.tpr);
  }
  EXPECT_EQ(cert["privacy_record"], composition.record());
  EXPECT_EQ(cert["dataset"]["name"], "synthetic");
  EXPECT_NE(cert["ledger"]["filter_theorem"].get<std::string>().find("Feldman & Zrnic 2021"),
            std::string::npos);
  EXPECT_EQ(cert["sampler_requested"], "auto");
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
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --sensitivity b7",
       "in d ≥ 2 it is false"},
      {"internal-eval inside out",
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --internal-eval " +
           f.dir.file("o2/eval"),
       "--internal-eval"},
      {"bad dataset name", "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --dataset 'a b'",
       "--dataset"},
      {"inapplicable sampler",
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --sampler markov", "--sampler"},
      {"sampler on a mask",
       "--data " + f.data + " --domain 0:1,0:1 --delta 1e-3 --sampler pathwise --mask " +
           w("mask.csv", "lon,lat\n0.5,0.5\n"),
       "--sampler"},
  };
  for (const auto& c : cases) {
    if (c.what == "out not writable" && ::geteuid() == 0) continue;  // root writes anywhere
    std::string args = "release " + core + c.args + " ";
    if (c.args.find("--dataset") == std::string::npos) args += "--dataset synthetic ";
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
  // Different data bytes: refused (a query rebuilds the posterior from exactly those bytes).
  test::write_text(f.dir.file("d2.csv"), test::read_text(f.data) + "0.5,0.5,0\n");
  r = test::run_cli(query + f.dir.file("d2.csv"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("SHA-256"), std::string::npos) << r.err;
}

// The same records re-exported (rows reversed, columns reordered, numbers written with 17
// digits, CRLF line endings, blank lines) under the same name compose with the first release:
// the budget of ε = 1.3 holds one ε = 1 release whatever the file looks like.
TEST(CliRelease, ReorderedReformattedCopiesShareTheBudget) {
  Fixture f;
  const auto rows = io::read_csv(f.data).numeric({"lon", "lat", "value"});
  std::string copy = "value,lat,lon\r\n\r\n";
  for (Eigen::Index i = rows.rows() - 1; i >= 0; --i) {
    copy += fmt::format("{:.17g},{:.17g},{:.17g}\r\n\r\n", rows(i, 2), rows(i, 1), rows(i, 0));
  }
  test::write_text(f.dir.file("copy.csv"), copy);
  ASSERT_NE(release::sha256_hex(copy), release::sha256_hex(test::read_text(f.data)));
  const std::string budget = "--budget-epsilon 1.3 --budget-delta 1e-3 --target-epsilon 1 ";
  auto r = test::run_cli(f.base() + budget + "--out " + f.dir.file("a"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run_cli(f.base(f.dir.file("copy.csv")) + budget + "--out " + f.dir.file("b"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("budget exceeded"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(f.dir.file("b")));
  EXPECT_EQ(f.rows(), 1);
  // A smaller release of the copy fits and is recorded under the same dataset.
  r = test::run_cli(f.base(f.dir.file("copy.csv")) + "--target-epsilon 0.1 --out " +
                    f.dir.file("c"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(f.rows(), 2);
}

// The same records under another name: refused, naming the earlier dataset; with
// --new-dataset-despite-overlap released, and the certificate says so.
TEST(CliRelease, OverlapUnderAnotherNameIsRefusedUnlessOverridden) {
  Fixture f;
  ASSERT_EQ(test::run_cli(f.base() + "--out " + f.dir.file("a")).exit_code, 0);
  auto r = test::run_cli(f.base("", "synthetic-v2") + "--out " + f.dir.file("b"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'synthetic'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--new-dataset-despite-overlap"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(f.dir.file("b")));
  EXPECT_EQ(f.rows("synthetic-v2"), 0);
  r = test::run_cli(f.base("", "synthetic-v2") + "--new-dataset-despite-overlap --out " +
                    f.dir.file("b"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cert = json::parse(test::read_text(f.dir.file("b/certificate.json")));
  EXPECT_EQ(cert["dataset"]["name"], "synthetic-v2");
  EXPECT_EQ(cert["dataset"]["new_dataset_despite_overlap"], true);
  EXPECT_EQ(cert["dataset"]["overlap_override"][0]["dataset"], "synthetic");
  EXPECT_EQ(cert["dataset"]["overlap_override"][0]["shared"], 30);
  EXPECT_NE(r.out.find("DESPITE data shared with 'synthetic' (30 records"), std::string::npos)
      << r.out;
}

// What the machine cannot hold is a clear error before anything is drawn or spent (issue #29):
// --draws 1e9 is refused by name; a grid of 9·10¹⁰ points ends in std::bad_alloc, which is an
// "out of memory" error, not an internal one.
TEST(CliRelease, ResourceErrorsAreClearAndSpendNothing) {
  Fixture f;
  auto r = test::run_cli(f.base() + "--draws 1000000000 --out " + f.dir.file("a"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--draws"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("GB"), std::string::npos) << r.err;
  const std::string huge = f.base();
  r = test::run_cli(huge.substr(0, huge.find("--grid2d")) + "--grid2d 0:1:300000,0:1:300000 " +
                    huge.substr(huge.find("--threshold")) + "--out " + f.dir.file("b"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("out of memory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_EQ(f.rows(), 0);
  EXPECT_FALSE(fs::exists(f.dir.file("a")));
  EXPECT_FALSE(fs::exists(f.dir.file("b")));
}

// Rows that repeat another exactly are counted on the data holder's terminal (stderr and the
// summary), never in the certificate.
TEST(CliRelease, DuplicateRowsAreWarnedAbout) {
  Fixture f;
  const std::string text = test::read_text(f.data);
  const std::string second_row = text.substr(text.find('\n') + 1);
  test::write_text(f.dir.file("dup.csv"), text + second_row.substr(0, second_row.find('\n') + 1) +
                                              second_row.substr(0, second_row.find('\n') + 1));
  const auto r = test::run_cli(f.base(f.dir.file("dup.csv")) + "--json --out " + f.dir.file("o"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: 2 data row(s) repeat another row exactly"), std::string::npos)
      << r.err;
  EXPECT_EQ(json::parse(r.out)["warnings"].size(), 1u);
  EXPECT_EQ(test::read_text(f.dir.file("o/certificate.json")).find("repeat"), std::string::npos);
}

// --sampler is honoured (and named in the certificate): in 1-D with the exponential kernel auto
// picks markov, dense must then be used when asked.
TEST(CliRelease, SamplerIsHonoured) {
  test::TempDir dir;
  test::write_text(dir.file("d.csv"), "x1,y\n0.1,0.2\n0.4,-0.3\n0.7,0.5\n0.9,0.1\n");
  const std::string base = "release --data " + dir.file("d.csv") +
                           " --domain 0:1 --kernel exp --ell 0.5 --r 2 --sigma 1 "
                           "--threshold 0 --delta 1e-3 --dataset tiny --ledger " +
                           dir.file("l.sqlite") + " --insecure-seed 3 ";
  for (const std::string sampler : {"auto", "dense", "markov"}) {
    const auto r =
        test::run_cli(base + "--grid 0:1:50 --sampler " + sampler + " --out " + dir.file(sampler));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json cert = json::parse(test::read_text(dir.file(sampler + "/certificate.json")));
    EXPECT_EQ(cert["sampler_requested"], sampler);
    const std::string used = sampler == "auto" ? "markov" : sampler;
    EXPECT_EQ(cert["sampler"].get<std::string>().rfind(used, 0), 0u) << cert["sampler"];
  }
  // pathwise needs a whole grid: on a list of points it is an error, and nothing is released.
  const auto r = test::run_cli(base + "--sampler pathwise --points " + dir.file("d.csv") +
                               " --out " + dir.file("p"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--sampler pathwise"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("p")));
  EXPECT_EQ(release::Ledger::open_existing(dir.file("l.sqlite")).dataset("tiny")->releases.size(),
            3u);
}

// The old spelling --lemma still works, with a deprecation note, and means --sensitivity.
TEST(CliRelease, OldSpellingStillWorksWithANote) {
  Fixture f;
  auto r = test::run_cli(f.base() + "--lemma b1 --json --out " + f.dir.file("old"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("--lemma is deprecated; use --sensitivity"), std::string::npos) << r.err;
  const double old_eps = json::parse(r.out)["epsilon"].get<double>();
  r = test::run_cli(f.base() + "--sensitivity b1 --json --out " + f.dir.file("new"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("deprecated"), std::string::npos);
  EXPECT_DOUBLE_EQ(json::parse(r.out)["epsilon"].get<double>(), old_eps);
  r = test::run_cli(f.base() + "--lemma b1 --sensitivity b1 --out " + f.dir.file("both"));
  EXPECT_EQ(r.exit_code, 2);
}

// The summary says what the guarantee means for an attacker, for the release and the budget.
TEST(CliRelease, SummaryStatesTheAttackRisk) {
  Fixture f;
  const auto r =
      test::run_cli(f.base() + "--budget-epsilon 5 --budget-delta 1e-3 --out " + f.dir.file("a"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("risk        an attacker at 1 % false positives identifies at most"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("against the whole budget"), std::string::npos) << r.out;
  const json cert = json::parse(test::read_text(f.dir.file("a/certificate.json")));
  for (const char* k : {"0.001", "0.01", "0.1"}) {
    EXPECT_GE(cert["risk"]["budget"]["tpr_at_fpr"][k].get<double>(),
              cert["risk"]["tpr_at_fpr"][k].get<double>());
  }
  EXPECT_EQ(cert["ledger"]["filter"]["orders"].size(), 1u);
}

// A schema-1 ledger (budget keyed by the data file's SHA-256) is refused with the command that
// migrates it; after `gpdp ledger migrate` its releases compose with the next ones.
TEST(CliRelease, OldLedgerIsMigrated) {
  Fixture f;
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(f.ledger.c_str(), &db), SQLITE_OK);
    const privacy::GpMechanism m = fixture_mechanism(0.8);
    const std::string sql = fmt::format(
        "PRAGMA application_id={}; PRAGMA user_version=1;"
        "CREATE TABLE budgets(dataset_sha256 TEXT PRIMARY KEY, epsilon REAL NOT NULL, delta REAL "
        "NOT NULL, created TEXT NOT NULL);"
        "CREATE TABLE releases(id INTEGER PRIMARY KEY AUTOINCREMENT, dataset_sha256 TEXT NOT "
        "NULL, created TEXT NOT NULL, mechanism TEXT NOT NULL, epsilon REAL NOT NULL, delta REAL "
        "NOT NULL, conversion TEXT NOT NULL, parameters TEXT NOT NULL, out_dir TEXT NOT NULL, "
        "path_id TEXT NOT NULL);"
        "INSERT INTO budgets VALUES('{}', 1.3, 1e-3, '2024-01-01T00:00:00Z');"
        "INSERT INTO releases(dataset_sha256, created, mechanism, epsilon, delta, conversion, "
        "parameters, out_dir, path_id) VALUES('{}', '2024-01-01T00:00:00Z', '{}', 1, 1e-3, "
        "'cks', '{{}}', '/tmp/o', '');",
        0x47504450, release::sha256_hex(test::read_text(f.data)),
        release::sha256_hex(test::read_text(f.data)),
        privacy::to_json(privacy::Event{m, 1}).dump());
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  auto r = test::run_cli(f.base() + "--out " + f.dir.file("a"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("gpdp ledger migrate"), std::string::npos) << r.err;
  r = test::run_cli("ledger migrate " + f.ledger + " --data " + f.data +
                    " --x lon,lat --y value --dataset synthetic");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("nothing left to migrate"), std::string::npos) << r.out;
  EXPECT_EQ(f.rows(), 1);
  // The migrated release (ε ≈ 1 of 1.3) leaves no room for another ε = 1.
  r = test::run_cli(f.base() + "--target-epsilon 1 --out " + f.dir.file("b"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("budget exceeded"), std::string::npos) << r.err;
  r = test::run_cli("ledger show " + f.ledger);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("dataset synthetic  (30 distinct records)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpdp
