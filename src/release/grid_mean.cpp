// The grid mean (grid_mean.hpp): cells, the private aggregates, the noisy table and its GP.
#include "gpdp/release/grid_mean.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::release {

long CellLayout::size() const {
  long c = 1;
  for (const long k : counts) c *= k;
  return c;
}

Eigen::Index CellLayout::cell_of(const Eigen::VectorXd& x) const {
  Eigen::Index index = 0, stride = 1;
  for (int a = 0; a < domain.dim(); ++a) {
    const double lo = domain.lower()(a), hi = domain.upper()(a);
    const long k = counts[static_cast<std::size_t>(a)];
    long i = hi > lo
                 ? static_cast<long>(std::floor((x(a) - lo) / (hi - lo) * static_cast<double>(k)))
                 : 0;
    i = std::clamp(i, 0L, k - 1);  // the upper edge belongs to the last cell
    index += i * stride;
    stride *= k;
  }
  return index;
}

Box CellLayout::bounds(Eigen::Index cell) const {
  const int d = domain.dim();
  Eigen::VectorXd lo(d), hi(d);
  Eigen::Index rest = cell;
  for (int a = 0; a < d; ++a) {
    const long k = counts[static_cast<std::size_t>(a)];
    const long i = static_cast<long>(rest % k);
    rest /= k;
    const double l = domain.lower()(a), u = domain.upper()(a);
    const double w = (u - l) / static_cast<double>(k);
    lo(a) = l + static_cast<double>(i) * w;
    hi(a) = i + 1 == k ? u : l + static_cast<double>(i + 1) * w;
  }
  return Box(lo, hi);
}

Points CellLayout::centres() const {
  Points c(size(), domain.dim());
  for (Eigen::Index k = 0; k < c.rows(); ++k) {
    const Box b = bounds(k);
    c.row(k) = (0.5 * (b.lower() + b.upper())).transpose();
  }
  return c;
}

CellLayout square_cells(const Box& domain, double total) {
  require(std::isfinite(total) && total > 0, "the grid mean's cell rule needs a positive count");
  const double target = std::clamp(std::round(total), 1.0, static_cast<double>(kGridMeanMaxCells));
  const int d = domain.dim();
  const Eigen::VectorXd side = domain.upper() - domain.lower();
  // Square cells of side h: Π side_a / h = target, then per axis round(side_a / h) ≥ 1, and
  // never more than the cap in total.
  double volume = 1.0;
  for (int a = 0; a < d; ++a) volume *= side(a);
  const double h = std::pow(volume / target, 1.0 / d);
  CellLayout layout{domain, {}};
  for (int a = 0; a < d; ++a)
    layout.counts.push_back(std::max(1L, static_cast<long>(std::lround(side(a) / h))));
  while (layout.size() > kGridMeanMaxCells) {
    auto it = std::max_element(layout.counts.begin(), layout.counts.end());
    --*it;
  }
  return layout;
}

namespace {

// The UG rule's count n ε / c, before rounding and the cap.
double ug_count(long n, double epsilon) {
  require(n >= 1 && std::isfinite(epsilon) && epsilon > 0,
          "the grid mean's cell rule needs n ≥ 1 and ε > 0");
  return static_cast<double>(n) * epsilon / kGridMeanUgConstant;
}

}  // namespace

CellLayout ug_cells(const Box& domain, long n, double epsilon) {
  return square_cells(domain, ug_count(n, epsilon));
}

CellLayout grid_mean_cells(const Box& domain, long n, double epsilon) {
  // At least k records per cell on average: the UG count alone gives about one at ε = 10, where
  // the frontier measured k = 5 best (docs/utility.md, "The grid mean's cell rule").
  return square_cells(
      domain, std::min(ug_count(n, epsilon), static_cast<double>(n) / kGridMeanMinRecordsPerCell));
}

