#include "render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "gpdp/error.hpp"
#include "gpdp/plot/ticks.hpp"

namespace gpdp::plot::detail {
namespace {

constexpr const char* kFont = "DejaVu Sans";
constexpr double kTickFont = 12.5;
constexpr double kLabelFont = 14;
constexpr double kTitleFont = 15;
constexpr double kColorbarWidth = 16;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

void set_color(cairo_t* cr, const Color& c) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a); }

void set_font(cairo_t* cr, double size, bool bold = false) {
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

double text_width(cairo_t* cr, const std::string& s) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  return e.x_advance;
}

// Draws s with its anchor at (x, y): ha 0 = left, 0.5 = centre, 1 = right; va 0 = top,
// 0.5 = middle, 1 = bottom (of the font's ascent/descent box). angle in radians, counter-clockwise.
void draw_text(cairo_t* cr, const std::string& s, double x, double y, double ha, double va,
               double angle = 0) {
  if (s.empty()) return;
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  const double w = text_width(cr, s);
  const double h = fe.ascent + fe.descent;
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, -angle);
  cairo_move_to(cr, -ha * w, -va * h + fe.ascent);
  cairo_show_text(cr, s.c_str());
  cairo_restore(cr);
}

// ---- data ranges -----------------------------------------------------------------------
struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  bool log = false;
  void add(double v) {
    if (!std::isfinite(v) || (log && v <= 0)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  template <class C>
  void add_all(const C& vs) {
    for (double v : vs) add(v);
  }
  bool empty() const { return !(lo <= hi); }
};

// Pads by 4% (in log space on log axes) unless tight, and widens empty or zero-width ranges.
std::pair<double, double> finish(Range r, bool tight, bool zero_floor) {
  if (r.empty()) return r.log ? std::pair{1.0, 10.0} : std::pair{0.0, 1.0};
  double lo = r.log ? std::log10(r.lo) : r.lo;
  double hi = r.log ? std::log10(r.hi) : r.hi;
  if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
    lo -= r.log ? 0.5 : std::max(0.5, 0.1 * std::abs(lo));
    hi += r.log ? 0.5 : std::max(0.5, 0.1 * std::abs(hi));
  } else if (!tight) {
    const double pad = 0.04 * (hi - lo);
    if (!(zero_floor && !r.log && lo >= 0 && r.lo <= 0 + 1e-300)) lo -= pad;
    hi += pad;
  }
  if (r.log) return {std::pow(10.0, lo), std::pow(10.0, hi)};
  return {lo, hi};
}

struct Scale {
  double lo, hi;  // data range
  bool log;
  double p0, p1;  // pixel positions of lo and hi
  double t(double v) const { return log ? std::log10(v) : v; }
  double operator()(double v) const { return p0 + (t(v) - t(lo)) / (t(hi) - t(lo)) * (p1 - p0); }
  bool valid(double v) const { return std::isfinite(v) && (!log || v > 0); }
};

struct Limits {
  std::pair<double, double> x, y;
};

Limits data_limits(const Axes& axes) {
  const auto& s = axes.settings();
  Range xr{.log = s.xlog}, yr{.log = s.ylog};
  bool tight = false, bars = false;
  for (const auto& el : axes.elements()) {
    std::visit(Overloaded{
                   [&](const Axes::Curve& c) {
                     xr.add_all(c.xs);
                     yr.add_all(c.ys);
                   },
                   [&](const Axes::Band& b) {
                     xr.add_all(b.xs);
                     yr.add_all(b.lo);
                     yr.add_all(b.hi);
                   },
                   [&](const Axes::Bars& b) {
                     xr.add_all(b.edges);
                     yr.add_all(b.heights);
                     yr.add(0.0);
                     bars = true;
                   },
                   [&](const Axes::Image& im) {
                     xr.add(im.x.lo);
                     xr.add(im.x.hi);
                     yr.add(im.y.lo);
                     yr.add(im.y.hi);
                     tight = true;
                   },
                   [&](const Axes::Contour& c) {
                     for (const auto& l : c.lines) {
                       for (const auto& p : l.points) {
                         xr.add(p.x);
                         yr.add(p.y);
                       }
                     }
                   },
                   [&](const Axes::Region& r) {
                     for (const auto& poly : r.polygons) {
                       for (const auto& p : poly.outer) {
                         xr.add(p.x);
                         yr.add(p.y);
                       }
                     }
                   },
                   [&](const Axes::Text&) {},
               },
               el);
  }
  Limits lim{finish(xr, tight, false), finish(yr, tight, bars)};
  if (s.xlim) lim.x = *s.xlim;
  if (s.ylim) lim.y = *s.ylim;
  if (s.xlog && lim.x.first <= 0) throw InputError("plot: a log x axis needs xlim > 0");
  if (s.ylog && lim.y.first <= 0) throw InputError("plot: a log y axis needs ylim > 0");
  return lim;
}

