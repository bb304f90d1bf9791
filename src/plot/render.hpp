#pragma once
// Private to src/plot: drawing a Figure's parts onto a cairo context.
#include <cairo.h>

#include <string>

#include "gpdp/plot/axes.hpp"

namespace gpdp::plot::detail {

struct Rect {
  double x, y, w, h;
};

void draw_background(cairo_t* cr, int width, int height);
void draw_suptitle(cairo_t* cr, const std::string& text, int width);
void draw_axes(cairo_t* cr, const Axes& axes, Rect cell);
void draw_watermark(cairo_t* cr, const std::string& text, int width, int height);

}  // namespace gpdp::plot::detail