CellLayout grid_mean_layout(const privacy::GpMechanism& m) {
  require(m.domain.has_value(), "grid mean: the mechanism has no domain");
  require(static_cast<int>(m.cells.size()) == m.domain->dim(),
          fmt::format("grid mean: {} cell count(s) for a {}-D domain", m.cells.size(),
                      m.domain->dim()));
  for (const long k : m.cells)
    require(k >= 1, fmt::format("grid mean: a cell count must be ≥ 1, got {}", k));
  return CellLayout{*m.domain, m.cells};
}

void check_on_lattices(const CellTable& t, const privacy::GpMechanism& m,
                       const std::string& source) {
  const Granularity gs = sum_lattice(m.n, m.M_Y, m.noise_scale);
  const Granularity gc = count_lattice(m.n, privacy::grid_mean_count_noise(m));
  const bool ok = t.sums.unaryExpr([&](double x) { return snap(x, gs) == x; }).all() &&
                  t.counts.unaryExpr([&](double x) { return snap(x, gc) == x; }).all();
  require(ok, fmt::format("{}: a cell sum or count is not on its lattice", source));
}

CellAggregates aggregate_cells(const CellLayout& layout, const Points& X,
                               const Eigen::VectorXd& y) {
  require(X.rows() == y.size(), "grid mean: covariates and responses differ in number");
  CellAggregates a{Eigen::VectorXd::Zero(layout.size()), Eigen::VectorXd::Zero(layout.size())};
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const Eigen::Index c = layout.cell_of(X.row(i).transpose());
    a.sums(c) += y(i);
    a.counts(c) += 1.0;
  }
  return a;
}

nlohmann::json to_json(const CellTable& t) {
  return {{"domain", t.layout.domain.to_string()},
          {"cells", t.layout.counts},
          {"sums", std::vector<double>(t.sums.data(), t.sums.data() + t.sums.size())},
          {"counts", std::vector<double>(t.counts.data(), t.counts.data() + t.counts.size())}};
}

CellTable cell_table_from_json(const nlohmann::json& j, const std::string& source) {
  try {
    CellLayout layout{Box::parse(j.at("domain").get<std::string>()),
                      j.at("cells").get<std::vector<long>>()};
    require(static_cast<int>(layout.counts.size()) == layout.domain.dim(),
            fmt::format("{}: cell counts do not match the domain", source));
    for (const long k : layout.counts)
      require(k >= 1, fmt::format("{}: a cell count must be ≥ 1", source));
    const auto sums = j.at("sums").get<std::vector<double>>();
    const auto counts = j.at("counts").get<std::vector<double>>();
    require(static_cast<long>(sums.size()) == layout.size() &&
                static_cast<long>(counts.size()) == layout.size(),
            fmt::format("{}: {} cells but {} sums and {} counts", source, layout.size(),
                        sums.size(), counts.size()));
    CellTable t{
        std::move(layout),
        Eigen::Map<const Eigen::VectorXd>(sums.data(), static_cast<Eigen::Index>(sums.size())),
        Eigen::Map<const Eigen::VectorXd>(counts.data(), static_cast<Eigen::Index>(counts.size()))};
    require(t.sums.allFinite() && t.counts.allFinite(),
            fmt::format("{}: a cell sum or count is not finite", source));
    return t;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: malformed cell table ({})", source, e.what()));
  }
}

Granularity sum_lattice(long n, double M_Y, double sum_noise) {
  return gaussian_granularity(
      sum_noise, static_cast<double>(n) * M_Y + 40.0 * sum_noise,
      "the grid mean's cell sums: std_floor = s_S, value bound n·M_Y + 40 s_S");
}

Granularity count_lattice(long n, double count_noise) {
  return gaussian_granularity(
      count_noise, static_cast<double>(n) + 40.0 * count_noise,
      "the grid mean's cell counts: std_floor = s_N, value bound n + 40 s_N");
}

