// The one reader of gpdp release's options (request_from_json.hpp).
#include "gpdp/release/request_from_json.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/release/release_options.hpp"
#include "option_values.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;
using Options = OptionValues;

void read_budget(const Options& o, ReleaseRequest& q) {
  if (o.has("budget-epsilon") != o.has("budget-delta"))
    throw ParameterError({"budget_epsilon", "budget_delta"},
                         "budget_epsilon and budget_delta go together");
  if (o.has("budget-orders") && !o.has("budget-epsilon"))
    throw ParameterError({"budget_orders", "budget_epsilon", "budget_delta"},
                         "budget_orders needs budget_epsilon and budget_delta");
  if (!o.has("budget-epsilon")) return;
  q.budget = privacy::Budget{o.number("budget-epsilon"), o.number("budget-delta")};
  if (o.has("budget-orders")) q.budget_orders = o.numbers("budget-orders");
}

// The kept path and the key that encrypts it (one of a key file or a passphrase).
void read_keep_path(const Options& o, ReleaseRequest& q) {
  if (o.has("path-key") && o.has("path-passphrase-env"))
    throw ParameterError({"path_key"},
                         "path_key: give a key file or a passphrase variable, not both");
  if (!o.has("keep-path")) return;
  PathKey key;
  if (o.has("path-key")) key = o.parsed("path-key", key_from_file);
  if (o.has("path-passphrase-env")) key = o.parsed("path-passphrase-env", key_from_env);
  q.keep_path = KeepPath{o.path("keep-path"), key};
}

// The options that only place things: the data, the outputs, the ledger.
void read_places(const Options& o, ReleaseRequest& q) {
  q.dataset = o.text("dataset");
  q.data_path = o.path("data");
  q.out_dir = o.path("out");
  if (o.has("image")) q.image_format = o.parsed("image", parse_image_format);
  q.new_dataset_despite_overlap = o.flag("new-dataset-despite-overlap");
  if (o.has("ledger")) q.ledger_path = o.path("ledger");
  if (o.has("ledger-key")) q.ledger_key_path = o.path("ledger-key");
  if (o.has("internal-eval")) q.internal_eval_dir = o.path("internal-eval");
  if (o.has("insecure-seed")) q.insecure_seed = o.unsigned_integer("insecure-seed");
}

// lemma is the old spelling of sensitivity.
json with_lemma_spelled(json request) {
  if (!request.contains("lemma")) return request;
  if (request.contains("sensitivity"))
    throw ParameterError({"lemma", "sensitivity"},
                         "give sensitivity or its old spelling lemma, not both");
  request["sensitivity"] = request["lemma"];
  request.erase("lemma");
  return request;
}

// config-from: the preview chose the public parameters; none may be given besides.
void apply_config_from(const Options& o, const json& request, ReleaseRequest& q,
                       const ApplyPreviewConfig& apply) {
  if (!o.has("config-from")) return;
  if (!o.has("target-epsilon"))
    throw ParameterError({"config_from", "target_epsilon"}, "config_from needs target_epsilon");
  for (const char* key : {"kernel", "ell", "r", "sigma", "eta", "mechanism", "noise-scale",
                          "sensitivity", "lemma", "kappa", "Vn", "Delta-n", "rkhs-norm", "draws",
                          "conversion", "solve", "vote-cutoff", "smooth"})
    if (request.contains(key)) o.fail(key, "chosen by the preview of config_from; leave it out");
  if (!apply) o.fail("config-from", "is not available here (give the public parameters)");
  apply(o.path("config-from"), o.number("target-epsilon"), q);
}

}  // namespace

// The input description: the config file's (if any), then each option given on top of it.
void read_input(const OptionValues& o, InputSpec& in, bool require_domain) {
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
  if (!in.domain && require_domain)
    o.fail("domain",
           "required (the covariate domain is declared, never inferred from the private data)");
  if (!(in.M_Y > 0)) o.fail("M-Y", "must be positive");
  if (in.scale && !(*in.scale > 0)) o.fail("scale", "must be positive");
}

EvaluationSpec read_evaluation(const OptionValues& o) {
  const int given = o.has("points") + o.has("grid") + o.has("grid2d");
  if (given != 1) o.fail("points", "give exactly one");
  if (o.has("mask") && !o.has("grid2d")) o.fail("mask", "applies to grid2d only");
  if (o.has("points")) return FilePoints{o.path("points")};
  const std::string key = o.has("grid") ? "grid" : "grid2d";
  const Grid grid = o.parsed(key, [](const std::string& s) { return Grid::parse(s); });
  if (grid.dim() != (key == "grid" ? 1 : 2))
    o.fail(key, key == "grid" ? "needs one axis lo:hi:m" : "needs two axes lo:hi:nx,lo:hi:ny");
  return GridPoints{grid, o.has("mask") ? o.path("mask") : ""};
}

ReleaseRequest release_request_from_json(const json& request, const std::filesystem::path& base,
                                         const ApplyPreviewConfig& apply_preview_config) {
  options::check_request_keys(release_options(), request, "release");
  const Options o(with_lemma_spelled(request), "", base, KeyNames::Parameters);
  ReleaseRequest q;
  read_places(o, q);
  read_input(o, q.input);
  read_public_parameters(o, q);
  q.evaluation = read_evaluation(o);
  read_budget(o, q);
  read_keep_path(o, q);
  apply_config_from(o, request, q, apply_preview_config);
  return q;
}

}  // namespace gpdp::release
