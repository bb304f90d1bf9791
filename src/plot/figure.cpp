#include "gpdp/plot/figure.hpp"

#include <cairo-svg.h>
#include <cairo.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>

#include "gpdp/error.hpp"
#include "io/atomic_file.hpp"
#include "render.hpp"

namespace gpdp::plot {
namespace {

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

void check(cairo_status_t status, const std::string& what) {
  if (status != CAIRO_STATUS_SUCCESS) {
    throw Error(fmt::format("plot: {} failed: {}", what, cairo_status_to_string(status)));
  }
}

}  // namespace

Figure::Figure(int width_px, int height_px, int rows, int cols)
    : width_(width_px), height_(height_px), rows_(rows), cols_(cols) {
  require(
      width_px >= 50 && height_px >= 50 && width_px <= 20000 && height_px <= 20000,
      fmt::format("plot figure: size must be 50..20000 pixels, got {}x{}", width_px, height_px));
  require(rows >= 1 && cols >= 1 && rows <= 20 && cols <= 20,
          fmt::format("plot figure: need 1..20 rows and columns, got {}x{}", rows, cols));
  panels_.resize(static_cast<std::size_t>(rows * cols));
}

Axes& Figure::panel(int row, int col) {
  require(
      row >= 0 && row < rows_ && col >= 0 && col < cols_,
      fmt::format("plot figure: panel ({}, {}) outside the {}x{} grid", row, col, rows_, cols_));
  return panels_[static_cast<std::size_t>(row * cols_ + col)];
}

Figure& Figure::suptitle(std::string text) {
  suptitle_ = std::move(text);
  return *this;
}

Figure& Figure::watermark(std::string text) {
  watermark_ = std::move(text);
  return *this;
}

std::string Figure::render(const std::string& format) const {
  require(format == "png" || format == "svg",
          fmt::format("plot: unknown format '{}' (use png or svg)", format));
  std::string bytes;
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      format == "png" ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width_, height_)
                      : cairo_svg_surface_create_for_stream(append_bytes, &bytes, width_, height_),
      cairo_surface_destroy);
  check(cairo_surface_status(surface.get()), "creating the " + format + " surface");
  if (format == "svg") cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
  {
    std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()),
                                                          cairo_destroy);
    const double top = suptitle_.empty() ? 0.0 : 34.0;
    detail::draw_background(cr.get(), width_, height_);
    if (!suptitle_.empty()) detail::draw_suptitle(cr.get(), suptitle_, width_);
    const double cw = static_cast<double>(width_) / cols_;
    const double ch = (static_cast<double>(height_) - top) / rows_;
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) {
        detail::draw_axes(cr.get(), panels_[static_cast<std::size_t>(r * cols_ + c)],
                          {c * cw, top + r * ch, cw, ch});
      }
    }
    if (!watermark_.empty()) detail::draw_watermark(cr.get(), watermark_, width_, height_);
    check(cairo_status(cr.get()), "drawing");
  }
  if (format == "png") {
    check(cairo_surface_write_to_png_stream(surface.get(), append_bytes, &bytes), "PNG encoding");
  } else {
    cairo_surface_finish(surface.get());
    check(cairo_surface_status(surface.get()), "SVG encoding");
  }
  return bytes;
}

void Figure::save(const std::string& path) const {
  const std::string ext = lower_extension(path);
  require(ext == ".png" || ext == ".svg",
          fmt::format("plot: cannot save '{}': the file name must end in .png or .svg", path));
  io::write_file_atomic(path, render(ext.substr(1)));
}

}  // namespace gpdp::plot
