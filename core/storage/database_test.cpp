#include "core/storage/database.hpp"
#include "core/storage/migration.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <odb/connection.hxx>
#include <odb/sqlite/connection.hxx>

#include <sys/stat.h>
#include <cstdint>
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

std::int64_t PragmaOf(odb::database& db, const std::string& pragma) {
    odb::connection_ptr c(db.connection());
    sqlite3_stmt* statement = nullptr;
    auto* sqlite = static_cast<odb::sqlite::connection*>(c.get());
    EXPECT_EQ(sqlite3_prepare_v2(sqlite->handle(), ("PRAGMA " + pragma).c_str(), -1, &statement, nullptr),
              SQLITE_OK);
    EXPECT_EQ(sqlite3_step(statement), SQLITE_ROW);
    const std::int64_t value = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    return value;
}

// The data file's connections read through the configured page cache and memory map; billing's
// keep 1 MB and no map (its file grows at every checkpoint).
TEST(DatabaseTest, TheDataFileIsReadThroughItsCacheAndMapAndBillingsIsNot) {
    const fs::path root = fs::temp_directory_path() / ("lastro-db-" + std::to_string(std::random_device{}()));
    config::DatabaseConfig config;
    config.sqlite_path = root / "lastro.db";
    config.sqlite_billing_path = root / "lastro-billing.db";
    config.sqlite_cache_mb = 24;
    config.sqlite_mmap_mb = 300;
    {
        auto data = OpenDatabase(config);
        EXPECT_EQ(PragmaOf(*data, "cache_size"), -24 * 1024);
        EXPECT_EQ(PragmaOf(*data, "mmap_size"), std::int64_t{300} << 20);
        auto billing = OpenBillingDatabase(config);
        EXPECT_EQ(PragmaOf(*billing, "cache_size"), -1024);
        EXPECT_EQ(PragmaOf(*billing, "mmap_size"), 0);
    }
    config.sqlite_mmap_mb = 0;
    {
        auto data = OpenDatabase(config);
        EXPECT_EQ(PragmaOf(*data, "mmap_size"), 0);
    }
    fs::remove_all(root);
}

}  // namespace
}  // namespace lastro::storage