std::vector<Tick> ticks_for(const Scale& s, double pixels, double spacing) {
  const int target = std::max(2, static_cast<int>(pixels / spacing));
  return s.log ? log_ticks(s.lo, s.hi, target) : linear_ticks(s.lo, s.hi, target);
}

// ---- elements ---------------------------------------------------------------------------
void stroke_style(cairo_t* cr, const Color& c, const LineStyle& st) {
  set_color(cr, c);
  cairo_set_line_width(cr, st.width);
  if (st.dashed) {
    const double d[] = {3.5 * st.width + 2, 2.0 * st.width + 1};
    cairo_set_dash(cr, d, 2, 0);
  } else {
    cairo_set_dash(cr, nullptr, 0, 0);
  }
}

void draw_curve(cairo_t* cr, const Axes::Curve& c, const Scale& X, const Scale& Y) {
  using Kind = Axes::Curve::Kind;
  if (c.kind == Kind::scatter) {
    set_color(cr, c.color);
    cairo_set_line_width(cr, 1.2);
    cairo_set_dash(cr, nullptr, 0, 0);
    for (std::size_t i = 0; i < c.xs.size(); ++i) {
      if (!X.valid(c.xs[i]) || !Y.valid(c.ys[i])) continue;
      cairo_new_sub_path(cr);
      cairo_arc(cr, X(c.xs[i]), Y(c.ys[i]), c.marker.size, 0, 2 * M_PI);
    }
    if (c.marker.filled) {
      cairo_fill(cr);
    } else {
      cairo_stroke(cr);
    }
    return;
  }
  stroke_style(cr, c.color, c.line);
  if (c.kind == Kind::hline) {
    if (!Y.valid(c.ys[0])) return;
    cairo_move_to(cr, X.p0, Y(c.ys[0]));
    cairo_line_to(cr, X.p1, Y(c.ys[0]));
  } else if (c.kind == Kind::vline) {
    if (!X.valid(c.xs[0])) return;
    cairo_move_to(cr, X(c.xs[0]), Y.p0);
    cairo_line_to(cr, X(c.xs[0]), Y.p1);
  } else {
    bool pen = false;
    for (std::size_t i = 0; i < c.xs.size(); ++i) {
      if (!X.valid(c.xs[i]) || !Y.valid(c.ys[i])) {
        pen = false;
        continue;
      }
      if (pen) {
        cairo_line_to(cr, X(c.xs[i]), Y(c.ys[i]));
      } else {
        cairo_move_to(cr, X(c.xs[i]), Y(c.ys[i]));
      }
      pen = true;
    }
  }
  cairo_stroke(cr);
}

void draw_band(cairo_t* cr, const Axes::Band& b, const Scale& X, const Scale& Y) {
  set_color(cr, b.color.with_alpha(b.style.alpha));
  // Each run of valid points is one closed region: along hi forwards, back along lo.
  std::size_t i = 0;
  const std::size_t n = b.xs.size();
  auto ok = [&](std::size_t k) { return X.valid(b.xs[k]) && Y.valid(b.lo[k]) && Y.valid(b.hi[k]); };
  while (i < n) {
    while (i < n && !ok(i)) ++i;
    std::size_t j = i;
    while (j < n && ok(j)) ++j;
    if (j > i) {
      cairo_move_to(cr, X(b.xs[i]), Y(b.hi[i]));
      for (std::size_t k = i + 1; k < j; ++k) cairo_line_to(cr, X(b.xs[k]), Y(b.hi[k]));
      for (std::size_t k = j; k-- > i;) cairo_line_to(cr, X(b.xs[k]), Y(b.lo[k]));
      cairo_close_path(cr);
      cairo_fill(cr);
    }
    i = j;
  }
}

