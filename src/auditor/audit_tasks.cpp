#include "audit_tasks.hpp"

#include <fmt/format.h>

#include "audit_runs.hpp"
#include "gpdp/error.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/privacy/event.hpp"

namespace gpdp::auditor {

using nlohmann::json;

SmoothObjective Objectives::smooth(const ObjectiveSpec& spec) const {
  switch (spec.kind) {
    case ObjectiveSpec::Kind::Divergence:
      return divergence(spec.alpha);
    case ObjectiveSpec::Kind::Sensitivity:
      return sensitivity();
    case ObjectiveSpec::Kind::MeanDistance:
      break;
  }
  throw InputError("audit: the mean distance has no smooth objective");
}

ExactObjective Objectives::exact(const ObjectiveSpec& spec) const {
  switch (spec.kind) {
    case ObjectiveSpec::Kind::Divergence:
      return divergence_oracle(spec.alpha);
    case ObjectiveSpec::Kind::Sensitivity:
      return sensitivity_oracle();
    case ObjectiveSpec::Kind::MeanDistance:
      break;
  }
  return mean_distance();
}

namespace {

json matrix_params(const Eigen::MatrixXd& a) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < a.cols(); ++j) row.push_back(a(i, j));
    rows.push_back(std::move(row));
  }
  return {{"rows", a.rows()}, {"cols", a.cols()}, {"values", rows}};
}
Eigen::MatrixXd matrix_from_params(const json& j) {
  Eigen::MatrixXd a(j.at("rows").get<Eigen::Index>(), j.at("cols").get<Eigen::Index>());
  const json& rows = j.at("values");
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index k = 0; k < a.cols(); ++k) {
      a(i, k) = rows.at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(k)).get<double>();
    }
  }
  return a;
}

Eigen::VectorXd vector_from_json(const json& j) {
  const auto v = j.get<std::vector<double>>();
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

json pair_params(const NeighbourPair& p) {
  return {{"X", matrix_params(p.X)},
          {"Xp", matrix_params(p.Xp)},
          {"y", matrix_params(p.y)},
          {"yp", matrix_params(p.yp)},
          {"test", matrix_params(p.test)}};
}
NeighbourPair pair_from_params(const json& j) {
  NeighbourPair p;
  p.X = matrix_from_params(j.at("X"));
  p.Xp = matrix_from_params(j.at("Xp"));
  p.y = matrix_from_params(j.at("y"));
  p.yp = matrix_from_params(j.at("yp"));
  p.test = matrix_from_params(j.at("test"));
  return p;
}

json found_json(const Found& f) {
  return {{"best", f.best},
          {"witness", pair_params(f.witness)},
          {"start", f.start},
          {"evaluations", f.evaluations},
          {"singular", f.singular}};
}
Found found_from_json(const json& j) {
  Found f;
  f.best = j.at("best").get<double>();
  f.witness = pair_from_params(j.at("witness"));
  f.start = j.at("start").get<std::string>();
  f.evaluations = j.at("evaluations").get<long>();
  f.singular = j.at("singular").get<long>();
  return f;
}

const char* kind_name(ObjectiveSpec::Kind kind) {
  switch (kind) {
    case ObjectiveSpec::Kind::Divergence:
      return "divergence";
    case ObjectiveSpec::Kind::Sensitivity:
      return "sensitivity";
    case ObjectiveSpec::Kind::MeanDistance:
      break;
  }
  return "mean_distance";
}
ObjectiveSpec objective_from_json(const json& j) {
  const std::string kind = j.at("kind").get<std::string>();
  ObjectiveSpec spec{ObjectiveSpec::Kind::MeanDistance, j.at("alpha").get<double>()};
  if (kind == "divergence") spec.kind = ObjectiveSpec::Kind::Divergence;
  if (kind == "sensitivity") spec.kind = ObjectiveSpec::Kind::Sensitivity;
  require(kind == kind_name(spec.kind), fmt::format("audit task: unknown objective '{}'", kind));
  return spec;
}

json space_params(const SearchSpace& space, const ObjectiveSpec& objective) {
  return {{"mechanism", to_json(privacy::Event{space.m, 1})},
          {"lower", std::vector<double>(space.box.lower().begin(), space.box.lower().end())},
          {"upper", std::vector<double>(space.box.upper().begin(), space.box.upper().end())},
          {"extra_test", space.extra_test},
          {"same_covariate", space.same_covariate},
          {"objective", {{"kind", kind_name(objective.kind)}, {"alpha", objective.alpha}}}};
}

// What a task needs to search: the mechanism, its box and codec, the objective.
struct TaskSpace {
  privacy::GpMechanism m;
  Box box;
  PairCodec codec;
  Objectives objectives;
  ObjectiveSpec objective;

  explicit TaskSpace(const json& p)
      : m(privacy::event_from_json(p.at("mechanism"), "audit task").mechanism),
        box(vector_from_json(p.at("lower")), vector_from_json(p.at("upper"))),
        codec(m, box, p.at("extra_test").get<int>(), p.at("same_covariate").get<bool>()),
        objectives{m},
        objective(objective_from_json(p.at("objective"))) {}
};

json ascent_task(const json& params) {
  const TaskSpace t(params);
  const json& start = params.at("start");
  return found_json(ascend_from(
      t.codec, {pair_from_params(start.at("pair")), start.at("name").get<std::string>()},
      params.at("max_iterations").get<int>(), t.objectives.smooth(t.objective),
      t.objectives.exact(t.objective)));
}

json subplex_task(const json& params) {
  const TaskSpace t(params);
  return found_json(subplex_from(t.codec, params.at("u").get<std::vector<double>>(),
                                 params.at("max_evals").get<int>(),
                                 t.objectives.exact(t.objective)));
}

Found merged(const std::vector<json>& results) {
  Found all;
  for (const auto& r : results) all.merge(found_from_json(r));
  return all;
}

}  // namespace

