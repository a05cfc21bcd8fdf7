#include "core/storage/serving_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lastro::storage {

std::filesystem::path ServingLock::LockPathOf(const std::filesystem::path& database_path) {
    return database_path.string() + ".lastrod-lock";
}

ServingLock::ServingLock(const std::filesystem::path& database_path) {
    const std::filesystem::path path = LockPathOf(database_path);
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0) {
        throw std::runtime_error("cannot create the lock file " + path.string() + ": " +
                                 std::strerror(errno));
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        ::close(fd_);
        fd_ = -1;
        if (error == EWOULDBLOCK) {
            throw std::runtime_error("another lastrod serves the SQLite database " + database_path.string() +
                                     " (it holds " + path.string() +
                                     "); one lastrod per SQLite database, several instances need "
                                     "PostgreSQL (docs/deploy.md)");
        }
        throw std::runtime_error("cannot lock " + path.string() + ": " + std::strerror(error));
    }
}

ServingLock::~ServingLock() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

}  // namespace lastro::storage
