#include "core/billing/settlement.hpp"
#include "core/billing/credit_ledger.hpp"
#include "core/billing/rate_limiter.hpp"
#include "core/storage/database.hpp"
#include "core/storage/migration.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

namespace lastro::billing {
namespace {

TEST(SettlementTest, FollowsTheContractTable) {
    for (int charged : {200, 404, 409, 410}) {
        EXPECT_EQ(SettlementFor(charged), Settlement::kCharge) << charged;
    }
    for (int refunded : {400, 403, 422, 500, 502, 503}) {
        EXPECT_EQ(SettlementFor(refunded), Settlement::kRefund) << refunded;
    }
}

TEST(RateLimiterTest, CountsEveryCallInTheMinute) {
    RateLimiter limiter;
    const std::time_t t = 1'800'000'000 - 1'800'000'000 % 60;
    EXPECT_TRUE(limiter.Admit(1, 2, t).allowed);
    RateDecision second = limiter.Admit(1, 2, t + 10);
    EXPECT_TRUE(second.allowed);
    EXPECT_EQ(second.remaining, 0);
    RateDecision third = limiter.Admit(1, 2, t + 59);
    EXPECT_FALSE(third.allowed);
    EXPECT_EQ(third.reset_at, t + 60);
    EXPECT_TRUE(limiter.Admit(2, 2, t).allowed);       // per key
    EXPECT_TRUE(limiter.Admit(1, 2, t + 60).allowed);  // next window
}

TEST(MonthTest, CalendarMonthsInUtc) {
    EXPECT_EQ(MonthOf(1'798'761'599), "2026-12");             // 2026-12-31T23:59:59Z
    EXPECT_EQ(NextMonthStart(1'798'761'599), 1'798'761'600);  // 2027-01-01T00:00:00Z
}

class CreditLedgerTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("lastro-ledger-" + std::to_string(std::random_device{}()));
        config::DatabaseConfig config;
        config.sqlite_path = dir_ / "test.db";
        db_ = storage::OpenDatabase(config);
        storage::MigrateSchema(*db_, "core");
    }
    void TearDown() override {
        db_.reset();
        std::filesystem::remove_all(dir_);
    }
    std::filesystem::path dir_;
    std::unique_ptr<odb::database> db_;
};

TEST_F(CreditLedgerTest, ReservesSettlesAndRefusesBeyondTheAllowance) {
    CreditLedger ledger(*db_);
    const std::time_t now = 1'795'000'000;
    ReserveResult a = ledger.Reserve("r1", 1, 5, "funds.search", 2, now);
    ASSERT_TRUE(a.reserved);
    EXPECT_EQ(a.state.remaining, 3);
    EXPECT_EQ(ledger.Settle(*a.reservation, 5, 200, now).state.remaining, 3);
    ReserveResult b = ledger.Reserve("r2", 1, 5, "funds.search", 2, now);
    SettleResult refunded = ledger.Settle(*b.reservation, 5, 422, now);
    EXPECT_EQ(refunded.charged, 0);
    EXPECT_EQ(refunded.state.remaining, 3);
    ReserveResult c = ledger.Reserve("r3", 1, 5, "funds.search", 2, now);
    EXPECT_EQ(ledger.Settle(*c.reservation, 5, 404, now).charged, 2);
    ReserveResult d = ledger.Reserve("r4", 1, 5, "funds.search", 2, now);
    EXPECT_FALSE(d.reserved);
    EXPECT_EQ(d.state.remaining, 1);
    EXPECT_EQ(ledger.State(1, 5, now).remaining, 1);
    EXPECT_EQ(ledger.State(2, 5, now).remaining, 5);
}

}  // namespace
}  // namespace lastro::billing
