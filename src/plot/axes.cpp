#include "gpdp/plot/axes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::plot {
namespace {

void require_same_size(const char* what, std::size_t a, std::size_t b) {
  require(a == b, fmt::format("plot {}: x and y need the same length, got {} and {}", what, a, b));
}

void require_grid_2d(const char* what, Values values, const Grid& grid) {
  require(grid.dim() == 2, fmt::format("plot {}: needs a 2-D grid, got {}-D", what, grid.dim()));
  require(
      values.size() == static_cast<std::size_t>(grid.size()),
      fmt::format("plot {}: {} values for a grid of {} points", what, values.size(), grid.size()));
}

Axes::Curve make_curve(Axes::Curve::Kind kind, std::vector<double> xs, std::vector<double> ys,
                       Color color, LineStyle style) {
  Axes::Curve c;
  c.kind = kind;
  c.xs = std::move(xs);
  c.ys = std::move(ys);
  c.color = color;
  c.line = std::move(style);
  return c;
}

}  // namespace

Color Axes::next_color(const std::optional<Color>& given) {
  if (given) return *given;
  return cycle_color(cycle_++);
}

Axes& Axes::title(std::string text) {
  settings_.title = std::move(text);
  return *this;
}
Axes& Axes::xlabel(std::string text) {
  settings_.xlabel = std::move(text);
  return *this;
}
Axes& Axes::ylabel(std::string text) {
  settings_.ylabel = std::move(text);
  return *this;
}
Axes& Axes::xlog(bool on) {
  settings_.xlog = on;
  return *this;
}
Axes& Axes::ylog(bool on) {
  settings_.ylog = on;
  return *this;
}
Axes& Axes::xlim(double lo, double hi) {
  require(std::isfinite(lo) && std::isfinite(hi) && lo < hi,
          fmt::format("plot xlim: need lo < hi, got [{}, {}]", lo, hi));
  settings_.xlim = {lo, hi};
  return *this;
}
Axes& Axes::ylim(double lo, double hi) {
  require(std::isfinite(lo) && std::isfinite(hi) && lo < hi,
          fmt::format("plot ylim: need lo < hi, got [{}, {}]", lo, hi));
  settings_.ylim = {lo, hi};
  return *this;
}
Axes& Axes::grid(bool on) {
  settings_.grid = on;
  return *this;
}

Axes& Axes::line(Values xs, Values ys, LineStyle style) {
  require_same_size("line", xs.size(), ys.size());
  const Color c = next_color(style.color);
  elements_.push_back(make_curve(Curve::Kind::line, xs.to_vector(), ys.to_vector(), c, style));
  return *this;
}

Axes& Axes::band(Values xs, Values lo, Values hi, BandStyle style) {
  require_same_size("band", xs.size(), lo.size());
  require_same_size("band", xs.size(), hi.size());
  const Color c = style.color ? *style.color : cycle_color(cycle_);  // does not advance the cycle
  elements_.emplace_back(Band{xs.to_vector(), lo.to_vector(), hi.to_vector(), c, style});
  return *this;
}

Axes& Axes::scatter(Values xs, Values ys, MarkerStyle style) {
  require_same_size("scatter", xs.size(), ys.size());
  const Color c = next_color(style.color);
  Curve curve = make_curve(Curve::Kind::scatter, xs.to_vector(), ys.to_vector(), c, LineStyle());
  curve.marker = std::move(style);
  elements_.push_back(std::move(curve));
  return *this;
}

Axes& Axes::hline(double y, LineStyle style) {
  const Color c = next_color(style.color);
  elements_.push_back(make_curve(Curve::Kind::hline, {}, {y}, c, std::move(style)));
  return *this;
}

Axes& Axes::vline(double x, LineStyle style) {
  const Color c = next_color(style.color);
  elements_.push_back(make_curve(Curve::Kind::vline, {x}, {}, c, std::move(style)));
  return *this;
}

Axes& Axes::text(double x, double y, std::string text, TextStyle style) {
  elements_.emplace_back(Text{x, y, std::move(text), style});
  return *this;
}

Axes& Axes::histogram(Values values, int bins, HistogramStyle style) {
  require(bins >= 1, fmt::format("plot histogram: bins must be >= 1, got {}", bins));
  std::vector<double> finite;
  for (double v : values) {
    if (std::isfinite(v)) finite.push_back(v);
  }
  require(!finite.empty() || (style.lo && style.hi), "plot histogram: no finite values");
  double lo = style.lo ? *style.lo : *std::min_element(finite.begin(), finite.end());
  double hi = style.hi ? *style.hi : *std::max_element(finite.begin(), finite.end());
  if (!(lo < hi)) {  // all values equal: one unit-wide range around them
    lo -= 0.5;
    hi += 0.5;
  }
  const double width = (hi - lo) / bins;
  std::vector<double> edges(static_cast<std::size_t>(bins) + 1), heights(bins, 0.0);
  for (int i = 0; i <= bins; ++i) edges[i] = lo + i * width;
  std::size_t counted = 0;
  for (double v : finite) {
    if (v < lo || v > hi) continue;
    const auto i = std::min(static_cast<std::size_t>((v - lo) / width), heights.size() - 1);
    heights[i] += 1.0;
    ++counted;
  }
  if (style.density && counted > 0) {
    for (double& h : heights) h /= static_cast<double>(counted) * width;
  }
  const Color c = next_color(style.color);
  elements_.emplace_back(Bars{std::move(edges), std::move(heights), c, style});
  return *this;
}

Axes& Axes::heatmap(Values values, const Grid& grid, HeatmapStyle style) {
  require_grid_2d("heatmap", values, grid);
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values) {
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!std::isfinite(lo)) lo = hi = 0;
  if (style.map == Colormap::diverging && !style.vmin && !style.vmax) {
    const double r = std::max(std::abs(lo - style.center), std::abs(hi - style.center));
    lo = style.center - r;
    hi = style.center + r;
  }
  lo = style.vmin.value_or(lo);
  hi = style.vmax.value_or(hi);
  if (!(lo < hi)) {
    lo -= 0.5;
    hi += 0.5;
  }
  elements_.emplace_back(
      Image{values.to_vector(), grid.axes()[0], grid.axes()[1], lo, hi, std::move(style)});
  return *this;
}

Axes& Axes::contour(Values values, const Grid& grid, double level, LineStyle style) {
  require_grid_2d("contour", values, grid);
  const Color c = next_color(style.color);
  elements_.emplace_back(Contour{gis::contour_lines(values, grid, level), c, style});
  return *this;
}

Axes& Axes::region(const std::vector<gis::Polygon>& polygons, RegionStyle style) {
  const Color c = next_color(style.color);
  elements_.emplace_back(Region{polygons, c, std::move(style)});
  return *this;
}

Axes& Axes::legend(LegendPosition position) {
  settings_.legend = position;
  return *this;
}

}  // namespace gpdp::plot
