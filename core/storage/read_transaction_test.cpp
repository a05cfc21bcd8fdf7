// BeginRead, the transaction a read-only call runs in: one snapshot on SQLite; on PostgreSQL no
// BEGIN at all, each statement a transaction of its own (what READ COMMITTED gives a reader,
// less two round trips). Checked against ODB's own begin() so that each test can fail.
#include "core/storage/database.hpp"
#include "core/storage/pgsql_statements.hpp"

#include <lastro/sdk/testing/postgres_cluster.hpp>

#include <gtest/gtest.h>
#include <odb/sqlite/connection.hxx>
#include <odb/transaction.hxx>

#include <sqlite3.h>

#include <filesystem>
#include <random>
#include <string>

namespace lastro::storage {
namespace {

namespace fs = std::filesystem;

std::string SqliteValue(odb::connection& connection, const std::string& sql) {
    std::string value;
    char* error = nullptr;
    const int rc = sqlite3_exec(
        static_cast<odb::sqlite::connection&>(connection).handle(), sql.c_str(),
        [](void* out, int, char** values, char**) {
            *static_cast<std::string*>(out) = values[0] ? values[0] : "NULL";
            return 0;
        },
        &value, &error);
    EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    return value;
}

TEST(ReadTransactionTest, OnSqliteOneReadSeesOneSnapshot) {
    const fs::path root =
        fs::temp_directory_path() / ("lastro-read-" + std::to_string(std::random_device{}()));
    {
        config::DatabaseConfig config;
        config.sqlite_path = root / "lastro.db";
        config.pool_size = 2;
        auto db = OpenDatabase(config);
        db->connection()->execute("CREATE TABLE t (x INTEGER)");
        db->connection()->execute("INSERT INTO t VALUES (1)");

        odb::connection_ptr reader(db->connection());
        odb::connection_ptr writer(db->connection());
        odb::transaction t(BeginRead(reader));
        EXPECT_EQ(SqliteValue(*reader, "SELECT count(*) FROM t"), "1");
        writer->execute("INSERT INTO t VALUES (2)");  // committed by another connection
        EXPECT_EQ(SqliteValue(*reader, "SELECT count(*) FROM t"), "1") << "the read left its snapshot";
        t.commit();
        EXPECT_EQ(SqliteValue(*reader, "SELECT count(*) FROM t"), "2");
    }
    fs::remove_all(root);
}

class PostgresReadTransactionTest : public ::testing::Test {
protected:
    void SetUp() override {
        cluster_ = sdk::testing::PostgresCluster::Start();
        config::DatabaseConfig config;
        config.backend = config::Backend::kPgsql;
        config.pgsql_conninfo = cluster_->Conninfo("postgres");
        config.pool_size = 2;
        db_ = OpenDatabase(config);
    }

    // The id of the transaction the statement runs in (assigning one if it has none).
    static std::string TransactionId() {
        return RunPgStatements("SELECT txid_current()").at(0).at(0).at(0).value();
    }

    std::unique_ptr<sdk::testing::PostgresCluster> cluster_;
    std::unique_ptr<odb::database> db_;
};

TEST_F(PostgresReadTransactionTest, EachStatementIsATransactionOfItsOwn) {
    odb::connection_ptr connection(db_->connection());
    {
        odb::transaction t(BeginRead(connection));
        const std::string first = TransactionId();
        EXPECT_NE(TransactionId(), first) << "BeginRead sent a BEGIN";
        t.commit();
    }
    {
        odb::transaction t(connection->begin());  // the control: ODB's BEGIN holds one transaction
        const std::string first = TransactionId();
        EXPECT_EQ(TransactionId(), first);
        t.commit();
    }
}

TEST_F(PostgresReadTransactionTest, AFailedStatementLeavesTheConnectionUsable) {
    odb::connection_ptr connection(db_->connection());
    {
        odb::transaction t(BeginRead(connection));
        EXPECT_ANY_THROW(RunPgStatements("SELECT * FROM no_such_table"));
        // Outside BEGIN there is no aborted transaction to roll back: the next statement runs.
        EXPECT_FALSE(TransactionId().empty());
    }  // rolled back by the destructor: nothing is sent
    odb::transaction t(connection->begin());
    EXPECT_FALSE(TransactionId().empty());
    t.commit();
}

}  // namespace
}  // namespace lastro::storage
