#include "served_path.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/release/lazy_answers.hpp"
#include "http_error.hpp"

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

ServedPath::ServedPath(const ReleaseConfig& config, const Limits& limits)
    : file_(config.path),
      path_(config.path, path_key(config), config.ledger, config.insecure_seed.has_value()),
      rng_(make_rng(config.insecure_seed)),
      private_(path_.is_private()),
      max_points_(limits.max_points_per_path),
      quota_(limits.new_points_per_client == 0
                 ? 0.0
                 : static_cast<double>(limits.new_points_per_client) / limits.new_points_window_s,
             static_cast<double>(limits.new_points_per_client)),
      quota_points_(limits.new_points_per_client) {
  const release::KeptPath& state = path_.state();
  const release::PreparedData prepared = release::kept_path_data(config.data, state);
  release::KeptPathModel model = release::kept_path_model(state, prepared, file_);
  posterior_.emplace(std::move(model.posterior));
  lattice_ = model.lattice;
  if (!state.input.crs.empty())
    geo_.emplace(state.input.crs, state.input.model_crs, *state.input.domain);
  require(!state.paths.empty(), fmt::format("{}: the kept path holds no path", file_));
  answered_ = static_cast<long>(state.paths.front().points.rows());
  remember(state.paths.front().points);
  require(static_cast<std::size_t>(answered_.load()) <= max_points_,
          fmt::format("{}: the path already holds {} points, more than limits.max_points_per_path "
                      "= {}; raise the limit to serve it",
                      file_, answered_.load(), max_points_));
  // The conditioning on everything answered, built once here; each query then extends it.
  lazy_.emplace(state, *posterior_);
  lazy_->prepare();
}

Points ServedPath::declared_points(const Points& points, const std::string& crs) const {
  if (!geo_) {
    throw HttpError(400,
                    "this release has no CRS: give the points in its own coordinates, "
                    "without crs");
  }
  std::lock_guard lock(proj_mutex());
  try {
    const gis::Crs from = gis::Crs::parse(crs);
    if (from.id() == geo_->declared().id()) return points;
    return gis::Transformer(from, geo_->declared()).apply(points, "query points");
  } catch (const InputError& e) {
    throw HttpError(400, e.what());
  }
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

void ServedPath::remember(const Points& model_points) {
  for (Eigen::Index i = 0; i < model_points.rows(); ++i)
    answered_points_.insert(key(model_points, i));
}

std::vector<double> ServedPath::key(const Points& model_points, Eigen::Index row) {
  std::vector<double> k(static_cast<std::size_t>(model_points.cols()));
  for (Eigen::Index j = 0; j < model_points.cols(); ++j)
    k[static_cast<std::size_t>(j)] = model_points(row, j) + 0.0;  // −0 is +0 (the same point)
  return k;
}

PathAnswer ServedPath::answer(const Points& points, std::chrono::milliseconds wait,
                              const std::string& client) {
  const Points model_points = checked_model_points(points);
  std::unique_lock lock(mutex_, std::defer_lock);
  if (!lock.try_lock_for(wait)) {
    throw HttpError(503, "this path is busy answering other queries; retry shortly",
                    static_cast<int>(std::max<long long>(1, wait.count() / 1000)));
  }
  std::set<std::vector<double>> fresh;
  for (Eigen::Index i = 0; i < model_points.rows(); ++i) {
    auto k = key(model_points, i);
    if (answered_points_.count(k) == 0) fresh.insert(std::move(k));
  }
  const auto answered = static_cast<std::size_t>(answered_.load());
  if (answered + fresh.size() > max_points_) {
    throw HttpError(503, fmt::format("this path has answered {} of its {} points and this query "
                                     "needs {} more; points already answered are still served",
                                     answered, max_points_, fresh.size()));
  }
  const auto cost = static_cast<double>(fresh.size());
  double retry = 0;
  if (!fresh.empty() && !quota_.allow(client, std::chrono::steady_clock::now(), &retry, cost)) {
    if (fresh.size() > quota_points_) {
      throw HttpError(429, fmt::format("this query asks for {} new points, more than the quota of "
                                       "{} new points per client; ask fewer at a time",
                                       fresh.size(), quota_points_));
    }
    throw HttpError(429,
                    fmt::format("this address has used its quota of new points ({} per client, "
                                "refilled over time); points already answered are still served",
                                quota_points_),
                    static_cast<int>(std::ceil(retry)));
  }
  try {
    // Drawn on a copy: the path changes only once the new state is safely on disk.
    release::KeptPath next = path_.state();
    const Eigen::MatrixXd draw = lazy_->answer(next, lattice_, model_points, *rng_);
    const auto total = static_cast<std::size_t>(next.paths.front().points.rows());
    PathAnswer a;
    a.new_points = static_cast<long>(total - answered);
    if (a.new_points > 0) {
      try {
        path_.save(std::move(next));
      } catch (...) {
        lazy_->undo();  // not saved: the answers never leave, the paths forget them
        throw;
      }
      answered_ = static_cast<long>(total);
      remember(model_points);
    }
    const double center = path_.state().input.center.value_or(0.0);
    const double scale = path_.state().input.scale.value_or(1.0);
    a.value = (draw.array() * scale + center).matrix();
    a.draw = draw;
    return a;
  } catch (...) {
    if (!fresh.empty()) quota_.refund(client, cost);
    throw;
  }
}

}  // namespace gpdp::serve
