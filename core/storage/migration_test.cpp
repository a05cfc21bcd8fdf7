#include "core/storage/migration.hpp"

#include "core/storage/database.hpp"

#include <gtest/gtest.h>
#include <odb/transaction.hxx>

#include <filesystem>
#include <random>

namespace lastro::storage {
namespace {

class MigrationTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("lastro-migration-" + std::to_string(std::random_device{}()));
        config::DatabaseConfig config;
        config.sqlite_path = dir_ / "test.db";
        db_ = OpenDatabase(config);
    }
    void TearDown() override {
        db_.reset();
        std::filesystem::remove_all(dir_);
    }
    std::filesystem::path dir_;
    std::unique_ptr<odb::database> db_;
};

TEST_F(MigrationTest, CreatesOnceThenFindsTheSchemaCurrent) {
    EXPECT_THROW(RequireCurrentSchema(*db_, "core"), StorageError);
    MigrationResult first = MigrateSchema(*db_, "core");
    EXPECT_EQ(first.from, 0u);
    EXPECT_EQ(first.to, 4u);
    MigrationResult second = MigrateSchema(*db_, "core");
    EXPECT_EQ(second.from, 4u);
    EXPECT_NO_THROW(RequireCurrentSchema(*db_, "core"));
}

TEST_F(MigrationTest, RefusesADatabaseNewerThanTheBinary) {
    MigrateSchema(*db_, "core");
    {
        odb::transaction t(db_->begin());
        db_->execute("UPDATE schema_version SET version = 7 WHERE name = 'core'");
        t.commit();
    }
    try {
        MigrateSchema(*db_, "core");
        FAIL() << "a newer database was accepted";
    } catch (const StorageError& e) {
        EXPECT_STREQ(
            e.what(),
            "database schema 'core' is at version 7, newer than this binary's 4: upgrade lastro before using "
            "this database");
    }
    EXPECT_THROW(RequireCurrentSchema(*db_, "core"), StorageError);
}

TEST_F(MigrationTest, RefusesAnUnknownSchema) {
    EXPECT_THROW(MigrateSchema(*db_, "nothing"), StorageError);
}

}  // namespace
}  // namespace lastro::storage
