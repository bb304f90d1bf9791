#include "roc_plot.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gpdp::attack {

void draw_roc(plot::Axes& ax, const std::vector<SeedOutcome>& seeds, double epsilon, double delta,
              bool loglog, const std::string& label) {
  const double lo = loglog ? 1e-4 : 0.0;
  ax.xlabel("FPR").ylabel("TPR").xlim(lo, 1.0).ylim(lo, 1.0);
  if (loglog) ax.xlog().ylog();
  std::vector<double> grid;
  for (int i = 0; i <= 400; ++i) {
    grid.push_back(loglog ? std::pow(10.0, -4.0 + 4.0 * i / 400.0) : i / 400.0);
  }
  ax.line(grid, grid,
          {.label = "chance", .color = plot::colors::gray, .dashed = true, .width = 1.0});
  if (std::isfinite(epsilon)) {
    std::vector<double> bound;
    for (double f : grid) bound.push_back(std::max(dp_max_tpr(f, epsilon, delta), lo));
    ax.line(grid, bound,
            {.label = fmt::format("(ε={:.3g}, δ={:g}) bound", epsilon, delta),
             .color = plot::colors::red,
             .dashed = true,
             .width = 1.8});
  }
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    std::vector<double> f, t;
    for (const auto& p : seeds[s].roc) {
      f.push_back(loglog ? std::max(p.fpr, lo) : p.fpr);
      t.push_back(loglog ? std::max(p.tpr, lo) : p.tpr);
    }
    ax.line(f, t,
            {.label = s == 0 ? label : std::string(), .color = plot::colors::blue, .width = 1.2});
  }
  ax.legend(loglog ? plot::LegendPosition::lower_right : plot::LegendPosition::lower_right);
}

std::string roc_csv(const std::vector<SeedOutcome>& seeds) {
  std::string out = "seed,fpr,tpr\n";
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    for (const auto& p : seeds[s].roc) out += fmt::format("{},{:.6g},{:.6g}\n", s, p.fpr, p.tpr);
  }
  return out;
}

}  // namespace gpdp::attack
