#pragma once
// One kept path as `gpdp serve` answers it (docs/mathematics.md §1, lazy evaluation): opened once
// at start with the same checks as `gpdp query` (the data file is the release's, byte for byte;
// release/open_path.hpp: the path's id locked, the file the ledger's generation), the posterior
// built once, then
//   * a query's points already answered return exactly their released value, new ones are drawn
//     jointly and conditionally on every earlier answer;
//   * a batch is atomic: all its points are answered, or none is and the path is unchanged;
//   * the kept path file and its generation in the ledger are updated durably (OpenPath::save)
//     BEFORE the answer is returned, so a crash never loses an answer that left the server;
//   * the path's id is locked for the server's lifetime: no `gpdp query`, second server or second
//     config entry answers with it meanwhile, under any file name;
//   * queries to one path run one at a time (each conditions on the last); a query that waits
//     longer than `wait` for its path is refused (503), and so is one that would take the path
//     past its cap of points (503; points already answered are still served);
//   * each client address may add at most limits.new_points_per_client new points per
//     limits.new_points_window_s (a token bucket, one token per new point; 429 past it), so one
//     client cannot use up the path's cap for everyone. Answered points never count.
#include <Eigen/Core>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpdp/domain.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/lazy_answers.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/serve/config.hpp"
#include "gpdp/serve/rate_limiter.hpp"
#include "release/open_path.hpp"

namespace gpdp::serve {

struct PathAnswer {
  Eigen::MatrixXd draw;   // points x paths, model units (draws.csv's draw_l)
  Eigen::MatrixXd value;  // the same in response units (draws.csv's value_l)
  long new_points = 0;    // points drawn by this query (the rest were already answered)
};

class ServedPath {
 public:
  // InputError / PrivacyError naming the file at fault when a check fails.
  ServedPath(const ReleaseConfig& config, const Limits& limits);

  // Points in the release's declared coordinates (those of draws.csv), one row each, asked by
  // `client`. HttpError 400 for a point outside the declared domain, 429 past the client's quota
  // of new points, 503 when busy or full.
  PathAnswer answer(const Points& points, std::chrono::milliseconds wait,
                    const std::string& client = "");
  // Points given in `crs` (AUTH:CODE, e.g. the map page's EPSG:4326 longitude/latitude) in the
  // release's declared coordinates. HttpError 400 when the release has no CRS, the CRS is unknown
  // or a point cannot be transformed.
  Points declared_points(const Points& points, const std::string& crs) const;

  const std::string& path_id() const { return path_.state().path_id; }
  const std::vector<std::string>& names() const { return path_.state().names; }
  int dim() const { return path_.state().dim(); }
  const Box& domain() const { return *path_.state().input.domain; }
  std::size_t paths() const { return path_.state().paths.size(); }
  long points_answered() const { return answered_.load(); }
  std::size_t max_points() const { return max_points_; }
  // Bytes the paths' conditioning holds now (about 4 k² per path at k answered points).
  double conditioning_bytes() const { return lazy_->conditioning_bytes(); }
  // The answers are private: the release's, every earlier one's and this server's generator.
  bool is_private() const { return private_; }

 private:
  Points checked_model_points(const Points& points) const;
  static std::vector<double> key(const Points& model_points, Eigen::Index row);
  void remember(const Points& model_points);

  std::string file_;
  release::OpenPath path_;  // its id locked while the server runs
  std::optional<Posterior> posterior_;
  // The paths with their conditioning kept between queries, built at start (lazy_answers.hpp).
  std::optional<release::LazyPaths> lazy_;
  release::Granularity lattice_;
  std::optional<gis::GeoFrame> geo_;
  std::unique_ptr<Rng> rng_;
  bool private_ = true;
  std::size_t max_points_;
  RateLimiter quota_;  // new points per client address
  std::size_t quota_points_;
  std::set<std::vector<double>> answered_points_;  // model coordinates, as SamplePath keys them
  std::atomic<long> answered_{0};
  std::timed_mutex mutex_;
};

}  // namespace gpdp::serve
