#pragma once
// A kept path opened to answer new points, by `gpdp query` and `gpdp serve` alike: one identity and
// one history, enforced by the ledger (docs/security.md, "Kept paths: one identity, one history").
//   * the file is followed to its target: a symlink stays a symlink (saves replace the target);
//   * the path's id is locked in the ledger's folder (path_lock.hpp): no second process and no
//     second config entry answers with it, whatever the file is called (a copy, a link);
//   * the ledger must hold the path's release, not failed or abandoned, and the file must be the
//     ledger's current generation (Ledger::open_path): an older copy or a restored backup is
//     refused, and so is a file answered without the ledger;
//   * a seeded generator may answer only for a path that is already NOT PRIVATE (that of a seeded
//     release): a private release's path refuses it, so seeded answers are never served as
//     private; a path that ever answered with one stays non-private, in the file and the ledger;
//   * save() moves the file and the ledger together: the ledger notes the new generation as
//     pending, the file is replaced atomically (fsync, rename, fsync of the folder), the ledger
//     makes it current. A crash in between leaves a file the next open accepts, with the old
//     answers or the new ones, never a second history.
#include <optional>
#include <string>

#include "gpdp/release/kept_path.hpp"
#include "gpdp/release/path_store.hpp"
#include "path_lock.hpp"

namespace gpdp::release {

class OpenPath {
 public:
  // `ledger_path` empty: the ledger named in the file. `seeded`: this process will draw answers
  // with a seeded generator (tests only). InputError (damaged file, lock held elsewhere) or
  // PrivacyError (no such release, a fork, seeded answers for a private path) naming `file`.
  OpenPath(const std::string& file, PathKey key, const std::string& ledger_path, bool seeded);

  const KeptPath& state() const { return state_; }
  const std::string& ledger() const { return ledger_; }
  // The path's answers are private: its release and every answer were drawn with the secure
  // generator, and this process draws with it too.
  bool is_private() const { return private_; }
  // Saves the state after answering (no-op when nothing new was answered); PrivacyError when the
  // ledger's history moved on without this process (nothing is written then).
  void save(KeptPath next);

 private:
  std::string file_;    // as given (for messages)
  std::string target_;  // the file itself, symlinks followed
  PathKey key_;
  std::string ledger_;
  std::optional<Ledger> ledger_db_;
  bool seeded_ = false;
  KeptPath state_;
  PathGeneration generation_;
  std::optional<PathLock> lock_;
  bool private_ = true;
};

}  // namespace gpdp::release
