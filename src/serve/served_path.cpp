#include "gpdp/serve/served_path.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/release/lazy_answers.hpp"
#include "gpdp/serve/http_error.hpp"

namespace gpdp::serve {

namespace {

release::PathKey path_key(const ReleaseConfig& c) {
  if (!c.path_key_file.empty()) return release::key_from_file(c.path_key_file);
  if (!c.path_passphrase_env.empty()) return release::key_from_env(c.path_passphrase_env);
  return {};
}

// PROJ transformations share PROJ's default context, which is not thread-safe.
std::mutex& proj_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

ServedPath::ServedPath(const ReleaseConfig& config, std::size_t max_points)
    : file_(config.path),
      path_(config.path, path_key(config), config.ledger, config.insecure_seed.has_value()),
      rng_(make_rng(config.insecure_seed)),
      private_(path_.is_private()),
      max_points_(max_points) {
  const release::KeptPath& state = path_.state();
  const release::PreparedData prepared = release::kept_path_data(config.data, state);
  const Dataset& data = prepared.data;
  posterior_.emplace(state.kernel, data.X, data.y, Hyperparameters{state.r, state.sigma});
  lattice_ = release::kept_path_lattice(state, data, file_);
  if (!state.input.crs.empty())
    geo_.emplace(state.input.crs, state.input.model_crs, *state.input.domain);
  require(!state.paths.empty(), fmt::format("{}: the kept path holds no path", file_));
  answered_ = static_cast<long>(state.paths.front().points.rows());
  require(static_cast<std::size_t>(answered_.load()) <= max_points_,
          fmt::format("{}: the path already holds {} points, more than limits.max_points_per_path "
                      "= {}; raise the limit to serve it",
                      file_, answered_.load(), max_points_));
}

Points ServedPath::checked_model_points(const Points& points) const {
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    if (!points.row(i).allFinite())
      throw HttpError(400, fmt::format("point {}: coordinates must be finite numbers", i + 1));
    if (!domain().contains(points.row(i).transpose())) {
      throw HttpError(400, fmt::format("point {} lies outside the declared domain {}", i + 1,
                                       domain().to_string()));
    }
  }
  if (!geo_) return points;
  std::lock_guard lock(proj_mutex());
  return geo_->to_model(points, "query points");
}

PathAnswer ServedPath::answer(const Points& points, std::chrono::milliseconds wait) {
  const Points model_points = checked_model_points(points);
  std::unique_lock lock(mutex_, std::defer_lock);
  if (!lock.try_lock_for(wait)) {
    throw HttpError(503, "this path is busy answering other queries; retry shortly",
                    static_cast<int>(std::max<long long>(1, wait.count() / 1000)));
  }
  // Drawn on a copy: the path changes only once the new state is safely on disk.
  release::KeptPath next = path_.state();
  const Eigen::MatrixXd draw =
      release::answer_points(next, *posterior_, lattice_, model_points, *rng_);
  const auto total = static_cast<std::size_t>(next.paths.front().points.rows());
  if (total > max_points_) {
    throw HttpError(503, fmt::format("this path has answered {} of its {} points and this query "
                                     "needs {} more; points already answered are still served",
                                     answered_.load(), max_points_,
                                     total - static_cast<std::size_t>(answered_.load())));
  }
  PathAnswer a;
  a.new_points = static_cast<long>(total) - answered_.load();
  if (a.new_points > 0) {
    path_.save(std::move(next));
    answered_ = static_cast<long>(total);
  }
  const double center = path_.state().input.center.value_or(0.0);
  const double scale = path_.state().input.scale.value_or(1.0);
  a.value = (draw.array() * scale + center).matrix();
  a.draw = draw;
  return a;
}

}  // namespace gpdp::serve
