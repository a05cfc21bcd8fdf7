// The ledger's PostgreSQL statements (LedgerBatch's ...OnPostgres members: a batch's entries
// read by one statement and written by another) on a throwaway cluster: an owed refund takes
// back a charge recorded by a commit whose reply was lost, once.
#include "core/billing/credit_ledger.hpp"
#include "core/storage/billing_model.hxx"
#include "core/storage/database.hpp"
#include "core/storage/migration.hpp"

#include <lastro/sdk/testing/postgres_cluster.hpp>

#include <gtest/gtest.h>
#include <odb/transaction.hxx>

namespace lastro::billing {
namespace {

constexpr std::time_t kNow = 1'795'000'040;  // 2026-11-18T11:07:20Z

class PostgresLedgerTest : public ::testing::Test {
protected:
    void SetUp() override {
        cluster_ = sdk::testing::PostgresCluster::Start();
        config::DatabaseConfig config;
        config.backend = config::Backend::kPgsql;
        config.pgsql_conninfo = cluster_->Conninfo("postgres");
        config.pool_size = 2;
        db_ = storage::OpenDatabase(config);
        storage::MigrateSchema(*db_, "core");
        storage::MigrateSchema(*db_, "billing");
    }

    template <typename Work>
    auto InBatch(Work work) {
        odb::transaction t(storage::BeginWrite(*db_));
        LedgerBatch batch(*db_, "pg-a");
        auto result = work(batch);
        batch.Flush();
        t.commit();
        return result;
    }

    SettleResult SettleOne(const SettlementRequest& request) {
        return InBatch([&](LedgerBatch& b) {
            b.Lock({}, {request});
            return b.SettleAll({request}).at(0);
        });
    }

    std::string StateOf(const std::string& request_id) {
        for (const storage::LedgerEntry& e : EntriesOf(*db_, MonthOf(kNow), 1)) {
            if (e.request_id == request_id) {
                return e.state;
            }
        }
        return "absent";
    }

    std::unique_ptr<sdk::testing::PostgresCluster> cluster_;
    std::unique_ptr<odb::database> db_;
};

TEST_F(PostgresLedgerTest, AnOwedRefundTakesBackAChargeItsLostCommitRecorded) {
    const AdmissionRequest call{"lost", 1, "funds.search", 2, 5, 100, kNow};
    const Admission a = InBatch([&](LedgerBatch& b) {
        b.Lock({call}, {});
        return b.Admit(call);
    });
    ASSERT_TRUE(a.reserved);
    EXPECT_EQ(SettleOne({*a.reservation, 5, 200, kNow}).charged, 2);
    ASSERT_EQ(UsageOf(*db_, 1, MonthOf(kNow)).charged, 2);

    EXPECT_EQ(SettleOne({*a.reservation, 5, 503, kNow}).charged, 0);
    EXPECT_EQ(StateOf("lost"), "charged") << "only an owed refund reverses";

    SettlementRequest owed{*a.reservation, 5, 503, kNow};
    owed.reverse_charge = true;
    const SettleResult reversed = SettleOne(owed);
    EXPECT_EQ(reversed.charged, 0);
    EXPECT_EQ(reversed.credits.remaining, 5);
    EXPECT_EQ(StateOf("lost"), "refunded");
    MonthUsage usage = UsageOf(*db_, 1, MonthOf(kNow));
    EXPECT_EQ(usage.charged, 0);
    EXPECT_EQ(usage.ledger_charged, 0);
    EXPECT_EQ(usage.reserved, 0);

    SettleOne(owed);  // given twice: reversed once
    EXPECT_EQ(UsageOf(*db_, 1, MonthOf(kNow)).charged, 0);
}

}  // namespace
}  // namespace lastro::billing
