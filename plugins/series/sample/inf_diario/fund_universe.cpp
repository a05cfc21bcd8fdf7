#include "sample/inf_diario/fund_universe.hpp"

#include "sample/inf_diario/quota_model.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <unordered_set>
#include <utility>

namespace lastro::series::inf_diario {
namespace {

namespace sample = sdk::sample;
using sample::Prng;

constexpr std::uint64_t kFundStream = sample::StreamOf("cvm.inf_diario_fi/fund");
constexpr std::uint64_t kClassStream = sample::StreamOf("cvm.inf_diario_fi/class");
constexpr std::uint64_t kSeriesStream = sample::StreamOf("cvm.inf_diario_fi/series");
constexpr std::uint64_t kCnpjStream = sample::StreamOf("cvm.inf_diario_fi/cnpj");
constexpr std::uint64_t kRolesStream = sample::StreamOf("cvm.inf_diario_fi/roles");
constexpr std::uint64_t kLifeStream = sample::StreamOf("cvm.inf_diario_fi/lifetimes");
constexpr std::uint64_t kSubclassStream = sample::StreamOf("cvm.inf_diario_fi/subclasses");
constexpr std::uint64_t kDrawdownStream = sample::StreamOf("cvm.inf_diario_fi/drawdown");
constexpr std::uint64_t kDelayStream = sample::StreamOf("cvm.inf_diario_fi/delay");

// The sample's population by kind: 300 funds and classes.
struct KindCount {
    Kind kind;
    int count;
};
constexpr KindCount kSampleKinds[] = {
    {Kind::kDi, 62},     {Kind::kFixedIncome, 52}, {Kind::kMultimarket, 86},
    {Kind::kEquity, 76}, {Kind::kIndex, 12},       {Kind::kPrivateEquity, 12},
};
// The full scale's mix, per thousand classes (CDA 2026-05: ~25,400 FIF classes, 145 FIP, 8 FI).
constexpr unsigned kFullKindWeights[] = {180, 272, 300, 236, 6, 6};
constexpr Kind kKinds[] = {Kind::kDi,     Kind::kFixedIncome, Kind::kMultimarket,
                           Kind::kEquity, Kind::kIndex,       Kind::kPrivateEquity};

std::int64_t Pow10(int n) {
    std::int64_t value = 1;
    for (int i = 0; i < n; ++i) {
        value *= 10;
    }
    return value;
}

// A fee of `bp` hundredths of a percent a year, a business day's share (1e-12).
std::int64_t FeeOf(std::int64_t bp) {
    return sample::MulDiv(bp, 100'000'000, 252);
}

// A quota level as old funds carry it: mostly units and tens, some hundreds and thousands.
std::int64_t InitialQuota(Prng& rng, int decimals) {
    static constexpr std::int64_t kLow[] = {1, 10, 100, 1000};
    static constexpr std::int64_t kHigh[] = {9, 99, 999, 9999};
    const std::size_t magnitude = rng.Weighted({40, 40, 15, 5});
    const std::int64_t units = rng.Between(kLow[magnitude], kHigh[magnitude]);
    const std::int64_t quantum = Pow10(12 - decimals);
    const std::int64_t fraction = rng.Between(0, kOne - 1) / quantum * quantum;
    return units * kOne + fraction;
}

// Net worth in cents: R$ 1 million to R$ 100 billion, most in the tens of millions.
std::int64_t InitialNetWorth(Prng& rng) {
    const std::size_t exponent = 6 + rng.Weighted({30, 35, 25, 9, 1});  // 10^6 .. 10^10 reais
    return rng.Between(100, 999) * Pow10(static_cast<int>(exponent) - 2) * 100;
}

std::int64_t InitialInvestors(Prng& rng, Kind kind) {
    switch (kind) {
        case Kind::kPrivateEquity:
            return rng.Between(1, 60);
        case Kind::kIndex:
            return rng.Between(500, 300'000);
        default:
            break;
    }
    static constexpr std::int64_t kLow[] = {2, 51, 1001, 20'001};
    static constexpr std::int64_t kHigh[] = {50, 1000, 20'000, 400'000};
    const std::size_t band = rng.Weighted({20, 35, 30, 15});
    return rng.Between(kLow[band], kHigh[band]);
}

FundSeries NewSeries(std::uint64_t seed, const Fund& fund, std::size_t index, Prng& rng) {
    FundSeries series;
    series.rng = Prng::ForStream(seed, kSeriesStream, fund.number * 8 + index);
    const Kind kind = fund.kind;
    const bool private_equity = kind == Kind::kPrivateEquity;
    series.exclusive = !private_equity && kind != Kind::kIndex && rng.Chance(80);
    series.net_worth = InitialNetWorth(rng);
    series.investors = series.exclusive ? 1 : InitialInvestors(rng, kind);
    if (private_equity) {
        series.subscription_per_mille = 3;
        series.redemption_per_mille = 2;
        series.flow_ppm = 50'000;
    } else if (kind == Kind::kIndex) {
        series.subscription_per_mille = static_cast<unsigned>(rng.Between(100, 300));
        series.redemption_per_mille = static_cast<unsigned>(rng.Between(100, 300));
        series.flow_ppm = rng.Between(2'000, 20'000);
    } else if (series.exclusive) {
        series.subscription_per_mille = static_cast<unsigned>(rng.Between(5, 40));
        series.redemption_per_mille = static_cast<unsigned>(rng.Between(5, 40));
        series.flow_ppm = rng.Between(5'000, 50'000);
    } else {
        series.subscription_per_mille = static_cast<unsigned>(rng.Between(40, 300));
        series.redemption_per_mille = static_cast<unsigned>(rng.Between(40, 300));
        series.flow_ppm = rng.Between(2'000, 25'000);
    }
    series.liabilities_ppm = private_equity ? rng.Between(0, 40'000) : rng.Between(0, 12'000);
    switch (kind) {
        case Kind::kDi:
            series.cdi_share_ppm = rng.Between(860'000, 1'080'000);
            break;
        case Kind::kFixedIncome:
            series.cdi_share_ppm = rng.Between(900'000, 1'090'000);
            break;
        case Kind::kMultimarket:
            series.fee = FeeOf(rng.Between(50, 200));
            break;
        case Kind::kEquity:
            series.fee = FeeOf(rng.Between(100, 300));
            break;
        case Kind::kIndex:
            series.fee = FeeOf(rng.Between(10, 70));
            break;
        case Kind::kPrivateEquity:
            break;  // the month-end revaluation is net of fees
    }
    series.quota = InitialQuota(rng, fund.quota_decimals);
    return series;
}

Fund NewFund(std::uint64_t seed, std::uint64_t number, Kind kind) {
    Fund fund;
    fund.number = number;
    fund.kind = kind;
    fund.rng = Prng::ForStream(seed, kClassStream, number);
    Prng rng = Prng::ForStream(seed, kFundStream, number);
    static constexpr int kDecimals[] = {6, 7, 8, 9, 10, 12};
    fund.quota_decimals = kDecimals[rng.Weighted({45, 5, 30, 5, 5, 10})];
    switch (kind) {
        case Kind::kDi:
            fund.cdi_noise_ppm = 3'000;
            break;
        case Kind::kFixedIncome:
            fund.cdi_noise_ppm = 15'000;
            break;
        case Kind::kMultimarket:
            fund.beta_ppm = rng.Between(0, 350'000);
            fund.alpha = rng.Between(-40'000'000, 120'000'000);
            fund.idio_sd = rng.Between(1'500'000'000, 5'000'000'000);
            break;
        case Kind::kEquity:
            fund.beta_ppm = rng.Between(650'000, 1'250'000);
            fund.alpha = rng.Between(-80'000'000, 150'000'000);
            fund.idio_sd = rng.Between(3'000'000'000, 8'000'000'000);
            break;
        case Kind::kIndex:
            fund.beta_ppm = kPpm;
            fund.idio_sd = rng.Between(100'000'000, 300'000'000);
            fund.legacy_type = FundType::kFundoDeIndice;
            fund.class_type = FundType::kFundoDeIndice;
            break;
        case Kind::kPrivateEquity:
            fund.alpha = rng.Between(0, 15'000'000'000);  // a month
            fund.idio_sd = rng.Between(20'000'000'000, 60'000'000'000);
            fund.class_type = FundType::kClassesFip;
            fund.files_before_switch = false;
            break;
    }
    fund.series.push_back(NewSeries(seed, fund, 0, rng));
    return fund;
}

// Unique masked CNPJs with valid check digits, branch 0001 as most funds and classes have.
std::vector<std::string> NewCnpjs(std::uint64_t seed, std::size_t count) {
    Prng rng = Prng::ForStream(seed, kCnpjStream);
    std::unordered_set<std::int64_t> roots;
    std::vector<std::string> cnpjs;
    cnpjs.reserve(count);
    while (cnpjs.size() < count) {
        const std::int64_t root = rng.Between(10'000, 59'999'999);
        if (!roots.insert(root).second) {
            continue;
        }
        char twelve[16];
        std::snprintf(twelve, sizeof twelve, "%08lld0001", static_cast<long long>(root));
        cnpjs.push_back(sdk::FormatCnpj(sdk::CnpjWithCheckDigits(twelve)));
    }
    return cnpjs;
}

// Opaque subclass codes as CVM assigns them: five letters and the Unix time of the registration
// (RBMFN1747320951), here a moment of the month before the split.
std::string SubclassId(Prng& rng, const sdk::Month& split) {
    const sdk::Month before = split.Previous();
    const std::int64_t first = sample::DayNumber({before.year, before.month, 1});
    const std::int64_t seconds =
        first * 86'400 + rng.Between(0, sdk::DaysInMonth(before.year, before.month) * 86'400 - 1);
    std::string id;
    for (int i = 0; i < 5; ++i) {
        id.push_back(static_cast<char>('A' + rng.Below(26)));
    }
    char digits[24];
    std::snprintf(digits, sizeof digits, "%010lld", static_cast<long long>(seconds));
    return id + digits;
}

// The subclasses of a class that files per subclass from `split` (index `split_day`, negative
// when before the window): ID, fee and share of the class; their states come from the class's
// at the split, or are drawn here when it happened before the window.
void AddSubclasses(std::uint64_t seed, Fund& fund, int count, const sdk::Month& split,
                   std::int32_t split_day) {
    Prng rng = Prng::ForStream(seed, kSubclassStream, fund.number);
    fund.subclasses_day = split_day;
    fund.split_month = split;
    const FundSeries& base = fund.series[0];
    std::vector<FundSeries> subclasses;
    for (int k = 0; k < count; ++k) {
        FundSeries series = base;
        series.rng =
            Prng::ForStream(seed, kSeriesStream, fund.number * 8 + 1 + static_cast<std::uint64_t>(k));
        series.subclass = SubclassId(rng, split);
        series.exclusive = false;
        series.weight = rng.Between(20, 60);
        // Each subclass pays its own fee: the first the class's, the others more.
        if (FollowsCdi(fund.kind)) {
            series.cdi_share_ppm =
                std::max(kCdiShareMinPpm + 10'000, base.cdi_share_ppm - k * rng.Between(25'000, 45'000));
        } else {
            series.fee = base.fee + k * FeeOf(rng.Between(30, 80));
        }
        series.subscription_per_mille = static_cast<unsigned>(rng.Between(40, 300));
        series.redemption_per_mille = static_cast<unsigned>(rng.Between(40, 300));
        if (split_day < 0) {
            // Split before the window: the subclasses have drifted apart since.
            series.quota = sample::MulDiv(base.quota, kPpm - k * rng.Between(5'000, 30'000), kPpm);
            series.net_worth = sample::MulDiv(base.net_worth, series.weight, 100);
            series.investors = std::max<std::int64_t>(1, sample::MulDiv(base.investors, series.weight, 100));
        }
        subclasses.push_back(std::move(series));
    }
    std::sort(subclasses.begin(), subclasses.end(),
              [](const FundSeries& a, const FundSeries& b) { return a.subclass < b.subclass; });
    for (FundSeries& series : subclasses) {
        fund.series.push_back(std::move(series));
    }
}

sdk::Date FirstOf(const sdk::Month& month) {
    return {month.year, month.month, 1};
}

// The quota an equity fund reaches over [a, b] from `start` with every return shifted by `shift`.
std::int64_t LevelAfter(const std::vector<std::int64_t>& returns, std::int32_t a, std::int32_t b,
                        std::int64_t start, std::int64_t shift) {
    std::int64_t quota = start;
    for (std::int32_t d = a; d <= b; ++d) {
        quota = std::max<std::int64_t>(1, sample::MulDiv(quota, kOne + returns[d] + shift, kOne));
    }
    return quota;
}

// Shifts the returns of [a, b] by one constant so that the quota ends at `target` from `start`
// (the smallest shift that reaches it; the path keeps its own noise on top of the trend).
void Pin(std::vector<std::int64_t>& returns, std::int32_t a, std::int32_t b, std::int64_t start,
         std::int64_t target) {
    std::int64_t low = -60'000'000'000;
    std::int64_t high = 60'000'000'000;
    while (low < high) {
        const std::int64_t mid = low + (high - low) / 2;
        if (LevelAfter(returns, a, b, start, mid) >= target) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    for (std::int32_t d = a; d <= b; ++d) {
        returns[d] += low;
    }
}

// The highest quota over [0, b] and the quota at b.
std::pair<std::int64_t, std::int64_t> PeakAndLevel(const std::vector<std::int64_t>& returns, std::int32_t b,
                                                   std::int64_t start) {
    std::int64_t quota = start;
    std::int64_t peak = start;
    for (std::int32_t d = 0; d <= b; ++d) {
        quota = std::max<std::int64_t>(1, sample::MulDiv(quota, kOne + returns[d], kOne));
        peak = std::max(peak, quota);
    }
    return {peak, quota};
}

// The drawdown funds: their net returns over the whole window drawn up front from the equity
// model, then pinned so that the fall and the rise land where docs/sample.md says.
bool PlantDrawdown(std::uint64_t seed, Fund& fund, const Calendar& calendar, bool recovers) {
    const auto n = static_cast<std::int32_t>(calendar.days.size());
    const std::int32_t fall = calendar.IndexOf(recovers ? kRecoveringFall : kLastingFall);
    const std::int32_t bottom = calendar.LastIndexOn(recovers ? kRecoveringBottom : kLastingBottom);
    const std::int32_t end = recovers ? calendar.LastIndexOn(kRecoveredBy) : n - 1;
    if (fall < 1 || bottom <= fall || end <= bottom + 1 || end >= n) {
        return false;
    }
    Prng rng = Prng::ForStream(seed, kDrawdownStream, fund.number);
    std::vector<std::int64_t> returns(calendar.days.size());
    for (std::int32_t d = 0; d < n; ++d) {
        returns[d] = GrossReturn(fund, calendar, d, rng) - fund.series[0].fee;
    }
    const std::int64_t start = fund.series[0].quota;
    const auto [peak, level] = PeakAndLevel(returns, fall - 1, start);
    // The fall: to 55 % (recovering) or 50 % (lasting) of the peak so far.
    Pin(returns, fall, bottom, level, sample::MulDiv(peak, recovers ? 55 : 50, 100));
    const auto [top, low] = PeakAndLevel(returns, bottom, start);
    // The rise: 15 % above every quota so far, or back to only 62 % of it by the window's end.
    Pin(returns, bottom + 1, end, low, sample::MulDiv(top, recovers ? 115 : 62, 100));
    fund.fixed_returns = std::move(returns);
    return true;
}

// Draws a fund of `kinds` not yet given a role.
class RolePicker {
public:
    RolePicker(std::uint64_t seed, std::vector<Fund>& funds)
        : rng_(Prng::ForStream(seed, kRolesStream)), funds_(funds), taken_(funds.size(), false) {}

    int Take(Kind kind) {
        std::vector<int> candidates;
        for (std::size_t i = 0; i < funds_.size(); ++i) {
            if (!taken_[i] && funds_[i].kind == kind) {
                candidates.push_back(static_cast<int>(i));
            }
        }
        if (candidates.empty()) {
            throw std::logic_error("inf_diario sample: no fund left of kind " + std::string(KindName(kind)));
        }
        const int index = rng_.Pick(candidates);
        taken_[static_cast<std::size_t>(index)] = true;
        return index;
    }
    bool Taken(std::size_t index) const { return taken_[index]; }
    Prng& Rng() { return rng_; }

private:
    Prng rng_;
    std::vector<Fund>& funds_;
    std::vector<bool> taken_;
};

// A fund that has investors to count (the NR_COTST cases).
void MakeOpen(Fund& fund) {
    FundSeries& series = fund.series[0];
    series.exclusive = false;
    series.investors = std::max<std::int64_t>(series.investors, 250);
}

// Random inceptions and cancellations inside the window for the funds without a role, at
// `start_per_mille` and `stop_per_mille` a month each.
void DrawLifetimes(std::uint64_t seed, std::vector<Fund>& funds, const std::vector<bool>& fixed,
                   const Calendar& calendar, int months, unsigned start_per_mille, unsigned stop_per_mille) {
    const auto n = static_cast<std::int32_t>(calendar.days.size());
    const unsigned start_chance = std::min(400U, start_per_mille * static_cast<unsigned>(months));
    const unsigned stop_chance = std::min(300U, stop_per_mille * static_cast<unsigned>(months));
    for (std::size_t i = 0; i < funds.size(); ++i) {
        Fund& fund = funds[i];
        if (fixed[i] || fund.subclasses_day) {
            continue;
        }
        Prng rng = Prng::ForStream(seed, kLifeStream, fund.number);
        const bool starts = rng.Chance(start_chance) && fund.first_day == 0 && n > 4;
        const bool stops = rng.Chance(stop_chance) && n > 4;
        if (starts) {
            // At least 15 business days from either end of a window longer than 60 days.
            const std::int32_t margin = n > 60 ? 15 : 1;
            fund.first_day = static_cast<std::int32_t>(rng.Between(margin, n - 1 - margin));
            fund.starts_new = fund.kind != Kind::kPrivateEquity;
        }
        if (stops) {
            const std::int32_t margin = n > 60 ? 15 : 1;
            const std::int32_t from = fund.first_day + margin;
            const std::int32_t to = n - 1 - std::max(margin, 6);  // gone before the lag's days
            if (from <= to) {
                fund.last_day = static_cast<std::int32_t>(rng.Between(from, to));
                fund.winds_down = true;
            }
        }
        if (fund.starts_new) {
            FundSeries& series = fund.series[0];
            series.quota = kOne;
            series.net_worth = rng.Between(1'000, 50'000) * 100'000;  // R$ 1 to 50 million of capital
            series.investors = series.exclusive ? 1 : rng.Between(1, 20);
        }
    }
}

// The share of the funds whose report of a day is in after `lag` business days (DATASETS-2 §1.4:
// under 1 % at lag 1, about 99 % by lag 5), per thousand.
constexpr std::int64_t kInByLag[] = {0, 10, 850, 950, 980, 990};

// The last month's publication lag: each fund alive at the window's end gets the business days
// its reports take to arrive (1..6), in exact proportions.
void DrawDelays(std::uint64_t seed, std::vector<Fund>& funds, const Calendar& calendar) {
    const auto last = static_cast<std::int32_t>(calendar.days.size()) - 1;
    std::vector<std::size_t> alive;
    for (std::size_t i = 0; i < funds.size(); ++i) {
        if (funds[i].last_day == last) {
            alive.push_back(i);
        }
    }
    Prng rng = Prng::ForStream(seed, kDelayStream);
    for (std::size_t i = alive.size(); i > 1; --i) {  // Fisher-Yates
        std::swap(alive[i - 1], alive[static_cast<std::size_t>(rng.Below(i))]);
    }
    const auto count = static_cast<std::int64_t>(alive.size());
    std::size_t at = 0;
    for (int delay = 1; delay <= 6; ++delay) {
        std::int64_t upto = delay == 6 ? count : sample::MulDiv(count, kInByLag[delay], 1000);
        if (delay == 1) {
            upto = std::max<std::int64_t>(upto, 1);
        }
        for (; at < alive.size() && static_cast<std::int64_t>(at) < upto; ++at) {
            funds[alive[at]].delay = delay;
        }
    }
}

// Orders the funds by CNPJ (the file's order) and maps the plan's indexes.
Universe Sorted(std::vector<Fund> funds, Plan plan) {
    std::vector<int> order(funds.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return funds[static_cast<std::size_t>(a)].cnpj < funds[static_cast<std::size_t>(b)].cnpj;
    });
    std::vector<int> position(funds.size());
    Universe universe;
    universe.funds.reserve(funds.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        position[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
        universe.funds.push_back(std::move(funds[static_cast<std::size_t>(order[i])]));
    }
    const auto map = [&](int& index) {
        if (index >= 0) {
            index = position[static_cast<std::size_t>(index)];
        }
    };
    map(plan.duplicate);
    map(plan.gap);
    map(plan.short_quota);
    map(plan.blank_investors);
    for (int& index : plan.subclass_classes) {
        map(index);
    }
    map(plan.recovering_drawdown);
    map(plan.lasting_drawdown);
    map(plan.late_start);
    map(plan.cancelled);
    map(plan.changed_values);
    map(plan.changed_investors);
    map(plan.added);
    map(plan.removed);
    std::sort(plan.subclass_classes.begin(), plan.subclass_classes.end());
    universe.plan = std::move(plan);
    return universe;
}

// FIPs file from the switch on.
void SetFirstDays(std::vector<Fund>& funds, const Calendar& calendar) {
    const auto n = static_cast<std::int32_t>(calendar.days.size());
    const std::int32_t from_switch = calendar.IndexOf(FirstOf(kSwitchMonth));
    for (Fund& fund : funds) {
        fund.first_day = fund.files_before_switch ? 0 : std::min(from_switch, n);
        fund.last_day = n - 1;
    }
}

}  // namespace

std::string_view KindName(Kind kind) {
    switch (kind) {
        case Kind::kDi:
            return "DI";
        case Kind::kFixedIncome:
            return "fixed income";
        case Kind::kMultimarket:
            return "multimarket";
        case Kind::kEquity:
            return "equity";
        case Kind::kIndex:
            return "index";
        case Kind::kPrivateEquity:
            return "private equity";
    }
    return "";
}

std::string_view TypeLabel(FundType type) {
    switch (type) {
        case FundType::kClassesFif:
            return "CLASSES - FIF";
        case FundType::kClassesFip:
            return "CLASSES - FIP";
        case FundType::kFi:
            return "FI";
        case FundType::kFundoDeIndice:
            return "FUNDO DE INDICE";
    }
    return "";
}

std::int32_t Calendar::IndexOf(const sdk::Date& date) const {
    return static_cast<std::int32_t>(std::lower_bound(days.begin(), days.end(), date) - days.begin());
}

std::int32_t Calendar::LastIndexOn(const sdk::Date& date) const {
    return static_cast<std::int32_t>(std::upper_bound(days.begin(), days.end(), date) - days.begin()) - 1;
}

Universe SampleUniverse(std::uint64_t seed, const Calendar& calendar) {
    if (calendar.days.empty()) {
        throw std::logic_error("inf_diario sample: a window without business days");
    }
    std::vector<Fund> funds;
    for (const KindCount& kinds : kSampleKinds) {
        for (int i = 0; i < kinds.count; ++i) {
            funds.push_back(NewFund(seed, funds.size(), kinds.kind));
        }
    }
    const std::vector<std::string> cnpjs = NewCnpjs(seed, funds.size());
    for (std::size_t i = 0; i < funds.size(); ++i) {
        funds[i].cnpj = cnpjs[i];
    }
    SetFirstDays(funds, calendar);

    const auto n = static_cast<std::int32_t>(calendar.days.size());
    const sdk::Date first = calendar.days.front();
    const sdk::Date last = calendar.days.back();
    const sdk::Month first_month = first.ToMonth();
    const sdk::Month last_month = last.ToMonth();
    const auto inside = [&](const sdk::Date& day) { return first < day && day <= last; };
    Plan plan;
    RolePicker roles(seed, funds);

    if (first_month <= kDuplicateFirstMonth && kDuplicateLastMonth < last_month) {
        plan.duplicate = roles.Take(Kind::kMultimarket);
        Fund& fund = funds[static_cast<std::size_t>(plan.duplicate)];
        fund.quota_decimals = 12;
        fund.duplicate_days = std::make_pair(calendar.IndexOf(FirstOf(kDuplicateFirstMonth)),
                                             calendar.LastIndexOn(sample::LastDayOfMonth(
                                                 kDuplicateLastMonth.year, kDuplicateLastMonth.month)));
    }
    if (inside(kGapDay) && calendar.days[static_cast<std::size_t>(calendar.IndexOf(kGapDay))] == kGapDay) {
        plan.gap = roles.Take(Kind::kDi);
        funds[static_cast<std::size_t>(plan.gap)].gap_day = calendar.IndexOf(kGapDay);
    }
    {
        plan.short_quota = roles.Take(Kind::kMultimarket);
        Fund& fund = funds[static_cast<std::size_t>(plan.short_quota)];
        fund.quota_decimals = 6;
        fund.printed_decimals = 6;
        FundSeries& series = fund.series[0];
        series.quota = series.quota / 1'000'000 * 1'000'000;
    }
    if (n > 12) {
        plan.blank_investors = roles.Take(Kind::kFixedIncome);
        Fund& fund = funds[static_cast<std::size_t>(plan.blank_investors)];
        MakeOpen(fund);
        // Days before the last month's lag, so that every one of them is in the file.
        std::vector<std::int32_t>& days = fund.blank_investor_days;
        const int wanted = std::min(8, (n - 6) / 2);
        while (static_cast<int>(days.size()) < wanted) {
            const auto day = static_cast<std::int32_t>(roles.Rng().Between(0, n - 7));
            if (std::find(days.begin(), days.end(), day) == days.end()) {
                days.push_back(day);
            }
        }
        std::sort(days.begin(), days.end());
    }
    // Classes filing per subclass: three split at the switch, one three months later.
    struct SubclassCase {
        Kind kind;
        int count;
        sdk::Month split;
    };
    static constexpr SubclassCase kSubclassCases[] = {
        {Kind::kDi, 3, kSwitchMonth},
        {Kind::kMultimarket, 2, kSwitchMonth},
        {Kind::kEquity, 3, kSwitchMonth},
        {Kind::kFixedIncome, 2, kLateSubclassMonth},
    };
    for (const SubclassCase& split : kSubclassCases) {
        if (last_month < split.split) {
            continue;
        }
        const int index = roles.Take(split.kind);
        Fund& fund = funds[static_cast<std::size_t>(index)];
        MakeOpen(fund);
        if (FollowsCdi(fund.kind)) {
            fund.series[0].cdi_share_ppm = roles.Rng().Between(1'020'000, 1'060'000);
        }
        const std::int32_t day = split.split < first_month ? -1 : calendar.IndexOf(FirstOf(split.split));
        AddSubclasses(seed, fund, split.count, split.split, day);
        plan.subclass_classes.push_back(index);
    }
    std::vector<int> drawdowns;
    for (const bool recovers : {true, false}) {
        const int index = roles.Take(Kind::kEquity);
        if (PlantDrawdown(seed, funds[static_cast<std::size_t>(index)], calendar, recovers)) {
            (recovers ? plan.recovering_drawdown : plan.lasting_drawdown) = index;
        }
    }
    if (inside(kLateStartDay) && calendar.IndexOf(kLateStartDay) < n) {
        plan.late_start = roles.Take(Kind::kMultimarket);
        Fund& fund = funds[static_cast<std::size_t>(plan.late_start)];
        fund.first_day = calendar.IndexOf(kLateStartDay);
        fund.starts_new = true;
        FundSeries& series = fund.series[0];
        series.quota = kOne;
        series.net_worth = 500'000'000;  // R$ 5 million of capital
        series.investors = 3;
        series.exclusive = false;
    }
    if (inside(kCancelledLastDay) && calendar.LastIndexOn(kCancelledLastDay) > 20) {
        plan.cancelled = roles.Take(Kind::kFixedIncome);
        Fund& fund = funds[static_cast<std::size_t>(plan.cancelled)];
        fund.last_day = calendar.LastIndexOn(kCancelledLastDay);
        fund.winds_down = true;
        MakeOpen(fund);
    }
    if (first_month <= kRepublishedMonth && kRepublishedMonth < last_month) {
        plan.changed_values = roles.Take(Kind::kEquity);
        for (std::int32_t d = calendar.IndexOf(kChangedFirstDay); d <= calendar.LastIndexOn(kChangedLastDay);
             ++d) {
            plan.changed_days.push_back(d);
        }
        plan.changed_investors = roles.Take(Kind::kMultimarket);
        MakeOpen(funds[static_cast<std::size_t>(plan.changed_investors)]);
        plan.changed_investors_day = calendar.IndexOf(kChangedInvestorsDay);
        plan.added = roles.Take(Kind::kEquity);
        plan.added_day = calendar.IndexOf(kAddedDay);
        plan.removed = roles.Take(Kind::kMultimarket);
        plan.removed_day = calendar.IndexOf(kRemovedDay);
    }
    // Funds that adapt to RCVM 175 late (FI after the switch) and two that never do.
    if (kSwitchMonth <= last_month) {
        static constexpr Kind kOrdinary[] = {Kind::kDi, Kind::kFixedIncome, Kind::kMultimarket,
                                             Kind::kEquity};
        for (int i = 0; i < 6; ++i) {
            Fund& fund = funds[static_cast<std::size_t>(roles.Take(kOrdinary[i % 4]))];
            if (i < 4) {
                const int from = MonthIndexOf(kSwitchMonth) + 1;
                fund.adapted = MonthOf(static_cast<int>(roles.Rng().Between(from, from + 11)));
            } else {
                fund.adapted = {2999, 12};
            }
        }
    }

    std::vector<bool> fixed(funds.size());
    for (std::size_t i = 0; i < funds.size(); ++i) {
        fixed[i] = roles.Taken(i);
    }
    const int months = MonthIndexOf(last_month) - MonthIndexOf(first_month) + 1;
    DrawLifetimes(seed, funds, fixed, calendar, months, 4, 2);
    DrawDelays(seed, funds, calendar);
    return Sorted(std::move(funds), std::move(plan));
}

Universe FullUniverse(std::uint64_t seed, const Calendar& calendar, std::size_t series) {
    if (calendar.days.empty()) {
        throw std::logic_error("inf_diario sample: a window without business days");
    }
    const sdk::Month first_month = calendar.days.front().ToMonth();
    const sdk::Month last_month = calendar.days.back().ToMonth();
    std::vector<Fund> funds;
    std::size_t count = 0;
    Prng rng = Prng::ForStream(seed, kRolesStream);
    while (count < series) {
        const Kind kind = kKinds[rng.Weighted(kFullKindWeights)];
        funds.push_back(NewFund(seed, funds.size(), kind));
        ++count;
        Fund& fund = funds.back();
        const bool ordinary = kind != Kind::kIndex && kind != Kind::kPrivateEquity;
        if (ordinary && rng.Chance(3)) {
            fund.adapted = {2999, 12};  // never adapted: still FI
        } else if (ordinary && rng.Chance(10)) {
            const int from = MonthIndexOf(kSwitchMonth) + 1;
            fund.adapted = MonthOf(static_cast<int>(rng.Between(from, from + 17)));
        }
        // About 3 % of the FIF classes file per subclass, split within 15 months of the switch.
        if (ordinary && fund.adapted == kSwitchMonth && rng.Chance(30)) {
            const sdk::Month split =
                MonthOf(MonthIndexOf(kSwitchMonth) + static_cast<int>(rng.Between(0, 15)));
            if (split <= last_month) {
                const int subclasses = static_cast<int>(rng.Between(2, 3));
                const std::int32_t day = split < first_month ? -1 : calendar.IndexOf(FirstOf(split));
                AddSubclasses(seed, fund, subclasses, split, day);
                count += static_cast<std::size_t>(subclasses) - 1;
            }
        }
    }
    const std::vector<std::string> cnpjs = NewCnpjs(seed, funds.size());
    for (std::size_t i = 0; i < funds.size(); ++i) {
        funds[i].cnpj = cnpjs[i];
    }
    SetFirstDays(funds, calendar);
    const int months = MonthIndexOf(last_month) - MonthIndexOf(first_month) + 1;
    DrawLifetimes(seed, funds, std::vector<bool>(funds.size(), false), calendar, months, 4, 3);
    return Sorted(std::move(funds), Plan{});
}

}  // namespace lastro::series::inf_diario
