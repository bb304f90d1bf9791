// gpdp posterior: posterior mean, variance (and excursion probability) on points or a grid.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
#include "options.hpp"

namespace gpdp::cli {

namespace {

struct PosteriorFlags {
  PosteriorQueryOptions query;
  std::optional<double> threshold;
  std::string out;
  bool json = false;
};

void run(const PosteriorFlags& f) {
  require(!f.out.empty(), "--out FILE is required");
  require(!f.threshold || std::isfinite(*f.threshold), "--threshold must be a finite number");
  const PosteriorQuery pq = load_posterior_query(f.query);  // checks r, σ > 0 and η ≥ 0
  const double eta = f.query.hyper.eta;
  const Posterior& posterior = pq.posterior;
  const QueryPoints& q = pq.query;
  const Eigen::VectorXd mean = posterior.mean(q.points);
  // The released path is f_D + g: its variance adds η² k(x, x) = η².
  const Eigen::VectorXd var = posterior.variance(q.points).array() + eta * eta;
  Eigen::MatrixXd columns(mean.size(), f.threshold ? 3 : 2);
  columns.col(0) = mean;
  columns.col(1) = var;
  if (f.threshold) {
    // p(x) = P(f_D(x) + g(x) ≥ t) = Φ((μ_D(x) − t) / sqrt(σ² k_D(x,x) + η²)).
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
      columns(i, 2) = var[i] <= 0
                          ? (mean[i] >= *f.threshold ? 1.0 : 0.0)
                          : 0.5 * std::erfc(-(mean[i] - *f.threshold) / std::sqrt(2.0 * var[i]));
    }
  }
  std::vector<std::string> names = {"mean", "variance"};
  if (f.threshold) names.emplace_back("p_exceed");
  io::write_file_atomic(f.out, points_csv(q, columns, names));
  const double deff = posterior.effective_dimension();
  if (f.json) {
    nlohmann::json summary = pq.summary("posterior", eta);
    summary["effective_dimension"] = deff;
    summary["out"] = f.out;
    if (f.threshold) summary["threshold"] = *f.threshold;
    fmt::print("{}\n", summary.dump(2));
  } else {
    fmt::print("wrote posterior mean and variance at {} point(s) to {} (d_eff = {:.4g})\n",
               q.points.rows(), f.out, deff);
  }
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "posterior",
      "Posterior mean μ_D(x) and variance σ² k_D(x,x) (+ η² with --eta) of the released path on\n"
      "query points or a grid; with --threshold t also the excursion probability\n"
      "p_exceed(x) = Φ((μ_D(x) − t)/sd(x)). Output CSV: x1..xd, mean, variance[, p_exceed].\n"
      "Nothing random is drawn and nothing is released: these quantities depend on the private\n"
      "data directly and are NOT differentially private.");
  auto f = std::make_shared<PosteriorFlags>();
  add_posterior_query_options(sub, f->query);
  sub->add_option("--threshold", f->threshold, "Excursion threshold t: adds column p_exceed");
  sub->add_option("--out", f->out, "Output CSV (written whole or not at all)")->required();
  sub->add_flag("--json", f->json, "Print a JSON summary on stdout");
  sub->callback([f] { run(*f); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
