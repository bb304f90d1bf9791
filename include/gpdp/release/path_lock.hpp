#pragma once
// One writer per kept path. `gpdp query` and `gpdp serve` both update a kept path file; two of them
// at once would each extend their own copy and the last save would drop the other's answers (a
// point could then be answered twice with different values). Each holds an exclusive advisory
// lock (flock) on "<path file>.lock" while it may write: `query` for its run, `serve` for its
// lifetime. The lock file itself holds nothing and is never removed (removing it would let a
// second process lock a new file while the first still holds the old one).
#include <string>

namespace gpdp::release {

class PathLock {
 public:
  // Takes the lock without waiting; InputError naming the path file when another process has it.
  explicit PathLock(const std::string& path_file);
  ~PathLock();
  PathLock(const PathLock&) = delete;
  PathLock& operator=(const PathLock&) = delete;
  PathLock(PathLock&& other) noexcept;
  PathLock& operator=(PathLock&&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace gpdp::release
