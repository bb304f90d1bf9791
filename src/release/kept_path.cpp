#include "gpdp/release/kept_path.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <bit>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "gpdp-path-1";

json matrix_json(const Eigen::MatrixXd& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

Eigen::MatrixXd matrix_from_json(const json& rows, Eigen::Index cols) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()), cols);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (Eigen::Index j = 0; j < cols; ++j)
      m(static_cast<Eigen::Index>(i), j) = rows[i].at(static_cast<std::size_t>(j)).get<double>();
  }
  return m;
}

}  // namespace

void save_kept_path(const std::string& file, const KeptPath& s, const PathKey& key) {
  json state{{"format", kFormat},
             {"path_id", s.path_id},
             {"dataset_sha256", s.dataset_sha256},
             {"input", to_json(s.input)},
             {"kernel", {{"name", s.kernel.name()}, {"ell", s.kernel.lengthscale()}}},
             {"r", s.r},
             {"sigma", s.sigma},
             {"eta", s.eta},
             {"threshold", s.threshold},
             {"lattice_exponent", s.lattice_exponent},
             {"ledger", s.ledger},
             {"release_id", s.release_id},
             {"dim", s.dim()},
             {"names", s.names},
             {"private", s.private_answers},
             {"history_key", s.history_key},
             {"offset", s.offset},
             {"paths", json::array()}};
  if (s.table) {
    state["grid_mean"] = {{"table", to_json(*s.table)},
                          {"noise_scale", s.noise_scale},
                          {"count_noise", s.count_noise}};
  }
  for (const auto& p : s.paths) {
    state["paths"].push_back(
        {{"points", matrix_json(p.points)}, {"values", matrix_json(p.values)}});
  }
  save_path_file(file, state.dump(), key);
}

KeptPath load_kept_path(const std::string& file, const PathKey& key) {
  return load_kept_path_bytes(io::read_file(file), file, key);
}

KeptPath load_kept_path_bytes(const std::string& bytes, const std::string& file,
                              const PathKey& key) {
  const std::string text = decode_path_file(bytes, file, key);
  try {
    const json state = json::parse(text);
    if (state.value("format", "") != kFormat) {
      throw InputError(fmt::format("{}: not a gpdp path file (bad contents)", file));
    }
    KeptPath s;
    s.path_id = state.at("path_id").get<std::string>();
    s.dataset_sha256 = state.at("dataset_sha256").get<std::string>();
    s.input = parse_input_config(state.at("input").dump(), file);
    require(s.input.domain.has_value() && !s.input.x_columns.empty(),
            fmt::format("{}: not a gpdp path file (no domain or covariate columns)", file));
    s.kernel = Kernel::from_name(state.at("kernel").at("name").get<std::string>(),
                                 state["kernel"].at("ell").get<double>());
    s.r = state.at("r").get<double>();
    s.sigma = state.at("sigma").get<double>();
    s.eta = state.at("eta").get<double>();
    s.threshold = state.at("threshold").get<double>();
    s.lattice_exponent = state.at("lattice_exponent").get<int>();
    s.ledger = state.at("ledger").get<std::string>();
    s.release_id = state.at("release_id").get<long long>();
    s.names = state.at("names").get<std::vector<std::string>>();
    s.private_answers = state.value("private", true);  // files before it: see Ledger::open_path
    s.history_key = state.value("history_key", "");
    s.offset = state.value("offset", 0.0);
    if (state.contains("grid_mean")) {
      const json& g = state.at("grid_mean");
      s.table = cell_table_from_json(g.at("table"), file);
      s.noise_scale = g.at("noise_scale").get<double>();
      s.count_noise = g.at("count_noise").get<double>();
    }
    require(static_cast<int>(s.names.size()) == state.at("dim").get<int>(),
            fmt::format("{}: not a gpdp path file (inconsistent dimension)", file));
    for (const auto& p : state.at("paths")) {
      const Eigen::MatrixXd values = matrix_from_json(p.at("values"), 1);
      s.paths.push_back({matrix_from_json(p.at("points"), s.dim()), values.col(0)});
    }
    return s;
  } catch (const json::exception&) {
    throw InputError(fmt::format("{}: not a gpdp path file (missing or malformed fields)", file));
  }
}

PathGeneration path_generation(const KeptPath& s) {
  if (sodium_init() < 0) throw Error("libsodium could not be initialised");
  std::vector<unsigned char> key(s.history_key.size() / 2);
  std::size_t key_bytes = 0;
  require(sodium_hex2bin(key.data(), key.size(), s.history_key.data(), s.history_key.size(),
                         nullptr, &key_bytes, nullptr) == 0 &&
              key_bytes == key.size() && key.size() <= crypto_generichash_KEYBYTES_MAX,
          "kept path: malformed history_key");
  crypto_generichash_state h;
  crypto_generichash_init(&h, key.empty() ? nullptr : key.data(), key.size(), 32);
  const auto add = [&h](std::uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    crypto_generichash_update(&h, b, sizeof b);
  };
  const auto add_double = [&add](double v) { add(std::bit_cast<std::uint64_t>(v + 0.0)); };
  add(s.paths.size());
  for (const auto& p : s.paths) {
    add(static_cast<std::uint64_t>(p.points.rows()));
    add(static_cast<std::uint64_t>(p.points.cols()));
    for (Eigen::Index i = 0; i < p.points.rows(); ++i) {
      for (Eigen::Index j = 0; j < p.points.cols(); ++j) add_double(p.points(i, j));
      add_double(p.values(i));
    }
  }
  unsigned char out[32];
  crypto_generichash_final(&h, out, sizeof out);
  char hex[65];
  sodium_bin2hex(hex, sizeof hex, out, sizeof out);
  return {s.paths.empty() ? 0 : static_cast<long long>(s.paths.front().points.rows()), hex};
}

}  // namespace gpdp::release
