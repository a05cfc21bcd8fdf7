// The cursor secret file: created private, moved out of the database of an older version (and
// removed from it), refused when missing for lastrod or open to other users, rotated with or
// without the previous secret.
#include "core/runtime/cursor_secret.hpp"

#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core/storage/migration.hpp"
#include "core_model-odb.hxx"

#include <gtest/gtest.h>
#include <odb/transaction.hxx>

#include <sys/stat.h>
#include <filesystem>
#include <fstream>
#include <random>

namespace lastro::runtime {
namespace {

namespace fs = std::filesystem;

unsigned ModeOf(const fs::path& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<unsigned>(st.st_mode & 07777) : 0;
}

class CursorSecretTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("lastro-cursor-secret-" + std::to_string(std::random_device{}()));
        config::DatabaseConfig config;
        config.sqlite_path = dir_ / "test.db";
        db_ = storage::OpenDatabase(config);
        storage::MigrateSchema(*db_, "core");
        file_ = dir_ / "var" / "cursor.key";
    }
    void TearDown() override {
        db_.reset();
        fs::remove_all(dir_);
    }
    void StoreLegacySecret(const std::string& value) {
        storage::WithWriteTransaction(*db_, [&] {
            storage::Setting setting{"cursor_secret", value};
            db_->persist(setting);
        });
    }
    bool DatabaseHoldsSecret() {
        odb::transaction t(db_->begin());
        std::unique_ptr<storage::Setting> setting(db_->find<storage::Setting>("cursor_secret"));
        t.commit();
        return setting != nullptr;
    }
    fs::path dir_;
    fs::path file_;
    std::unique_ptr<odb::database> db_;
};

TEST_F(CursorSecretTest, MigrateCreatesAPrivateFileAndLastrodNeverCreatesOne) {
    EXPECT_THROW(
        {
            try {
                EnsureCursorSecrets(*db_, file_, false);
            } catch (const storage::StorageError& e) {
                EXPECT_NE(std::string(e.what()).find(file_.string()), std::string::npos) << e.what();
                EXPECT_NE(std::string(e.what()).find("lastro db migrate"), std::string::npos) << e.what();
                throw;
            }
        },
        storage::StorageError);
    EXPECT_FALSE(fs::exists(file_));
    const mode_t before = ::umask(022);
    const auto secrets = EnsureCursorSecrets(*db_, file_, true);
    ::umask(before);
    ASSERT_EQ(secrets.size(), 1u);
    EXPECT_EQ(secrets[0].size(), 64u);
    EXPECT_EQ(ModeOf(file_), 0600u);
    EXPECT_EQ(ModeOf(file_.parent_path()), 0700u);
    EXPECT_EQ(EnsureCursorSecrets(*db_, file_, false), secrets) << "the same secret on every start";
    EXPECT_FALSE(DatabaseHoldsSecret());
}

TEST_F(CursorSecretTest, AnOlderVersionsSecretMovesOutOfTheDatabaseAndKeepsSigning) {
    const std::string legacy(64, 'a');
    StoreLegacySecret(legacy);
    EXPECT_EQ(EnsureCursorSecrets(*db_, file_, false), std::vector<std::string>{legacy});
    EXPECT_FALSE(DatabaseHoldsSecret());
    EXPECT_EQ(ReadCursorSecrets(file_), std::vector<std::string>{legacy});
}

TEST_F(CursorSecretTest, ALeftoverDatabaseSecretBesideAFileStaysAccepted) {
    WriteCursorSecrets(file_, {std::string(64, 'b')});
    StoreLegacySecret(std::string(64, 'c'));
    EXPECT_EQ(EnsureCursorSecrets(*db_, file_, true),
              (std::vector<std::string>{std::string(64, 'b'), std::string(64, 'c')}));
    EXPECT_FALSE(DatabaseHoldsSecret());
}

TEST_F(CursorSecretTest, RefusesAFileOpenToOtherUsersOrMalformed) {
    WriteCursorSecrets(file_, {std::string(64, 'd')});
    fs::permissions(file_, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                               fs::perms::others_read);
    try {
        ReadCursorSecrets(file_);
        ADD_FAILURE() << "a file others can read was accepted";
    } catch (const storage::StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("mode 0644"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("chmod 600"), std::string::npos) << e.what();
    }
    fs::permissions(file_, fs::perms::owner_read | fs::perms::owner_write);
    {
        std::ofstream out(file_, std::ios::app);
        out << "not a secret\n";
    }
    try {
        ReadCursorSecrets(file_);
        ADD_FAILURE() << "a malformed file was accepted";
    } catch (const storage::StorageError& e) {
        EXPECT_NE(std::string(e.what()).find(file_.string() + ":2:"), std::string::npos) << e.what();
    }
}

TEST_F(CursorSecretTest, RotationKeepsThePreviousSecretOrNot) {
    const auto first = EnsureCursorSecrets(*db_, file_, true);
    const auto rotated = RotateCursorSecrets(file_, true);
    ASSERT_EQ(rotated.size(), 2u);
    EXPECT_NE(rotated[0], first[0]);
    EXPECT_EQ(rotated[1], first[0]);
    const auto again = RotateCursorSecrets(file_, true);
    EXPECT_EQ(again, (std::vector<std::string>{again[0], rotated[0]})) << "only one previous secret is kept";
    const auto alone = RotateCursorSecrets(file_, false);
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_NE(alone[0], again[0]);
    EXPECT_EQ(ModeOf(file_), 0600u);
}

}  // namespace
}  // namespace lastro::runtime
