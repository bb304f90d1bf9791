#include "experiment_tasks.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "gpdp/ops/data_source.hpp"

namespace gpdp::ops {

using nlohmann::json;

namespace {}  // namespace

const TabularSource& shared_source(const SourceRef& ref) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, std::string, std::string>,
                  std::shared_ptr<const TabularSource>>
      cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[{ref.data, ref.data_dir, ref.label}];
  if (!slot)
    slot = std::make_shared<const TabularSource>(load_source(ref.data, ref.data_dir, ref.label));
  return *slot;
}

namespace {

json repeat_task(const json& params) {
  const json& s = params.at("source");
  const SourceRef ref{s.at("data").get<std::string>(), s.at("data_dir").get<std::string>(),
                      s.at("label").get<std::string>()};
  std::optional<std::uint64_t> seed;
  if (params.contains("seed")) seed = params.at("seed").get<std::uint64_t>();
  return run_repeat(shared_source(ref), parse_method(params.at("method").get<std::string>()),
                    params.at("epsilon").get<double>(), params.at("options").get<MethodOptions>(),
                    seed, params.at("repeat").get<long>());
}

}  // namespace

std::vector<tasks::TaskKind> ops_tasks() { return {{"ops.repeat", &repeat_task}}; }

void to_json(json& j, const MethodOptions& o) {
  const HmcOptions& h = o.ops.hmc;
  const DpSgldOptions& d = o.dpsgld;
  j = {{"radius", o.radius},
       {"lambda", o.lambda},
       {"nonprivate_lambda", o.nonprivate_lambda},
       {"hybrid_split", o.hybrid_split},
       {"ops",
        {{"calibration", to_string(o.ops.calibration)},
         {"prior_sd", o.ops.prior_sd},
         {"hmc",
          {{"chains", h.chains},
           {"warmup", h.warmup},
           {"samples", h.samples},
           {"integration_time", h.integration_time},
           {"leapfrog_steps", h.leapfrog_steps},
           {"target_accept", h.target_accept},
           {"precondition", h.precondition}}}}},
       {"dpsgld",
        {{"sgld",
          {{"tau", d.sgld.tau},
           {"iterations", d.sgld.iterations},
           {"steps",
            {{"eta0", d.sgld.steps.eta0}, {"t0", d.sgld.steps.t0}, {"gamma", d.sgld.steps.gamma}}},
           {"prior_sd", d.sgld.prior_sd},
           {"project", d.sgld.project},
           {"average_from", d.sgld.average_from}}},
         {"delta", d.delta},
         {"passes", d.passes},
         {"min_passes", d.min_passes},
         {"constant", d.constant},
         {"step_scale", d.step_scale}}},
       {"dpsgld_average", o.dpsgld_average},
       {"validation", o.validation}};
}

void from_json(const json& j, MethodOptions& o) {
  j.at("radius").get_to(o.radius);
  j.at("lambda").get_to(o.lambda);
  j.at("nonprivate_lambda").get_to(o.nonprivate_lambda);
  j.at("hybrid_split").get_to(o.hybrid_split);
  const json& p = j.at("ops");
  o.ops.calibration = parse_ops_calibration(p.at("calibration").get<std::string>());
  p.at("prior_sd").get_to(o.ops.prior_sd);
  const json& h = p.at("hmc");
  h.at("chains").get_to(o.ops.hmc.chains);
  h.at("warmup").get_to(o.ops.hmc.warmup);
  h.at("samples").get_to(o.ops.hmc.samples);
  h.at("integration_time").get_to(o.ops.hmc.integration_time);
  h.at("leapfrog_steps").get_to(o.ops.hmc.leapfrog_steps);
  h.at("target_accept").get_to(o.ops.hmc.target_accept);
  h.at("precondition").get_to(o.ops.hmc.precondition);
  const json& d = j.at("dpsgld");
  const json& s = d.at("sgld");
  s.at("tau").get_to(o.dpsgld.sgld.tau);
  s.at("iterations").get_to(o.dpsgld.sgld.iterations);
  s.at("steps").at("eta0").get_to(o.dpsgld.sgld.steps.eta0);
  s.at("steps").at("t0").get_to(o.dpsgld.sgld.steps.t0);
  s.at("steps").at("gamma").get_to(o.dpsgld.sgld.steps.gamma);
  s.at("prior_sd").get_to(o.dpsgld.sgld.prior_sd);
  s.at("project").get_to(o.dpsgld.sgld.project);
  s.at("average_from").get_to(o.dpsgld.sgld.average_from);
  d.at("delta").get_to(o.dpsgld.delta);
  d.at("passes").get_to(o.dpsgld.passes);
  d.at("min_passes").get_to(o.dpsgld.min_passes);
  d.at("constant").get_to(o.dpsgld.constant);
  d.at("step_scale").get_to(o.dpsgld.step_scale);
  j.at("dpsgld_average").get_to(o.dpsgld_average);
  j.at("validation").get_to(o.validation);
}

void to_json(json& j, const RepeatOutcome& o) {
  j = {{"accuracy", o.accuracy},
       {"guarantee",
        {{"epsilon", o.guarantee.epsilon},
         {"delta", o.guarantee.delta},
         {"basis", o.guarantee.basis}}}};
  if (o.diagnostics) {
    j["diagnostics"] = {{"max_rhat", o.diagnostics->max_rhat}, {"min_ess", o.diagnostics->min_ess}};
  }
}

void from_json(const json& j, RepeatOutcome& o) {
  j.at("accuracy").get_to(o.accuracy);
  const json& g = j.at("guarantee");
  g.at("epsilon").get_to(o.guarantee.epsilon);
  g.at("delta").get_to(o.guarantee.delta);
  g.at("basis").get_to(o.guarantee.basis);
  o.diagnostics.reset();
  if (j.contains("diagnostics")) {
    const json& d = j.at("diagnostics");
    o.diagnostics = ChainDiagnostics{d.at("max_rhat").get<double>(), d.at("min_ess").get<double>()};
  }
}

}  // namespace gpdp::ops
