// The key cache against a real SQLite key table: a hit does not read the database, a revocation
// shows after the time-to-live, unknown keys are remembered too, and the bound holds.
#include "core/auth/key_cache.hpp"

#include "core/storage/database.hpp"
#include "core/storage/migration.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <thread>

namespace lastro::auth {
namespace {

class KeyCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("lastro-keycache-" + std::to_string(std::random_device{}()));
        config::DatabaseConfig config;
        config.sqlite_path = dir_ / "test.db";
        db_ = storage::OpenDatabase(config);
        storage::MigrateSchema(*db_, "core");
        store_ = std::make_unique<KeyStore>(*db_);
    }
    void TearDown() override {
        store_.reset();
        db_.reset();
        std::filesystem::remove_all(dir_);
    }
    std::filesystem::path dir_;
    std::unique_ptr<odb::database> db_;
    std::unique_ptr<KeyStore> store_;
};

TEST_F(KeyCacheTest, TrustsWhatItReadForTheTimeToLiveOnly) {
    const CreatedKey key = store_->Create({"a", 10, 5, {}});
    KeyCache cache(*store_, std::chrono::milliseconds(1500), std::chrono::milliseconds(60000));
    auto first = cache.Authenticate(key.secret);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->key_id, key.id);
    EXPECT_EQ(first->monthly_credits, std::optional<std::int64_t>(10));

    ASSERT_TRUE(store_->Revoke(key.id));
    EXPECT_TRUE(cache.Authenticate(key.secret)) << "within the time-to-live the cached answer stands";
    std::this_thread::sleep_for(std::chrono::milliseconds(1600));
    EXPECT_FALSE(cache.Authenticate(key.secret)) << "after it, the revocation shows";
}

TEST_F(KeyCacheTest, RemembersUnknownKeysAndNeverAsksForMalformedOnes) {
    KeyCache cache(*store_, std::chrono::milliseconds(60000), std::chrono::milliseconds(60000));
    const std::string unknown = "lst_" + std::string(48, 'a');
    EXPECT_FALSE(cache.Authenticate(unknown));
    EXPECT_FALSE(cache.Authenticate("lst_short"));
    EXPECT_FALSE(cache.Authenticate("LST_" + std::string(48, 'a')));
    // With zero time-to-live every call reads the key table: a new key works at once.
    const CreatedKey key = store_->Create({"b", std::nullopt, std::nullopt, {"funds"}});
    KeyCache uncached(*store_, std::chrono::milliseconds(0), std::chrono::milliseconds(0));
    auto principal = uncached.Authenticate(key.secret);
    ASSERT_TRUE(principal);
    EXPECT_TRUE(principal->HasScope("funds"));
    EXPECT_FALSE(principal->HasScope("schema"));
}

TEST_F(KeyCacheTest, StaysWithinItsCapacity) {
    const CreatedKey key = store_->Create({"c", std::nullopt, std::nullopt, {}});
    KeyCache cache(*store_, std::chrono::milliseconds(60000), std::chrono::milliseconds(60000), 4);
    for (int i = 0; i < 20; ++i) {
        char hex[49];
        std::snprintf(hex, sizeof hex, "%048x", i);
        EXPECT_FALSE(cache.Authenticate(std::string("lst_") + hex));
    }
    EXPECT_TRUE(cache.Authenticate(key.secret));  // still answered correctly after evictions
}

// A flood of made-up keys (each a database read once) must not evict the valid keys: they would
// all go back to the database, which is how unknown keys doubled everyone's latency.
TEST_F(KeyCacheTest, UnknownKeysNeverEvictValidOnes) {
    const CreatedKey key = store_->Create({"d", std::nullopt, std::nullopt, {}});
    KeyCache cache(*store_, std::chrono::milliseconds(60000), std::chrono::milliseconds(60000), 4);
    bool looked_up = false;
    ASSERT_TRUE(cache.Authenticate(key.secret, &looked_up));
    EXPECT_TRUE(looked_up);
    // Revoked in the table: only a fresh read would see it, so "still accepted" proves no read.
    ASSERT_TRUE(store_->Revoke(key.id));
    for (int i = 0; i < 20; ++i) {
        char hex[49];
        std::snprintf(hex, sizeof hex, "%048x", i);
        EXPECT_FALSE(cache.Authenticate(std::string("lst_") + hex));
    }
    looked_up = false;
    EXPECT_TRUE(cache.Authenticate(key.secret, &looked_up)) << "the valid key was evicted by unknown ones";
    EXPECT_FALSE(looked_up);
}

TEST_F(KeyCacheTest, AsksAboutAnUnknownKeyOncePerItsTimeToLive) {
    KeyCache cache(*store_, std::chrono::milliseconds(0), std::chrono::milliseconds(60000));
    const std::string unknown = "lst_" + std::string(48, 'b');
    bool looked_up = false;
    EXPECT_FALSE(cache.Authenticate(unknown, &looked_up));
    EXPECT_TRUE(looked_up);
    for (int i = 0; i < 5; ++i) {
        looked_up = false;
        EXPECT_FALSE(cache.Authenticate(unknown, &looked_up));
        EXPECT_FALSE(looked_up) << "call " << i << " read the key table again";
    }
    EXPECT_FALSE(cache.SeenValid(unknown));
    const CreatedKey key = store_->Create({"e", std::nullopt, std::nullopt, {}});
    EXPECT_FALSE(cache.SeenValid(key.secret));
    ASSERT_TRUE(cache.Authenticate(key.secret));
    EXPECT_TRUE(cache.SeenValid(key.secret));
}

}  // namespace
}  // namespace lastro::auth
