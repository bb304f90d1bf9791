#include "gpdp/plot/style.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

namespace gpdp::plot {

Color Color::hex(std::uint32_t rgb, double alpha) {
  return {static_cast<double>((rgb >> 16) & 0xff) / 255.0,
          static_cast<double>((rgb >> 8) & 0xff) / 255.0, static_cast<double>(rgb & 0xff) / 255.0,
          alpha};
}

Color cycle_color(int index) {
  static const std::array<std::uint32_t, 10> tab10 = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728,
                                                      0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f,
                                                      0xbcbd22, 0x17becf};
  const auto i = static_cast<std::size_t>(((index % 10) + 10) % 10);
  return Color::hex(tab10[i]);
}

namespace {

// Piecewise-linear interpolation between equally spaced anchor colours.
Color interpolate(std::span<const std::uint32_t> anchors, double t) {
  const double x = std::clamp(t, 0.0, 1.0) * static_cast<double>(anchors.size() - 1);
  const auto i = std::min(static_cast<std::size_t>(x), anchors.size() - 2);
  const double f = x - static_cast<double>(i);
  const Color a = Color::hex(anchors[i]), b = Color::hex(anchors[i + 1]);
  return {a.r + f * (b.r - a.r), a.g + f * (b.g - a.g), a.b + f * (b.b - a.b), 1.0};
}

}  // namespace

Color colormap(Colormap map, double t) {
  if (std::isnan(t)) return {1, 1, 1, 0};
  // viridis sampled at 9 equally spaced points (the published viridis(9) palette).
  static const std::array<std::uint32_t, 9> viridis = {
      0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21908c, 0x27ad81, 0x5dc863, 0xaadc32, 0xfde725};
  // ColorBrewer RdBu (11 classes), reversed so that low = blue, high = red.
  static const std::array<std::uint32_t, 11> rdbu = {0x053061, 0x2166ac, 0x4393c3, 0x92c5de,
                                                     0xd1e5f0, 0xf7f7f7, 0xfddbc7, 0xf4a582,
                                                     0xd6604d, 0xb2182b, 0x67001f};
  static const std::array<std::uint32_t, 2> gray = {0x000000, 0xffffff};
  switch (map) {
    case Colormap::viridis:
      return interpolate(viridis, t);
    case Colormap::diverging:
      return interpolate(rdbu, t);
    case Colormap::gray:
      return interpolate(gray, t);
  }
  return interpolate(viridis, t);
}

}  // namespace gpdp::plot
