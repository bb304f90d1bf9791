#pragma once
// A figure: a rows x cols grid of panels (Axes), rendered with cairo and saved as PNG or SVG
// (chosen by the file extension). Saving is atomic: the file appears whole or not at all.
//
//   gpdp::plot::Figure fig(900, 600);
//   auto& ax = fig.panel(0, 0);
//   ax.title("Rényi DP").xlabel("α").ylabel("ε_α").ylog();
//   ax.line(alphas, eps, {.label = "pathwise"});
//   ax.legend();
//   fig.save("rdp.png");
#include <string>
#include <vector>

#include "gpdp/plot/axes.hpp"

namespace gpdp::plot {

class Figure {
 public:
  // width x height pixels (also the SVG size in points), panels laid out row-major.
  explicit Figure(int width_px = 800, int height_px = 600, int rows = 1, int cols = 1);

  Axes& panel(int row = 0, int col = 0);
  // A title above all panels.
  Figure& suptitle(std::string text);
  // A large diagonal stamp across the whole figure, for images that must never be released.
  Figure& watermark(std::string text);

  // Writes a .png or .svg (InputError for any other extension or an unwritable path).
  void save(const std::string& path) const;
  // The encoded file as bytes, without writing: format is "png" or "svg".
  std::string render(const std::string& format) const;

  int width() const { return width_; }
  int height() const { return height_; }

 private:
  int width_, height_, rows_, cols_;
  std::vector<Axes> panels_;
  std::string suptitle_, watermark_;
};

}  // namespace gpdp::plot
