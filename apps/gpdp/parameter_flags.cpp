#include "parameter_flags.hpp"

#include <cctype>
#include <map>

namespace gpdp::cli {

namespace {

const std::map<std::string, std::string>& flags() {
  static const std::map<std::string, std::string> table = {
      {"budget_delta", "--budget-delta"},
      {"budget_epsilon", "--budget-epsilon"},
      {"center", "--center"},
      {"crs", "--crs"},
      {"dataset", "--dataset"},
      {"delta", "--delta"},
      {"new_dataset_despite_overlap", "--new-dataset-despite-overlap"},
      {"budget_orders", "--budget-orders"},
      {"domain", "--domain"},
      {"draws", "--draws"},
      {"evaluation", "--grid/--grid2d/--points"},
      {"extra_test_points", "--test-points"},
      {"image_format", "--image"},
      {"internal_eval_dir", "--internal-eval"},
      {"keep_path", "--keep-path"},
      {"kernel", "--kernel"},
      {"ledger", "--ledger"},
      {"mask_file", "--mask"},
      {"mechanism", "--mechanism"},
      {"max_evals", "--evals"},
      {"M_Y", "--M-Y"},
      {"out_csv", "--out"},
      {"path_key", "--path-key/--path-passphrase-env"},
      {"out_dir", "--out"},
      {"policy", "--response-policy"},
      {"restarts", "--restarts"},
      {"rkhs_norm", "--rkhs-norm"},
      {"sampler", "--sampler"},
      {"scale", "--scale"},
      {"sensitivity", "--sensitivity"},
      {"sigma", "--sigma"},
      {"smooth", "--smooth"},
      {"snap_covariates", "--snap-covariates"},
      {"solve", "--solve"},
      {"target_epsilon", "--target-epsilon"},
      {"threshold", "--threshold"},
      {"transform", "--transform"},
      {"vote_cutoff", "--vote-cutoff"},
      {"x", "--x"},
      {"y", "--y"},
  };
  return table;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `text` with whole-word occurrences of `word` replaced by `by`.
std::string replace_word(const std::string& text, const std::string& word, const std::string& by) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t hit = text.find(word, pos);
    if (hit == std::string::npos) break;
    const std::size_t end = hit + word.size();
    const bool whole = (hit == 0 || !word_char(text[hit - 1])) &&
                       (end == text.size() || !word_char(text[end])) &&
                       (hit == 0 || text[hit - 1] != '-');
    out += text.substr(pos, hit - pos) + (whole ? by : word);
    pos = end;
  }
  return out + text.substr(pos);
}

}  // namespace

std::string flag_of(const std::string& parameter) {
  const auto it = flags().find(parameter);
  return it == flags().end() ? parameter : it->second;
}

std::string with_flags(const Error& e) {
  std::string text = e.what();
  for (const auto& p : e.parameters()) text = replace_word(text, p, flag_of(p));
  return text;
}

}  // namespace gpdp::cli
