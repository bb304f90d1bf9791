#pragma once
// The one reader of `gpdp release`'s options: a JSON request (keys: the request keys of
// release_options(), e.g. {"data": "d.csv", "M-Y": 1, "grid2d": "0:1:64,0:1:64", ...}) to the
// typed ReleaseRequest, every option's check made here once. The CLI builds the request from argv
// through the options table (apps/gpdp/cmd_release.cpp, --print-request shows it), a batch
// manifest's entry is one (manifest.hpp), Python's gpdp.release.run(**options) sends one. An
// option absent from the request takes its default; a request holds only the options given (the
// defaults are not written into it: "given" matters, e.g. an --config file's values give way only
// to the options given).
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "gpdp/release/request.hpp"

namespace gpdp::release {

// config-from (a preview's chosen configuration, preview/release_config.hpp) is applied by a layer
// above this one: (preview file, target ε, the request read so far).
using ApplyPreviewConfig = std::function<void(const std::string&, double, ReleaseRequest&)>;

// Errors are ParameterErrors naming the parameters of the options table (options::parameter_of:
// "delta", "M_Y", "out_dir", "evaluation"); each front end spells them its own way. Relative
// paths are relative to `base` (kept as given when empty). A request with config-from needs
// `apply_preview_config` (InputError otherwise).
ReleaseRequest release_request_from_json(const nlohmann::json& request,
                                         const std::filesystem::path& base = {},
                                         const ApplyPreviewConfig& apply_preview_config = {});

}  // namespace gpdp::release
