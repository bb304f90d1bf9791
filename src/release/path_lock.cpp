#include "gpdp/release/path_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gpdp/error.hpp"

namespace gpdp::release {

PathLock::PathLock(const std::string& path_file) {
  const std::string lock_file = path_file + ".lock";
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
                         ? fmt::format("{}: the kept path is in use by another gpdp process "
                                       "(`gpdp serve` or `gpdp query`); only one may update it",
                                       path_file)
                         : fmt::format("{}: cannot lock ({})", lock_file, std::strerror(err)));
  }
}

PathLock::PathLock(PathLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

PathLock::~PathLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace gpdp::release