void draw_bars(cairo_t* cr, const Axes::Bars& b, const Scale& X, const Scale& Y) {
  const double base = Y.log ? Y.p0 : Y(std::max(0.0, Y.lo));
  for (std::size_t i = 0; i < b.heights.size(); ++i) {
    if (b.heights[i] <= 0 || !Y.valid(b.heights[i])) continue;
    const double x0 = X(b.edges[i]), x1 = X(b.edges[i + 1]), y = Y(b.heights[i]);
    cairo_rectangle(cr, x0, y, x1 - x0, base - y);
  }
  set_color(cr, b.color.with_alpha(b.style.alpha));
  cairo_fill_preserve(cr);
  set_color(cr, b.color);
  cairo_set_line_width(cr, 0.8);
  cairo_set_dash(cr, nullptr, 0, 0);
  cairo_stroke(cr);
}

double unit(const Axes::Image& im, double v) { return (v - im.vmin) / (im.vmax - im.vmin); }

void draw_image(cairo_t* cr, const Axes::Image& im, const Scale& X, const Scale& Y) {
  if (X.log || Y.log) throw InputError("plot heatmap: needs linear axes (no xlog/ylog)");
  const int nx = static_cast<int>(im.x.count), ny = static_cast<int>(im.y.count);
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> img(
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, nx, ny), cairo_surface_destroy);
  cairo_surface_flush(img.get());
  unsigned char* data = cairo_image_surface_get_data(img.get());
  const int stride = cairo_image_surface_get_stride(img.get());
  for (int j = 0; j < ny; ++j) {
    auto* row =
        reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(ny - 1 - j) * stride);
    for (int i = 0; i < nx; ++i) {
      const double v = im.values[static_cast<std::size_t>(j) * nx + i];
      const Color c = std::isfinite(v) ? colormap(im.style.map, unit(im, v)) : Color{1, 1, 1, 1};
      auto byte = [](double f) { return static_cast<std::uint32_t>(std::lround(255 * f)); };
      row[i] = (0xffu << 24) | (byte(c.r) << 16) | (byte(c.g) << 8) | byte(c.b);
    }
  }
  cairo_surface_mark_dirty(img.get());
  const double dx = nx > 1 ? im.x.step() : 1.0, dy = ny > 1 ? im.y.step() : 1.0;
  const double x0 = X(im.x.lo - dx / 2), x1 = X(im.x.hi + dx / 2);
  const double y0 = Y(im.y.hi + dy / 2), y1 = Y(im.y.lo - dy / 2);
  cairo_save(cr);
  cairo_translate(cr, x0, y0);
  cairo_scale(cr, (x1 - x0) / nx, (y1 - y0) / ny);
  cairo_set_source_surface(cr, img.get(), 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle(cr, 0, 0, nx, ny);
  cairo_fill(cr);
  cairo_restore(cr);
}

void draw_contour(cairo_t* cr, const Axes::Contour& c, const Scale& X, const Scale& Y) {
  stroke_style(cr, c.color, c.style);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  for (const auto& l : c.lines) {
    if (l.points.empty()) continue;
    cairo_move_to(cr, X(l.points[0].x), Y(l.points[0].y));
    for (std::size_t i = 1; i < l.points.size(); ++i) {
      cairo_line_to(cr, X(l.points[i].x), Y(l.points[i].y));
    }
    if (l.closed) cairo_close_path(cr);
  }
  cairo_stroke(cr);
}

void ring_path(cairo_t* cr, const gis::Ring& ring, const Scale& X, const Scale& Y) {
  if (ring.empty()) return;
  cairo_move_to(cr, X(ring[0].x), Y(ring[0].y));
  for (std::size_t i = 1; i < ring.size(); ++i) cairo_line_to(cr, X(ring[i].x), Y(ring[i].y));
  cairo_close_path(cr);
}

void draw_region(cairo_t* cr, const Axes::Region& r, const Scale& X, const Scale& Y) {
  for (const auto& poly : r.polygons) {
    ring_path(cr, poly.outer, X, Y);
    for (const auto& h : poly.holes) ring_path(cr, h, X, Y);
  }
  cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
  set_color(cr, r.color.with_alpha(r.style.alpha));
  cairo_fill_preserve(cr);
  cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
  if (r.style.edge_width > 0) {
    set_color(cr, r.color);
    cairo_set_line_width(cr, r.style.edge_width);
    cairo_set_dash(cr, nullptr, 0, 0);
    cairo_stroke(cr);
  } else {
    cairo_new_path(cr);
  }
}

