#include "gpdp/preview/release_config.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/preview/report.hpp"
#include "gpdp/release/sha256.hpp"

namespace gpdp::preview {

namespace {

std::string read_bytes(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the preview file", file));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The mechanism's public parameters as the preview wrote them.
privacy::GpMechanism mechanism_of(const nlohmann::json& c, privacy::GpMechanism m) {
  m.kind = privacy::parse_mechanism_kind(c.at("mechanism").get<std::string>());
  m.kernel = Kernel::from_name(c.at("kernel").get<std::string>(), c.at("ell").get<double>());
  m.r = c.at("r").get<double>();
  m.sigma = c.value("sigma", m.sigma);  // absent for the functional mechanism (no part there)
  m.eta = c.value("eta", 0.0);
  m.noise_scale = c.value("noise_scale", 0.0);
  m.count_noise = c.value("count_noise", 0.0);
  m.lemma = privacy::parse_sensitivity_lemma(c.at("lemma").get<std::string>());
  return m;
}

}  // namespace

void apply_preview_config(const std::string& file, double target_epsilon,
                          release::ReleaseRequest& q) {
  const std::string bytes = read_bytes(file);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(bytes);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not JSON ({})", file, e.what()));
  }
  const ChosenConfig chosen = chosen_config(j, target_epsilon, file);
  const nlohmann::json& c = chosen.config;
  try {
    require(chosen.delta == q.delta,
            fmt::format("{}: the preview was made for δ = {}, the release asks δ = {} (give the "
                        "preview's δ or preview again)",
                        file, chosen.delta, q.delta));
    const double M_Y = c.at("M_Y").get<double>();
    require(M_Y == q.input.M_Y, fmt::format("{}: the preview was made for M_Y = {}, the release "
                                            "asks M_Y = {}",
                                            file, M_Y, q.input.M_Y));
    q.mechanism = mechanism_of(c, q.mechanism);
    q.conversion = privacy::parse_conversion(chosen.conversion);
    q.draws = c.at("draws").get<int>();
    q.vote_cutoff = c.at("vote_cutoff").get<double>();
    q.smooth = c.at("smooth").get<double>();
    if (c.contains("cells")) q.cells = c.at("cells").get<std::vector<long>>();
    if (c.contains("prior_mean")) {
      q.prior_mean = release::PriorMeanSpec{true, c["prior_mean"].at("fraction").get<double>(), 0.0,
                                            c["prior_mean"].at("noise_scale").get<double>()};
    }
    if (c.value("sign", false)) q.input.sign = true;
    q.calibration.reset();
    q.preview = release::PreviewOrigin{std::filesystem::path(file).filename().string(),
                                       release::sha256_hex(bytes),
                                       target_epsilon,
                                       c.at("n").get<long>(),
                                       c,
                                       chosen.iou};
  } catch (const nlohmann::json::exception& e) {
    throw InputError(
        fmt::format("{}: malformed configuration for ε = {} ({})", file, target_epsilon, e.what()));
  }
}

}  // namespace gpdp::preview
