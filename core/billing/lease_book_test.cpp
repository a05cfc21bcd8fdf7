// The in-memory side of leased admission: never spends beyond what was leased, asks the writer
// when short, refuses for a while once the database could not cover the calls, and gives back
// what goes idle. The statements are tested end to end on PostgreSQL (tests/billing_faults_test.cpp).
#include "core/billing/lease_book.hpp"

#include <gtest/gtest.h>

namespace lastro::billing {
namespace {

using namespace std::chrono_literals;
using Clock = LeaseBook::Clock;

constexpr std::time_t kNow = 1790000000;  // within one minute and one month

AdmissionRequest Call(const std::string& id, std::int64_t price = 1) {
    return AdmissionRequest{id, 7, "op", price, 100, 10, kNow};
}

LeaseBook Book() {
    LeaseSettings s;
    s.ttl = 30s;
    s.margin = 10s;
    s.idle = 3s;
    return LeaseBook(s);
}

TEST(LeaseBook, AsksForALeaseThenSpendsOnlyWhatWasLeased) {
    LeaseBook book = Book();
    const auto t0 = Clock::now();
    EXPECT_FALSE(book.Admit(Call("a"), true, t0)) << "nothing leased yet: the writer must lease";
    const LeaseBook::Lack lack = book.LackOf(Call("a"), t0);
    EXPECT_TRUE(lack.tokens);
    EXPECT_TRUE(lack.credits);
    book.TokensLeased(7, kNow - kNow % 60, 5, 5, t0, false);
    book.CreditsLeased(7, MonthOf(kNow), 2, 2, 1, t0, false);
    for (const char* id : {"a", "b"}) {
        const std::optional<Admission> a = book.Admit(Call(id), true, t0);
        ASSERT_TRUE(a);
        EXPECT_TRUE(a->reserved);
        ASSERT_TRUE(a->reservation);
        EXPECT_EQ(a->credits.remaining, 100 - (id[0] == 'a' ? 1 : 2));
    }
    EXPECT_FALSE(book.Admit(Call("c"), true, t0)) << "the lease is spent";
    const std::optional<Admission> refused = book.Admit(Call("c"), false, t0);
    ASSERT_TRUE(refused);
    EXPECT_TRUE(refused->rate.allowed);
    EXPECT_FALSE(refused->reserved);
    // A refund (reservation never written) goes back to the lease; a lost batch's does not.
    const Reservation a{"a", 7, 1, MonthOf(kNow), "op", kNow};
    const Reservation b{"b", 7, 1, MonthOf(kNow), "op", kNow};
    book.Settled(a, false, true, 100, kNow);
    book.Lost(b);
    EXPECT_TRUE(book.Admit(Call("d"), true, t0));
    EXPECT_FALSE(book.Admit(Call("e"), true, t0));
}

TEST(LeaseBook, RefusesWithoutAskingForAWhileWhenTheDatabaseWasShort) {
    LeaseBook book = Book();
    const auto t0 = Clock::now();
    book.TokensLeased(7, kNow - kNow % 60, 0, 10, t0, true);
    const std::optional<Admission> a = book.Admit(Call("a"), true, t0);
    ASSERT_TRUE(a) << "decided here: the window was full a moment ago";
    EXPECT_FALSE(a->rate.allowed);
    EXPECT_FALSE(book.Admit(Call("a"), true, t0 + 2s)) << "asked again after the recheck delay";
}

TEST(LeaseBook, StopsSpendingAtItsLocalValidityAndReturnsWhatGoesIdle) {
    LeaseBook book = Book();
    const auto t0 = Clock::now();
    book.TokensLeased(7, kNow - kNow % 60, 10, 10, t0, false);
    book.CreditsLeased(7, MonthOf(kNow), 50, 50, 1, t0, false);
    EXPECT_TRUE(book.Admit(Call("a"), true, t0 + 19s));
    EXPECT_FALSE(book.Admit(Call("b"), true, t0 + 21s)) << "past sent + ttl - margin";
    const Reservation a{"a", 7, 1, MonthOf(kNow), "op", kNow};
    book.Settled(a, true, true, 100, kNow);
    // With no call for `idle`, the lease and the unused tokens return.
    EXPECT_TRUE(book.Due(t0 + 20s, kNow).returned.empty()) << "a call came a second ago";
    LeaseBook::Upkeep due = book.Due(t0 + 23s, kNow);
    EXPECT_EQ(due.returned, std::vector<std::string>{"7:" + MonthOf(kNow)});
    ASSERT_EQ(due.tokens.size(), 1u);
    EXPECT_EQ(due.tokens[0].second, 9) << "10 leased, one spent";
    EXPECT_TRUE(book.Due(t0 + 25s, kNow).returned.empty()) << "returned once";
}

// A call is charged only to the lease row it was admitted under (docs/billing.md, "Cut off while
// calls run"): extended, the row still covers it; reclaimed, or taken again as a new row
// (another `since`), it does not.
TEST(LeaseBook, ACallIsCoveredOnlyByTheLeaseRowItWasAdmittedUnder) {
    LeaseBook book = Book();
    const auto t0 = Clock::now();
    book.TokensLeased(7, kNow - kNow % 60, 10, 10, t0, false);
    book.CreditsLeased(7, MonthOf(kNow), 5, 5, 100, t0, false);
    ASSERT_TRUE(book.Admit(Call("a"), true, t0));
    const Reservation a{"a", 7, 1, MonthOf(kNow), "op", kNow};
    EXPECT_EQ(book.LeaseOf(a), std::optional<std::int64_t>(100));
    book.CreditsLeased(7, MonthOf(kNow), 5, 10, 100, t0, false);
    EXPECT_EQ(book.LeaseOf(a), std::optional<std::int64_t>(100)) << "the same row, extended";
    book.CreditsLeased(7, MonthOf(kNow), 5, 15, 200, t0, false);
    EXPECT_EQ(book.LeaseOf(a), std::nullopt) << "charged to the new row, it could spend its credits twice";
    ASSERT_TRUE(book.Admit(Call("b"), true, t0));
    const Reservation b{"b", 7, 1, MonthOf(kNow), "op", kNow};
    EXPECT_EQ(book.LeaseOf(b), std::optional<std::int64_t>(200));
    // The renewal finds the row reclaimed (past its expiry in the database).
    book.Renewed({"7:" + MonthOf(kNow)}, {}, t0);
    EXPECT_EQ(book.LeaseOf(b), std::nullopt);
    const Reservation unknown{"z", 7, 1, MonthOf(kNow), "op", kNow};
    EXPECT_EQ(book.LeaseOf(unknown), std::nullopt) << "a call the book does not know is not covered";
}

}  // namespace
}  // namespace lastro::billing
