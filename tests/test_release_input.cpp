// Release inputs: the declared domain, the response policy, the public transform, the config
// file; the snapping lattice; the kept-path file format.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>

#include "gpdp/error.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/path_store.hpp"
#include "gpdp/release/sha256.hpp"
#include "gpdp/release/snapping.hpp"
#include "support/paths.hpp"

namespace gpdp::release {
namespace {

InputSpec unit_spec() {
  InputSpec s;
  s.domain = Box::parse("0:1,0:1");
  return s;
}

std::string message(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ReleaseInput, ClipsAndCounts) {
  const std::string csv = "x1,x2,y\n0.1,0.2,0.5\n0.3,0.4,3\n0.5,0.6,-7\n0.7,0.8,1\n";
  const auto p = prepare_data_from_text(csv, "d.csv", unit_spec());
  EXPECT_EQ(p.clipped, 2);
  EXPECT_DOUBLE_EQ(p.data.y(1), 1.0);
  EXPECT_DOUBLE_EQ(p.data.y(2), -1.0);
  EXPECT_DOUBLE_EQ(p.data.y(3), 1.0);  // on the bound: not clipped
  EXPECT_EQ(p.sha256, sha256_hex(csv));
  // SHA-256("abc") from FIPS 180-2, appendix B.1.
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// The sign-clipped response: y ← sign((transform(y) − C)/B) ∈ {−1, 0, 1}, nothing clipped at
// M_Y = 1; the JSON key "sign" reads and writes it; arrays take the same route as files.
TEST(ReleaseInput, SignTransform) {
  auto spec = unit_spec();
  spec.center = 2.0;
  spec.scale = 0.5;
  spec.sign = true;
  const std::string csv = "x1,x2,y\n0.1,0.2,2.5\n0.3,0.4,2\n0.5,0.6,-7\n0.7,0.8,1.9\n";
  const auto p = prepare_data_from_text(csv, "d.csv", spec);
  EXPECT_EQ(p.data.y, Eigen::Vector4d(1, 0, -1, -1));
  EXPECT_EQ(p.clipped, 0);
  const InputSpec back = parse_input_config(to_json(spec).dump(), "json");
  EXPECT_TRUE(back.sign);
  EXPECT_FALSE(parse_input_config(to_json(unit_spec()).dump(), "json").sign);
  EXPECT_THROW(parse_input_config(R"({"sign": 1})", "json"), InputError);
  Eigen::MatrixXd X(4, 2);
  X << 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8;
  EXPECT_EQ(prepare_data_from_arrays(X, Eigen::Vector4d(2.5, 2, -7, 1.9), spec).data.y, p.data.y);
  EXPECT_EQ(reclipped(unclipped_responses(p, spec), 0.5, 1.0), Eigen::Vector4d(0.5, -0.5, -1, -1));
}

TEST(ReleaseInput, RejectPolicyAndTransformNameTheLine) {
  auto spec = unit_spec();
  spec.policy = ResponsePolicy::Reject;
  const std::string csv = "x1,x2,y\n0.1,0.2,0.5\n0.3,0.4,3\n";
  EXPECT_NE(message([&] { prepare_data_from_text(csv, "d.csv", spec); }).find("d.csv:3"),
            std::string::npos);
  // Public log transform then centring/scaling: y ← (log y − C)/B.
  auto logspec = unit_spec();
  logspec.transform = ResponseTransform::Log;
  logspec.center = std::log(10.0);
  logspec.scale = 4.0;
  const auto p = prepare_data_from_text("x1,x2,y\n0.1,0.2,100\n0.3,0.4,10\n", "d.csv", logspec);
  EXPECT_NEAR(p.data.y(0), std::log(10.0) / 4.0, 1e-15);
  EXPECT_NEAR(p.data.y(1), 0.0, 1e-15);
  EXPECT_NE(message([&] {
              prepare_data_from_text("x1,x2,y\n0.1,0.2,1\n0.3,0.4,0\n", "d.csv", logspec);
            }).find("d.csv:3"),
            std::string::npos);
}

TEST(ReleaseInput, DomainIsDeclaredAndEnforced) {
  const std::string csv = "x1,x2,y\n0.1,0.2,0.5\n0.3,1.4,0.1\n";
  EXPECT_NE(message([&] { prepare_data_from_text(csv, "d.csv", unit_spec()); }).find("d.csv:3"),
            std::string::npos);
  EXPECT_NE(message([&] { prepare_data_from_text(csv, "d.csv", InputSpec{}); }).find("declared"),
            std::string::npos);
  auto one_d = InputSpec{};
  one_d.domain = Box::parse("0:1");
  EXPECT_NE(message([&] {
              prepare_data_from_text("x1,x2,y\n0.1,0.2,0\n0.1,0.2,0\n", "d.csv", one_d);
            }).find("dimension"),
            std::string::npos);
  EXPECT_NE(message([&] {
              prepare_data_from_text("x1,x2,y\n0.1,0.2,0.5\n", "d.csv", unit_spec());
            }).find("n ≥ 2"),
            std::string::npos);
}

TEST(ReleaseInput, ConfigFileOverBaseAndStrict) {
  const auto spec = parse_input_config(
      R"({"x": ["lon", "lat"], "y": "zinc", "domain": "0:2,0:3", "M_Y": 2, "policy": "reject",
          "transform": "log", "center": 6.5, "scale": 1.5})",
      "c.json");
  ASSERT_TRUE(spec.domain.has_value());
  EXPECT_EQ(spec.domain->to_string(), "0:2,0:3");
  EXPECT_EQ(spec.x_columns, (std::vector<std::string>{"lon", "lat"}));
  EXPECT_EQ(spec.policy, ResponsePolicy::Reject);
  EXPECT_DOUBLE_EQ(*spec.scale, 1.5);
  EXPECT_THROW(parse_input_config(R"({"domian": "0:1"})", "c.json"), InputError);
  EXPECT_THROW(parse_input_config(R"({"M_Y": "one"})", "c.json"), InputError);
  EXPECT_THROW(parse_input_config(R"({"M_Y": -1})", "c.json"), InputError);
  EXPECT_THROW(parse_input_config(R"([1, 2])", "c.json"), InputError);
  EXPECT_THROW(parse_input_config("{", "c.json"), InputError);
}

TEST(Snapping, PowerOfTwoLatticeFromPublicQuantitiesOnly) {
  const auto g = release_granularity(155, 1.0, 2.0, 1.0, 0.0);
  EXPECT_EQ(g.lambda, std::ldexp(1.0, g.exponent));
  // At most 1/256 of the smallest possible posterior standard deviation σ r / √(n + r²) ...
  EXPECT_LE(g.lambda, 2.0 / std::sqrt(159.0) / 256.0);
  // ... and at least 2^24 ulps of the public bound on |value|.
  EXPECT_GE(g.lambda, std::ldexp(1.0, 24 - 53) * (155.0 / 4.0 + 40.0));
  for (double v : {0.123456789, -3.3, 1e-12, 17.0}) {
    const double s = snap(v, g);
    EXPECT_LE(std::abs(s - v), g.lambda / 2);
    EXPECT_EQ(std::fmod(s, g.lambda), 0.0);
  }
  EXPECT_EQ(snap(1e300, g), g.value_bound);
  EXPECT_THROW(snap(std::nan(""), g), NumericalError);
}

TEST(PathStore, RoundTripsEncryptedAndDetectsDamage) {
  test::TempDir dir;
  const std::string payload = R"({"points": [[0.1, 0.2]], "values": [0.5]})";
  // Plain, mode 0600, checksummed.
  save_path_file(dir.file("p0.gpdp"), payload, {});
  struct stat st {};
  ASSERT_EQ(stat(dir.file("p0.gpdp").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(load_path_file(dir.file("p0.gpdp"), {}), payload);
  std::string bytes = test::read_text(dir.file("p0.gpdp"));
  bytes[bytes.size() - 3] ^= 1;
  EXPECT_THROW(decode_path_file(bytes, "p0", {}), InputError);
  // Key file: the payload is not visible in the file, the wrong key fails.
  test::write_text(dir.file("k"), std::string(64, 'a') + "\n");
  const PathKey key = key_from_file(dir.file("k"));
  save_path_file(dir.file("p1.gpdp"), payload, key);
  EXPECT_EQ(test::read_text(dir.file("p1.gpdp")).find("points"), std::string::npos);
  EXPECT_EQ(load_path_file(dir.file("p1.gpdp"), key), payload);
  test::write_text(dir.file("k2"), std::string(64, 'b'));
  EXPECT_THROW(load_path_file(dir.file("p1.gpdp"), key_from_file(dir.file("k2"))), InputError);
  EXPECT_THROW(load_path_file(dir.file("p1.gpdp"), {}), InputError);
  // Passphrase (Argon2id).
  setenv("GPDP_TEST_PASS", "correct horse", 1);
  save_path_file(dir.file("p2.gpdp"), payload, key_from_env("GPDP_TEST_PASS"));
  EXPECT_EQ(load_path_file(dir.file("p2.gpdp"), key_from_env("GPDP_TEST_PASS")), payload);
  setenv("GPDP_TEST_PASS", "wrong horse", 1);
  EXPECT_THROW(load_path_file(dir.file("p2.gpdp"), key_from_env("GPDP_TEST_PASS")), InputError);
  // Truncation and garbage.
  EXPECT_THROW(decode_path_file("GPDPPATH", "p", {}), InputError);
  EXPECT_THROW(decode_path_file(std::string(100, 'z'), "p", {}), InputError);
}

}  // namespace
}  // namespace gpdp::release