void draw_text_element(cairo_t* cr, const Axes::Text& t, const Scale& X, const Scale& Y) {
  const double px = t.style.data_coords ? X(t.x) : X.p0 + t.x * (X.p1 - X.p0);
  const double py = t.style.data_coords ? Y(t.y) : Y.p0 + t.y * (Y.p1 - Y.p0);
  set_font(cr, t.style.size);
  set_color(cr, t.style.color);
  const double ha = t.style.anchor == TextStyle::Anchor::left     ? 0.0
                    : t.style.anchor == TextStyle::Anchor::center ? 0.5
                                                                  : 1.0;
  draw_text(cr, t.text, px, py, ha, 0.5);
}

// ---- legend and colour bar ---------------------------------------------------------------
struct Entry {
  enum class Kind { line, marker, patch } kind;
  Color color;
  bool dashed = false;
  double width = 0;  // line width or marker radius
  std::string label;
};

std::vector<Entry> legend_entries(const Axes& axes) {
  std::vector<Entry> out;
  for (const auto& el : axes.elements()) {
    std::visit(Overloaded{
                   [&](const Axes::Curve& c) {
                     if (c.kind == Axes::Curve::Kind::scatter) {
                       if (!c.marker.label.empty())
                         out.push_back(
                             {Entry::Kind::marker, c.color, false, c.marker.size, c.marker.label});
                     } else if (!c.line.label.empty()) {
                       out.push_back(
                           {Entry::Kind::line, c.color, c.line.dashed, c.line.width, c.line.label});
                     }
                   },
                   [&](const Axes::Band& b) {
                     if (!b.style.label.empty())
                       out.push_back({Entry::Kind::patch, b.color.with_alpha(b.style.alpha), false,
                                      0, b.style.label});
                   },
                   [&](const Axes::Bars& b) {
                     if (!b.style.label.empty())
                       out.push_back({Entry::Kind::patch, b.color.with_alpha(b.style.alpha), false,
                                      0, b.style.label});
                   },
                   [&](const Axes::Region& r) {
                     if (!r.style.label.empty())
                       out.push_back({Entry::Kind::patch, r.color.with_alpha(r.style.alpha), false,
                                      0, r.style.label});
                   },
                   [&](const Axes::Contour& c) {
                     if (!c.style.label.empty())
                       out.push_back({Entry::Kind::line, c.color, c.style.dashed, c.style.width,
                                      c.style.label});
                   },
                   [&](const auto&) {},
               },
               el);
  }
  return out;
}

void draw_legend(cairo_t* cr, const Axes& axes, Rect plot) {
  const auto entries = legend_entries(axes);
  if (entries.empty()) return;
  set_font(cr, kTickFont);
  double text_w = 0;
  for (const auto& e : entries) text_w = std::max(text_w, text_width(cr, e.label));
  const double row = 20, sample = 28, pad = 8;
  const double w = pad + sample + 8 + text_w + pad,
               h = pad + row * static_cast<double>(entries.size()) + pad - 4;
  const auto pos = *axes.settings().legend;
  const bool right = pos == LegendPosition::upper_right || pos == LegendPosition::lower_right;
  const bool upper = pos == LegendPosition::upper_right || pos == LegendPosition::upper_left;
  const double x = right ? plot.x + plot.w - w - 10 : plot.x + 10;
  const double y = upper ? plot.y + 10 : plot.y + plot.h - h - 10;
  cairo_rectangle(cr, x, y, w, h);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.88);
  cairo_fill_preserve(cr);
  cairo_set_source_rgba(cr, 0.6, 0.6, 0.6, 1);
  cairo_set_line_width(cr, 1);
  cairo_set_dash(cr, nullptr, 0, 0);
  cairo_stroke(cr);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const double cy = y + pad + row * (static_cast<double>(i) + 0.5) - 2;
    const double sx = x + pad;
    if (e.kind == Entry::Kind::line) {
      LineStyle ls;
      ls.dashed = e.dashed;
      ls.width = e.width;
      stroke_style(cr, e.color, ls);
      cairo_move_to(cr, sx, cy);
      cairo_line_to(cr, sx + sample, cy);
      cairo_stroke(cr);
    } else if (e.kind == Entry::Kind::marker) {
      set_color(cr, e.color);
      cairo_arc(cr, sx + sample / 2, cy, e.width, 0, 2 * M_PI);
      cairo_fill(cr);
    } else {
      set_color(cr, e.color);
      cairo_rectangle(cr, sx, cy - 6, sample, 12);
      cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    set_font(cr, kTickFont);
    draw_text(cr, e.label, sx + sample + 8, cy, 0, 0.5);
  }
}

