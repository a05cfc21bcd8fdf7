// The move of billing's rows out of core (core 1 to 3 held them; core 4 drops them): on SQLite
// into billing's own file, on PostgreSQL into schema "billing" of the same database. A database
// of core 3 is made from today's core 4 by putting back the three tables as core 3 had them.
#include "core/storage/billing_migration.hpp"

#include "core/storage/database.hpp"

#include <lastro/sdk/testing/postgres_cluster.hpp>

#include <gtest/gtest.h>
#include <odb/connection.hxx>
#include <odb/transaction.hxx>

#include <filesystem>
#include <random>

namespace lastro::storage {
namespace {

// The three tables as core 3 created them, with two keys' rows, and core's version put back.
void MakeCore3(odb::database& data, bool with_instance) {
    MigrateSchema(data, "core");
    odb::transaction t(data.begin());
    data.execute(
        "CREATE TABLE core_credit_usage (key_month TEXT NOT NULL PRIMARY KEY, key_id BIGINT NOT NULL, "
        "month TEXT NOT NULL, reserved BIGINT NOT NULL, charged BIGINT NOT NULL)");
    data.execute(
        std::string("CREATE TABLE core_ledger (request_id TEXT NOT NULL PRIMARY KEY, key_id BIGINT NOT "
                    "NULL, operation TEXT NOT NULL, price BIGINT NOT NULL, month TEXT NOT NULL, state "
                    "TEXT NOT NULL, status BIGINT NULL, reserved_at TEXT NOT NULL, settled_at TEXT NULL") +
        (with_instance ? ", instance TEXT NULL)" : ")"));
    data.execute(
        "CREATE TABLE core_rate_window (key_minute TEXT NOT NULL PRIMARY KEY, key_id BIGINT NOT NULL, "
        "minute BIGINT NOT NULL, calls BIGINT NOT NULL)");
    data.execute(
        "INSERT INTO core_credit_usage VALUES ('1:2026-10', 1, '2026-10', 0, 7), "
        "('2:2026-11', 2, '2026-11', 2, 3)");
    data.execute(std::string("INSERT INTO core_ledger VALUES ") +
                 "('r1', 1, 'funds.search', 7, '2026-10', 'charged', 200, '2026-10-01T00:00:00Z', "
                 "'2026-10-01T00:00:01Z'" +
                 (with_instance ? ", 'host:8080'), " : "), ") +
                 "('r2', 2, 'funds.search', 3, '2026-11', 'charged', 200, '2026-11-02T00:00:00Z', "
                 "'2026-11-02T00:00:01Z'" +
                 (with_instance ? ", NULL), " : "), ") +
                 "('r3', 2, 'funds.screening', 2, '2026-11', 'reserved', NULL, '2026-11-02T00:00:02Z', NULL" +
                 (with_instance ? ", 'host:8080')" : ")"));
    data.execute("INSERT INTO core_rate_window VALUES ('2:1793577600', 2, 1793577600, 4)");
    data.execute("UPDATE schema_version SET version = 3 WHERE name = 'core'");
    t.commit();
}

long long Count(odb::database& db, const std::string& table) {
    odb::connection_ptr c(db.connection());
    odb::transaction t(c->begin());
    // ODB runs statements, not queries, through execute(): count by a statement that fails on
    // a missing table and otherwise reports the rows it touched.
    const unsigned long long n = c->execute("UPDATE " + table + " SET key_id = key_id");
    t.rollback();
    return static_cast<long long>(n);
}

bool HasTable(odb::database& db, const std::string& table) {
    try {
        Count(db, table);
        return true;
    } catch (const odb::exception&) {
        return false;
    }
}

// Billing's rows are those of core 3, core 4 dropped its copies, and a second run does nothing.
void ExpectMoved(odb::database& billing, odb::database& data, const std::filesystem::path& data_file) {
    EXPECT_EQ(Count(billing, "billing_credit_usage"), 2);
    EXPECT_EQ(Count(billing, "billing_ledger"), 3);
    const MigrationResult core = MigrateSchema(data, "core");
    EXPECT_EQ(core.from, 3u);
    EXPECT_EQ(core.to, kCoreWithoutBilling);
    EXPECT_FALSE(HasTable(data, "core_ledger"));
    EXPECT_FALSE(HasTable(data, "core_credit_usage"));
    EXPECT_FALSE(HasTable(data, "core_rate_window"));
    const MigrationResult again = MigrateBilling(billing, data, data_file);
    EXPECT_EQ(again.from, 2u);
    EXPECT_EQ(Count(billing, "billing_ledger"), 3);
    EXPECT_NO_THROW(RequireCurrentSchema(billing, "billing"));
    EXPECT_NO_THROW(RequireCurrentSchema(data, "core"));
}

// Billing 1 as it was before the leases (billing 2): today's schema less billing_credit_lease and
// billing_credit_usage.leased, with a usage row, and billing's version put back.
void MakeBilling1(odb::database& billing, odb::database& data, const std::filesystem::path& data_file) {
    MigrateBilling(billing, data, data_file);
    odb::transaction t(billing.begin());
    billing.execute("DROP TABLE billing_credit_lease");
    billing.execute("ALTER TABLE billing_credit_usage DROP COLUMN leased");
    billing.execute("INSERT INTO billing_credit_usage VALUES ('1:2026-10', 1, '2026-10', 2, 7)");
    billing.execute("UPDATE schema_version SET version = 1 WHERE name = 'billing'");
    t.commit();
}

// `lastro db migrate` (MigrateBilling) takes billing 1 to 2 in place: the lease table is added,
// existing usage rows lease nothing, and what they count is kept.
void ExpectBilling2(odb::database& billing, odb::database& data, const std::filesystem::path& data_file) {
    EXPECT_THROW(RequireCurrentSchema(billing, "billing"), StorageError);
    const MigrationResult result = MigrateBilling(billing, data, data_file);
    EXPECT_EQ(result.from, 1u);
    EXPECT_EQ(result.to, 2u);
    EXPECT_NO_THROW(RequireCurrentSchema(billing, "billing"));
    odb::transaction t(billing.begin());
    EXPECT_EQ(billing.execute("UPDATE billing_credit_usage SET key_id = key_id WHERE leased = 0 AND "
                              "reserved = 2 AND charged = 7"),
              1u);
    billing.execute(
        "INSERT INTO billing_credit_lease (lease_id, key_month, instance, credits, charged, expires_at, "
        "since) "
        "VALUES ('1:2026-10:host:8080', '1:2026-10', 'host:8080', 5, 0, 0, 1)");
    t.commit();
}

class SqliteBillingMigrationTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("lastro-billing-migration-" + std::to_string(std::random_device{}()));
        config_.sqlite_path = dir_ / "lastro.db";
        config_.sqlite_billing_path = dir_ / "lastro-billing.db";
        data_ = OpenDatabase(config_);
        billing_ = OpenBillingDatabase(config_);
    }
    void TearDown() override {
        billing_.reset();
        data_.reset();
        std::filesystem::remove_all(dir_);
    }
    std::filesystem::path dir_;
    config::DatabaseConfig config_;
    std::unique_ptr<odb::database> data_;
    std::unique_ptr<odb::database> billing_;
};

