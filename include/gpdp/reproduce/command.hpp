#pragma once
// `gpdp-lab reproduce TARGET` (and `python -m gpdp.distributed reproduce TARGET`) as one declared
// request: reproduce_options() is the command's options table (lab::command_options("reproduce")),
// reproduce_request_from_json the one reader of its request (errors name parameters: "target",
// "out", "conversion", ...), run_request the run (the target's driver, targets.hpp).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/options/option_spec.hpp"
#include "gpdp/reproduce/options.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::reproduce {

// target (positional), --out, --quick, --pairs, --seed, --threads (the CLI's own: Python sizes the
// tasks for its --scheduler), --conversion, --sensitivity, --data-dir, --list.
std::vector<options::OptionSpec> reproduce_options();

struct Request {
  std::string target;  // empty: none named (the front ends list the targets and refuse it)
  bool list = false;   // list the targets instead of running one (nothing else is checked)
  Options options;     // threads: 0; the front end sizes the run (--threads, the workers)
};

// The request's options with the table's defaults; unless it lists the targets or names none, the
// target must be known, out given, conversion mironov or cks and seed ≥ 0.
Request reproduce_request_from_json(const nlohmann::json& request);

// Creates the output folder and runs the request's target on `executor`.
void run_request(const Request& request, tasks::Executor& executor);

}  // namespace gpdp::reproduce
