#include "path_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "gpdp/error.hpp"

namespace gpdp::release {

PathLock::PathLock(const std::string& file) {
  take(file + ".lock", fmt::format("{}: in use by another gpdp process", file));
}

PathLock::PathLock(const std::string& ledger_path, const std::string& path_id,
                   const std::string& path_file) {
  const bool hex = path_id.size() >= 16 && path_id.size() <= 64 &&
                   std::all_of(path_id.begin(), path_id.end(),
                               [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  require(hex, fmt::format("{}: not a gpdp path file (malformed path id)", path_file));
  take(fmt::format("{}.path-{}.lock", ledger_path, path_id),
       fmt::format("{}: kept path {} is open elsewhere (`gpdp serve`, `gpdp query`, or another "
                   "entry of this config), possibly under another file name (a copy or a link); "
                   "only one process may answer with a path",
                   path_file, path_id));
}

void PathLock::take(const std::string& lock_file, const std::string& busy_message) {
  fd_ = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    throw InputError(
        fmt::format("{}: cannot open the lock file ({})", lock_file, std::strerror(errno)));
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    throw InputError(err == EWOULDBLOCK
                         ? busy_message
                         : fmt::format("{}: cannot lock ({})", lock_file, std::strerror(err)));
  }
}

PathLock::PathLock(PathLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

PathLock::~PathLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace gpdp::release
