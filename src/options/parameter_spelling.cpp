#include "gpdp/options/parameter_spelling.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

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

// The [begin, end) spans of the quoted values in text: from a ' or " that does not follow a letter
// or digit (so "path's" opens none) to the same quote not followed by one. Messages quote what the
// user gave ("listen: not HOST:PORT: 'listen'"); a parameter's name inside is the user's text.
std::vector<std::pair<std::size_t, std::size_t>> quoted_spans(const std::string& text) {
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char q = text[i];
    if ((q != '\'' && q != '"') || (i > 0 && alnum(text[i - 1]))) continue;
    for (std::size_t j = i + 1; j < text.size(); ++j) {
      if (text[j] == q && (j + 1 == text.size() || !alnum(text[j + 1]))) {
        spans.emplace_back(i, j + 1);
        i = j;
        break;
      }
    }
  }
  return spans;
}

bool inside(const std::vector<std::pair<std::size_t, std::size_t>>& spans, std::size_t at) {
  return std::any_of(spans.begin(), spans.end(),
                     [at](const auto& s) { return s.first < at && at < s.second; });
}

std::string replace_word(const std::string& text, const std::string& word, const std::string& by) {
  const auto quoted = quoted_spans(text);
  std::string out;
  std::size_t pos = 0;
  for (std::size_t hit; (hit = text.find(word, pos)) != std::string::npos;
       pos = hit + word.size()) {
    const bool spell = whole_word(text, hit, hit + word.size()) && !inside(quoted, hit);
    out += text.substr(pos, hit - pos) + (spell ? by : word);
  }
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
