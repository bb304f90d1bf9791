// Plotting: tick generation, PNG/SVG output (valid, atomic, by extension), and that what is
// drawn lands in the image (heatmap colours, watermark).
#include <cairo.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/plot/ticks.hpp"
#include "support/paths.hpp"

namespace gpdp::plot {
namespace {

std::vector<double> values_of(const std::vector<Tick>& ticks) {
  std::vector<double> v;
  for (const auto& t : ticks) v.push_back(t.value);
  return v;
}
std::vector<std::string> labels_of(const std::vector<Tick>& ticks) {
  std::vector<std::string> v;
  for (const auto& t : ticks) v.push_back(t.label);
  return v;
}

void expect_values(const std::vector<Tick>& ticks, const std::vector<double>& want) {
  const auto got = values_of(ticks);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-12 * std::max(1.0, std::abs(want[i]))) << i;
  }
}

TEST(Ticks, NiceStepIsOneTwoTwoHalfOrFiveTimesPowerOfTen) {
  EXPECT_DOUBLE_EQ(nice_step(0, 1, 5), 0.2);
  EXPECT_DOUBLE_EQ(nice_step(0, 1, 4), 0.25);
  EXPECT_DOUBLE_EQ(nice_step(0, 10, 3), 5.0);
  EXPECT_NEAR(nice_step(0, 7e-7, 6), 2e-7, 1e-22);
  EXPECT_DOUBLE_EQ(nice_step(-300, 700, 5), 200.0);
}

