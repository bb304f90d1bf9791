#include "gpdp/release/request.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"

namespace gpdp::release {

ImageFormat parse_image_format(const std::string& name) {
  if (name == "png") return ImageFormat::Png;
  if (name == "svg") return ImageFormat::Svg;
  throw ParameterError({"image_format"},
                       fmt::format("image_format must be png or svg, got '{}'", name));
}

std::string to_string(ImageFormat format) { return format == ImageFormat::Png ? "png" : "svg"; }

std::string rng_description(const ReleaseRequest& request) {
  return rng_description(request.insecure_seed);
}

std::string rng_description(const std::optional<std::uint64_t>& insecure_seed) {
  if (insecure_seed)
    return fmt::format("seeded xoshiro256** seed={} (NOT PRIVATE)", *insecure_seed);
  return "secure (libsodium randombytes)";
}

}  // namespace gpdp::release
