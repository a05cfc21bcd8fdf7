// The funds of the daily-report sample (docs/sample.md, "CVM's daily fund reports"): one Fund per
// CNPJ that files CVM's informe diário (a fund before RCVM 175, a class after it), each with the
// parameters of its quota model and, for the classes that file per subclass, one FundSeries per
// subclass. At scale sample the universe also carries the planted cases (the duplicate filer, the
// gap, the drawdowns...), at scale full only the population.
#pragma once

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::series::inf_diario {

// Quotas are integers in units of 1e-12 (CVM prints 12 decimals), money in cents, daily returns
// in units of 1e-12 (a return of 0.05 % is 500'000'000).
inline constexpr std::int64_t kOne = 1'000'000'000'000;
inline constexpr std::int64_t kPpm = 1'000'000;

// The CDI band of the DI and fixed income funds: every day's return is this share of the day's CDI.
inline constexpr std::int64_t kCdiShareMinPpm = 850'000;
inline constexpr std::int64_t kCdiShareMaxPpm = 1'100'000;

// The invented month of the switch to the RCVM 175 layout (docs/sample.md).
inline constexpr sdk::Month kSwitchMonth{2025, 6};

enum class Kind : std::uint8_t {
    kDi,             // referenced DI: the CDI's share, tiny noise
    kFixedIncome,    // other fixed income: the CDI's share, a little more noise
    kMultimarket,    // the CDI plus moderate volatility
    kEquity,         // the market with beta, fat-ish tails
    kIndex,          // an ETF: the market less a small fee
    kPrivateEquity,  // a FIP: revalued at month ends only
};
std::string_view KindName(Kind kind);
// The kinds whose quota earns a share of the CDI within [kCdiShareMinPpm, kCdiShareMaxPpm].
inline bool FollowsCdi(Kind kind) {
    return kind == Kind::kDi || kind == Kind::kFixedIncome;
}

// TP_FUNDO (legacy header) or TP_FUNDO_CLASSE (RCVM 175 header).
enum class FundType : std::uint8_t { kClassesFif, kClassesFip, kFi, kFundoDeIndice };
std::string_view TypeLabel(FundType type);

// One series of the file: the class's own (blank ID_SUBCLASSE) or one of its subclasses.
struct FundSeries {
    std::string subclass;  // ID_SUBCLASSE, empty for the class's own series
    // The model: CDI kinds earn cdi_share_ppm of each day's CDI (fees included), the others the
    // class's gross return less `fee` a day.
    std::int64_t cdi_share_ppm = 0;
    std::int64_t fee = 0;
    unsigned subscription_per_mille = 0;  // chance of a day with subscriptions
    unsigned redemption_per_mille = 0;
    std::int64_t flow_ppm = 0;         // the largest flow of a day, a share of the net worth
    std::int64_t liabilities_ppm = 0;  // VL_TOTAL over VL_PATRIM_LIQ, less one
    bool exclusive = false;            // one investor
    std::int64_t weight = 1;           // a subclass's share of the class at the split

    // The state after the last day simulated (before the first: the day before the window).
    std::int64_t quota = 0;      // 1e-12
    std::int64_t net_worth = 0;  // cents
    std::int64_t investors = 0;
    bool started = false;
    sdk::sample::Prng rng{0};
};

struct Fund {
    std::string cnpj;  // masked: 00.017.024/0001-53
    Kind kind = Kind::kDi;
    FundType legacy_type = FundType::kFi;         // months before kSwitchMonth
    FundType class_type = FundType::kClassesFif;  // from `adapted` on
    sdk::Month adapted = kSwitchMonth;            // files as FI from the switch until this month
    bool files_before_switch = true;              // false: a FIP, which files from the switch

    // Filing span, as indexes into the business days of the window (Calendar::days).
    std::int32_t first_day = 0;
    std::int32_t last_day = 0;
    bool starts_new = false;  // incepted at first_day: quota 1, the day's subscription is its capital
    bool winds_down = false;  // cancelled at last_day: heavy redemptions in its last weeks

    int quota_decimals = 12;    // the precision of the quota the administrator sends
    int printed_decimals = 12;  // CVM prints 12 (one planted fund: 6)

    // Classes filing per subclass: from this day on series[1..] file and series[0] does not
    // (negative when the split came before the window: series[0] never files).
    std::optional<std::int32_t> subclasses_day;
    sdk::Month split_month;  // the month of the split
    // [0]: the class's own, then its 2 or 3 subclasses by ID_SUBCLASSE (at most 8 series: the
    // writer keeps a bit per series).
    std::vector<FundSeries> series;

    // The gross model of the non-CDI kinds, and the CDI kinds' daily noise around their share.
    std::int64_t beta_ppm = 0;
    std::int64_t alpha = 0;    // a day, 1e-12
    std::int64_t idio_sd = 0;  // a day, 1e-12
    std::int64_t cdi_noise_ppm = 0;
    std::vector<std::int64_t> fixed_returns;  // per business day: the drawdown funds' net returns

    // Planted cases (scale sample).
    std::optional<std::int32_t> gap_day;                                  // a business day it does not file
    std::optional<std::pair<std::int32_t, std::int32_t>> duplicate_days;  // also filed as FI
    std::vector<std::int32_t> blank_investor_days;                        // NR_COTST blank (sorted)
    int delay = 0;  // business days after a day before its report is in (the last month's lag)

    sdk::sample::Prng rng{0};  // the class's daily draws
    std::uint64_t number = 0;  // creation order: the key of its random streams
};

// The type a fund files under in `month`.
inline FundType TypeIn(const Fund& fund, const sdk::Month& month) {
    if (month < kSwitchMonth) {
        return fund.legacy_type;
    }
    return month < fund.adapted ? FundType::kFi : fund.class_type;
}

// The business days of the window and what every fund's model shares: the CDI and the market.
struct Calendar {
    std::vector<sdk::Date> days;
    std::vector<std::string> texts;    // days[i] as YYYY-MM-DD
    std::vector<std::int64_t> cdi;     // the CDI of the business day before days[i] (1e-12 a day)
    std::vector<std::int64_t> market;  // the equity market's return on days[i] (1e-12)
    std::vector<bool> month_end;       // days[i] is the last business day of its month
    std::vector<int> lag;              // business days from days[i] to the reference day

    // The index of the first business day on or after `date` (days.size() when none).
    std::int32_t IndexOf(const sdk::Date& date) const;
    // The index of the last business day on or before `date` (-1 when none).
    std::int32_t LastIndexOn(const sdk::Date& date) const;
};

// The planted cases by fund index (into Universe::funds); -1 when absent (a case whose days fall
// outside the window, or scale full).
struct Plan {
    int duplicate = -1;
    int gap = -1;
    int short_quota = -1;
    int blank_investors = -1;
    std::vector<int> subclass_classes;
    int recovering_drawdown = -1;
    int lasting_drawdown = -1;
    int late_start = -1;
    int cancelled = -1;
    // The republished month: values changed, a fund-day added (missing from the first version),
    // a fund-day removed (only in the first version).
    int changed_values = -1;  // VL_QUOTA, VL_PATRIM_LIQ and VL_TOTAL on changed_days
    std::vector<std::int32_t> changed_days;
    int changed_investors = -1;  // NR_COTST on changed_investors_day
    std::int32_t changed_investors_day = -1;
    int added = -1;
    std::int32_t added_day = -1;
    int removed = -1;
    std::int32_t removed_day = -1;
};

struct Universe {
    std::vector<Fund> funds;  // ordered by CNPJ
    Plan plan;
};

// Dates of the planted cases (docs/sample.md).
inline constexpr sdk::Month kDuplicateFirstMonth{2025, 6};
inline constexpr sdk::Month kDuplicateLastMonth{2025, 8};
inline constexpr sdk::Date kGapDay{2026, 3, 18};
inline constexpr sdk::Date kLateStartDay{2025, 3, 17};
inline constexpr sdk::Date kCancelledLastDay{2026, 5, 29};
inline constexpr sdk::Month kLateSubclassMonth{2025, 9};
inline constexpr sdk::Month kRepublishedMonth{2026, 9};
inline constexpr sdk::Date kChangedFirstDay{2026, 9, 15};
inline constexpr sdk::Date kChangedLastDay{2026, 9, 17};
inline constexpr sdk::Date kChangedInvestorsDay{2026, 9, 22};
inline constexpr sdk::Date kAddedDay{2026, 9, 23};
inline constexpr sdk::Date kRemovedDay{2026, 9, 10};
// The drawdowns: the recovering fund falls from kRecoveringFall to kRecoveringBottom and climbs
// back above its peak by kRecoveredBy; the lasting one falls from kLastingFall to
// kLastingBottom and stays far below.
inline constexpr sdk::Date kRecoveringFall{2025, 2, 3};
inline constexpr sdk::Date kRecoveringBottom{2025, 5, 30};
inline constexpr sdk::Date kRecoveredBy{2026, 1, 30};
inline constexpr sdk::Date kLastingFall{2025, 9, 1};
inline constexpr sdk::Date kLastingBottom{2026, 4, 30};

// The sample's universe (~300 funds and classes) with its planted cases, over `calendar`.
Universe SampleUniverse(std::uint64_t seed, const Calendar& calendar);
// The full scale's universe: `series` series or a few more (classes with subclasses count once
// per subclass), no planted cases.
Universe FullUniverse(std::uint64_t seed, const Calendar& calendar, std::size_t series);

}  // namespace lastro::series::inf_diario
