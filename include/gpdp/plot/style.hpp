#pragma once
// Colours, colour maps and the style options of each kind of plot element. All option structs are
// aggregates with a default for every member (so designated initializers may skip any without
// -Wmissing-field-initializers), and call sites read ax.line(xs, ys, {.label = "ε(δ)", .dashed =
// true}).
#include <cstdint>
#include <optional>
#include <string>

namespace gpdp::plot {

struct Color {
  double r = 0, g = 0, b = 0, a = 1;
  // Color::hex(0x1f77b4) or Color::hex(0x1f77b4, 0.5).
  static Color hex(std::uint32_t rgb, double alpha = 1.0);
  Color with_alpha(double alpha) const { return {r, g, b, alpha}; }
};

namespace colors {
inline const Color black{0, 0, 0};
inline const Color white{1, 1, 1};
inline const Color gray{0.5, 0.5, 0.5};
inline const Color red = Color::hex(0xd62728);
inline const Color blue = Color::hex(0x1f77b4);
inline const Color orange = Color::hex(0xff7f0e);
inline const Color green = Color::hex(0x2ca02c);
}  // namespace colors

// The default colour cycle (10 colours, Tableau 10): element i without a colour gets cycle(i).
Color cycle_color(int index);

enum class Colormap {
  viridis,    // sequential, perceptually uniform (dark blue -> yellow)
  diverging,  // blue - white - red, centred on HeatmapStyle::center
  gray,       // black -> white
};
// The colour of t in [0, 1] (clamped) under the map.
Color colormap(Colormap map, double t);

struct LineStyle {
  std::string label = {};           // legend entry; empty = none
  std::optional<Color> color = {};  // default: next colour of the cycle
  bool dashed = false;
  double width = 2.0;  // pixels
};

struct BandStyle {
  std::string label = {};
  std::optional<Color> color =
      {};  // default: the colour the NEXT line() will get (band, then line)
  double alpha = 0.25;
};

struct MarkerStyle {
  std::string label = {};
  std::optional<Color> color = {};
  double size = 3.5;  // radius in pixels
  bool filled = true;
};

struct HistogramStyle {
  std::string label = {};
  std::optional<Color> color = {};
  double alpha = 0.55;
  bool density = false;                    // heights integrate to 1 instead of counts
  std::optional<double> lo = {}, hi = {};  // bin range; default: data min/max
};

struct RegionStyle {
  std::string label = {};
  std::optional<Color> color = {};
  double alpha = 0.35;      // fill opacity
  double edge_width = 1.5;  // outline in the full colour; 0 = none
};

struct HeatmapStyle {
  Colormap map = Colormap::viridis;
  std::optional<double> vmin = {}, vmax = {};  // default: data range (diverging: symmetric)
  double center = 0.0;                         // diverging maps: the value drawn white
  bool colorbar = true;
  std::string colorbar_label = {};
};

struct TextStyle {
  double size = 13;  // pixels
  Color color = colors::black;
  enum class Anchor { left, center, right } anchor = Anchor::left;
  bool data_coords = true;  // false: x, y are fractions of the panel (0..1, y up)
};

enum class LegendPosition { upper_right, upper_left, lower_right, lower_left };

}  // namespace gpdp::plot