const Axes::Image* colorbar_image(const Axes& axes) {
  const Axes::Image* found = nullptr;
  for (const auto& el : axes.elements()) {
    if (const auto* im = std::get_if<Axes::Image>(&el); im && im->style.colorbar) found = im;
  }
  return found;
}

void draw_colorbar(cairo_t* cr, const Axes::Image& im, Rect bar) {
  cairo_pattern_t* gradient = cairo_pattern_create_linear(0, bar.y + bar.h, 0, bar.y);
  const int stops = 64;
  for (int k = 0; k <= stops; ++k) {
    const double t = static_cast<double>(k) / stops;
    const Color c = colormap(im.style.map, t);
    cairo_pattern_add_color_stop_rgb(gradient, t, c.r, c.g, c.b);
  }
  cairo_set_source(cr, gradient);
  cairo_rectangle(cr, bar.x, bar.y, bar.w, bar.h);
  cairo_fill(cr);
  cairo_pattern_destroy(gradient);
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, bar.x, bar.y, bar.w, bar.h);
  cairo_stroke(cr);
  set_font(cr, kTickFont);
  double label_w = 0;
  for (const auto& t : linear_ticks(im.vmin, im.vmax, std::max(2, static_cast<int>(bar.h / 50)))) {
    const double y = bar.y + bar.h * (1 - unit(im, t.value));
    cairo_move_to(cr, bar.x + bar.w, y);
    cairo_line_to(cr, bar.x + bar.w + 4, y);
    cairo_stroke(cr);
    draw_text(cr, t.label, bar.x + bar.w + 6, y, 0, 0.5);
    label_w = std::max(label_w, text_width(cr, t.label));
  }
  set_font(cr, kLabelFont);
  draw_text(cr, im.style.colorbar_label, bar.x + bar.w + 10 + label_w, bar.y + bar.h / 2, 0.5, 0,
            M_PI / 2);
}

}  // namespace

void draw_background(cairo_t* cr, int width, int height) {
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_rectangle(cr, 0, 0, width, height);
  cairo_fill(cr);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
}

void draw_suptitle(cairo_t* cr, const std::string& text, int width) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  set_font(cr, kTitleFont + 2, true);
  draw_text(cr, text, width / 2.0, 8, 0.5, 0);
}

