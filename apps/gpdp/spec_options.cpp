#include "spec_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <stdexcept>
#include <utility>

#include "gpdp/options/parameter_spelling.hpp"

namespace gpdp::cli {

namespace {

std::string cli_names(const options::OptionSpec& spec) {  // "--draws,-L"
  return spec.alias.empty() ? spec.flag : spec.flag + "," + spec.alias;
}

std::map<const CLI::Option*, std::string>& remembered_parameters() {
  static std::map<const CLI::Option*, std::string> parameters;
  return parameters;
}

// The parameter an option sets: its spec's, else its long flag read as one.
std::string parameter_of(const CLI::Option* opt) {
  const auto it = remembered_parameters().find(opt);
  if (it != remembered_parameters().end()) return it->second;
  const auto& names = opt->get_lnames();
  return names.empty() ? "" : options::parameter_of_flag(names.front());
}

// parameter -> the long flags that set it, over `app` and the subcommands it ran; `own`: each
// flag's name read as a parameter ("--grid2d" -> "grid2d") -> the flag.
void collect_flags(const CLI::App& app, std::map<std::string, std::vector<std::string>>& out,
                   std::map<std::string, std::string>& own) {
  for (const CLI::Option* opt : app.get_options()) {
    const auto& names = opt->get_lnames();
    if (names.empty()) continue;
    out[parameter_of(opt)].push_back("--" + names.front());
    own[options::parameter_of_flag(names.front())] = "--" + names.front();
  }
  for (const CLI::App* sub : app.get_subcommands()) collect_flags(*sub, out, own);
}

CLI::Option* add(CLI::App* app, const options::OptionSpec& spec) {
  const std::string names = cli_names(spec);
  if (spec.type == options::OptionType::Flag) {
    auto* flag = app->add_flag(names, spec.help);
    remember_parameter(flag, spec);
    return flag;
  }
  auto* opt = app->add_option(names, spec.help)->type_name(options::type_name(spec.type));
  remember_parameter(opt, spec);
  if (spec.type == options::OptionType::RealList || spec.type == options::OptionType::TextList) {
    opt->expected(1, CLI::detail::expected_max_vector_size);
  }
  opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  const auto shown = options::default_text(spec);
  if (!shown.empty()) opt->default_str(shown);
  if (spec.required) opt->required();
  return opt;
}

}  // namespace

void remember_parameter(const CLI::Option* opt, const options::OptionSpec& spec) {
  remembered_parameters()[opt] = options::parameter_of(spec);
}

std::string with_flags(const Error& e, const CLI::App& app) {
  std::map<std::string, std::vector<std::string>> flags;
  std::map<std::string, std::string> own;
  collect_flags(app, flags, own);
  std::map<std::string, std::string> spelling;
  for (const auto& [parameter, names] : flags)
    spelling[parameter] = fmt::format("{}", fmt::join(names, "/"));
  // A flag that shares its options' parameter ("evaluation": --points/--grid/--grid2d) is named
  // alone by its own name ("grid2d needs two axes").
  spelling.insert(own.begin(), own.end());
  return options::spell_parameters(e.what(), e.parameters(), spelling);
}

SpecOptions::SpecOptions(CLI::App* app, std::vector<options::OptionSpec> specs)
    : specs_(std::move(specs)) {
  for (const auto& spec : specs_) added_.push_back(add(app, spec));
}

options::ParsedOptions SpecOptions::parsed(options::RequestDefaults defaults) const {
  options::GivenOptions given;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    if (added_[i]->count() > 0) given.emplace_back(specs_[i].flag, added_[i]->results());
  }
  return options::parse_options(specs_, given, defaults);
}

CLI::Option* SpecOptions::option(const std::string& flag) const {
  for (std::size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i].flag == flag) return added_[i];
  throw std::logic_error("no option " + flag + " in the spec list");
}

bool SpecOptions::print_request(const options::ParsedOptions& parsed) {
  if (!parsed.front_end.value("print-request", false)) return false;
  fmt::print("{}\n", parsed.request.dump());
  return true;
}

void SpecOptions::print_outcome(const options::ParsedOptions& parsed, const nlohmann::json& report,
                                const std::string& text) {
  if (parsed.front_end.value("json", false)) {
    fmt::print("{}\n", report.dump(2));
  } else {
    fmt::print("{}", text);
  }
}

void declare_point_options(const SpecOptions& opts) {
  auto* p = opts.option("--points");
  auto* g = opts.option("--grid");
  auto* g2 = opts.option("--grid2d");
  p->excludes(g)->excludes(g2);
  g->excludes(g2);
}

}  // namespace gpdp::cli