TEST_F(SqliteBillingMigrationTest, MovesCore3RowsIntoBillingsOwnFile) {
    MakeCore3(*data_, true);
    const MigrationResult result = MigrateBilling(*billing_, *data_, config_.sqlite_path);
    EXPECT_EQ(result.from, 0u);
    EXPECT_EQ(result.to, 2u);
    EXPECT_EQ(Count(*billing_, "billing_rate_window"), 1);
    ExpectMoved(*billing_, *data_, config_.sqlite_path);
}

TEST_F(SqliteBillingMigrationTest, ANewDatabaseGetsBothSchemasEmpty) {
    EXPECT_EQ(MigrateBilling(*billing_, *data_, config_.sqlite_path).from, 0u);
    EXPECT_EQ(MigrateSchema(*data_, "core").from, 0u);
    EXPECT_EQ(Count(*billing_, "billing_ledger"), 0);
    EXPECT_FALSE(HasTable(*data_, "core_ledger"));
    EXPECT_FALSE(HasTable(*data_, "billing_ledger"));
}

TEST_F(SqliteBillingMigrationTest, Billing1MigratesToLeases) {
    MakeBilling1(*billing_, *data_, config_.sqlite_path);
    ExpectBilling2(*billing_, *data_, config_.sqlite_path);
}

