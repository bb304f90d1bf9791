// A batch manifest (manifest.hpp): JSON options named like `gpdp release`'s flags, turned into
// release requests, every error naming the manifest, the release and the field.
#include "gpdp/release/manifest.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "gpdp/error.hpp"
#include "gpdp/release/option_values.hpp"
#include "gpdp/release/release_options.hpp"

namespace gpdp::release {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Options = OptionValues;

// The options of `gpdp release` a manifest may give (without "--"): all but the CLI's own.
const std::set<std::string>& batch_options() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> out;
    for (const auto& spec : release_options())
      if (spec.scope != options::OptionScope::Cli) out.insert(options::key_of(spec));
    return out;
  }();
  return keys;
}
// The CLI's own options of `gpdp release` (scope Cli in release_options()): no meaning in a
// batch, and why.
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

void read_input(const Options& o, InputSpec& in) {
  if (o.has("config"))
    in = o.parsed("config",
                  [&](const std::string&) { return load_input_config(o.path("config"), in); });
  if (o.has("x")) in.x_columns = o.names("x");
  if (o.has("y")) in.y_column = o.text("y");
  if (o.has("domain"))
    in.domain = o.parsed("domain", [](const std::string& s) { return Box::parse(s); });
  if (o.has("M-Y")) in.M_Y = o.number("M-Y");
  if (o.has("response-policy")) in.policy = o.parsed("response-policy", parse_response_policy);
  if (o.has("transform")) in.transform = o.parsed("transform", parse_response_transform);
  if (o.has("center")) in.center = o.number("center");
  if (o.has("scale")) in.scale = o.number("scale");
  if (o.has("sign")) in.sign = o.flag("sign");
  if (o.has("crs")) in.crs = o.text("crs");
  if (o.has("model-crs")) in.model_crs = o.text("model-crs");
  if (!in.domain) o.fail("domain", "required (the covariate domain is declared, never inferred)");
  if (!(in.M_Y > 0)) o.fail("M-Y", "must be positive");
}

EvaluationSpec read_evaluation(const Options& o) {
  const int given = o.has("points") + o.has("grid") + o.has("grid2d");
  if (given != 1) o.fail("points", "give exactly one of 'points', 'grid', 'grid2d'");
  if (o.has("mask") && !o.has("grid2d")) o.fail("mask", "applies to 'grid2d' only");
  if (o.has("points")) return FilePoints{o.path("points")};
  const std::string key = o.has("grid") ? "grid" : "grid2d";
  const Grid grid = o.parsed(key, [](const std::string& s) { return Grid::parse(s); });
  if (grid.dim() != (key == "grid" ? 1 : 2))
    o.fail(key, key == "grid" ? "needs one axis lo:hi:m" : "needs two axes lo:hi:nx,lo:hi:ny");
  return GridPoints{grid, o.has("mask") ? o.path("mask") : ""};
}

void read_budget(const Options& o, ReleaseRequest& q) {
  if (o.has("budget-epsilon") != o.has("budget-delta"))
    o.fail(o.has("budget-epsilon") ? "budget-delta" : "budget-epsilon",
           "'budget-epsilon' and 'budget-delta' go together");
  if (o.has("budget-orders") && !o.has("budget-epsilon"))
    o.fail("budget-orders", "needs 'budget-epsilon' and 'budget-delta'");
  if (!o.has("budget-epsilon")) return;
  q.budget = privacy::Budget{o.number("budget-epsilon"), o.number("budget-delta")};
  if (o.has("budget-orders")) q.budget_orders = o.numbers("budget-orders");
}

ReleaseRequest read_release(const Options& o) {
  ReleaseRequest q;
  q.dataset = o.text("dataset");
  q.data_path = o.path("data");
  q.out_dir = o.path("out");
  read_input(o, q.input);
  read_public_parameters(o, q);
  q.evaluation = read_evaluation(o);
  if (o.has("image")) q.image_format = o.parsed("image", parse_image_format);
  q.new_dataset_despite_overlap = o.flag("new-dataset-despite-overlap");
  read_budget(o, q);
  if (o.has("insecure-seed")) {
    const long long seed = o.integer("insecure-seed");
    if (seed < 0) o.fail("insecure-seed", "must be ≥ 0");
    q.insecure_seed = static_cast<std::uint64_t>(seed);
  }
  return q;
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
    const Options options(values, where, base);
    ReleaseRequest q = read_release(options);
    if (!outs.insert(q.out_dir).second)
      options.fail("out",
                   fmt::format("{} is the folder of an earlier release of the batch", q.out_dir));
    out.releases.push_back(std::move(q));
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
