#include "gpdp/release/input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/release/sha256.hpp"

namespace gpdp::release {

ResponsePolicy parse_response_policy(const std::string& name) {
  if (name == "clip") return ResponsePolicy::Clip;
  if (name == "reject") return ResponsePolicy::Reject;
  throw InputError(fmt::format("response policy must be clip or reject, got '{}'", name));
}

ResponseTransform parse_response_transform(const std::string& name) {
  if (name == "none") return ResponseTransform::None;
  if (name == "log") return ResponseTransform::Log;
  throw InputError(fmt::format("response transform must be none or log, got '{}'", name));
}

std::string to_string(ResponsePolicy policy) {
  return policy == ResponsePolicy::Clip ? "clip" : "reject";
}

std::string to_string(ResponseTransform transform) {
  return transform == ResponseTransform::Log ? "log" : "none";
}

namespace {

using nlohmann::json;

const json& typed(const json& value, json::value_t type, const std::string& where) {
  const bool ok = type == json::value_t::number_float ? value.is_number() : value.type() == type;
  if (!ok) {
    const char* want = type == json::value_t::string  ? "a string"
                       : type == json::value_t::array ? "an array of strings"
                                                      : "a number";
    throw InputError(fmt::format("{}: must be {}", where, want));
  }
  return value;
}

double finite_number(const json& value, const std::string& where) {
  const double v = typed(value, json::value_t::number_float, where).get<double>();
  require(std::isfinite(v), fmt::format("{}: must be finite", where));
  return v;
}

}  // namespace

InputSpec parse_input_config(const std::string& text, const std::string& source, InputSpec spec) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: not valid JSON ({})", source, e.what()));
  }
  require(doc.is_object(), fmt::format("{}: the input description must be a JSON object", source));
  for (const auto& [key, value] : doc.items()) {
    const std::string where = fmt::format("{}: key '{}'", source, key);
    if (key == "x") {
      typed(value, json::value_t::array, where);
      spec.x_columns.clear();
      for (const auto& c : value)
        spec.x_columns.push_back(typed(c, json::value_t::string, where).get<std::string>());
      require(!spec.x_columns.empty(), where + ": needs at least one column");
    } else if (key == "y") {
      spec.y_column = typed(value, json::value_t::string, where).get<std::string>();
    } else if (key == "domain") {
      try {
        spec.domain = Box::parse(typed(value, json::value_t::string, where).get<std::string>());
      } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", where, e.what()));
      }
    } else if (key == "M_Y") {
      spec.M_Y = finite_number(value, where);
      require(spec.M_Y > 0, where + ": must be positive");
    } else if (key == "policy") {
      spec.policy =
          parse_response_policy(typed(value, json::value_t::string, where).get<std::string>());
    } else if (key == "transform") {
      spec.transform =
          parse_response_transform(typed(value, json::value_t::string, where).get<std::string>());
    } else if (key == "center") {
      spec.center = finite_number(value, where);
    } else if (key == "scale") {
      spec.scale = finite_number(value, where);
      require(*spec.scale > 0, where + ": must be positive");
    } else if (key == "sign") {
      require(value.is_boolean(), where + ": must be true or false");
      spec.sign = value.get<bool>();
    } else if (key == "crs") {
      spec.crs = typed(value, json::value_t::string, where).get<std::string>();
    } else if (key == "model_crs") {
      spec.model_crs = typed(value, json::value_t::string, where).get<std::string>();
    } else {
      throw InputError(
          fmt::format("{}: unknown key '{}' (known: x, y, domain, M_Y, policy, transform, center, "
                      "scale, sign, crs, model_crs)",
                      source, key));
    }
  }
  return spec;
}

nlohmann::json to_json(const InputSpec& in) {
  nlohmann::json j{{"y", in.y_column},
                   {"M_Y", in.M_Y},
                   {"policy", to_string(in.policy)},
                   {"transform", to_string(in.transform)}};
  if (!in.x_columns.empty()) j["x"] = in.x_columns;
  if (in.domain) j["domain"] = in.domain->to_string();
  if (in.center) j["center"] = *in.center;
  if (in.scale) j["scale"] = *in.scale;
  if (in.sign) j["sign"] = true;
  if (!in.crs.empty()) j["crs"] = in.crs;
  if (!in.model_crs.empty()) j["model_crs"] = in.model_crs;
  return j;
}

InputSpec load_input_config(const std::string& path, InputSpec base) {
  return parse_input_config(io::read_file(path), path, std::move(base));
}

RawRecords parse_records(const std::string& text, const std::string& source,
                         const InputSpec& spec) {
  const auto table = io::parse_csv(text, source);
  require(!table.rows.empty(), fmt::format("{}: no data rows after the header", source));
  std::vector<std::string> covariates = spec.x_columns;
  if (covariates.empty()) {
    for (int i = 1;; ++i) {
      const std::string name = fmt::format("x{}", i);
      if (std::find(table.header.begin(), table.header.end(), name) == table.header.end()) break;
      covariates.push_back(name);
    }
    require_parameter(
        !covariates.empty(), "x",
        fmt::format("{}: no covariate columns x1, x2, ... (name them with x)", source));
  }
  RawRecords r;
  r.sha256 = sha256_hex(text);
  r.file_bytes = text.size();
  r.X = table.numeric(covariates);
  r.raw_response = table.numeric({spec.y_column}).col(0);
  r.covariate_names = covariates;
  r.line_numbers = table.line_numbers;
  for (const auto& row : table.rows) {
    std::vector<double> numbers;
    for (const auto& cell : row) {
      std::string_view t(cell);
      while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
      while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r'))
        t.remove_suffix(1);
      double v = 0;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (!t.empty() && ec == std::errc() && end == t.data() + t.size() && std::isfinite(v))
        numbers.push_back(v + 0.0);
    }
    r.numeric_rows.push_back(std::move(numbers));
  }
  return r;
}