// A copy that fails leaves no billing schema and core's rows where they were: the next run
// copies again.
TEST_F(SqliteBillingMigrationTest, AFailedCopyLeavesNothingHalfDone) {
    MakeCore3(*data_, true);
    {
        odb::transaction t(data_->begin());
        data_->execute("ALTER TABLE core_ledger RENAME TO core_ledger_elsewhere");
        t.commit();
    }
    EXPECT_THROW(MigrateBilling(*billing_, *data_, config_.sqlite_path), odb::exception);
    EXPECT_EQ(StoredSchemaVersion(*billing_, "billing"), 0u);
    EXPECT_FALSE(HasTable(*billing_, "billing_credit_usage"));
    EXPECT_EQ(Count(*data_, "core_credit_usage"), 2);
    {
        odb::transaction t(data_->begin());
        data_->execute("ALTER TABLE core_ledger_elsewhere RENAME TO core_ledger");
        t.commit();
    }
    EXPECT_EQ(MigrateBilling(*billing_, *data_, config_.sqlite_path).from, 0u);
    ExpectMoved(*billing_, *data_, config_.sqlite_path);
}

// Core 1's ledger had no instance column and there were no per-minute windows.
TEST_F(SqliteBillingMigrationTest, CopiesCore1RowsWithoutAnInstance) {
    MakeCore3(*data_, false);
    {
        odb::transaction t(data_->begin());
        data_->execute("UPDATE schema_version SET version = 1 WHERE name = 'core'");
        data_->execute("DROP TABLE core_rate_window");
        t.commit();
    }
    EXPECT_EQ(MigrateBilling(*billing_, *data_, config_.sqlite_path).from, 0u);
    EXPECT_EQ(Count(*billing_, "billing_credit_usage"), 2);
    EXPECT_EQ(Count(*billing_, "billing_ledger"), 3);
    EXPECT_EQ(Count(*billing_, "billing_rate_window"), 0);
}

TEST(PostgresBillingMigrationTest, MovesCore3RowsIntoSchemaBillingOfTheSameDatabase) {
    auto cluster = sdk::testing::PostgresCluster::Start();
    config::DatabaseConfig config;
    config.backend = config::Backend::kPgsql;
    config.pgsql_conninfo = cluster->Conninfo("postgres");
    config.pool_size = 2;
    auto db = OpenDatabase(config);
    EXPECT_EQ(OpenBillingDatabase(config), nullptr);
    MakeCore3(*db, true);
    EXPECT_EQ(MigrateBilling(*db, *db, {}).from, 0u);
    EXPECT_EQ(Count(*db, "billing_rate_window"), 1);
    ExpectMoved(*db, *db, {});
}

TEST(PostgresBillingMigrationTest, Billing1MigratesToLeases) {
    auto cluster = sdk::testing::PostgresCluster::Start();
    config::DatabaseConfig config;
    config.backend = config::Backend::kPgsql;
    config.pgsql_conninfo = cluster->Conninfo("postgres");
    config.pool_size = 2;
    auto db = OpenDatabase(config);
    MakeBilling1(*db, *db, {});
    ExpectBilling2(*db, *db, {});
}

}  // namespace
}  // namespace lastro::storage
