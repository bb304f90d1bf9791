#include "gpdp/plot/ticks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::plot {
namespace {

// Unicode superscripts (DejaVu Sans has them), so that 10^-6 reads as 10⁻⁶.
std::string superscript(int n) {
  static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string s = n < 0 ? "⁻" : "";
  for (char c : std::to_string(std::abs(n))) s += digits[c - '0'];
  return s;
}

std::string linear_label(double v, double step, double max_abs) {
  if (std::abs(v) < step * 1e-9) return "0";
  const int step_exp = static_cast<int>(std::floor(std::log10(step) + 1e-9));
  const bool quarter = std::abs(step / std::pow(10.0, step_exp) - 2.5) < 1e-6;
  if (max_abs >= 1e6 || max_abs < 1e-3) {
    const int mag = static_cast<int>(std::floor(std::log10(max_abs) + 1e-9));
    const int decimals = std::max(0, mag - step_exp + (quarter ? 1 : 0));
    const double m = v / std::pow(10.0, mag);
    return fmt::format("{:.{}f}×10{}", m, decimals, superscript(mag));
  }
  const int decimals = std::max(0, -step_exp + (quarter ? 1 : 0));
  return fmt::format("{:.{}f}", v, decimals);
}

}  // namespace

double nice_step(double lo, double hi, int target) {
  require(std::isfinite(lo) && std::isfinite(hi) && lo < hi,
          fmt::format("plot ticks: need a finite range lo < hi, got [{}, {}]", lo, hi));
  const double raw = (hi - lo) / std::max(1, target);
  const double base = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * base >= raw * (1 - 1e-9)) return m * base;
  }
  return 10.0 * base;
}

std::vector<Tick> linear_ticks(double lo, double hi, int target) {
  const double step = nice_step(lo, hi, target);
  const double first = std::ceil(lo / step - 1e-9);
  const double last = std::floor(hi / step + 1e-9);
  const double max_abs = std::max(std::abs(first * step), std::abs(last * step));
  std::vector<Tick> ticks;
  for (double k = first; k <= last; k += 1.0) {
    const double v = k * step;
    ticks.push_back({v, linear_label(v, step, max_abs > 0 ? max_abs : step)});
  }
  return ticks;
}

std::vector<Tick> log_ticks(double lo, double hi, int target) {
  require(std::isfinite(lo) && std::isfinite(hi) && 0 < lo && lo < hi,
          fmt::format("plot ticks: a log axis needs 0 < lo < hi, got [{}, {}]", lo, hi));
  const double span = std::log10(hi / lo);
  if (span < 1.2) return linear_ticks(lo, hi, std::max(3, target - 1));
  const int e_lo = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int e_hi = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  const bool plain = e_lo >= -3 && e_hi <= 4;
  std::vector<Tick> ticks;
  if (span <= 3.0) {  // short range: 1, 2, 5 in every decade
    for (int e = e_lo - 1; e <= e_hi; ++e) {
      for (int m : {1, 2, 5}) {
        const double v = m * std::pow(10.0, e);
        if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
        std::string label =
            plain ? fmt::format("{:g}", v)
                  : (m == 1 ? "10" + superscript(e) : fmt::format("{}·10{}", m, superscript(e)));
        ticks.push_back({v, std::move(label)});
      }
    }
    return ticks;
  }
  const int stride = std::max(1, (e_hi - e_lo + target) / std::max(1, target));
  for (int e = e_lo; e <= e_hi; ++e) {
    if (((e % stride) + stride) % stride != 0) continue;
    const double v = std::pow(10.0, e);
    ticks.push_back({v, plain ? fmt::format("{:g}", v) : "10" + superscript(e)});
  }
  return ticks;
}

}  // namespace gpdp::plot