TEST(Ticks, LinearTicksLieInsideTheRangeWithReadableLabels) {
  const auto t = linear_ticks(0, 1, 5);
  expect_values(t, {0, 0.2, 0.4, 0.6, 0.8, 1.0});
  EXPECT_EQ(labels_of(t), (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
  expect_values(linear_ticks(-3.7, 12.2, 5), {0, 5, 10});
  EXPECT_EQ(labels_of(linear_ticks(-1, 1, 4)),
            (std::vector<std::string>{"-1.0", "-0.5", "0", "0.5", "1.0"}));
  EXPECT_EQ(labels_of(linear_ticks(0, 10, 4)),
            (std::vector<std::string>{"0", "2.5", "5.0", "7.5", "10.0"}));
  // Large magnitudes use a shared power of ten.
  EXPECT_EQ(labels_of(linear_ticks(0, 2e6, 2)), (std::vector<std::string>{"0", "1×10⁶", "2×10⁶"}));
}

TEST(Ticks, LogTicksAreDecadesOrOneTwoFive) {
  const auto wide = log_ticks(1e-12, 0.1, 6);
  expect_values(wide, {1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2});
  EXPECT_EQ(wide[0].label, "10⁻¹²");
  EXPECT_EQ(wide[3].label, "10⁻⁶");
  const auto shorter = log_ticks(1, 200, 6);
  expect_values(shorter, {1, 2, 5, 10, 20, 50, 100, 200});
  EXPECT_EQ(labels_of(shorter),
            (std::vector<std::string>{"1", "2", "5", "10", "20", "50", "100", "200"}));
  expect_values(log_ticks(3, 7, 5), {3, 4, 5, 6, 7});  // less than a decade: linear steps
}

TEST(Ticks, RejectBadRanges) {
  EXPECT_THROW(linear_ticks(1, 1), InputError);
  EXPECT_THROW(linear_ticks(2, 1), InputError);
  EXPECT_THROW(linear_ticks(0, INFINITY), InputError);
  EXPECT_THROW(log_ticks(0, 1), InputError);
  EXPECT_THROW(log_ticks(-1, 1), InputError);
}

Figure line_figure() {
  Figure fig(640, 400, 1, 2);
  std::vector<double> x, y;
  for (int i = 1; i <= 50; ++i) {
    x.push_back(i);
    y.push_back(std::sqrt(i));
  }
  auto& a = fig.panel(0, 0);
  a.title("Rényi ε_α vs α").xlabel("α").ylabel("ε (σ = 0.1, δ = 10⁻⁶)");
  a.band(x, x, y, {.label = "band"}).line(x, y, {.label = "curve"});
  a.scatter(x, y).hline(3).vline(10).text(5, 5, "note").legend();
  fig.panel(0, 1).xlog().ylog().line(x, y, {.dashed = true}).histogram(y, 10);
  return fig;
}

std::string read_bytes(const std::string& path) { return test::read_text(path); }

std::size_t entries_in(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(Figure, SavesValidPngAndSvgWithoutLeavingTemporaryFiles) {
  test::TempDir dir;
  const Figure fig = line_figure();
  fig.save(dir.file("a.png"));
  fig.save(dir.file("b.SVG"));
  const std::string png = read_bytes(dir.file("a.png"));
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const std::string svg = read_bytes(dir.file("b.SVG"));
  ASSERT_GT(svg.size(), 1000u);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("width=\"640"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(entries_in(dir.path()), 2u);  // no temporary files left behind
}

TEST(Figure, RejectsUnknownExtensionsAndUnwritablePaths) {
  test::TempDir dir;
  const Figure fig = line_figure();
  for (const char* name : {"out.pdf", "out.txt", "out", "out.png.bak"}) {
    EXPECT_THROW(fig.save(dir.file(name)), InputError) << name;
  }
  EXPECT_THROW(fig.save(dir.file("missing/out.png")), InputError);
  EXPECT_EQ(entries_in(dir.path()), 0u);
  EXPECT_THROW((void)fig.render("pdf"), InputError);
}

TEST(Figure, RejectsBadSizesPanelsAndData) {
  EXPECT_THROW(Figure(10, 400), InputError);
  EXPECT_THROW(Figure(400, 400, 0, 1), InputError);
  Figure fig(400, 300, 2, 2);
  EXPECT_THROW(fig.panel(2, 0), InputError);
  EXPECT_THROW(fig.panel(0, -1), InputError);
  auto& ax = fig.panel(1, 1);
  EXPECT_THROW(ax.line({1, 2, 3}, {1, 2}), InputError);
  EXPECT_THROW(ax.band({1, 2}, {1, 2}, {1}), InputError);
  EXPECT_THROW(ax.histogram({1, 2}, 0), InputError);
  EXPECT_THROW(ax.xlim(1, 1), InputError);
  const Grid g({{0, 1, 3}, {0, 1, 2}});
  EXPECT_THROW(ax.heatmap({1, 2, 3}, g), InputError);
  EXPECT_THROW(ax.heatmap({1, 2, 3}, Grid({{0, 1, 3}})), InputError);
}

// Decodes a PNG produced by Figure::render into an ARGB image surface.
struct Image {
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface{nullptr,
                                                                             cairo_surface_destroy};
  explicit Image(const std::string& png) {
    struct Reader {
      const std::string* bytes;
      std::size_t at = 0;
    } reader{&png};
    surface.reset(cairo_image_surface_create_from_png_stream(
        [](void* closure, unsigned char* data, unsigned int length) {
          auto* r = static_cast<Reader*>(closure);
          if (r->at + length > r->bytes->size()) return CAIRO_STATUS_READ_ERROR;
          std::copy_n(r->bytes->data() + r->at, length, data);
          r->at += length;
          return CAIRO_STATUS_SUCCESS;
        },
        &reader));
  }
  int width() const { return cairo_image_surface_get_width(surface.get()); }
  // {r, g, b} in 0..255 of pixel (x, y), y from the top.
  std::array<int, 3> at(int x, int y) const {
    cairo_surface_flush(surface.get());
    const auto* row =
        cairo_image_surface_get_data(surface.get()) +
        static_cast<std::ptrdiff_t>(y) * cairo_image_surface_get_stride(surface.get());
    const auto px = reinterpret_cast<const std::uint32_t*>(row)[x];
    return {static_cast<int>((px >> 16) & 0xff), static_cast<int>((px >> 8) & 0xff),
            static_cast<int>(px & 0xff)};
  }
};

bool near(const std::array<int, 3>& p, const Color& c) {
  return std::abs(p[0] - std::lround(255 * c.r)) <= 2 &&
         std::abs(p[1] - std::lround(255 * c.g)) <= 2 &&
         std::abs(p[2] - std::lround(255 * c.b)) <= 2;
}

TEST(Figure, HeatmapPaintsTheColourmapEnds) {
  // v = x on a 2-D grid; along a middle row the image must show viridis(0) on the left and
  // viridis(1) on the right, and these colours are where they belong.
  const Grid g({{0, 1, 20}, {0, 1, 10}});
  std::vector<double> v;
  for (long j = 0; j < 10; ++j) {
    for (long i = 0; i < 20; ++i) v.push_back(g.axes()[0].at(i));
  }
  Figure fig(400, 300);
  fig.panel().heatmap(v, g, {.colorbar = false});
  const Image img(fig.render("png"));
  ASSERT_EQ(img.width(), 400);
  int first_low = -1, last_high = -1;
  for (int x = 0; x < 400; ++x) {
    const auto p = img.at(x, 150);
    if (first_low < 0 && near(p, colormap(Colormap::viridis, 0.0))) first_low = x;
    if (near(p, colormap(Colormap::viridis, 1.0))) last_high = x;
  }
  ASSERT_GE(first_low, 0);
  ASSERT_GE(last_high, 0);
  EXPECT_LT(first_low, 120);
  EXPECT_GT(last_high, 300);
}

TEST(Figure, RegionFillsInsideTheOuterRingButNotTheHole) {
  // A square frame around a square hole; probe the frame and the hole along the middle row.
  const gis::Polygon frame{{{0, 0}, {1, 0}, {1, 1}, {0, 1}},
                           {{{0.3, 0.3}, {0.3, 0.7}, {0.7, 0.7}, {0.7, 0.3}}}};
  Figure fig(400, 400);
  fig.panel().region({frame}, {.color = colors::red, .alpha = 1.0, .edge_width = 0}).grid(false);
  fig.panel().xlim(0, 1).ylim(0, 1);
  const Image img(fig.render("png"));
  int red = 0, white = 0;
  for (int x = 0; x < 400; ++x) {
    const auto p = img.at(x, 200);
    red += near(p, colors::red);
    white += near(p, colors::white);
  }
  // The plot area is roughly 330 px wide: frame 2 x 0.3, hole 0.4 of it.
  EXPECT_GT(red, 150);
  EXPECT_GT(white, 100);
}

TEST(Figure, WatermarkStampsTheImage) {
  Figure plain(400, 300), stamped(400, 300);
  stamped.watermark("NOT FOR RELEASE");
  auto reddish = [](const Image& img) {
    int n = 0;
    for (int y = 0; y < 300; y += 2) {
      for (int x = 0; x < 400; x += 2) {
        const auto p = img.at(x, y);
        n += p[0] > p[1] + 60 && p[0] > p[2] + 60;
      }
    }
    return n;
  };
  EXPECT_EQ(reddish(Image(plain.render("png"))), 0);
  EXPECT_GT(reddish(Image(stamped.render("png"))), 30000 / 20);  // > 5% of the 30000 samples
}

TEST(Colormap, EndsAndClamping) {
  EXPECT_TRUE(near({0x44, 0x01, 0x54}, colormap(Colormap::viridis, 0.0)));
  EXPECT_TRUE(near({0xfd, 0xe7, 0x25}, colormap(Colormap::viridis, 1.0)));
  EXPECT_TRUE(near({0xfd, 0xe7, 0x25}, colormap(Colormap::viridis, 7.0)));
  EXPECT_TRUE(near({0xf7, 0xf7, 0xf7}, colormap(Colormap::diverging, 0.5)));  // centre is white
  EXPECT_TRUE(near({0, 0, 0}, colormap(Colormap::gray, 0.0)));
  EXPECT_NE(cycle_color(0).r, cycle_color(1).r);
  EXPECT_EQ(cycle_color(10).b, cycle_color(0).b);
}

}  // namespace
}  // namespace gpdp::plot