CellTable noisy_table(const CellLayout& layout, const CellAggregates& exact, long n, double M_Y,
                      double sum_noise, double count_noise, Rng& rng) {
  const Eigen::Index c = layout.size();
  Eigen::VectorXd z(2 * c);
  rng.fill_standard_normal(z.data(), static_cast<std::size_t>(z.size()));
  const Granularity gs = sum_lattice(n, M_Y, sum_noise), gc = count_lattice(n, count_noise);
  CellTable t{layout, Eigen::VectorXd(c), Eigen::VectorXd(c)};
  for (Eigen::Index k = 0; k < c; ++k) {
    t.sums(k) = snap(exact.sums(k) + sum_noise * z(k), gs);
    t.counts(k) = snap(exact.counts(k) + count_noise * z(c + k), gc);
  }
  z.setZero();
  return t;
}

GridMap parse_grid_map(const std::string& text) {
  if (text == "gp") return GridMap::Gp;
  if (text == "cells") return GridMap::Cells;
  throw InputError(fmt::format("grid map must be gp or cells, got '{}'", text));
}

std::string to_string(GridMap map) { return map == GridMap::Cells ? "cells" : "gp"; }

double table_prior_mean(const CellTable& t, long n, double M_Y) {
  return std::clamp(t.sums.sum() / static_cast<double>(n), -M_Y, M_Y);
}

double cell_mean(const CellTable& t, Eigen::Index k, double M_Y) {
  return std::clamp(t.sums(k) / std::max(t.counts(k), kGridMeanMinCount), -M_Y, M_Y);
}

Eigen::VectorXd cell_means_map(const CellTable& t, const Points& points, long n, double M_Y) {
  const double mu0 = table_prior_mean(t, n, M_Y);
  Eigen::VectorXd map(points.rows());
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    const Eigen::Index k = t.layout.cell_of(points.row(i).transpose());
    map(i) = t.counts(k) >= kGridMeanMinCount ? cell_mean(t, k, M_Y) : mu0;
  }
  return map;
}

CellPosterior cell_posterior(const CellTable& t, const Kernel& kernel, double r, double sigma,
                             long n, double M_Y, double sum_noise, double count_noise) {
  const double mu0 = table_prior_mean(t, n, M_Y);
  const double n_min = kGridMeanMinCount;
  std::vector<Eigen::Index> kept;
  for (Eigen::Index k = 0; k < t.counts.size(); ++k)
    if (t.counts(k) >= n_min) kept.push_back(k);
  if (kept.empty()) {  // at least one cell: the largest noisy count, its count floored at n_min
    Eigen::Index best = 0;
    t.counts.maxCoeff(&best);
    kept.push_back(best);
  }
  const Points all = t.layout.centres();
  const auto m = static_cast<Eigen::Index>(kept.size());
  Points centres(m, all.cols());
  Eigen::VectorXd means(m), variances(m);
  for (Eigen::Index j = 0; j < m; ++j) {
    const Eigen::Index k = kept[static_cast<std::size_t>(j)];
    const double count = std::max(t.counts(k), n_min);
    const double mean = cell_mean(t, k, M_Y);
    centres.row(j) = all.row(k);
    means(j) = mean;
    variances(j) =
        (sum_noise * sum_noise + mean * mean * count_noise * count_noise) / (count * count) +
        sigma * sigma * r * r / count;
  }
  // Prior scale ψ = M_Y (the response scale): the Posterior's noise is (r ψ)² w, so w = v/(r ψ)².
  const double psi = M_Y;
  const Eigen::VectorXd weights = variances / (psi * psi * r * r);
  Posterior post(kernel, centres, (means.array() - mu0).matrix(), {r, psi}, weights);
  return {mu0, std::move(kept), std::move(means), std::move(variances), std::move(post)};
}

CellPosterior cell_posterior(const CellTable& table, const privacy::GpMechanism& m) {
  return cell_posterior(table, *m.kernel, m.r, m.sigma, m.n, m.M_Y, m.noise_scale,
                        privacy::grid_mean_count_noise(m));
}

Granularity cell_path_lattice(const CellPosterior& p, double M_Y) {
  const Eigen::VectorXd& w = p.posterior.noise_weights();
  return release_granularity(p.posterior.n(), M_Y, p.posterior.r() * std::sqrt(w.minCoeff()),
                             p.posterior.sigma(), 0.0);
}

}  // namespace gpdp::release
