// The reservations written behind their calls (deferred_reservations.hpp): only those still
// unsettled after the delay are written, oldest first; a call settled sooner never is.
#include "core/billing/deferred_reservations.hpp"

#include <gtest/gtest.h>

namespace lastro::billing {
namespace {

using namespace std::chrono_literals;

Reservation Made(const std::string& id) {
    Reservation r;
    r.request_id = id;
    r.key_id = 1;
    r.price = 2;
    r.month = "2026-11";
    return r;
}

std::vector<std::string> Ids(const std::vector<Reservation>& reservations) {
    std::vector<std::string> ids;
    for (const Reservation& r : reservations) {
        ids.push_back(r.request_id);
    }
    return ids;
}

TEST(DeferredReservations, OnlyThoseUnsettledPastTheDelayAreWrittenOldestFirst) {
    DeferredReservations deferred(1s);
    const auto t0 = DeferredReservations::Clock::time_point{} + 100s;
    deferred.Decided(Made("a"), t0);
    deferred.Decided(Made("b"), t0 + 100ms);
    deferred.Decided(Made("c"), t0 + 900ms);
    deferred.SettledUnwritten("b");  // settled within the delay: its settled entry alone
    EXPECT_TRUE(deferred.Overdue(t0 + 500ms).empty());
    const std::vector<Reservation> due = deferred.Overdue(t0 + 1500ms);
    EXPECT_EQ(Ids(due), (std::vector<std::string>{"a"}));
    deferred.Wrote(due);
    EXPECT_TRUE(deferred.Written("a"));
    EXPECT_FALSE(deferred.Written("b"));
    EXPECT_FALSE(deferred.Written("c"));
    // Written once: never again; the next one comes due in its turn.
    EXPECT_EQ(Ids(deferred.Overdue(t0 + 2s)), (std::vector<std::string>{"c"}));
}

TEST(DeferredReservations, AFailedBatchLeavesThemForTheNextAndForgettingSaysWhatWasWritten) {
    DeferredReservations deferred(1s);
    const auto t0 = DeferredReservations::Clock::time_point{} + 100s;
    deferred.Decided(Made("a"), t0);
    deferred.Decided(Made("b"), t0);
    EXPECT_EQ(deferred.Overdue(t0 + 2s).size(), 2u);
    // The batch failed: nothing called, and the next batch goes through them again.
    const std::vector<Reservation> again = deferred.Overdue(t0 + 3s);
    EXPECT_EQ(Ids(again), (std::vector<std::string>{"a", "b"}));
    deferred.Wrote(again);
    EXPECT_TRUE(deferred.Forget("a"));
    EXPECT_FALSE(deferred.Written("a"));
    deferred.Decided(Made("c"), t0 + 3s);
    EXPECT_FALSE(deferred.Forget("c"));  // its call ended before it was written
    EXPECT_TRUE(deferred.Overdue(t0 + 10s).empty());
}

}  // namespace
}  // namespace lastro::billing
