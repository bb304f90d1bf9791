#pragma once
// The options of `gpdp release` as data (options/option_spec.hpp): one list for the CLI's flags
// (names, aliases, help, defaults; apps/gpdp/cmd_release.cpp), the request keys that
// release_request_from_json reads (request_from_json.hpp), the batch manifest's keys
// (release/manifest.hpp: a manifest entry gives the same options without "--"; it refuses those
// that mean nothing in a batch, manifest.cpp says why) and Python's gpdp.release.run keywords.
// Only --json is the CLI's own (scope Cli). Groups that other commands share (sample, posterior,
// query, preview, ledger) are listed on their own.
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::release {

// --data (required unless `data_required` is false), --x, --y
std::vector<options::OptionSpec> data_options(bool data_required = true);
// --config, --domain, --M-Y, --response-policy, --transform, --center, --scale, --crs, --model-crs
std::vector<options::OptionSpec> input_options();
// --points, --grid, --grid2d (exactly one)
std::vector<options::OptionSpec> points_options();
// --path-key, --path-passphrase-env
std::vector<options::OptionSpec> path_key_options();
// Every option of `gpdp release`, the groups above included.
std::vector<options::OptionSpec> release_options();

}  // namespace gpdp::release
