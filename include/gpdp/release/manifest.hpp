#pragma once
// A batch of releases described in one JSON file (python -m gpdp.distributed release-batch;
// docs/release.md "Batch releases" gives the schema):
//   {"ledger": "budget.sqlite",
//    "defaults": {"kernel": "exp", "ell": 0.2, "delta": 1e-4, "M-Y": 1, ...},
//    "releases": [{"data": "a.csv", "dataset": "region-a", "out": "out/a", "threshold": 0,
//                  "grid2d": "0:1:32,0:1:32", ...}, ...]}
// Each release is a `gpdp release` with the same option names (without "--"); "defaults" apply to
// every release that does not give the option itself. Relative paths are relative to the
// manifest's folder. Options that make no sense in a batch (keep-path, internal-eval, ledger,
// ledger-key, config-from, json, path-key, path-passphrase-env) are refused.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/release/request.hpp"

namespace gpdp::release {

struct Manifest {
  std::string source;  // the manifest file, for messages
  std::string ledger;  // "ledger" (absolute; empty when not given)
  std::vector<ReleaseRequest> releases;
  // Each release's request as release_request_from_json read it (request_from_json.hpp): the
  // defaults, the command line's options and its own merged; what `gpdp release --print-request`
  // prints for the same options.
  std::vector<nlohmann::json> requests;
};

// Every error names the manifest, the release's index (releases[i], from 0) and its dataset, and
// the field: "batch.json: releases[2] (dataset 'north'): 'ell' must be a number, got "0.2"".
// `overrides` (command-line options) go on top of "defaults", under the releases' own options.
Manifest parse_manifest(const nlohmann::json& manifest, const std::string& source,
                        const std::string& base_dir, const nlohmann::json& overrides = {});
Manifest load_manifest(const std::string& path, const nlohmann::json& overrides = {});

}  // namespace gpdp::release
