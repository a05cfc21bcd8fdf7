// The reply deadline against a real PostgreSQL that stops answering (every server process
// stopped with SIGSTOP): the blocked statement returns at the deadline as a lost connection,
// the pool replaces the cut connection, and a connection whose reply came in time stays.
#include "core/storage/reply_deadline.hpp"
#include "core/storage/database.hpp"

#include <lastro/sdk/testing/postgres_cluster.hpp>

#include <gtest/gtest.h>
#include <odb/exceptions.hxx>
#include <odb/pgsql/connection.hxx>

#include <chrono>
#include <future>

namespace lastro::storage {
namespace {

using Clock = std::chrono::steady_clock;
using sdk::testing::FrozenPostgres;
using sdk::testing::PostgresCluster;

class ReplyDeadlineTest : public ::testing::Test {
protected:
    void SetUp() override {
        cluster_ = PostgresCluster::Start();
        config_.backend = config::Backend::kPgsql;
        config_.pgsql_conninfo = cluster_->Conninfo("postgres");
        config_.pool_size = 2;
        db_ = OpenDatabase(config_);
    }

    std::unique_ptr<PostgresCluster> cluster_;
    config::DatabaseConfig config_;
    std::unique_ptr<odb::database> db_;
};

TEST_F(ReplyDeadlineTest, AFrozenServerCostsTheDeadlineNotAHang) {
    odb::connection_ptr connection(db_->connection());
    connection->execute("SELECT 1");  // connected and answering
    FrozenPostgres frozen(*cluster_);
    // Run where a hang cannot take the test with it: the future says whether it returned.
    auto outcome = std::async(std::launch::async, [&] {
        ReplyDeadline bound(*connection, Clock::now() + std::chrono::milliseconds(300));
        try {
            connection->execute("SELECT 1");
            return std::string("answered");
        } catch (const odb::recoverable& e) {
            return bound.Expired() ? std::string("cut") : std::string("recoverable but not cut: ") + e.what();
        }
    });
    const bool returned = outcome.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
    frozen.Thaw();  // before any assertion: the future waits for the statement when destroyed
    ASSERT_TRUE(returned) << "the statement was still waiting for the frozen server";
    EXPECT_EQ(outcome.get(), "cut");
    EXPECT_TRUE(static_cast<odb::pgsql::connection&>(*connection).failed()) << "the pool must drop it";
    connection.reset();
    odb::connection_ptr fresh(db_->connection());
    EXPECT_NE(fresh.get(), nullptr);
    EXPECT_NO_THROW(fresh->execute("SELECT 1"));
}

TEST_F(ReplyDeadlineTest, AReplyInTimeKeepsTheConnection) {
    odb::connection_ptr connection(db_->connection());
    {
        ReplyDeadline bound(*connection, Clock::now() + std::chrono::seconds(30));
        connection->execute("SELECT 1");
        EXPECT_FALSE(bound.Expired());
    }
    EXPECT_FALSE(static_cast<odb::pgsql::connection&>(*connection).failed());
    EXPECT_NO_THROW(connection->execute("SELECT 1"));
}

// A server frozen before the connection is made: the connect timeout OpenDatabase adds bounds
// the pool's new connection too.
TEST_F(ReplyDeadlineTest, ConnectingToAFrozenServerGivesUp) {
    FrozenPostgres frozen(*cluster_);
    auto outcome = std::async(std::launch::async, [&] {
        try {
            auto other = OpenDatabase(config_);
            return std::string("connected");
        } catch (const StorageError&) {
            return std::string("refused");
        }
    });
    const bool returned = outcome.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
    frozen.Thaw();
    ASSERT_TRUE(returned) << "connecting to the frozen server never gave up";
    EXPECT_EQ(outcome.get(), "refused");
}

TEST(ConninfoTest, AnUnreadableConninfoIsNamed) {
    config::DatabaseConfig config;
    config.backend = config::Backend::kPgsql;
    config.pgsql_conninfo = "host=127.0.0.1 port";
    try {
        OpenDatabase(config);
        ADD_FAILURE() << "opened";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("database.pgsql.conninfo"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace lastro::storage
