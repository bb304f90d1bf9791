#include "gpdp/samplers/pathwise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "gpdp/error.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/samplers/torus_sites.hpp"

namespace gpdp {

namespace {

// The computation lattice: the grid's lattice refined by q_a and extended to hold every training
// covariate. The output grid is the sub-lattice offset_a + q_a i_a.
struct LatticePlan {
  Lattice lattice;
  std::vector<long> refinement;
  std::vector<long> offset;
  std::vector<long> x_index;  // flat lattice index of each training covariate (on the lattice)
  double max_offset = 0.0;    // largest covariate distance to its node, in fine lattice steps
  // Covariates off every refined lattice: the grid's own lattice extended to hold them, and their
  // coordinates relative to its node 0 (TorusSites conditions them on the torus draw).
  bool off_lattice = false;
  Points sites;
  std::string off_lattice_note;  // which covariate is how far from a node
  std::string reason;            // non-empty: no exact plan
};

std::string axis_name(int a) { return fmt::format("x{}", a + 1); }

long torus_points(const std::vector<long>& torus) {
  long m = 1;
  for (const long t : torus) m *= t;
  return m;
}

// Covariates that no refinement puts on nodes: the grid's lattice (q = 1), extended to the
// covariates' bounding box so that every lag between a grid point and a covariate is a lag the
// embedding reproduces.
LatticePlan plan_off_lattice(const Posterior& posterior, const Grid& grid) {
  LatticePlan plan;
  plan.off_lattice = true;
  const Points& x = posterior.X();
  plan.sites.resize(x.rows(), grid.dim());
  for (int a = 0; a < grid.dim(); ++a) {
    const GridAxis& axis = grid.axes()[static_cast<std::size_t>(a)];
    const double h = axis.step();
    double lo = 0.0, hi = static_cast<double>(axis.count - 1);
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
      const double t = (x(i, a) - axis.lo) / h;
      if (!(std::abs(t) < 1e15)) {
        plan.reason = fmt::format("training covariate {} is too far from the grid on axis {}",
                                  i + 1, axis_name(a));
        return plan;
      }
      lo = std::min(lo, std::floor(t));
      hi = std::max(hi, std::ceil(t));
    }
    const auto first = static_cast<long>(lo);
    plan.refinement.push_back(1);
    plan.offset.push_back(-first);
    plan.lattice.counts.push_back(static_cast<long>(hi) - first + 1);
    plan.lattice.steps.push_back(h);
    const double origin = axis.lo + static_cast<double>(first) * h;
    for (Eigen::Index i = 0; i < x.rows(); ++i) plan.sites(i, a) = x(i, a) - origin;
  }
  return plan;
}

LatticePlan plan_lattice(const Posterior& posterior, const Grid& grid,
                         const PathwiseOptions& options) {
  LatticePlan plan;
  const int dim = grid.dim();
  const Points& x = posterior.X();
  std::vector<std::vector<long>> fine(static_cast<std::size_t>(dim));
  for (int a = 0; a < dim; ++a) {
    const GridAxis& axis = grid.axes()[static_cast<std::size_t>(a)];
    const double h = axis.step();
    long chosen = 0;
    double chosen_offset = 0.0;
    for (long q = 1; q <= options.max_refinement && chosen == 0; ++q) {
      double worst = 0.0;
      for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const double t = (x(i, a) - axis.lo) / h * static_cast<double>(q);
        worst = std::max(worst, std::abs(t - std::round(t)));
      }
      if (worst <= options.lattice_tolerance) {
        chosen = q;
        chosen_offset = worst;
      }
    }
    if (chosen == 0) {
      LatticePlan off = plan_off_lattice(posterior, grid);
      // No covariate's index, value or offset: this note reaches the public certificate's
      // sampling line, and the private covariates are not covered by ε there.
      if (off.reason.empty()) {
        off.off_lattice_note = fmt::format(
            "the training covariates are not all on the grid's lattice on axis {} and no "
            "refinement q ≤ {} of the grid step fits every covariate",
            axis_name(a), options.max_refinement);
      }
      return off;
    }
    plan.max_offset = std::max(plan.max_offset, chosen_offset);
    long lo = 0, hi = (axis.count - 1) * chosen;
    auto& idx = fine[static_cast<std::size_t>(a)];
    idx.resize(static_cast<std::size_t>(x.rows()));
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
      const double t = (x(i, a) - axis.lo) / h * static_cast<double>(chosen);
      if (!(std::abs(t) < 1e15)) {
        plan.reason = fmt::format("training covariate {} is too far from the grid on axis {}",
                                  i + 1, axis_name(a));
        return plan;
      }
      const auto u = static_cast<long>(std::llround(t));
      idx[static_cast<std::size_t>(i)] = u;
      lo = std::min(lo, u);
      hi = std::max(hi, u);
    }
    plan.refinement.push_back(chosen);
    plan.offset.push_back(-lo);
    plan.lattice.counts.push_back(hi - lo + 1);
    plan.lattice.steps.push_back(h / static_cast<double>(chosen));
  }
  plan.x_index.resize(static_cast<std::size_t>(x.rows()));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    long flat = 0, stride = 1;
    for (int a = 0; a < dim; ++a) {
      const auto sa = static_cast<std::size_t>(a);
      flat += (fine[sa][static_cast<std::size_t>(i)] + plan.offset[sa]) * stride;
      stride *= plan.lattice.counts[sa];
    }
    plan.x_index[static_cast<std::size_t>(i)] = flat;
  }
  return plan;
}

