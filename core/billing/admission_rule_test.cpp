// The admission rule alone (admission_rule.hpp): the limit of the minute before the price, the
// price against what the month has left, and the figures an answer's headers carry.
#include "core/billing/admission_rule.hpp"

#include <gtest/gtest.h>

namespace lastro::billing {
namespace {

AdmissionRequest Call(std::int64_t price) {
    AdmissionRequest request;
    request.request_id = "req-1";
    request.key_id = 7;
    request.operation = "funds.search";
    request.price = price;
    request.allowance = 100;
    request.calls_per_minute = 10;
    request.now = 1'767'225'599;  // 2025-12-31T23:59:59Z: the last second of a minute and a month
    return request;
}

TEST(AdmissionRule, ACallWithRoomCountsAndReservesItsPriceInItsMonth) {
    const AdmissionVerdict verdict = DecideAdmission(Call(3), {.calls = 1, .credits = 3});
    EXPECT_TRUE(verdict.counted);
    EXPECT_TRUE(verdict.runs);
    ASSERT_TRUE(verdict.reservation);
    EXPECT_EQ(verdict.reservation->price, 3);
    EXPECT_EQ(verdict.reservation->month, "2025-12");
    EXPECT_EQ(verdict.reservation->key_id, 7);
    EXPECT_EQ(verdict.reservation->request_id, "req-1");
    EXPECT_EQ(verdict.reservation->operation, "funds.search");
    EXPECT_EQ(verdict.reservation->reserved_at, 1'767'225'599);
}

TEST(AdmissionRule, TheMinuteDecidesFirstAndARefusedCallIsNotCounted) {
    for (const std::int64_t calls : {0, -1}) {
        const AdmissionVerdict verdict = DecideAdmission(Call(1), {.calls = calls, .credits = 100});
        EXPECT_FALSE(verdict.counted);
        EXPECT_FALSE(verdict.runs);
        EXPECT_FALSE(verdict.reservation);
    }
}

TEST(AdmissionRule, APriceAboveTheCreditsLeftIsCountedButDoesNotRun) {
    const AdmissionVerdict verdict = DecideAdmission(Call(4), {.calls = 5, .credits = 3});
    EXPECT_TRUE(verdict.counted);
    EXPECT_FALSE(verdict.runs);
    EXPECT_FALSE(verdict.reservation);
}

TEST(AdmissionRule, AFreeCallRunsWithoutCreditsAndReservesNothing) {
    const AdmissionVerdict verdict = DecideAdmission(Call(0), {.calls = 1, .credits = 0});
    EXPECT_TRUE(verdict.counted);
    EXPECT_TRUE(verdict.runs);
    EXPECT_FALSE(verdict.reservation);
}

TEST(AdmissionRule, TheAnswerCarriesTheMinutesFiguresAndTheCredits) {
    const AdmissionRequest request = Call(2);
    CreditState credits;
    credits.limit = 100;
    credits.remaining = 40;
    const Admission admitted = AdmissionOf(request, DecideAdmission(request, {1, 50}), 0, credits);
    EXPECT_TRUE(admitted.rate.allowed);
    EXPECT_TRUE(admitted.reserved);
    EXPECT_EQ(admitted.rate.limit, 10);
    EXPECT_EQ(admitted.rate.remaining, 0);
    EXPECT_EQ(admitted.rate.reset_at, 1'767'225'600);  // the next minute
    EXPECT_EQ(admitted.credits.remaining, 40);
    ASSERT_TRUE(admitted.reservation);

    // Refused by the minute: nothing remains in it, whatever the caller counted.
    const Admission refused = AdmissionOf(request, DecideAdmission(request, {0, 50}), 7, credits);
    EXPECT_FALSE(refused.rate.allowed);
    EXPECT_FALSE(refused.reserved);
    EXPECT_EQ(refused.rate.remaining, 0);
    // A count a strategy saw go past the limit (another instance's calls) shows as 0, not below.
    const Admission last = AdmissionOf(request, DecideAdmission(request, {1, 50}), -3, credits);
    EXPECT_EQ(last.rate.remaining, 0);
}

}  // namespace
}  // namespace lastro::billing
