#pragma once
// `gpdp search` as a driver: the request (the command's flags as plain data), the search on a
// user's public data (search_public_data, its θ evaluations as tasks on the executor given) and the
// report, text or JSON, with the JSON also written to `out` if asked. What both `gpdp search` and
// `python -m gpdp.distributed search` run: the same bytes whatever the executor.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/tasks/executor.hpp"

namespace gpdp::experiments {

// JSON keys: the CLI's long flags without the dashes ("target-epsilon", "ell-range", ...); the
// flags themselves are public_search_options() (public_search_options.hpp).
struct PublicSearchRequest {
  std::string data;            // public training CSV (covariates in [0,1]^d, |y| ≤ 1)
  std::string validation;      // public validation CSV (same columns)
  std::vector<std::string> x;  // covariate columns (empty: x1, x2, ...)
  std::string y = "y";
  double target_epsilon = 10.0;
  double delta = 0.0;  // 0: n^(−1.1)
  long n = 0;          // size of the PRIVATE data set (0: rows of `data`)
  int paths = 1;
  double threshold = 0.0;
  std::string conversion = "mironov";
  std::string ell_range, r_range, sigma_range;  // "lo:hi:count" (empty: the default grid's)
  int refine = 2;
  std::string out;    // also write the JSON report here (empty: no file)
  bool json = false;  // report as JSON instead of text
};

// Missing keys keep their defaults; an unknown key is an InputError naming it.
PublicSearchRequest public_search_request_from_json(const nlohmann::json& j);

// Runs the search and returns the report (text, or JSON + newline); writes `out` (atomically) if
// asked. `progress` gets the search's progress lines (not called for a JSON report).
std::string run_public_search(const PublicSearchRequest& request, tasks::Executor& executor,
                              const std::function<void(const std::string&)>& progress = {});

// The progress of `gpdp search` (and of the Python command): the search's lines on stderr
// ("search: …", "search (ε-constrained): …"); nothing when `quiet`.
std::function<void(const std::string&)> search_progress(bool quiet);

}  // namespace gpdp::experiments
