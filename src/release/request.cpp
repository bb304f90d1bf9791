#include "gpdp/release/request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::release {

ImageFormat parse_image_format(const std::string& name) {
  if (name == "png") return ImageFormat::Png;
  if (name == "svg") return ImageFormat::Svg;
  throw ParameterError({"image_format"},
                       fmt::format("image_format must be png or svg, got '{}'", name));
}

std::string to_string(ImageFormat format) { return format == ImageFormat::Png ? "png" : "svg"; }

PriorMeanSpec parse_prior_mean(const std::string& text) {
  PriorMeanSpec p;
  if (text == "dp" || text.rfind("dp:", 0) == 0) {
    p.private_estimate = true;
    if (text.size() > 3) {
      std::size_t used = 0;
      double fraction = 0;
      try {
        fraction = std::stod(text.substr(3), &used);
      } catch (const std::exception&) {
        used = 0;
      }
      require(used == text.size() - 3 && fraction > 0 && fraction < 1,
              fmt::format("prior mean dp:FRACTION needs a fraction in (0, 1), got '{}'", text));
      p.fraction = fraction;
    }
    return p;
  }
  std::size_t used = 0;
  try {
    p.value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  require(used == text.size() && !text.empty() && std::isfinite(p.value),
          fmt::format("prior mean must be dp, dp:FRACTION or a number (response units), got '{}'",
                      text));
  return p;
}

std::vector<long> parse_cells(const std::string& text) {
  std::vector<long> cells;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    std::size_t used = 0;
    long k = 0;
    try {
      k = std::stol(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    require(used == item.size() && !item.empty() && k >= 1,
            fmt::format("cells must be counts ≥ 1 per axis, nx[,ny], got '{}'", text));
    cells.push_back(k);
    start = end + 1;
  }
  return cells;
}

std::string rng_description(const ReleaseRequest& request) {
  return rng_description(request.insecure_seed);
}

std::string rng_description(const std::optional<std::uint64_t>& insecure_seed) {
  if (insecure_seed)
    return fmt::format("seeded xoshiro256** seed={} (NOT PRIVATE)", *insecure_seed);
  return "secure (libsodium randombytes)";
}

}  // namespace gpdp::release
