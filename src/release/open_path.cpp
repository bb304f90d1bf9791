#include "open_path.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"

namespace gpdp::release {

namespace {

namespace fs = std::filesystem;

std::string followed(const std::string& file) {
  std::error_code ec;
  const fs::path target = fs::canonical(file, ec);
  if (ec) throw InputError(fmt::format("{}: cannot open the kept path ({})", file, ec.message()));
  return target.string();
}

// Temporary files a killed save left beside the path (write_private_file_atomic's names). Only the
// holder of the path's lock saves it, so any that exist are stale.
void sweep_stale_temporaries(const std::string& target) {
  const fs::path t(target);
  const std::string prefix = "." + t.filename().string() + ".tmp.";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(t.parent_path(), ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() == prefix.size() + 6 && name.rfind(prefix, 0) == 0) fs::remove(e.path(), ec);
  }
}

}  // namespace

OpenPath::OpenPath(const std::string& file, PathKey key, const std::string& ledger_path,
                   bool seeded)
    : file_(file), target_(followed(file)), key_(std::move(key)), seeded_(seeded) {
  std::string bytes = io::read_file(target_);
  state_ = load_kept_path_bytes(bytes, file_, key_);
  ledger_ = ledger_path.empty() ? state_.ledger : ledger_path;
  const std::string id = state_.path_id;
  lock_.emplace(ledger_, id, file_);
  // Read again under the lock: another process may have saved in between.
  if (const std::string now = io::read_file(target_); now != bytes) {
    state_ = load_kept_path_bytes(now, file_, key_);
    require(state_.path_id == id,
            fmt::format("{}: replaced by another path while opening it", file_));
  }
  generation_ = path_generation(state_);
  require(fs::exists(ledger_),
          fmt::format("ledger {}: no such file (the ledger of {})", ledger_, file_));
  ledger_db_.emplace(ledger_);  // kept open: every save updates it
  Ledger& ledger = *ledger_db_;
  const auto release = ledger.release_with_path(state_.path_id);
  // Files written before the file said so: a seeded release's path is not private.
  const bool seeded_release =
      release && release->parameters.value("rng", "").find("NOT PRIVATE") != std::string::npos;
  const PathHistory h = ledger.open_path(state_.path_id, generation_,
                                         state_.private_answers && !seeded_release, file_);
  if (seeded && h.is_private) {
    throw PrivacyError(fmt::format(
        "{}: the path of a private release refuses answers drawn with a seeded generator "
        "(insecure_seed): anyone who knows the seed could remove their noise, yet they would be "
        "served as private. Seeded answers are for paths of seeded releases only",
        file_));
  }
  private_ = h.is_private && !seeded;
  state_.private_answers = h.is_private;
}

void OpenPath::save(KeptPath next) {
  next.private_answers = state_.private_answers && !seeded_;
  const PathGeneration to = path_generation(next);
  if (to == generation_ && next.private_answers == state_.private_answers) return;
  ledger_db_->begin_path_save(state_.path_id, generation_, to, next.private_answers);
  sweep_stale_temporaries(target_);
  save_kept_path(target_, next, key_);
  ledger_db_->end_path_save(state_.path_id, to);
  state_ = std::move(next);
  generation_ = to;
}

}  // namespace gpdp::release
