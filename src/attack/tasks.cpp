#include "tasks.hpp"

#include "lira_json.hpp"

namespace gpdp::attack {

namespace {
nlohmann::json lira_task(const nlohmann::json& params) {
  return run_lira(params.at("options").get<LiraOptions>(), params.at("r").get<double>(),
                  params.at("releases").get<std::vector<ReleaseSetting>>(),
                  params.at("seed").get<std::uint64_t>());
}
}  // namespace

std::vector<tasks::TaskKind> attack_tasks() { return {{"attack.lira", &lira_task}}; }

}  // namespace gpdp::attack
