// Adjusted prices: the factors of domain/adjustment recomputed here another way, naively per day
// and event, on a history with a split, a reverse split, a stock dividend and two cash events of
// one day; and the market capitalization's rule.
#include "domain/adjustment/adjustment.hpp"
#include "domain/market/market_cap.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lastro::stocks {
namespace {

const std::vector<std::string> kDays{"2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05",
                                     "2026-03-06", "2026-03-09", "2026-03-10", "2026-03-11"};

const std::vector<PriceEvent> kEvents{
    {"split", "stock", "DESDOBRAMENTO", "2026-03-03", 0.5},
    {"dividend", "cash", "DIVIDENDO", "2026-03-05", 1 - 0.830118 / 100},
    {"jcp", "cash", "JRS CAP PROPRIO", "2026-03-05", 1 - 2.925949 / 100},
    {"reverse", "stock", "GRUPAMENTO", "2026-03-09", 10.0},
    {"bonus", "stock", "BONIFICACAO", "2026-03-10", 1 / 1.1},
    // After the base date: never applied.
    {"late", "cash", "DIVIDENDO", "2026-03-11", 0.9},
};

// The naive reading of the rule: an event multiplies a day's prices when the day is on or before
// its last date with rights and its ex-date is on or before the base date.
DayFactors Expected(const std::string& day, const std::string& base, Adjustment mode) {
    DayFactors f;
    for (const PriceEvent& e : kEvents) {
        if (mode == Adjustment::kNone || day > e.last_date_with_rights || e.last_date_with_rights >= base) {
            continue;
        }
        if (e.kind == "stock") {
            f.split *= e.price_factor;
        } else if (mode == Adjustment::kTotal) {
            f.dividend *= e.price_factor;
        }
    }
    return f;
}

TEST(AdjustmentTest, FactorsComposeBackFromTheBaseDate) {
    for (Adjustment mode : {Adjustment::kNone, Adjustment::kSplits, Adjustment::kTotal}) {
        for (const std::string base : {"2026-03-11", "2026-03-06"}) {
            std::vector<std::string> days;
            for (const std::string& day : kDays) {
                if (day <= base) {
                    days.push_back(day);
                }
            }
            const std::vector<DayFactors> factors = FactorsOf(days, kEvents, base, mode);
            ASSERT_EQ(factors.size(), days.size());
            for (std::size_t i = 0; i < days.size(); ++i) {
                const DayFactors expected = Expected(days[i], base, mode);
                EXPECT_DOUBLE_EQ(factors[i].split, expected.split) << days[i] << " base " << base;
                EXPECT_DOUBLE_EQ(factors[i].dividend, expected.dividend) << days[i] << " base " << base;
            }
        }
    }
    // Spot values: on 2026-03-02 every event up to the base applies.
    const std::vector<DayFactors> total = FactorsOf(kDays, kEvents, "2026-03-11", Adjustment::kTotal);
    EXPECT_DOUBLE_EQ(total[0].split, 0.5 * 10.0 / 1.1);
    EXPECT_DOUBLE_EQ(total[0].dividend, (1 - 0.830118 / 100) * (1 - 2.925949 / 100));
    // The day after the last date with rights carries no factor of that event.
    EXPECT_DOUBLE_EQ(total[4].dividend, 1.0);
    EXPECT_DOUBLE_EQ(total[7].Total(), 1.0);
}

TEST(MarketCapTest, ClassesWithPriceAndSharesOnlyUnitsNever) {
    const std::vector<CapitalClass> classes{
        {"ABCD3", "ON", 10.0, "2026-10-14", 1000.0, "FRE"},
        {"ABCD4", "PNA", 12.5, "2026-10-14", 400.0, "FRE"},
        {"ABCD5", "PNB", 7.0, "2026-10-14", std::nullopt, ""},
    };
    const MarketCap cap = ComputeMarketCap(classes);
    ASSERT_TRUE(cap.value);
    EXPECT_DOUBLE_EQ(*cap.value, 10.0 * 1000 + 12.5 * 400);
    EXPECT_EQ(cap.parts.size(), 2u);
    ASSERT_EQ(cap.left_out.size(), 1u);
    EXPECT_EQ(cap.left_out[0].first->ticker, "ABCD5");
    EXPECT_FALSE(ComputeMarketCap({{"X3", "ON", std::nullopt, "", 5.0, ""}}).value);
}

}  // namespace
}  // namespace lastro::stocks
