#pragma once
// The private input of a release, validated: which CSV columns, the DECLARED covariate domain
// (never inferred from the data), the public response transform and the response policy that
// enforces |y_i| ≤ M_Y (docs/mathematics.md §1: the guarantee is void otherwise).
//   y ← transform(y_raw);  y ← (y − center)/scale  (optional, public);  y ← sign(y) (optional,
//   public);  then clip or reject at M_Y.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/dataset.hpp"
#include "gpdp/domain.hpp"

namespace gpdp::release {

enum class ResponsePolicy { Clip, Reject };
enum class ResponseTransform { None, Log };

ResponsePolicy parse_response_policy(const std::string& name);        // clip|reject
ResponseTransform parse_response_transform(const std::string& name);  // none|log
std::string to_string(ResponsePolicy policy);
std::string to_string(ResponseTransform transform);

struct InputSpec {
  std::vector<std::string> x_columns;  // empty: x1, x2, ... as in the header
  std::string y_column = "y";
  std::optional<Box> domain;  // required before prepare_data
  double M_Y = 1.0;
  ResponsePolicy policy = ResponsePolicy::Clip;
  ResponseTransform transform = ResponseTransform::None;
  std::optional<double> center;  // public centring t
  std::optional<double> scale;   // public scale B > 0
  // The sign-clipped response (a public transform): y ← sign((transform(y) − C)/B) ∈ {−1, 0, 1}
  // after centring and scaling, before clipping (M_Y = 1 then suffices).
  bool sign = false;
  // The coordinate reference system of the covariates, the domain, the grid, the mask and the
  // points files (AUTH:CODE, 2-D; empty: unitless coordinates), and the projected CRS a
  // geographic one is modelled in (empty: the UTM zone of the domain's centre); gis::GeoFrame.
  std::string crs;
  std::string model_crs;
};

// Reads an input description (JSON object; see docs/release.md) on top of `base`:
//   {"x": ["x","y"], "y": "zinc", "domain": "178440:181560,329600:333760", "M_Y": 1,
//    "policy": "clip", "transform": "log", "center": 6.58, "scale": 1.5, "crs": "EPSG:28992"}
// ("model_crs" too, for a geographic "crs").
// Unknown keys and wrong types are InputErrors naming `source` and the key.
InputSpec parse_input_config(const std::string& text, const std::string& source,
                             InputSpec base = {});
// The description as parse_input_config reads it back (the keys that are set).
nlohmann::json to_json(const InputSpec& spec);
InputSpec load_input_config(const std::string& path, InputSpec base = {});

// The records as parsed: covariates (the declared columns, in that order) and the raw response,
// before any transform; with the SHA-256 of the exact bytes parsed. A record's identity in the
// ledger (dataset_identity.hpp) is computed from these numbers.
struct RawRecords {
  Eigen::MatrixXd X;
  Eigen::VectorXd raw_response;
  std::vector<std::string> covariate_names;
  std::vector<std::size_t> line_numbers;
  // Every row's numeric cells, whatever its columns (the file's identity, dataset_identity.hpp).
  std::vector<std::vector<double>> numeric_rows;
  std::string sha256;
  std::size_t file_bytes = 0;
};
// Reads the columns of `spec` (x_columns, or x1, x2, ... from the header; y_column); InputError
// naming file:line for bad cells. No domain, transform or bound checks.
RawRecords parse_records(const std::string& text, const std::string& source, const InputSpec& spec);
RawRecords read_records(const std::string& path, const InputSpec& spec);

struct PreparedData {
  Dataset data;                    // responses after transform, centring/scaling and clipping
  Eigen::MatrixXd raw_covariates;  // as parsed, in the declared CRS (the records' identity)
  Eigen::VectorXd raw_response;    // as parsed, before the transform (the records' identity)
  std::vector<std::vector<double>> numeric_rows;  // every row's numeric cells (the file's identity)
  std::string sha256;                             // of the exact bytes parsed
  long clipped = 0;                               // responses clipped to ±M_Y
  std::size_t file_bytes = 0;
};

// Reads the file once, hashes the bytes it parses, and checks: n ≥ 2, covariate dimension equals
// the domain's, every covariate inside the declared domain (error names file:line), log transform
// only of positive responses, |y| ≤ M_Y under `reject`. With a CRS whose model CRS differs
// (geographic data), the covariates are then projected to the model CRS (gis::GeoFrame).
PreparedData prepare_data(const std::string& path, const InputSpec& spec);
// The same on bytes already in memory (fuzzing, tests).
PreparedData prepare_data_from_text(const std::string& text, const std::string& source,
                                    const InputSpec& spec);
// The same on records already parsed (gpdp.mechanisms: the utility benchmark's arrays): X (n x d,
// declared CRS) and the raw responses; covariate names from spec.x_columns or x1..xd, record i
// reported as line i (from 1); no file, so `sha256` is empty.
PreparedData prepare_data_from_arrays(const Eigen::MatrixXd& X, const Eigen::VectorXd& raw_response,
                                      const InputSpec& spec, const std::string& source = "records");

// One raw response after the public transform, centring and scaling, before clipping:
// (transform(raw) − center)/scale.
double transformed_response(double raw, const InputSpec& spec);
// Every record's transformed response before clipping (transformed_response of raw_response).
Eigen::VectorXd unclipped_responses(const PreparedData& prepared, const InputSpec& spec);
// The responses about a prior mean m₀ (model units): clamp(ỹ_i − m₀, −M_Y, M_Y) (m₀ = 0: the
// release's clipped responses).
Eigen::VectorXd reclipped(const Eigen::VectorXd& unclipped, double prior_mean, double M_Y);

}  // namespace gpdp::release
