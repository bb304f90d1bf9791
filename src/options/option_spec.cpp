#include "gpdp/options/option_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

#include "gpdp/error.hpp"

namespace gpdp::options {

namespace {

bool is_list(OptionType type) {
  return type == OptionType::RealList || type == OptionType::TextList;
}

nlohmann::json parse_integer(const OptionSpec& spec, const std::string& text) {
  const char* end = text.data() + text.size();
  long long value = 0;
  auto [p, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc() && p == end) return value;
  unsigned long long big = 0;  // a seed above 2^63
  auto [q, ec2] = std::from_chars(text.data(), end, big);
  require(ec2 == std::errc() && q == end && !text.empty(),
          fmt::format("{}: expected a whole number, got '{}'", spec.flag, text));
  return big;
}

nlohmann::json parse_real(const OptionSpec& spec, const std::string& text) {
  char* end = nullptr;
  const double value = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                           ? std::nan("")
                           : std::strtod(text.c_str(), &end);
  require(!std::isnan(value) && end == text.c_str() + text.size(),
          fmt::format("{}: expected a number, got '{}'", spec.flag, text));
  return real_json(value);
}

nlohmann::json parse_one(const OptionSpec& spec, const std::string& text) {
  switch (spec.type) {
    case OptionType::Integer:
      return parse_integer(spec, text);
    case OptionType::Real:
    case OptionType::RealList:
      return parse_real(spec, text);
    default:
      return text;
  }
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
    parts.push_back(text.substr(start, comma - start));
  parts.push_back(text.substr(start));
  return parts;
}

}  // namespace

OptionSpec OptionSpec::with_alias(std::string short_alias) const {
  OptionSpec s = *this;
  s.alias = std::move(short_alias);
  return s;
}

OptionSpec OptionSpec::with_key(std::string request_key) const {
  OptionSpec s = *this;
  s.key = std::move(request_key);
  return s;
}

OptionSpec OptionSpec::with_parameter(std::string parameter_name) const {
  OptionSpec s = *this;
  s.parameter = std::move(parameter_name);
  return s;
}

OptionSpec OptionSpec::as_required() const {
  OptionSpec s = *this;
  s.required = true;
  return s;
}

OptionSpec OptionSpec::in_scope(OptionScope where) const {
  OptionSpec s = *this;
  s.scope = where;
  return s;
}

OptionSpec OptionSpec::as_positional() const {
  OptionSpec s = *this;
  s.positional = true;
  return s;
}

OptionSpec option(std::string flag, OptionType type, nlohmann::json default_value,
                  std::string help) {
  OptionSpec s;
  s.flag = std::move(flag);
  s.type = type;
  s.default_value = std::move(default_value);
  s.help = std::move(help);
  return s;
}

nlohmann::json real_json(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

double real_from_json(const nlohmann::json& value) {
  if (value.is_string()) {
    const auto text = value.get<std::string>();
    require(text == "inf" || text == "-inf", fmt::format("expected a number, got '{}'", text));
    return text == "inf" ? HUGE_VAL : -HUGE_VAL;
  }
  return value.get<double>();
}

namespace {
[[noreturn]] void wrong_type(const std::string& key, const nlohmann::json& value,
                             const std::string& expected) {
  const std::string parameter = parameter_of_flag(key);
  throw ParameterError({parameter},
                       fmt::format("{}: expected {}, got {}", parameter, expected, value.dump()));
}
}  // namespace

double real_or(const nlohmann::json& j, const std::string& key, double fallback) {
  if (!j.contains(key)) return fallback;
  const auto& v = j.at(key);
  if (!v.is_number() && v != "inf" && v != "-inf") wrong_type(key, v, "a number");
  return real_from_json(v);
}

std::string text_or(const nlohmann::json& j, const std::string& key, const std::string& fallback) {
  if (!j.contains(key)) return fallback;
  const auto& v = j.at(key);
  if (!v.is_string()) wrong_type(key, v, "a string");
  return v.get<std::string>();
}

long long integer_or(const nlohmann::json& j, const std::string& key, long long fallback) {
  if (!j.contains(key)) return fallback;
  const auto& v = j.at(key);
  if (!v.is_number_integer()) wrong_type(key, v, "an integer");
  return v.get<long long>();
}

void check_request_keys(const std::vector<OptionSpec>& specs, const nlohmann::json& request,
                        const std::string& command) {
  require(request.is_object(), fmt::format("{}: the request must be a JSON object", command));
  for (const auto& [key, value] : request.items()) {
    const bool known = std::any_of(specs.begin(), specs.end(), [&](const OptionSpec& s) {
      return s.scope == OptionScope::Request && key_of(s) == key;
    });
    require(known, fmt::format("{}: unknown parameter '{}'", command, key));
  }
}

nlohmann::json with_defaults(const std::vector<OptionSpec>& specs, nlohmann::json request) {
  for (const auto& spec : specs) {
    const std::string key = key_of(spec);
    if (spec.scope == OptionScope::Request && !spec.default_value.is_null() &&
        !request.contains(key))
      request[key] = spec.default_value;
  }
  return request;
}

std::string key_of(const OptionSpec& spec) {
  if (!spec.key.empty()) return spec.key;
  return spec.flag.substr(spec.flag.find_first_not_of('-'));
}

std::string parameter_of(const OptionSpec& spec) {
  return spec.parameter.empty() ? parameter_of_flag(key_of(spec)) : spec.parameter;
}

std::string parameter_of_flag(const std::string& flag) {
  std::string name = flag.substr(std::min(flag.size(), flag.find_first_not_of('-')));
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

std::string type_name(OptionType type) {
  switch (type) {
    case OptionType::Flag:
      return "";
    case OptionType::Integer:
      return "INT";
    case OptionType::Real:
      return "REAL";
    case OptionType::Text:
      return "TEXT";
    case OptionType::RealList:
      return "REAL,...";
    case OptionType::TextList:
      return "TEXT,...";
  }
  return "";
}

std::string to_string(OptionType type) {
  switch (type) {
    case OptionType::Flag:
      return "flag";
    case OptionType::Integer:
      return "integer";
    case OptionType::Real:
      return "real";
    case OptionType::Text:
      return "text";
    case OptionType::RealList:
      return "real-list";
    case OptionType::TextList:
      return "text-list";
  }
  return "";
}

std::string to_string(OptionScope scope) {
  switch (scope) {
    case OptionScope::Request:
      return "request";
    case OptionScope::FrontEnd:
      return "front-end";
    case OptionScope::Cli:
      return "cli";
  }
  return "";
}

std::string default_text(const OptionSpec& spec) {
  const auto& d = spec.default_value;
  if (d.is_null() || spec.type == OptionType::Flag) return "";
  if (d.is_string()) return d.get<std::string>();
  if (d.is_number_float()) return fmt::format("{}", d.get<double>());
  if (d.is_array()) {
    std::string out;
    for (const auto& v : d)
      out += (out.empty() ? "" : ",") + (v.is_string() ? v.get<std::string>() : v.dump());
    return out;
  }
  return d.dump();
}

nlohmann::json parse_value(const OptionSpec& spec, const std::vector<std::string>& texts) {
  if (spec.type == OptionType::Flag) return true;
  require(!texts.empty(), fmt::format("{} needs a value", spec.flag));
  if (!is_list(spec.type)) return parse_one(spec, texts.back());
  nlohmann::json values = nlohmann::json::array();
  for (const auto& text : texts)
    for (const auto& part : split_commas(text)) values.push_back(parse_one(spec, part));
  return values;
}

ParsedOptions parse_options(const std::vector<OptionSpec>& specs, const GivenOptions& given,
                            RequestDefaults defaults) {
  std::map<std::string, const OptionSpec*> by_flag;
  for (const auto& spec : specs) by_flag[spec.flag] = &spec;
  std::map<std::string, std::vector<std::string>> texts;
  for (const auto& [flag, values] : given) {
    require(by_flag.count(flag) == 1, fmt::format("unknown option '{}'", flag));
    auto& all = texts[flag];
    all.insert(all.end(), values.begin(), values.end());
  }
  ParsedOptions parsed{nlohmann::json::object(), nlohmann::json::object()};
  for (const auto& spec : specs) {
    const bool request = spec.scope == OptionScope::Request;
    auto& into = request ? parsed.request : parsed.front_end;
    const auto it = texts.find(spec.flag);
    if (it != texts.end()) {
      into[key_of(spec)] = parse_value(spec, it->second);
    } else {
      require(!spec.required, fmt::format("{} is required", spec.flag));
      const bool write = !request || defaults == RequestDefaults::Written;
      if (write && !spec.default_value.is_null()) into[key_of(spec)] = spec.default_value;
    }
  }
  return parsed;
}

nlohmann::json to_json(const OptionSpec& spec) {
  return {{"flag", spec.flag},
          {"alias", spec.alias},
          {"type", to_string(spec.type)},
          {"default", spec.default_value},
          {"default_text", default_text(spec)},
          {"required", spec.required},
          {"help", spec.help},
          {"key", key_of(spec)},
          {"parameter", parameter_of(spec)},
          {"scope", to_string(spec.scope)},
          {"positional", spec.positional}};
}

}  // namespace gpdp::options
