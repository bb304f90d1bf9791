// A batch manifest (manifest.hpp): each release a `gpdp release` request (request_from_json.hpp),
// every error naming the manifest, the release and the field.
#include "gpdp/release/manifest.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "gpdp/error.hpp"
#include "gpdp/options/parameter_spelling.hpp"
#include "gpdp/release/release_options.hpp"
#include "gpdp/release/request_from_json.hpp"

namespace gpdp::release {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The options of `gpdp release` a manifest may give (without "--"): its request keys but those
// refused below.
const std::set<std::string>& batch_options() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> out;
    for (const auto& spec : release_options())
      if (spec.scope == options::OptionScope::Request) out.insert(options::key_of(spec));
    return out;
  }();
  return keys;
}
// The options of `gpdp release` that mean nothing in a batch, and why.
const std::map<std::string, std::string> kRefused = {
    {"keep-path", "a batch's paths are drawn on workers and not kept"},
    {"internal-eval", "a batch writes released outputs only"},
    {"ledger",
     "the batch has one ledger: give it at the manifest's top level or on the command "
     "line"},
    {"ledger-key", "give it on the command line"},
    {"config-from", "give the public parameters themselves"},
    {"json", "the batch prints its own report"},
    {"path-key", "a batch keeps no path"},
    {"path-passphrase-env", "a batch keeps no path"},
    {"lemma", "use 'sensitivity'"},
    {"refuse-if-useless",
     "a batch's auto releases always publish their best non-trivial candidate (the report says "
     "when it is predicted no better than the trivial map)"}};

// The manifest's spelling of the parameters a request's errors name: its keys, in quotes.
const std::map<std::string, std::string>& quoted_keys() {
  static const std::map<std::string, std::string> spelling = [] {
    std::map<std::string, std::string> out;
    for (const auto& spec : release_options()) {
      auto& names = out[options::parameter_of(spec)];
      names += (names.empty() ? "'" : "/'") + options::key_of(spec) + "'";
    }
    return out;
  }();
  return spelling;
}

// The release's request (request_from_json.hpp), every error naming the manifest, the release and
// the option by its key.
ReleaseRequest read_release(const json& values, const std::string& where, const fs::path& base) {
  try {
    return release_request_from_json(values, base);
  } catch (const InputError& e) {
    throw ParameterError(e.parameters(), fmt::format("{}: {}", where,
                                                     options::spell_parameters(
                                                         e.what(), e.parameters(), quoted_keys())));
  }
}

// Unknown and refused options, before anything is read.
void check_keys(const json& values, const std::string& where) {
  for (const auto& [key, value] : values.items()) {
    if (const auto r = kRefused.find(key); r != kRefused.end())
      throw ParameterError(
          {key}, fmt::format("{}: '{}' is not available in a batch: {}", where, key, r->second));
    if (!batch_options().count(key))
      throw ParameterError({key}, fmt::format("{}: unknown option '{}' (the options are gpdp "
                                              "release's, without \"--\"; docs/release.md)",
                                              where, key));
  }
}

json object_at(const json& manifest, const std::string& key, const std::string& source) {
  if (!manifest.contains(key)) return json::object();
  const json& v = manifest.at(key);
  require(v.is_object(), fmt::format("{}: '{}' must be an object of options", source, key));
  return v;
}

}  // namespace

Manifest parse_manifest(const json& manifest, const std::string& source,
                        const std::string& base_dir, const json& overrides) {
  require(manifest.is_object(),
          fmt::format("{}: a manifest is a JSON object with 'releases'", source));
  for (const auto& [key, value] : manifest.items()) {
    require(key == "ledger" || key == "defaults" || key == "releases",
            fmt::format("{}: unknown top-level key '{}' (expected ledger, defaults, releases)",
                        source, key));
  }
  const fs::path base = fs::absolute(base_dir.empty() ? "." : base_dir);
  Manifest out;
  out.source = source;
  if (manifest.contains("ledger")) {
    require(manifest["ledger"].is_string(), fmt::format("{}: 'ledger' must be a string", source));
    out.ledger = (base / manifest["ledger"].get<std::string>()).lexically_normal().string();
  }
  json defaults = object_at(manifest, "defaults", source);
  check_keys(defaults, source + ": defaults");
  check_keys(overrides.is_null() ? json::object() : overrides, source + ": command line");
  if (!overrides.is_null()) defaults.update(overrides);
  require(manifest.contains("releases") && manifest["releases"].is_array() &&
              !manifest["releases"].empty(),
          fmt::format("{}: 'releases' must be a non-empty list of releases", source));
  std::set<std::string> outs;
  for (std::size_t i = 0; i < manifest["releases"].size(); ++i) {
    const json& entry = manifest["releases"][i];
    std::string where = fmt::format("{}: releases[{}]", source, i);
    require(entry.is_object(), fmt::format("{}: a release is an object of options", where));
    if (entry.contains("dataset") && entry["dataset"].is_string())
      where += fmt::format(" (dataset '{}')", entry["dataset"].get<std::string>());
    check_keys(entry, where);
    json values = defaults;
    values.update(entry);
    ReleaseRequest q = read_release(values, where, base);
    if (!outs.insert(q.out_dir).second)
      throw ParameterError(
          {"out"}, fmt::format("{}: 'out': {} is the folder of an earlier release of the batch",
                               where, q.out_dir));
    out.releases.push_back(std::move(q));
    out.requests.push_back(std::move(values));
  }
  return out;
}

Manifest load_manifest(const std::string& path, const json& overrides) {
  std::ifstream in(path);
  require(in.good(), fmt::format("{}: cannot read the manifest", path));
  json manifest;
  try {
    manifest = json::parse(in);
  } catch (const json::parse_error& e) {
    throw InputError(fmt::format("{}: not valid JSON ({})", path, e.what()));
  }
  return parse_manifest(manifest, path, fs::path(path).parent_path().string(), overrides);
}

}  // namespace gpdp::release
