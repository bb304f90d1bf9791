// The same data under a new dataset name get no fresh budget (issue #29, hole 3): the Meuse file
// released as 'meuse-zinc', then under other names with the covariates swapped, with its lon/lat
// columns and --crs EPSG:4326, with an extra covariate column, with another response column of the
// same file, and as other files holding the same sites with the response ×1000, pre-logged, or with
// the coordinates jittered by 1e-9: every one is refused before anything is drawn (the file's rows
// or the covariates alone match), unless --new-dataset-despite-overlap says otherwise. Before,
// each of these was admitted as a new dataset with a budget of its own.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "gpdp/io/csv.hpp"
#include "gpdp/release/ledger.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;

struct Meuse {
  test::TempDir dir;
  std::string file = (fs::path(test::data_dir()) / "meuse.csv").string();
  std::string ledger = dir.file("l.sqlite");
  int outs = 0;
  // A release of `data` as `dataset` with `flags` (columns, domain, grid or points).
  test::CommandResult release(const std::string& data, const std::string& dataset,
                              const std::string& flags) {
    return test::run_cli(fmt::format(
        "release --data {} --kernel exp --ell 300 --sigma 1 --r 2 --M-Y 2 --threshold 0 "
        "--delta 1e-3 --dataset {} --ledger {} --out {} {}",
        data, dataset, ledger, dir.file(fmt::format("out{}", outs++)), flags));
  }
  long releases() const {
    long n = 0;
    for (const auto& d : release::Ledger::open_existing(ledger).datasets())
      n += static_cast<long>(d.releases.size());
    return n;
  }
  // A file of the Meuse sites: x, y (shifted by `jitter`) and the column `name` = f(zinc).
  std::string variant(const std::string& name, double jitter, double (*f)(double)) {
    const auto t = io::read_csv(file);
    const auto xyz = t.numeric({"x", "y", "zinc"});
    std::string csv = "x,y," + name + "\n";
    for (Eigen::Index i = 0; i < xyz.rows(); ++i)
      csv += fmt::format("{},{},{}\n", io::format_number(xyz(i, 0) + jitter),
                         io::format_number(xyz(i, 1) - jitter), io::format_number(f(xyz(i, 2))));
    const std::string out = dir.file(name + std::to_string(outs++) + ".csv");
    test::write_text(out, csv);
    return out;
  }
};

const std::string kXY =
    "--domain 178440:181560,329600:333760 --grid2d 178460:181540:8,329620:333740:8";

void expect_refused(const test::CommandResult& r, const std::string& why) {
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("were already released as dataset 'meuse-zinc'"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
}

TEST(ReleaseIdentity, TheSameDataUnderAnotherNameIsRefusedWhateverColumnsOrUnits) {
  Meuse m;
  const auto first =
      m.release(m.file, "meuse-zinc", "--x x,y --y zinc --transform log --center 6 " + kXY);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  // The same file, other columns.
  expect_refused(m.release(m.file, "swapped",
                           "--x y,x --y zinc --transform log --center 6 --domain "
                           "329600:333760,178440:181560 --grid2d 329620:333740:8,178460:181540:8"),
                 "rows of the same file");
  expect_refused(m.release(m.file, "lonlat",
                           "--x lon,lat --y zinc --transform log --center 6 --crs EPSG:4326 "
                           "--domain 5.70:5.80,50.94:51.00 --grid2d 5.71:5.79:8,50.95:50.99:8"),
                 "rows of the same file");
  test::write_text(m.dir.file("p3.csv"), "x,y,elev\n180000,331000,7\n179500,330500,8\n");
  expect_refused(m.release(m.file, "plus-elev",
                           "--x x,y,elev --y zinc --transform log --center 6 --domain "
                           "178440:181560,329600:333760,5:11 --points " +
                               m.dir.file("p3.csv")),
                 "rows of the same file");
  expect_refused(m.release(m.file, "lead", "--x x,y --y lead --transform log --center 5 " + kXY),
                 "rows of the same file");
  // Other files, the same sites: units, a transform done beforehand, jitter.
  expect_refused(m.release(m.variant("zinc_ug", 0, [](double z) { return 1000 * z; }), "ug",
                           "--x x,y --y zinc_ug --transform log --center 13 " + kXY),
                 "records at the same covariates");
  expect_refused(m.release(m.variant("logzinc", 0, [](double z) { return std::log(z); }), "logged",
                           "--x x,y --y logzinc --center 6 " + kXY),
                 "records at the same covariates");
  expect_refused(m.release(m.variant("zinc", 1e-9, [](double z) { return z; }), "jittered",
                           "--x x,y --y zinc --transform log --center 6 " + kXY),
                 "records at the same covariates");
  EXPECT_EQ(m.releases(), 1);
  // The data holder may still say that they are a new dataset: recorded, and then admitted.
  const auto despite = m.release(m.file, "lead",
                                 "--x x,y --y lead --transform log --center 5 "
                                 "--new-dataset-despite-overlap " +
                                     kXY);
  ASSERT_EQ(despite.exit_code, 0) << despite.err;
  EXPECT_NE(despite.out.find("DESPITE"), std::string::npos) << despite.out;
  EXPECT_EQ(m.releases(), 2);
}

}  // namespace
}  // namespace gpdp
