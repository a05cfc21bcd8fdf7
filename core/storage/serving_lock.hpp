// One lastrod per SQLite database. SQLite is the embedded, single-host database: the lastrod
// that serves it decides admission in memory (billing/account_book.hpp), which is only right
// when no other process writes its usage rows. The lock is an advisory flock on a file beside
// the database, held for the process's life and dropped by the kernel when it ends (even by
// SIGKILL). Several instances share one PostgreSQL instead (docs/deploy.md). The admin CLI
// takes no lock: its writes (keys, ingests, migrations) touch no usage row.
#pragma once

#include <filesystem>

namespace lastro::storage {

class ServingLock {
public:
    // Takes the lock of the database at `database_path`; throws std::runtime_error naming the
    // lock file when another process holds it or it cannot be created.
    explicit ServingLock(const std::filesystem::path& database_path);
    ~ServingLock();
    ServingLock(const ServingLock&) = delete;
    ServingLock& operator=(const ServingLock&) = delete;

    static std::filesystem::path LockPathOf(const std::filesystem::path& database_path);

private:
    int fd_ = -1;
};

}  // namespace lastro::storage
