#include "core/storage/database.hpp"
#include "core/storage/migration.hpp"

#include <gtest/gtest.h>
#include <odb/connection.hxx>

#include <sys/stat.h>
#include <filesystem>
#include <random>

namespace lastro::storage {
namespace {

namespace fs = std::filesystem;

unsigned ModeOf(const fs::path& path) {
    struct stat st{};
    EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
    return st.st_mode & 0777;
}

// Issue 20 (forged cursors): the database holds the cursor signing secret and key hashes, so
// what OpenDatabase creates only the service's user can read, whatever the umask.
TEST(DatabaseTest, ANewSqliteDatabaseAndTheDirectoriesMadeForItArePrivate) {
    const fs::path root = fs::temp_directory_path() / ("lastro-db-" + std::to_string(std::random_device{}()));
    const mode_t before = ::umask(022);
    {
        config::DatabaseConfig config;
        config.sqlite_path = root / "var" / "lastro.db";
        auto db = OpenDatabase(config);
        MigrateSchema(*db, "core");  // writes: the write-ahead log and shared memory exist
        EXPECT_EQ(ModeOf(root), 0700u);
        EXPECT_EQ(ModeOf(root / "var"), 0700u);
        EXPECT_EQ(ModeOf(config.sqlite_path), 0600u);
        EXPECT_EQ(ModeOf(root / "var" / "lastro.db-wal"), 0600u);
        EXPECT_EQ(ModeOf(root / "var" / "lastro.db-shm"), 0600u);
    }
    // A database that exists keeps the mode its owner gave it.
    fs::permissions(root / "var" / "lastro.db", fs::perms(0640));
    {
        config::DatabaseConfig config;
        config.sqlite_path = root / "var" / "lastro.db";
        auto db = OpenDatabase(config);
        EXPECT_EQ(ModeOf(config.sqlite_path), 0640u);
    }
    ::umask(before);
    fs::remove_all(root);
}

}  // namespace
}  // namespace lastro::storage
