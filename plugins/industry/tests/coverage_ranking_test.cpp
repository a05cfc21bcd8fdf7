// Completeness of months (docs/coverage.md), the ranking (docs/ranking.md), the period rules and
// the registrations against the manifest.
#include "derive/coverage.hpp"
#include "derive/ranking.hpp"
#include "src/period.hpp"

#include <lastro/sdk/problem.hpp>

#include <gtest/gtest.h>

#include <ctime>

namespace lastro::industry {
namespace {

std::time_t Day(int year, int month, int day) {
    std::tm t{};
    t.tm_year = year - 1900;
    t.tm_mon = month - 1;
    t.tm_mday = day;
    t.tm_hour = 12;
    return timegm(&t);
}

std::vector<MonthAttrition> Months(int missing_in_last, double missing_nav_in_last = 10) {
    std::vector<MonthAttrition> months;
    months.push_back({"2025-01", std::nullopt, 0, std::nullopt, std::nullopt});
    for (int m = 2; m <= 12; ++m) {
        char text[8];
        std::snprintf(text, sizeof text, "2025-%02d", m);
        months.push_back({text, 100, m % 3, 10.0, 10000.0});  // 0..2 missing: median 1
    }
    months.push_back({"2026-01", 100, missing_in_last, missing_nav_in_last, 10000.0});
    return months;
}

TEST(Completeness, BaselineCompletePartialAndUnknown) {
    const auto settled = JudgeCompleteness(Months(3), Day(2026, 11, 26));
    EXPECT_EQ(settled.front().status, "baseline");
    EXPECT_EQ(settled[1].status, "complete");
    EXPECT_EQ(settled.back().status, "complete") << settled.back().reason;
    // Over 3 x the median (1) + 5 = 8 missing vehicles: partial.
    const auto many = JudgeCompleteness(Months(9), Day(2026, 11, 26));
    EXPECT_EQ(many.back().status, "partial") << many.back().reason;
    // Few vehicles but much net worth: 2% of the month before against 3 x 0.1% + 1%.
    const auto heavy = JudgeCompleteness(Months(1, 200.0), Day(2026, 11, 26));
    EXPECT_EQ(heavy.back().status, "partial") << heavy.back().reason;
    // 2026-01 is settled from 2026-04-01; the day before it is not yet knowable.
    const auto early = JudgeCompleteness(Months(9), Day(2026, 3, 31));
    EXPECT_EQ(early.back().status, "unknown_completeness");
    EXPECT_EQ(JudgeCompleteness(Months(9), Day(2026, 4, 1)).back().status, "partial");
}

VehicleMonth V(const std::string& cnpj, const std::string& manager, double nav,
               std::optional<double> flow = 0.0) {
    VehicleMonth v;
    v.month = "2026-08";
    v.cnpj = cnpj;
    v.manager_key = manager;
    v.manager = "Gestora " + manager;
    v.nav = nav;
    v.net_flow = flow;
    return v;
}

TEST(Ranking, OrdersByEachFigureWithTiesByManagerAndSkipsUnknownAndSetAside) {
    std::vector<VehicleMonth> vehicles = {V("1", "33", 100), V("2", "11", 100), V("3", "22", 50, 30.0),
                                          V("4", "22", 10, std::nullopt), V("5", "44", 1e12)};
    vehicles[4].set_aside = true;
    VehicleMonth unknown = V("6", "x", 500);
    unknown.manager_key.reset();
    vehicles.push_back(unknown);
    const std::vector<ManagerMonth> rows = RankManagers("2026-08", true, vehicles, {});
    ASSERT_EQ(rows.size(), 3u);
    std::map<std::string, const ManagerMonth*> by;
    for (const ManagerMonth& m : rows) {
        by[m.manager_key] = &m;
    }
    EXPECT_EQ(by["11"]->rank_pl, 1) << "a tie of 100 goes to the smaller manager id";
    EXPECT_EQ(by["33"]->rank_pl, 2);
    EXPECT_EQ(by["22"]->rank_pl, 3);
    EXPECT_EQ(by["22"]->vehicles, 2);
    EXPECT_EQ(by["22"]->rank_vehicles, 1);
    EXPECT_DOUBLE_EQ(by["22"]->nav, 60);
    EXPECT_DOUBLE_EQ(by["11"]->share, 100.0 / 260.0);
    EXPECT_EQ(by["22"]->net_flow, 30.0) << "the vehicle without a known flow is left out of the sum";
    EXPECT_EQ(by["22"]->rank_net_flow, 1);
    EXPECT_FALSE(by["11"]->share_change_12m_pp.has_value()) << "no year before: no change";
}

TEST(Ranking, TwelveMonthChangesCompareWithTheYearBefore) {
    const std::vector<VehicleMonth> then = {V("1", "11", 300), V("2", "22", 100)};
    const std::vector<ManagerMonth> year_before = RankManagers("2025-08", true, then, {});
    const std::vector<VehicleMonth> now = {V("1", "11", 100), V("2", "22", 300), V("3", "33", 100)};
    const std::vector<ManagerMonth> rows = RankManagers("2026-08", true, now, year_before);
    std::map<std::string, const ManagerMonth*> by;
    for (const ManagerMonth& m : rows) {
        by[m.manager_key] = &m;
    }
    EXPECT_NEAR(*by["22"]->share_change_12m_pp, (0.6 - 0.25) * 100, 1e-9);
    EXPECT_NEAR(*by["11"]->share_change_12m_pp, (0.2 - 0.75) * 100, 1e-9);
    EXPECT_NEAR(*by["33"]->share_change_12m_pp, 20.0, 1e-9) << "absent a year before: its share was 0";
    EXPECT_EQ(by["22"]->rank_pl_12m_ago, 2);
    EXPECT_EQ(by["22"]->rank_pl, 1);
    EXPECT_FALSE(by["33"]->rank_pl_12m_ago.has_value());
    EXPECT_EQ(by["22"]->rank_share_change, 1);
}

sdk::Params P(std::initializer_list<std::pair<const char*, const char*>> months,
              std::optional<std::int64_t> count = std::nullopt) {
    sdk::Params p;
    for (const auto& [name, value] : months) {
        p.Set(name, *sdk::Month::Parse(value));
    }
    if (count) {
        p.Set("months", *count);
    }
    return p;
}

TEST(Period, DefaultsMonthsAndBounds) {
    const Period last12 = ResolvePeriod(P({}), "2026-08");
    EXPECT_EQ(last12.from, "2025-09");
    EXPECT_EQ(last12.to, "2026-08");
    EXPECT_EQ(last12.months.size(), 12u);
    EXPECT_EQ(ResolvePeriod(P({{"month", "2024-02"}}), "2026-08").months,
              std::vector<std::string>{"2024-02"});
    const Period window = ResolvePeriod(P({{"to", "2026-01"}}, 120), "2026-08");
    EXPECT_EQ(window.from, "2016-02");
    EXPECT_EQ(window.months.size(), 120u);
    EXPECT_THROW(ResolvePeriod(P({{"from", "2016-01"}, {"to", "2026-01"}}), "2026-08"),
                 sdk::InvalidParameter);
    EXPECT_THROW(ResolvePeriod(P({{"month", "2026-01"}, {"to", "2026-01"}}), "2026-08"), sdk::BadRequest);
    EXPECT_THROW(ResolvePeriod(P({{"from", "2026-01"}}, 3), "2026-08"), sdk::BadRequest);
    EXPECT_THROW(ResolvePeriod(P({{"from", "2026-05"}, {"to", "2026-01"}}), "2026-08"), sdk::BadRequest);
}

}  // namespace
}  // namespace lastro::industry