void draw_axes(cairo_t* cr, const Axes& axes, Rect cell) {
  const auto& s = axes.settings();
  const Limits lim = data_limits(axes);
  const Axes::Image* cbar = colorbar_image(axes);

  // Margins: measured from the labels that go there.
  const double top = 10 + (s.title.empty() ? 0 : 24);
  const double bottom = 26 + (s.xlabel.empty() ? 0 : 22);
  double right =
      18 + (cbar ? kColorbarWidth + 70 + (cbar->style.colorbar_label.empty() ? 0 : 20) : 0);
  Scale Y{lim.y.first, lim.y.second, s.ylog, cell.y + cell.h - bottom, cell.y + top};
  const auto yticks = ticks_for(Y, Y.p0 - Y.p1, 55);
  set_font(cr, kTickFont);
  double ytick_w = 0;
  for (const auto& t : yticks) ytick_w = std::max(ytick_w, text_width(cr, t.label));
  const double left = 14 + ytick_w + (s.ylabel.empty() ? 0 : 24);
  Scale X{lim.x.first, lim.x.second, s.xlog, cell.x + left, cell.x + cell.w - right};
  const auto xticks = ticks_for(X, X.p1 - X.p0, 90);
  const Rect plot{X.p0, Y.p1, X.p1 - X.p0, Y.p0 - Y.p1};
  if (plot.w < 10 || plot.h < 10) throw InputError("plot: panel too small for its labels");

  bool has_image = false;
  for (const auto& el : axes.elements()) has_image |= std::holds_alternative<Axes::Image>(el);

  cairo_save(cr);
  cairo_rectangle(cr, plot.x, plot.y, plot.w, plot.h);
  cairo_clip(cr);
  for (const auto& el : axes.elements()) {
    if (const auto* im = std::get_if<Axes::Image>(&el)) draw_image(cr, *im, X, Y);
  }
  if (s.grid && !has_image) {
    cairo_set_dash(cr, nullptr, 0, 0);
    cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
    cairo_set_line_width(cr, 1);
    for (const auto& t : xticks) {
      cairo_move_to(cr, std::round(X(t.value)) + 0.5, plot.y);
      cairo_line_to(cr, std::round(X(t.value)) + 0.5, plot.y + plot.h);
    }
    for (const auto& t : yticks) {
      cairo_move_to(cr, plot.x, std::round(Y(t.value)) + 0.5);
      cairo_line_to(cr, plot.x + plot.w, std::round(Y(t.value)) + 0.5);
    }
    cairo_stroke(cr);
  }
  for (const auto& el : axes.elements()) {
    std::visit(
        Overloaded{[&](const Axes::Band& b) { draw_band(cr, b, X, Y); },
                   [&](const Axes::Region& r) { draw_region(cr, r, X, Y); },
                   [&](const Axes::Bars& b) { draw_bars(cr, b, X, Y); }, [&](const auto&) {}},
        el);
  }
  for (const auto& el : axes.elements()) {
    std::visit(
        Overloaded{[&](const Axes::Contour& c) { draw_contour(cr, c, X, Y); },
                   [&](const Axes::Curve& c) { draw_curve(cr, c, X, Y); }, [&](const auto&) {}},
        el);
  }
  cairo_restore(cr);
  for (const auto& el : axes.elements()) {
    if (const auto* t = std::get_if<Axes::Text>(&el)) draw_text_element(cr, *t, X, Y);
  }

  // Frame, ticks and labels.
  cairo_set_dash(cr, nullptr, 0, 0);
  cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, std::round(plot.x) + 0.5, std::round(plot.y) + 0.5, std::round(plot.w),
                  std::round(plot.h));
  cairo_stroke(cr);
  set_font(cr, kTickFont);
  for (const auto& t : xticks) {
    const double x = std::round(X(t.value)) + 0.5;
    cairo_move_to(cr, x, plot.y + plot.h);
    cairo_line_to(cr, x, plot.y + plot.h + 5);
    cairo_stroke(cr);
    draw_text(cr, t.label, X(t.value), plot.y + plot.h + 7, 0.5, 0);
  }
  for (const auto& t : yticks) {
    const double y = std::round(Y(t.value)) + 0.5;
    cairo_move_to(cr, plot.x - 5, y);
    cairo_line_to(cr, plot.x, y);
    cairo_stroke(cr);
    draw_text(cr, t.label, plot.x - 7, Y(t.value), 1, 0.5);
  }
  set_font(cr, kLabelFont);
  draw_text(cr, s.xlabel, plot.x + plot.w / 2, cell.y + cell.h - 4, 0.5, 1);
  draw_text(cr, s.ylabel, cell.x + 4, plot.y + plot.h / 2, 0.5, 0, M_PI / 2);
  set_font(cr, kTitleFont, true);
  draw_text(cr, s.title, plot.x + plot.w / 2, cell.y + 8, 0.5, 0);

  if (cbar) draw_colorbar(cr, *cbar, {plot.x + plot.w + 14, plot.y, kColorbarWidth, plot.h});
  if (s.legend) draw_legend(cr, axes, plot);
}

void draw_watermark(cairo_t* cr, const std::string& text, int width, int height) {
  const double w = width, h = height;
  const double angle = std::atan2(h, w);
  const double diag = std::hypot(w, h);
  set_font(cr, 100, true);
  const double size = 100 * 0.8 * diag / std::max(1.0, text_width(cr, text));
  set_font(cr, std::min(size, 0.35 * h), true);
  cairo_set_source_rgba(cr, 0.85, 0.05, 0.05, 0.35);
  draw_text(cr, text, w / 2, h / 2, 0.5, 0.5, angle);
  cairo_set_line_width(cr, 8);
  cairo_set_source_rgba(cr, 0.85, 0.05, 0.05, 0.5);
  cairo_rectangle(cr, 4, 4, w - 8, h - 8);
  cairo_stroke(cr);
}

}  // namespace gpdp::plot::detail
