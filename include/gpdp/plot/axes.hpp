#pragma once
// One panel of a Figure: axes, labels, and the elements drawn in it. Elements are recorded (data
// copied) when added and drawn when the figure is saved; every method returns *this to chain.
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gpdp/gis/contour_lines.hpp"
#include "gpdp/gis/polygon.hpp"
#include "gpdp/gis/values.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/plot/style.hpp"

namespace gpdp::plot {

using Values = gis::ValuesView;

class Axes {
 public:
  Axes& title(std::string text);
  Axes& xlabel(std::string text);
  Axes& ylabel(std::string text);
  Axes& xlog(bool on = true);
  Axes& ylog(bool on = true);
  Axes& xlim(double lo, double hi);
  Axes& ylim(double lo, double hi);
  Axes& grid(bool on = true);  // light grid lines at the major ticks (default on)

  // Polyline through (xs[i], ys[i]); non-finite points (and <= 0 on log axes) break the line.
  Axes& line(Values xs, Values ys, LineStyle style = {});
  // Filled region between lo(x) and hi(x), e.g. mean ± sd.
  Axes& band(Values xs, Values lo, Values hi, BandStyle style = {});
  Axes& scatter(Values xs, Values ys, MarkerStyle style = {});
  Axes& hline(double y, LineStyle style = {.color = colors::gray, .dashed = true, .width = 1.2});
  Axes& vline(double x, LineStyle style = {.color = colors::gray, .dashed = true, .width = 1.2});
  Axes& text(double x, double y, std::string text, TextStyle style = {});
  // Histogram of `values` in `bins` equal-width bins.
  Axes& histogram(Values values, int bins, HistogramStyle style = {});
  // A field on a 2-D grid (Grid point order: first axis fastest), each value a cell centred on
  // its grid point. Sets the axis limits to the grid's range unless xlim/ylim were given.
  Axes& heatmap(Values values, const Grid& grid, HeatmapStyle style = {});
  // The level set {v = level} of a field on a 2-D grid (see gis::contour_lines).
  Axes& contour(Values values, const Grid& grid, double level,
                LineStyle style = {.color = colors::white, .width = 1.8});
  // Filled polygons with holes, e.g. gis::excursion_polygons(...) (an excursion set).
  Axes& region(const std::vector<gis::Polygon>& polygons, RegionStyle style = {});
  // Draw a legend of the labelled elements.
  Axes& legend(LegendPosition position = LegendPosition::upper_right);

  // ---- read access for the renderer -----------------------------------------------------
  struct Curve {  // line, scatter, hline (xs empty), vline (ys empty)
    enum class Kind { line, scatter, hline, vline } kind;
    std::vector<double> xs, ys;
    Color color;
    LineStyle line;
    MarkerStyle marker;
  };
  struct Band {
    std::vector<double> xs, lo, hi;
    Color color;
    BandStyle style;
  };
  struct Bars {
    std::vector<double> edges, heights;
    Color color;
    HistogramStyle style;
  };
  struct Image {
    std::vector<double> values;
    GridAxis x, y;
    double vmin, vmax;
    HeatmapStyle style;
  };
  struct Contour {
    std::vector<gis::Polyline> lines;
    Color color;
    LineStyle style;
  };
  struct Region {
    std::vector<gis::Polygon> polygons;
    Color color;
    RegionStyle style;
  };
  struct Text {
    double x, y;
    std::string text;
    TextStyle style;
  };
  using Element = std::variant<Curve, Band, Bars, Image, Contour, Region, Text>;

  struct Settings {
    std::string title, xlabel, ylabel;
    bool xlog = false, ylog = false, grid = true;
    std::optional<std::pair<double, double>> xlim, ylim;
    std::optional<LegendPosition> legend;
  };
  const Settings& settings() const { return settings_; }
  const std::vector<Element>& elements() const { return elements_; }

 private:
  Color next_color(const std::optional<Color>& given);
  Settings settings_;
  std::vector<Element> elements_;
  int cycle_ = 0;
};

}  // namespace gpdp::plot
