#pragma once
// One writer per kept path. `gpdp query` and `gpdp serve` both update a kept path; two of them at
// once would each extend their own copy and answer a new point with two independent draws (a fork
// of the path, outside ε). A path's identity is its id, not its file name: a symlink, a hard link,
// a copy or a second config entry name the same path. So the lock is keyed by the id, in the
// folder of the ledger that holds the path's history: an exclusive advisory lock (flock) on
// "<ledger>.path-<id>.lock", held while a process may answer (`query` for its run, `serve` for its
// lifetime). flock locks belong to one open file, so a second entry in the same process is refused
// too. The lock file holds nothing and is never removed (removing it would let a second process
// lock a new file while the first still holds the old one).
#include <string>

namespace gpdp::release {

class PathLock {
 public:
  // An exclusive lock on "<file>.lock" (a batch coordinator's on its ledger); InputError naming
  // `file` when another process has it.
  explicit PathLock(const std::string& file);
  // Takes the lock of path `path_id` (hex) beside `ledger_path` without waiting; InputError naming
  // `path_file` when another process (or another entry of this one) has the path open.
  PathLock(const std::string& ledger_path, const std::string& path_id,
           const std::string& path_file);
  ~PathLock();
  PathLock(const PathLock&) = delete;
  PathLock& operator=(const PathLock&) = delete;
  PathLock(PathLock&& other) noexcept;
  PathLock& operator=(PathLock&&) = delete;

 private:
  void take(const std::string& lock_file, const std::string& busy_message);
  int fd_ = -1;
};

}  // namespace gpdp::release