// Which embedding is nonnegative definite for a kernel on a lattice, remembered so that asking
// pathwise_unavailable_reason and then sampling searches only once.
struct EmbeddingVerdict {
  bool found = false;
  EmbeddingChoice choice;
  std::string attempts;  // every candidate tried, for reports
};

using VerdictKey = std::tuple<int, double, std::vector<long>, std::vector<double>, double,
                              std::vector<double>, bool, bool>;

VerdictKey verdict_key(const Kernel& kernel, const Lattice& lattice,
                       const EmbeddingOptions& options) {
  return {static_cast<int>(kernel.family()),
          kernel.lengthscale(),
          lattice.counts,
          lattice.steps,
          options.max_bytes,
          options.paddings,
          options.try_cutoff,
          options.require_positive_definite};
}

// The embedding found last (up to 2 GB), kept so that sample_pathwise right after
// pathwise_unavailable_reason does not recompute its eigenvalues; taken (moved out) by the sampler.
struct LastEmbedding {
  std::mutex mutex;
  std::optional<VerdictKey> key;
  std::optional<CirculantEmbedding> embedding;
};
LastEmbedding& last_embedding() {
  static LastEmbedding slot;
  return slot;
}

EmbeddingVerdict find_embedding(const Kernel& kernel, const Lattice& lattice,
                                const EmbeddingOptions& options) {
  static std::mutex mutex;
  static std::map<VerdictKey, EmbeddingVerdict> cache;
  const VerdictKey key = verdict_key(kernel, lattice, options);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  std::vector<EmbeddingAttempt> attempts;
  auto embedding = CirculantEmbedding::find(kernel, lattice, options, &attempts);
  EmbeddingVerdict verdict;
  verdict.found = embedding.has_value();
  if (embedding) verdict.choice = embedding->attempt().choice;
  for (const auto& a : attempts)
    verdict.attempts += (verdict.attempts.empty() ? "" : "; ") + a.describe();
  if (embedding && CirculantEmbedding::bytes_needed(verdict.choice.torus) <= 2e9) {
    LastEmbedding& slot = last_embedding();
    std::lock_guard<std::mutex> lock(slot.mutex);
    slot.key = key;
    slot.embedding = std::move(embedding);
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() > 64) cache.clear();
  cache.emplace(key, verdict);
  return verdict;
}

CirculantEmbedding take_embedding(const Kernel& kernel, const Lattice& lattice,
                                  const EmbeddingOptions& options, const EmbeddingChoice& choice) {
  {
    LastEmbedding& slot = last_embedding();
    std::lock_guard<std::mutex> lock(slot.mutex);
    if (slot.embedding && slot.key == verdict_key(kernel, lattice, options)) {
      CirculantEmbedding out = std::move(*slot.embedding);
      slot.embedding.reset();
      slot.key.reset();
      return out;
    }
  }
  return CirculantEmbedding::build(kernel, lattice, choice);
}

