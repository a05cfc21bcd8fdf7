// The ledger's rules on a real SQLite database: settlement by status, calendar months, the
// per-minute window, reservations against the allowance, the start-up recovery rule, and the
// group committer under concurrent callers and a locked database.
#include "core/billing/credit_ledger.hpp"
#include "billing_model-odb.hxx"
#include "core/billing/account_book.hpp"
#include "core/billing/ledger_writer.hpp"
#include "core/billing/settlement.hpp"
#include "core/storage/billing_model.hxx"
#include "core/storage/database.hpp"
#include "core/storage/migration.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <odb/transaction.hxx>

#include <atomic>
#include <filesystem>
#include <random>
#include <thread>

namespace lastro::billing {
namespace {

constexpr std::time_t kNow = 1'795'000'040;  // 2026-11-18T11:07:20Z, 20 s into a minute

TEST(SettlementTest, FollowsTheContractTable) {
    for (int charged : {200, 404, 409, 410}) {
        EXPECT_EQ(SettlementFor(charged), Settlement::kCharge) << charged;
    }
    for (int refunded : {400, 403, 422, 500, 502, 503}) {
        EXPECT_EQ(SettlementFor(refunded), Settlement::kRefund) << refunded;
    }
}

TEST(MonthTest, CalendarMonthsInUtc) {
    EXPECT_EQ(MonthOf(1'798'761'599), "2026-12");             // 2026-12-31T23:59:59Z
    EXPECT_EQ(NextMonthStart(1'798'761'599), 1'798'761'600);  // 2027-01-01T00:00:00Z
}

class LedgerTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("lastro-ledger-" + std::to_string(std::random_device{}()));
        config_.sqlite_path = dir_ / "test.db";
        config_.sqlite_busy_timeout_ms = 50;
        config_.pool_size = 12;
        db_ = storage::OpenDatabase(config_);
        storage::MigrateSchema(*db_, "core");
        storage::MigrateSchema(*db_, "billing");
    }
    void TearDown() override {
        db_.reset();
        std::filesystem::remove_all(dir_);
    }

    // Runs `work` on a LedgerBatch in one committed transaction.
    template <typename Work>
    auto InBatch(Work work, const std::string& instance = "test-a") {
        odb::transaction t(storage::BeginWrite(*db_));
        LedgerBatch batch(*db_, instance);
        auto result = work(batch);
        batch.Flush();
        t.commit();
        return result;
    }

    AdmissionRequest Call(const std::string& id, std::int64_t key, std::int64_t price,
                          std::int64_t allowance = 5, std::int64_t per_minute = 100, std::time_t now = kNow) {
        return AdmissionRequest{id, key, "funds.search", price, allowance, per_minute, now};
    }

    storage::LedgerEntry Entry(const std::string& id) {
        odb::transaction t(db_->begin());
        std::unique_ptr<storage::LedgerEntry> e(db_->load<storage::LedgerEntry>(id));
        t.commit();
        return *e;
    }

    std::filesystem::path dir_;
    config::DatabaseConfig config_;
    std::unique_ptr<odb::database> db_;
};

TEST_F(LedgerTest, ReservesSettlesAndRefusesBeyondTheAllowance) {
    Admission a = InBatch([&](LedgerBatch& b) { return b.Admit(Call("r1", 1, 2)); });
    ASSERT_TRUE(a.rate.allowed);
    ASSERT_TRUE(a.reserved);
    EXPECT_EQ(a.credits.remaining, 3);
    EXPECT_EQ(Entry("r1").state, "reserved");
    EXPECT_EQ(Entry("r1").instance, std::optional<std::string>("test-a"));

    SettleResult charged = InBatch([&](LedgerBatch& b) { return b.Settle({*a.reservation, 5, 200, kNow}); });
    EXPECT_EQ(charged.charged, 2);
    EXPECT_EQ(charged.credits.remaining, 3);
    EXPECT_EQ(Entry("r1").state, "charged");
    EXPECT_EQ(Entry("r1").status, std::optional<std::int64_t>(200));

    // In one batch: reserve, refund (422), reserve, charge (404), then one that no longer fits.
    InBatch([&](LedgerBatch& b) {
        Admission r2 = b.Admit(Call("r2", 1, 2));
        EXPECT_EQ(b.Settle({*r2.reservation, 5, 422, kNow}).charged, 0);
        Admission r3 = b.Admit(Call("r3", 1, 2));
        EXPECT_EQ(b.Settle({*r3.reservation, 5, 404, kNow}).charged, 2);
        Admission r4 = b.Admit(Call("r4", 1, 2));
        EXPECT_TRUE(r4.rate.allowed);
        EXPECT_FALSE(r4.reserved);
        EXPECT_EQ(r4.credits.remaining, 1);
        EXPECT_FALSE(r4.reservation);
        return 0;
    });
    MonthUsage usage = UsageOf(*db_, 1, MonthOf(kNow));
    EXPECT_EQ(usage.charged, 4);
    EXPECT_EQ(usage.reserved, 0);
    EXPECT_EQ(usage.ledger_charged, 4);
    EXPECT_EQ(usage.calls, 3);  // r4 was never reserved
    EXPECT_EQ(UsageOf(*db_, 2, MonthOf(kNow)).charged, 0);
}

// A refund owed for a call answered 503 takes back a charge its batch recorded after all (a
// commit whose reply was lost); a plain settlement never touches a charged entry.
TEST_F(LedgerTest, AnOwedRefundTakesBackAChargeItsLostCommitRecorded) {
    Admission a = InBatch([&](LedgerBatch& b) { return b.Admit(Call("lost", 1, 2)); });
    InBatch([&](LedgerBatch& b) { return b.Settle({*a.reservation, 5, 200, kNow}); });
    ASSERT_EQ(UsageOf(*db_, 1, MonthOf(kNow)).charged, 2);

    SettleResult again = InBatch([&](LedgerBatch& b) { return b.Settle({*a.reservation, 5, 503, kNow}); });
    EXPECT_EQ(again.charged, 0);
    EXPECT_EQ(Entry("lost").state, "charged") << "only an owed refund reverses";

    SettlementRequest owed{*a.reservation, 5, 503, kNow};
    owed.reverse_charge = true;
    SettleResult reversed = InBatch([&](LedgerBatch& b) { return b.Settle(owed); });
    EXPECT_EQ(reversed.charged, 0);
    EXPECT_EQ(reversed.credits.remaining, 5);
    EXPECT_EQ(Entry("lost").state, "refunded");
    EXPECT_EQ(Entry("lost").status, std::optional<std::int64_t>(503));
    MonthUsage usage = UsageOf(*db_, 1, MonthOf(kNow));
    EXPECT_EQ(usage.charged, 0);
    EXPECT_EQ(usage.ledger_charged, 0);
    EXPECT_EQ(usage.reserved, 0);

    InBatch([&](LedgerBatch& b) { return b.Settle(owed); });  // given twice: reversed once
    EXPECT_EQ(UsageOf(*db_, 1, MonthOf(kNow)).charged, 0);
}

TEST_F(LedgerTest, CountsCallsPerKeyAndMinuteWithoutRefunds) {
    InBatch([&](LedgerBatch& b) {
        EXPECT_EQ(b.Admit(Call("a1", 1, 0, 5, 2)).rate.remaining, 1);  // price 0 is still a call
        Admission second = b.Admit(Call("a2", 1, 1, 5, 2, kNow + 30));
        EXPECT_EQ(b.Settle({*second.reservation, 5, 422, kNow + 30}).charged, 0);
        EXPECT_EQ(second.rate.remaining, 0);
        return 0;
    });
    // Another batch, as another instance would: the window is in the database, not in memory.
    Admission third =
        InBatch([&](LedgerBatch& b) { return b.Admit(Call("a3", 1, 1, 5, 2, kNow + 39)); }, "test-b");
    EXPECT_FALSE(third.rate.allowed);
    EXPECT_EQ(third.rate.reset_at, kNow - kNow % 60 + 60);
    EXPECT_FALSE(third.reservation);
    EXPECT_EQ(third.credits.remaining, 5);
    EXPECT_TRUE(InBatch([&](LedgerBatch& b) { return b.Admit(Call("k2", 2, 1, 5, 2)); }).rate.allowed);
    EXPECT_TRUE(
        InBatch([&](LedgerBatch& b) { return b.Admit(Call("a4", 1, 1, 5, 2, kNow + 40)); }).rate.allowed);
}

TEST_F(LedgerTest, StartUpRefundsOwnAndStaleReservationsOnly) {
    InBatch([&](LedgerBatch& b) { return b.Admit(Call("own", 1, 2, 100)); }, "test-a");
    InBatch([&](LedgerBatch& b) { return b.Admit(Call("other-new", 1, 2, 100, 100, kNow + 500)); }, "test-b");
    InBatch([&](LedgerBatch& b) { return b.Admit(Call("other-old", 1, 2, 100)); }, "test-b");
    EXPECT_EQ(UsageOf(*db_, 1, MonthOf(kNow)).reserved, 6);

    EXPECT_EQ(RefundOpenReservations(*db_, std::string("test-a"), kNow + 100, kNow + 600), 2u);
    EXPECT_EQ(Entry("own").state, "refunded");
    EXPECT_EQ(Entry("other-old").state, "refunded");
    EXPECT_EQ(Entry("other-new").state, "reserved");
    MonthUsage usage = UsageOf(*db_, 1, MonthOf(kNow));
    EXPECT_EQ(usage.reserved, 2);
    EXPECT_EQ(usage.ledger_reserved, 2);

    // A late settlement of a refunded reservation charges nothing.
    SettleResult late = InBatch([&](LedgerBatch& b) {
        return b.Settle({{"own", 1, 2, MonthOf(kNow), "funds.search", kNow}, 100, 200, kNow});
    });
    EXPECT_EQ(late.charged, 0);
    EXPECT_EQ(Entry("own").state, "refunded");
    EXPECT_EQ(UsageOf(*db_, 1, MonthOf(kNow)).charged, 0);
}

// Both ways of deciding admission: by the database (PostgreSQL's way) and in the process.
class LedgerWriterTest : public LedgerTest, public ::testing::WithParamInterface<bool> {
protected:
    // In the process, reservations are written at once (no delay): every call's reservation
    // then races its settlement, written in the same batch or settled in a later one.
    LedgerWriterOptions Options(const std::string& instance = "test-a") const {
        return {instance, 512, 600, GetParam(), std::chrono::milliseconds(0)};
    }
};
INSTANTIATE_TEST_SUITE_P(Deciders, LedgerWriterTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "InProcess" : "ByDatabase"; });

TEST_P(LedgerWriterTest, NeverReservesBeyondTheAllowanceUnderConcurrency) {
    LedgerWriter writer(*db_, Options());
    std::atomic<int> reserved{0}, refused{0}, charged{0};
    std::vector<std::thread> callers;
    const std::time_t now = std::time(nullptr);
    for (int t = 0; t < 16; ++t) {
        callers.emplace_back([&, t] {
            for (int i = 0; i < 20; ++i) {
                const std::string id = "c" + std::to_string(t) + "-" + std::to_string(i);
                Admission a = writer.Admit({id, 7, "funds.search", 1, 100, 1000000, now});
                if (!a.reserved) {
                    ++refused;
                    continue;
                }
                ++reserved;
                charged += static_cast<int>(
                    writer.Settle({*a.reservation, 100, i % 3 == 0 ? 422 : 200, now}).charged);
            }
        });
    }
    for (auto& c : callers) {
        c.join();
    }
    MonthUsage usage = UsageOf(*db_, 7, MonthOf(now));
    EXPECT_EQ(reserved + refused, 320);
    EXPECT_EQ(usage.reserved, 0);
    EXPECT_EQ(usage.charged, charged.load());
    EXPECT_EQ(usage.ledger_charged, charged.load());
    EXPECT_EQ(usage.calls, reserved.load());
    EXPECT_LE(usage.charged, 100);
    EXPECT_GT(refused.load(), 0);  // 320 calls, a third refunded: more than 100 reservations were asked
}

// A version read on the writer's connection, as the answering part's newest release is.
class TestVersion : public VersionSource {
public:
    std::atomic<std::int64_t> newest{5};
    std::atomic<bool> unreadable{false};
    std::int64_t Current(odb::connection&) override {
        if (unreadable) {
            throw std::runtime_error("the database is away");
        }
        return newest.load();
    }
};

// A settlement that depends on a version (an answer from the response cache, under a data
// generation) is settled only while the version reads the same; otherwise it is answered
// `outdated`, nothing is written, and the call's next settlement (of its answer made anew)
// charges it once.
TEST_P(LedgerWriterTest, AnAnswerOfAReplacedGenerationIsNotSettled) {
    TestVersion version;
    std::atomic<std::int64_t>& newest = version.newest;
    std::atomic<bool>& unreadable = version.unreadable;
    LedgerWriter writer(*db_, Options());
    const std::time_t now = std::time(nullptr);
    auto settle = [&](const Reservation& r, std::optional<std::int64_t> generation) {
        SettlementRequest request{r, 100, 200, now};
        if (generation) {
            request.only_if = Precondition{&version, *generation};
        }
        return writer.Settle(request);
    };

    Admission current = writer.Admit({"current", 4, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(current.reservation);
    SettleResult settled = settle(*current.reservation, 5);
    EXPECT_FALSE(settled.outdated);
    EXPECT_EQ(settled.charged, 2);
    EXPECT_EQ(Entry("current").state, "charged");

    newest = 6;  // an ingest commits while a call answered from generation 5 is in flight
    Admission replaced = writer.Admit({"replaced", 4, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(replaced.reservation);
    SettleResult outdated = settle(*replaced.reservation, 5);
    EXPECT_TRUE(outdated.outdated);
    EXPECT_EQ(outdated.charged, 0);
    EXPECT_EQ(UsageOf(*db_, 4, MonthOf(now)).charged, 2) << "the outdated settlement charged";
    SettleResult anew = settle(*replaced.reservation, std::nullopt);
    EXPECT_FALSE(anew.outdated);
    EXPECT_EQ(anew.charged, 2);
    EXPECT_EQ(Entry("replaced").state, "charged");

    // When the newest generation cannot be read, no cached answer is taken as current, and
    // none is answered anew either (a read that would wait for the same database): the call
    // is 503 and charges nothing.
    unreadable = true;
    Admission unknown = writer.Admit({"unknown", 4, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(unknown.reservation);
    EXPECT_THROW(settle(*unknown.reservation, 6), BillingUnavailable);
    unreadable = false;
    Admission after = writer.Admit({"after", 4, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(after.reservation);
    EXPECT_EQ(settle(*after.reservation, 6).charged, 2);  // its batch also refunds "unknown"

    MonthUsage usage = UsageOf(*db_, 4, MonthOf(now));
    EXPECT_EQ(usage.charged, 6);
    EXPECT_EQ(usage.ledger_charged, 6);
    EXPECT_EQ(usage.reserved, 0);
    // The 503's reservation, if it was written (at once where the database decides; here the
    // process writes it with no delay, or not yet), is refunded.
    for (const auto& e : EntriesOf(*db_, MonthOf(now), 4)) {
        EXPECT_EQ(e.state, e.request_id == "unknown" ? "refunded" : "charged") << e.request_id;
    }
    EXPECT_GE(usage.calls, 3);
    EXPECT_LE(usage.calls, 4);
}

// A charged answer that never reached its client whole (issue 51, item 3): its charge is taken
// back, in the ledger (charged -> refunded, status kept) and in what the next call may spend.
TEST_P(LedgerWriterTest, AChargeTakenBackIsRefundedAndSpendableAgain) {
    LedgerWriter writer(*db_, Options());
    const std::time_t now = std::time(nullptr);
    Admission a = writer.Admit({"lost", 9, "funds.search", 3, 4, 1000, now});
    ASSERT_TRUE(a.reservation);
    const SettlementRequest charged{*a.reservation, 4, 200, now};
    ASSERT_EQ(writer.Settle(charged).charged, 3);
    EXPECT_FALSE(writer.Admit({"refused", 9, "funds.search", 3, 4, 1000, now}).reserved)
        << "1 credit left of 4";

    writer.TakeBack(charged);
    // The next batch pays it back: the credits can be spent again.
    std::optional<Admission> again;
    for (int i = 0; i < 100 && !(again && again->reserved); ++i) {
        again = writer.Admit({"again-" + std::to_string(i), 9, "funds.search", 3, 4, 1000, now});
        if (!again->reserved) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    ASSERT_TRUE(again && again->reserved) << "the credits taken back are spendable again";
    writer.Settle({*again->reservation, 4, 200, now});
    const storage::LedgerEntry lost = Entry("lost");
    EXPECT_EQ(lost.state, "refunded");
    EXPECT_EQ(lost.status, 200) << "the answer's status is kept";
    MonthUsage usage = UsageOf(*db_, 9, MonthOf(now));
    EXPECT_EQ(usage.charged, 3);
    EXPECT_EQ(usage.ledger_charged, 3);
    EXPECT_EQ(usage.reserved, 0);
}

TEST_F(LedgerTest, WriterAnswersUnavailableWhileLockedAndRefundsLater) {
    LedgerWriter writer(*db_, {"test-a", 512, 600, false});
    const std::time_t now = std::time(nullptr);
    Admission a = writer.Admit({"before", 3, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(a.reservation);

    // Another connection holds the write lock beyond the busy timeout: nothing can be written.
    sqlite3* other = nullptr;
    ASSERT_EQ(sqlite3_open(config_.sqlite_path.c_str(), &other), SQLITE_OK);
    sqlite3_busy_timeout(other, 5000);  // the admission's commit may still be finishing
    ASSERT_EQ(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
    EXPECT_THROW(writer.Settle({*a.reservation, 100, 200, now}), BillingUnavailable);
    EXPECT_THROW(writer.Admit({"during", 3, "funds.search", 2, 100, 1000, now}), BillingUnavailable);
    EXPECT_FALSE(writer.DatabaseAvailable());
    sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(other);

    // Once the database is back, the settlement that could not be written is paid back (its
    // call was answered 503), by the next batch or by the writer's once-a-second probe.
    Admission after = writer.Admit({"after", 3, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(after.reservation);
    // An admission returns before its commit; its settlement returns after its own.
    EXPECT_EQ(writer.Settle({*after.reservation, 100, 200, now}).charged, 2);
    EXPECT_TRUE(writer.DatabaseAvailable());
    EXPECT_EQ(Entry("before").state, "refunded");
    EXPECT_EQ(Entry("before").status, std::optional<std::int64_t>(503));
    MonthUsage usage = UsageOf(*db_, 3, MonthOf(now));
    EXPECT_EQ(usage.charged, 2);  // "after" only; "during" never reached the database
    EXPECT_EQ(usage.reserved, 0);
    EXPECT_EQ(usage.calls, 2);
}

// In the process, admission never waits for the database: a call admitted while the database
// is locked runs, and its settlement answers 503. Whatever was written of such calls is
// refunded once the database is back; nothing is charged for them.
TEST_F(LedgerTest, InProcessWriterChargesNothingWhileLocked) {
    LedgerWriter writer(*db_, {"test-a", 512, 600, true});
    const std::time_t now = std::time(nullptr);
    Admission before = writer.Admit({"before", 3, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(before.reservation);

    sqlite3* other = nullptr;
    ASSERT_EQ(sqlite3_open(config_.sqlite_path.c_str(), &other), SQLITE_OK);
    sqlite3_busy_timeout(other, 5000);
    ASSERT_EQ(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
    Admission during = writer.Admit({"during", 3, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(during.reservation) << "decided in memory";
    EXPECT_EQ(during.credits.remaining, 96);
    EXPECT_THROW(writer.Settle({*before.reservation, 100, 200, now}), BillingUnavailable);
    EXPECT_THROW(writer.Settle({*during.reservation, 100, 200, now}), BillingUnavailable);
    EXPECT_FALSE(writer.DatabaseAvailable());
    sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(other);

    Admission after = writer.Admit({"after", 3, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(after.reservation);
    EXPECT_EQ(after.credits.remaining, 98) << "the failed calls' reservations were released";
    SettleResult settled = writer.Settle({*after.reservation, 100, 200, now});
    EXPECT_EQ(settled.charged, 2);
    EXPECT_EQ(settled.credits.remaining, 98);
    EXPECT_TRUE(writer.DatabaseAvailable());
    MonthUsage usage = UsageOf(*db_, 3, MonthOf(now));
    EXPECT_EQ(usage.charged, 2);
    EXPECT_EQ(usage.ledger_charged, 2);
    EXPECT_EQ(usage.reserved, 0);
    EXPECT_EQ(usage.ledger_reserved, 0);
    EXPECT_EQ(Entry("after").state, "charged");
}

// The process writes its reservations behind the calls; those left open when it stops without
// settling them (a crash) are refunded by the next start, whoever made them, and the next
// process's book starts from the stored month.
TEST_F(LedgerTest, InProcessReservationsLeftOpenAreRefundedAtStart) {
    const std::time_t now = std::time(nullptr);
    {
        LedgerWriter writer(*db_, {"test-a", 512, 600, true, std::chrono::milliseconds(0)});
        Admission charged = writer.Admit({"charged", 4, "funds.search", 3, 5, 1000, now});
        ASSERT_TRUE(charged.reservation);
        EXPECT_EQ(writer.Settle({*charged.reservation, 5, 200, now}).charged, 3);
        ASSERT_TRUE(writer.Admit({"open", 4, "funds.search", 1, 5, 1000, now}).reservation);
        // Destroying the writer finishes its queue: the reservation (written without delay
        // here) is in the database, never settled.
    }
    EXPECT_EQ(Entry("open").state, "reserved");
    EXPECT_EQ(UsageOf(*db_, 4, MonthOf(now)).reserved, 1);
    InBatch([&](LedgerBatch& b) { return b.Admit(Call("elsewhere", 4, 1, 100, 100, now)); }, "test-b");

    LedgerWriter next(*db_, {"test-c", 512, 600, true});
    EXPECT_EQ(next.RecoveredAtStart(), 2u);
    EXPECT_EQ(Entry("open").state, "refunded");
    EXPECT_EQ(Entry("elsewhere").state, "refunded");
    MonthUsage usage = UsageOf(*db_, 4, MonthOf(now));
    EXPECT_EQ(usage.charged, 3);
    EXPECT_EQ(usage.reserved, 0);
    // 3 of 5 credits are charged: the book read them, so 3 more cannot be reserved.
    Admission refused = next.Admit({"too-much", 4, "funds.search", 3, 5, 1000, now});
    EXPECT_TRUE(refused.rate.allowed);
    EXPECT_FALSE(refused.reserved);
    EXPECT_EQ(refused.credits.remaining, 2);
}

// A call still running after the delay has its reservation in the database (for the start-up
// recovery rule, should the process die); its settlement then settles that entry.
TEST_F(LedgerTest, InProcessReservationIsWrittenOnceItsCallOutlivesTheDelay) {
    LedgerWriter writer(*db_, {"test-a", 512, 600, true, std::chrono::milliseconds(200)});
    const std::time_t now = std::time(nullptr);
    Admission slow = writer.Admit({"slow", 5, "funds.search", 2, 100, 1000, now});
    ASSERT_TRUE(slow.reservation);
    // The writer wakes at least once a second; give it a few.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (UsageOf(*db_, 5, MonthOf(now)).reserved == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_EQ(Entry("slow").state, "reserved");
    EXPECT_EQ(UsageOf(*db_, 5, MonthOf(now)).reserved, 2);
    EXPECT_EQ(writer.Settle({*slow.reservation, 100, 200, now}).charged, 2);
    EXPECT_EQ(Entry("slow").state, "charged");
    MonthUsage usage = UsageOf(*db_, 5, MonthOf(now));
    EXPECT_EQ(usage.reserved, 0);
    EXPECT_EQ(usage.charged, 2);
    EXPECT_EQ(usage.calls, 1);
}

TEST_F(LedgerTest, AccountBookCountsEachKeysMinute) {
    AccountBook book(*db_);
    EXPECT_EQ(book.Admit(Call("m1", 1, 0, 5, 2)).rate.remaining, 1);  // price 0 is still a call
    Admission second = book.Admit(Call("m2", 1, 1, 5, 2, kNow + 30));
    EXPECT_EQ(second.rate.remaining, 0);
    book.Release(*second.reservation);  // a refund never lowers the count
    Admission third = book.Admit(Call("m3", 1, 1, 5, 2, kNow + 39));
    EXPECT_FALSE(third.rate.allowed);
    EXPECT_EQ(third.rate.reset_at, kNow - kNow % 60 + 60);
    EXPECT_FALSE(third.reservation);
    EXPECT_EQ(third.credits.remaining, 5);
    EXPECT_TRUE(book.Admit(Call("k2", 2, 1, 5, 2)).rate.allowed);
    EXPECT_TRUE(book.Admit(Call("m4", 1, 1, 5, 2, kNow + 40)).rate.allowed) << "the next minute";
}

}  // namespace
}  // namespace lastro::billing
