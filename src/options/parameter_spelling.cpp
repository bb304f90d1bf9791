#include "gpdp/options/parameter_spelling.hpp"

#include <cctype>

namespace gpdp::options {

namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

// Whether text[hit, end) is a word of its own, not part of a longer name, a flag or a path.
bool whole_word(const std::string& text, std::size_t hit, std::size_t end) {
  if (hit > 0) {
    const char before = text[hit - 1];
    if (name_char(before) || before == '.' || before == '/' || before == '\\') return false;
  }
  if (end == text.size()) return true;
  const char after = text[end];
  if (name_char(after)) return false;
  const bool inside_path = (after == '.' || after == '/') && end + 1 < text.size() &&
                           std::isalnum(static_cast<unsigned char>(text[end + 1]));
  return !inside_path;
}

std::string replace_word(const std::string& text, const std::string& word, const std::string& by) {
  std::string out;
  std::size_t pos = 0;
  for (std::size_t hit; (hit = text.find(word, pos)) != std::string::npos; pos = hit + word.size())
    out += text.substr(pos, hit - pos) + (whole_word(text, hit, hit + word.size()) ? by : word);
  return out + text.substr(pos);
}

}  // namespace

std::string spell_parameters(const std::string& message, const std::vector<std::string>& parameters,
                             const std::map<std::string, std::string>& spelling) {
  std::string text = message;
  for (const auto& p : parameters) {
    const auto it = spelling.find(p);
    if (it != spelling.end() && !p.empty()) text = replace_word(text, p, it->second);
  }
  return text;
}

}  // namespace gpdp::options