std::string static_reason(const Posterior& posterior, const Grid& grid, double eta) {
  if (!(std::isfinite(eta) && eta >= 0.0))
    return fmt::format("η must be finite and ≥ 0, got {}", eta);
  if (grid.dim() != 1 && grid.dim() != 2) {
    return fmt::format(
        "circulant embedding is implemented for 1-D and 2-D grids, the grid has {} axes",
        grid.dim());
  }
  if (posterior.noise_weights().size() > 0)
    return "the posterior has heteroscedastic noise (the pathwise draw assumes r² I)";
  if (posterior.dim() != grid.dim()) {
    return fmt::format("the grid has {} axes but the data have {} covariates", grid.dim(),
                       posterior.dim());
  }
  for (int a = 0; a < grid.dim(); ++a) {
    const GridAxis& axis = grid.axes()[static_cast<std::size_t>(a)];
    if (axis.count < 2 || !(axis.step() > 0.0)) {
      return fmt::format("grid axis {} has a single point (no lattice step to embed)",
                         axis_name(a));
    }
  }
  return "";
}

struct Setup {
  std::string reason;
  LatticePlan plan;
  EmbeddingOptions embedding_options;
  EmbeddingVerdict verdict;
};

Setup prepare(const Posterior& posterior, const Grid& grid, double eta,
              const PathwiseOptions& options) {
  Setup s;
  s.reason = static_reason(posterior, grid, eta);
  if (!s.reason.empty()) return s;
  s.plan = plan_lattice(posterior, grid, options);
  if (!s.plan.reason.empty()) {
    s.reason = s.plan.reason;
    return s;
  }
  s.embedding_options = options.embedding;
  if (s.plan.off_lattice) {
    if (!options.off_lattice) {
      s.reason = fmt::format(
          "training covariates not on the grid lattice ({}) and off-lattice conditioning is "
          "switched off",
          s.plan.off_lattice_note);
      return s;
    }
    s.embedding_options.require_positive_definite = true;
  }
  s.verdict = find_embedding(posterior.kernel(), s.plan.lattice, s.embedding_options);
  if (!s.verdict.found) {
    s.reason =
        fmt::format("no {} circulant embedding within {:.3g} GB ({})",
                    s.plan.off_lattice ? "positive definite (invertible)" : "nonnegative definite",
                    options.embedding.max_bytes / 1e9, s.verdict.attempts);
    return s;
  }
  if (s.plan.off_lattice) {
    const long torus = torus_points(s.verdict.choice.torus);
    const double bytes = TorusSites::bytes_needed(torus, posterior.n());
    if (bytes > static_cast<double>(available_memory())) {
      s.reason = fmt::format(
          "conditioning {} off-lattice covariates on a torus of {} nodes needs {} of memory, "
          "{} is available",
          posterior.n(), torus, format_bytes(bytes),
          format_bytes(static_cast<double>(available_memory())));
    }
  }
  return s;
}

std::string lattice_text(const LatticePlan& plan) {
  std::string counts, q;
  for (std::size_t a = 0; a < plan.lattice.counts.size(); ++a) {
    counts += (a ? "x" : "") + std::to_string(plan.lattice.counts[a]);
    q += (a ? "x" : "") + std::to_string(plan.refinement[a]);
  }
  if (plan.off_lattice) {
    return fmt::format(
        "lattice {} (the grid's, extended to the covariates); covariates off the "
        "lattice ({})",
        counts, plan.off_lattice_note);
  }
  return fmt::format(
      "lattice {} (grid step refined by {}), covariates on lattice nodes within "
      "{:.1e} steps",
      counts, q, plan.max_offset);
}

// Flat lattice index of each output grid point (grid order: first axis fastest).
std::vector<long> grid_indices(const Grid& grid, const LatticePlan& plan) {
  const long n1 = grid.axes()[0].count;
  const long n2 = grid.dim() > 1 ? grid.axes()[1].count : 1;
  const long l1 = plan.lattice.counts[0];
  const long q1 = plan.refinement[0], o1 = plan.offset[0];
  const long q2 = grid.dim() > 1 ? plan.refinement[1] : 0, o2 = grid.dim() > 1 ? plan.offset[1] : 0;
  std::vector<long> index(static_cast<std::size_t>(grid.size()));
  for (long i2 = 0; i2 < n2; ++i2) {
    for (long i1 = 0; i1 < n1; ++i1) {
      index[static_cast<std::size_t>(i2 * n1 + i1)] = (o1 + q1 * i1) + l1 * (o2 + q2 * i2);
    }
  }
  return index;
}