RawRecords read_records(const std::string& path, const InputSpec& spec) {
  return parse_records(io::read_file(path), path, spec);
}

namespace {

// The checks and the response transform every release applies to its records, however they were
// read: n ≥ 2, the domain's dimension, every covariate inside the declared domain (messages name
// the record's line), y ← clip((transform(y) − C)/B) or reject; then the model CRS.
void check_input_spec(const InputSpec& spec) {
  require_parameter(spec.domain.has_value(), "domain",
                    "domain (lo:hi per axis) must be declared; it is never inferred from the "
                    "private data");
  require_parameter(spec.M_Y > 0 && std::isfinite(spec.M_Y), "M_Y",
                    fmt::format("M_Y must be positive, got {}", spec.M_Y));
  require_parameter(!spec.scale || *spec.scale > 0, "scale", "scale must be positive");
}

PreparedData prepare_records(RawRecords records, const std::string& source, const InputSpec& spec) {
  PreparedData out;
  out.sha256 = records.sha256;
  out.file_bytes = records.file_bytes;
  out.raw_covariates = records.X;
  out.raw_response = records.raw_response;
  out.numeric_rows = std::move(records.numeric_rows);
  Dataset& d = out.data;
  d.source = source;
  d.X = std::move(records.X);
  d.y = std::move(records.raw_response);
  d.covariate_names = std::move(records.covariate_names);
  d.response_name = spec.y_column;
  d.line_numbers = std::move(records.line_numbers);
  require(d.n() >= 2, fmt::format("{}: n = {} record(s); a release needs n ≥ 2", source, d.n()));
  const Box& box = *spec.domain;
  require(box.dim() == d.dim(),
          fmt::format("{}: {} covariate column(s) but the declared domain has {} dimension(s)",
                      source, d.dim(), box.dim()));
  for (Eigen::Index i = 0; i < d.n(); ++i) {
    const auto line = d.line_numbers[static_cast<std::size_t>(i)];
    if (!box.contains(d.X.row(i).transpose())) {
      throw InputError(fmt::format("{}:{}: covariates ({}) outside the declared domain {}", source,
                                   line, fmt::join(d.X.row(i), ", "), box.to_string()));
    }
    double& y = d.y(i);
    if (spec.transform == ResponseTransform::Log) {
      require(y > 0, fmt::format("{}:{}: column '{}': log transform needs a positive value, got {}",
                                 source, line, spec.y_column, y));
    }
    y = transformed_response(y, spec);
    if (std::abs(y) > spec.M_Y) {
      if (spec.policy == ResponsePolicy::Reject) {
        throw ParameterError(
            {"policy"},
            fmt::format("{}:{}: column '{}': response {} (after transform) outside [−M_Y, M_Y] "
                        "= [−{}, {}] and policy is reject",
                        source, line, spec.y_column, y, spec.M_Y, spec.M_Y));
      }
      y = std::clamp(y, -spec.M_Y, spec.M_Y);
      ++out.clipped;
    }
  }
  if (!spec.crs.empty()) {
    const gis::GeoFrame geo(spec.crs, spec.model_crs, box);
    d.X = geo.to_model(d.X, source);  // checked in the declared CRS above; modelled in this one
  }
  return out;
}

}  // namespace

double transformed_response(double raw, const InputSpec& spec) {
  double y = spec.transform == ResponseTransform::Log ? std::log(raw) : raw;
  if (spec.center) y -= *spec.center;
  if (spec.scale) y /= *spec.scale;
  if (spec.sign) y = static_cast<double>((y > 0) - (y < 0));
  return y;
}

Eigen::VectorXd unclipped_responses(const PreparedData& prepared, const InputSpec& spec) {
  return prepared.raw_response.unaryExpr(
      [&](double raw) { return transformed_response(raw, spec); });
}

Eigen::VectorXd reclipped(const Eigen::VectorXd& unclipped, double prior_mean, double M_Y) {
  return unclipped.unaryExpr([&](double y) { return std::clamp(y - prior_mean, -M_Y, M_Y); });
}

PreparedData prepare_data_from_text(const std::string& text, const std::string& source,
                                    const InputSpec& spec) {
  check_input_spec(spec);
  return prepare_records(parse_records(text, source, spec), source, spec);
}

PreparedData prepare_data_from_arrays(const Eigen::MatrixXd& X, const Eigen::VectorXd& raw_response,
                                      const InputSpec& spec, const std::string& source) {
  check_input_spec(spec);
  require_parameter(
      X.rows() == raw_response.size(), "y",
      fmt::format("{}: {} covariate rows but {} responses", source, X.rows(), raw_response.size()));
  require_parameter(X.allFinite() && raw_response.allFinite(), "X",
                    fmt::format("{}: the records contain NaN or Inf", source));
  RawRecords r;
  r.X = X;
  r.raw_response = raw_response;
  if (spec.x_columns.empty()) {
    for (Eigen::Index j = 0; j < X.cols(); ++j)
      r.covariate_names.push_back(fmt::format("x{}", j + 1));
  } else {
    require_parameter(static_cast<Eigen::Index>(spec.x_columns.size()) == X.cols(), "x",
                      fmt::format("{}: {} covariate names for {} columns", source,
                                  spec.x_columns.size(), X.cols()));
    r.covariate_names = spec.x_columns;
  }
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    r.line_numbers.push_back(static_cast<std::size_t>(i + 1));
  return prepare_records(std::move(r), source, spec);
}

PreparedData prepare_data(const std::string& path, const InputSpec& spec) {
  return prepare_data_from_text(io::read_file(path), path, spec);
}

}  // namespace gpdp::release
