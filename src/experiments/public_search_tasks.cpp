// The public search's task function (what a worker runs for one ℓ of one evaluate call) and the
// coordinator's objective that dispatches those tasks. A worker keeps, per ℓ, the objective of the
// search its tasks last worked on and the calls it made; a task whose earlier calls (listed in its
// params on the hybrid route) are not exactly those gets a fresh objective that replays them, so
// its kept z₁, and its result, are the same on any worker.
#include "gpdp/experiments/public_search_tasks.hpp"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "gpdp/error.hpp"
#include "utility_chunks.hpp"

namespace gpdp::experiments {

namespace {
using nlohmann::json;
using namespace chunks;

constexpr const char* kEllTask = "public_search.ell";

// The task's data as params: training data, evaluation points, weights, labels, threshold.
json data_json(const ExcursionTask& task, double threshold) {
  return {{"X", matrix_to_json(task.X)},
          {"y", matrix_to_json(task.y)},
          {"points", matrix_to_json(*task.eval_points)},
          {"weights", matrix_to_json(*task.weights)},
          {"truth", matrix_to_json(task.truth)},
          {"threshold", threshold}};
}

ExcursionTask task_from_json(const json& data) {
  return {matrix_from_json(data.at("X")), matrix_from_json(data.at("y")),
          std::make_shared<const Points>(matrix_from_json(data.at("points"))),
          std::make_shared<const Eigen::VectorXd>(matrix_from_json(data.at("weights"))),
          matrix_from_json(data.at("truth"))};
}

// ---- what a worker keeps: per ℓ, the objective of the search it last worked on ---------------

struct EllState {
  std::mutex mutex;
  std::unique_ptr<ExcursionObjective> objective;
  json calls = json::array();  // the calls made on it, in order
};

struct KeptSearch {
  std::mutex mutex;
  std::string key;  // the data as JSON text
  std::map<long long, std::shared_ptr<EllState>> by_ell;
};
KeptSearch& kept_search() {
  static KeptSearch kept;
  return kept;
}

// The state of ℓ (log_key) for the data of `params`; a task on other data drops what was kept.
std::shared_ptr<EllState> ell_state(const json& data, long long ell_key) {
  KeptSearch& kept = kept_search();
  const std::string key = data.dump();
  const std::lock_guard<std::mutex> lock(kept.mutex);
  if (key != kept.key) {
    kept.by_ell.clear();
    kept.key = key;
  }
  auto& slot = kept.by_ell[ell_key];
  if (!slot) slot = std::make_shared<EllState>();
  return slot;
}

// public_search.ell {data, history, call}: L_BCE of the call's θ (all at one ℓ) on the data, after
// the earlier calls `history` at that ℓ.
json ell_task(const json& params) {
  const json& data = params.at("data");
  const json& call = params.at("call");
  const json& history = params.at("history");
  const std::vector<Theta> thetas = thetas_from_json(call.at("thetas"));
  require(!thetas.empty(), "public_search.ell: a call without θ");
  const long long ell_key = log_key(thetas.front().ell);
  for (const auto& t : thetas) {
    require(log_key(t.ell) == ell_key,
            fmt::format("public_search.ell: θ of two length-scales ({} and {}) in one task",
                        thetas.front().ell, t.ell));
  }
  const auto state = ell_state(data, ell_key);
  const std::lock_guard<std::mutex> lock(state->mutex);
  if (!state->objective || state->calls != history) {
    state->objective = std::make_unique<ExcursionObjective>(
        std::vector<ExcursionTask>{task_from_json(data)}, data.at("threshold").get<double>(), 1);
    state->calls = json::array();
    for (const auto& earlier : history) {
      evaluate_call(*state->objective, earlier);
      state->calls.push_back(earlier);
    }
  }
  const long reductions = state->objective->reductions();
  const long fits = state->objective->single_ridge_fits();
  const Eigen::MatrixXd bce = evaluate_call(*state->objective, call);
  state->calls.push_back(call);
  return {{"bce", std::vector<double>(bce.data(), bce.data() + bce.size())},
          {"reductions", state->objective->reductions() - reductions},
          {"single_ridge_fits", state->objective->single_ridge_fits() - fits}};
}

// One ℓ of a call: its key, the columns of its θ in the call, and its part of the call.
struct EllPart {
  long long key;
  std::vector<Theta> thetas;
  std::vector<Eigen::Index> columns;
  std::vector<std::pair<double, double>> speculative;
};

// The call split by ℓ (log_key), in the order of each ℓ's first θ; the speculative (ℓ, r) go with
// their ℓ (ExcursionObjective ignores those of an ℓ not requested).
std::vector<EllPart> split_by_ell(const std::vector<Theta>& thetas,
                                  const std::vector<std::pair<double, double>>& speculative) {
  std::vector<EllPart> parts;
  std::map<long long, std::size_t> index;
  for (std::size_t k = 0; k < thetas.size(); ++k) {
    const long long key = log_key(thetas[k].ell);
    const auto [it, added] = index.try_emplace(key, parts.size());
    if (added) parts.push_back({key, {}, {}, {}});
    parts[it->second].thetas.push_back(thetas[k]);
    parts[it->second].columns.push_back(static_cast<Eigen::Index>(k));
  }
  for (const auto& s : speculative) {
    const auto it = index.find(log_key(s.first));
    if (it != index.end()) parts[it->second].speculative.push_back(s);
  }
  return parts;
}
}  // namespace

EllTaskObjective::EllTaskObjective(const ExcursionTask& task, double threshold,
                                   tasks::Executor& executor)
    : data_(data_json(task, threshold)),
      executor_(executor),
      stateful_(resolved_route(PosteriorRoute::Auto, task.X.cols()) == PosteriorRoute::Hybrid) {}

Eigen::MatrixXd EllTaskObjective::evaluate(
    const std::vector<Theta>& thetas, const std::vector<std::pair<double, double>>& speculative,
    bool keep) const {
  const std::vector<EllPart> parts = split_by_ell(thetas, speculative);
  std::vector<tasks::Task> list;
  std::vector<json> calls;
  for (const auto& part : parts) {
    calls.push_back(evaluate_call_json(part.thetas, part.speculative, keep));
    const auto earlier = history_.find(part.key);
    const json history = earlier != history_.end() ? earlier->second : json::array();
    list.push_back({kEllTask, {{"data", data_}, {"history", history}, {"call", calls.back()}}});
  }
  const std::vector<json> results = executor_.map(list);
  Eigen::MatrixXd out(1, static_cast<Eigen::Index>(thetas.size()));
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const auto bce = results[p].at("bce").get<std::vector<double>>();
    require(bce.size() == parts[p].columns.size(),
            fmt::format("{}: {} values for {} θ", kEllTask, bce.size(), parts[p].columns.size()));
    for (std::size_t q = 0; q < bce.size(); ++q) out(0, parts[p].columns[q]) = bce[q];
    reductions_ += results[p].at("reductions").get<long>();
    single_ridge_fits_ += results[p].at("single_ridge_fits").get<long>();
    if (stateful_)
      history_.try_emplace(parts[p].key, json::array()).first->second.push_back(calls[p]);
  }
  tasks_run_ += static_cast<long>(list.size());
  return out;
}

void EllTaskObjective::forget() const { history_.clear(); }

void forget_public_search_task_state() {
  KeptSearch& kept = kept_search();
  const std::lock_guard<std::mutex> lock(kept.mutex);
  kept.by_ell.clear();
  kept.key.clear();
}

std::vector<tasks::TaskKind> public_search_tasks() { return {{kEllTask, &ell_task}}; }

}  // namespace gpdp::experiments