// Covariates on lattice nodes: z(X) is read off the lattice draw, and k(G, X) v is one FFT
// convolution of the weights v placed on the covariates' nodes (duplicates add up).
void draw_on_lattice(const Posterior& posterior, const LatticePlan& plan,
                     const std::vector<long>& grid_index, CirculantEmbedding& embedding, double eta,
                     Rng& rng, Eigen::MatrixXd& out) {
  const double sigma = posterior.sigma(), r = posterior.r();
  const Eigen::VectorXd& w = posterior.weights();
  const auto& factor = posterior.factor();
  const Eigen::Index n = posterior.n();
  const auto size = static_cast<std::size_t>(plan.lattice.size());
  std::vector<double> z(size), weights_on_lattice(size), conv(size);
  for (Eigen::Index l = 0; l < out.cols(); ++l) {
    embedding.draw(rng, z.data());
    Eigen::VectorXd e(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      e[i] = z[static_cast<std::size_t>(plan.x_index[static_cast<std::size_t>(i)])] +
             r * rng.standard_normal();
    }
    const Eigen::VectorXd v = w - sigma * factor.solve(e);
    std::fill(weights_on_lattice.begin(), weights_on_lattice.end(), 0.0);
    for (Eigen::Index i = 0; i < n; ++i) {
      weights_on_lattice[static_cast<std::size_t>(plan.x_index[static_cast<std::size_t>(i)])] +=
          v[i];
    }
    embedding.apply_covariance_plus_draw(weights_on_lattice.data(), eta, rng, conv.data());
    for (std::size_t j = 0; j < grid_index.size(); ++j) {
      const auto g = static_cast<std::size_t>(grid_index[j]);
      out(static_cast<Eigen::Index>(j), l) = conv[g] + sigma * z[g];
    }
  }
}

// Covariates off the lattice (TorusSites): with torus white noise ζ, z = C^½ ζ and
// z(X) = Wᵀ ζ + F_S ζ' jointly exact; the lattice output C^½ (σ ζ + W v) + η g is σ z + k(·, X) v
// + η g on the lattice nodes, since C^½ W = U = k(lattice, X).
void draw_off_lattice(const Posterior& posterior, const TorusSites& sites,
                      const std::vector<long>& grid_index, CirculantEmbedding& embedding,
                      double eta, Rng& rng, Eigen::MatrixXd& out) {
  const double sigma = posterior.sigma(), r = posterior.r();
  const Eigen::VectorXd& w = posterior.weights();
  const auto& factor = posterior.factor();
  const auto torus = static_cast<std::size_t>(embedding.torus_size());
  std::vector<double> white(torus), x(torus),
      lattice_values(static_cast<std::size_t>(embedding.lattice().size()));
  for (Eigen::Index l = 0; l < out.cols(); ++l) {
    rng.fill_standard_normal(white.data(), torus);
    Eigen::VectorXd e = sites.draw(white.data(), rng);
    for (Eigen::Index i = 0; i < e.size(); ++i) e[i] += r * rng.standard_normal();
    const Eigen::VectorXd v = w - sigma * factor.solve(e);
    for (std::size_t t = 0; t < torus; ++t) x[t] = sigma * white[t];
    sites.add_cross(v, x.data());
    embedding.apply_root_plus_draw(x.data(), eta, rng, lattice_values.data());
    for (std::size_t j = 0; j < grid_index.size(); ++j) {
      out(static_cast<Eigen::Index>(j), l) =
          lattice_values[static_cast<std::size_t>(grid_index[j])];
    }
  }
}

}  // namespace

PathwisePlan plan_pathwise(const Posterior& posterior, const Grid& grid, double eta,
                           const PathwiseOptions& options) {
  const Setup setup = prepare(posterior, grid, eta, options);
  PathwisePlan plan;
  plan.reason = setup.reason;
  if (!setup.verdict.found) return plan;
  plan.torus_points = torus_points(setup.verdict.choice.torus);
  if (setup.plan.off_lattice) {
    plan.off_lattice = posterior.n();
    plan.setup_flops = TorusSites::setup_flops(plan.torus_points, posterior.n());
  }
  return plan;
}

std::string pathwise_unavailable_reason(const Posterior& posterior, const Grid& grid, double eta,
                                        const PathwiseOptions& options) {
  return prepare(posterior, grid, eta, options).reason;
}