std::vector<tasks::TaskKind> audit_tasks() {
  return {{"audit.ascent", &ascent_task}, {"audit.subplex", &subplex_task}};
}

Found run_ascents(const SearchSpace& space, const std::vector<Start>& starts,
                  const ObjectiveSpec& objective, int max_iterations, int threads,
                  tasks::Executor* executor) {
  if (executor == nullptr) {
    const PairCodec codec(space.m, space.box, space.extra_test, space.same_covariate);
    const Objectives obj{space.m};
    return gradient_search(codec, starts, max_iterations, obj.smooth(objective),
                           obj.exact(objective), threads);
  }
  std::vector<tasks::Task> list;
  for (const auto& start : starts) {
    json params = space_params(space, objective);
    params["start"] = {{"pair", pair_params(start.pair)}, {"name", start.name}};
    params["max_iterations"] = max_iterations;
    list.push_back({"audit.ascent", std::move(params)});
  }
  return merged(executor->map(list));
}

Found run_subplex(const SearchSpace& space, const std::vector<std::vector<double>>& starts,
                  const ObjectiveSpec& objective, int max_evals, int threads,
                  tasks::Executor* executor) {
  if (executor == nullptr) {
    const PairCodec codec(space.m, space.box, space.extra_test, space.same_covariate);
    const Objectives obj{space.m};
    std::vector<Found> slots(starts.size());
    parallel_for(static_cast<long>(starts.size()), threads, [&](long k) {
      const auto i = static_cast<std::size_t>(k);
      slots[i] = subplex_from(codec, starts[i], max_evals, obj.exact(objective));
    });
    Found all;
    for (const auto& f : slots) all.merge(f);
    return all;
  }
  std::vector<tasks::Task> list;
  for (const auto& u : starts) {
    json params = space_params(space, objective);
    params["u"] = u;
    params["max_evals"] = max_evals;
    list.push_back({"audit.subplex", std::move(params)});
  }
  return merged(executor->map(list));
}

}  // namespace gpdp::auditor