std::string pathwise_unavailable_reason(const Posterior& posterior, const Grid& grid, double eta) {
  return pathwise_unavailable_reason(posterior, grid, eta, PathwiseOptions{});
}

struct PathwiseSampler::State {
  LatticePlan plan;
  std::vector<long> grid_index;
  std::optional<CirculantEmbedding> embedding;
  std::optional<TorusSites> sites;
};

PathwiseSampler::PathwiseSampler(const Posterior& posterior, const Grid& grid, double eta,
                                 const PathwiseOptions& options)
    : state_(std::make_unique<State>()), eta_(eta), m_(grid.size()) {
  Setup setup = prepare(posterior, grid, eta, options);
  reason_ = setup.reason;
  if (!reason_.empty()) return;
  State& s = *state_;
  s.plan = std::move(setup.plan);
  s.embedding.emplace(take_embedding(posterior.kernel(), s.plan.lattice, setup.embedding_options,
                                     setup.verdict.choice));
  if (!s.embedding->nonnegative()) {  // a rebuild of a nonnegative verdict is deterministic
    throw NumericalError("pathwise: embedding lost nonnegativity: " +
                         s.embedding->attempt().describe());
  }
  s.grid_index = grid_indices(grid, s.plan);
  detail_ = fmt::format("Matheron's rule with exact prior draws by circulant embedding: {}; {}",
                        s.embedding->attempt().describe(), lattice_text(s.plan));
  if (s.plan.off_lattice) {
    s.sites.emplace(*s.embedding, s.plan.sites, posterior.kernel(), options.threads);
    reason_ = s.sites->unavailable_reason();
    detail_ += "; " + s.sites->describe();
  }
  if (eta > 0.0) detail_ += fmt::format("; η = {} noise drawn on the same embedding", eta);
}

PathwiseSampler::PathwiseSampler(PathwiseSampler&&) noexcept = default;
PathwiseSampler::~PathwiseSampler() = default;

// Matheron's rule (docs/mathematics.md §3): f_D + g = μ_D + σ z(G) − σ k(G,X)(K + r²I)⁻¹(z(X) + r
// ξ) + η g(G), (z(G), z(X)) ~ N(0, K) jointly exact, g ~ N(0, K) on the lattice, ξ ~ N(0, I_n),
// all independent; its covariance is σ²(K_GG − K_GX (K + r²I)⁻¹ K_XG) + η² K_GG.
Draws PathwiseSampler::draw(const Posterior& posterior, int draws, Rng& rng) {
  require(draws >= 1, fmt::format("pathwise: number of draws must be ≥ 1, got {}", draws));
  if (!reason_.empty()) throw InputError("pathwise sampler unavailable: " + reason_);
  State& s = *state_;
  Draws out;
  out.values.resize(m_, draws);
  if (s.sites) {
    draw_off_lattice(posterior, *s.sites, s.grid_index, *s.embedding, eta_, rng, out.values);
  } else {
    draw_on_lattice(posterior, s.plan, s.grid_index, *s.embedding, eta_, rng, out.values);
  }
  out.method = "pathwise";
  out.detail = detail_;
  return out;
}

Draws sample_pathwise(const Posterior& posterior, const Grid& grid, int draws, Rng& rng, double eta,
                      const PathwiseOptions& options) {
  require(draws >= 1, fmt::format("pathwise: number of draws must be ≥ 1, got {}", draws));
  PathwiseSampler sampler(posterior, grid, eta, options);
  return sampler.draw(posterior, draws, rng);
}

Draws sample_pathwise(const Posterior& posterior, const Grid& grid, int draws, Rng& rng,
                      double eta) {
  return sample_pathwise(posterior, grid, draws, rng, eta, PathwiseOptions{});
}

std::optional<Draws> try_sample_pathwise(const Posterior& posterior, const Grid& grid, int draws,
                                         Rng& rng, double eta, std::string& why_not,
                                         const PathwiseOptions& options) {
  require(draws >= 1, fmt::format("pathwise: number of draws must be ≥ 1, got {}", draws));
  PathwiseSampler sampler(posterior, grid, eta, options);
  why_not = sampler.reason();
  if (!why_not.empty()) return std::nullopt;
  return sampler.draw(posterior, draws, rng);
}

}  // namespace gpdp
