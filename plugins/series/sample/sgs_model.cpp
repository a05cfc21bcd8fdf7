#include "sample/sgs_model.hpp"

#include "domain/business_calendar.hpp"

#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace lastro::series::sgs_sample {

namespace sample = sdk::sample;

namespace {

constexpr std::int64_t kE8 = 100'000'000;
constexpr __int128 kE16 = static_cast<__int128>(kE8) * kE8;

// The IPCA's monthly mean, hundredths of a percent, at points of its history; linear between
// them. Consecutive months are a plan's break (Cruzado 1986-03, Collor 1990-04, Real 1994-07).
struct IpcaAnchor {
    int year;
    int month;
    std::int64_t mean;
};
constexpr IpcaAnchor kIpcaAnchors[] = {
    {1980, 1, 600},   {1982, 12, 650},  {1983, 12, 950}, {1985, 12, 1150}, {1986, 2, 1400},
    {1986, 3, 50},    {1986, 10, 150},  {1986, 12, 700}, {1987, 6, 2100},  {1987, 7, 300},
    {1987, 12, 1300}, {1988, 12, 2800}, {1989, 1, 3700}, {1989, 2, 1600},  {1989, 3, 600},
    {1989, 12, 5000}, {1990, 2, 7200},  {1990, 3, 8239}, {1990, 4, 1550},  {1990, 5, 760},
    {1990, 12, 1700}, {1991, 2, 2000},  {1991, 3, 700},  {1991, 12, 2300}, {1992, 12, 2500},
    {1993, 12, 3700}, {1994, 6, 4700},  {1994, 7, 684},  {1994, 8, 200},   {1994, 12, 170},
    {1995, 12, 120},  {1996, 12, 50},   {1998, 6, 20},   {1999, 2, 100},   {1999, 12, 60},
    {2001, 12, 60},   {2002, 9, 70},    {2002, 11, 280}, {2003, 2, 130},   {2003, 6, 30},
    {2004, 12, 55},   {2006, 6, 25},    {2008, 6, 60},   {2009, 12, 35},   {2011, 6, 55},
    {2014, 12, 55},   {2015, 6, 85},    {2016, 6, 50},   {2017, 6, 20},    {2018, 12, 30},
    {2019, 6, 30},    {2020, 4, 5},     {2020, 6, 20},   {2020, 12, 80},   {2021, 9, 100},
    {2022, 4, 100},   {2022, 8, 20},    {2022, 12, 50},  {2023, 6, 20},    {2024, 12, 45},
    {2026, 12, 35},
};
// The hyperinflation record (SGS 433, 1990-03): written exactly, and no other month reaches it.
constexpr sdk::Month kIpcaPeakMonth{1990, 3};
constexpr std::int64_t kIpcaPeak = 8239;
constexpr std::int64_t kIpcaOtherMax = 8000;
// Seasonality of the post-Real IPCA (school fees in February, food prices falling mid-year).
constexpr std::int64_t kIpcaSeason[12] = {12, 8, 3, 0, -3, -10, -8, -10, -3, 3, 2, 8};
// The forced marks of the sample (a 0.00 month, negative months) fall in these years on.
constexpr int kMarksFromYear = 2019;
constexpr int kNegativeMonths = 3;

// The Selic target, hundredths of a percent a year, at points of its history since the Real
// plan (capped at 14.25 % from 2010); each point moves by a seeded jitter, and Copom meetings
// step towards the line through them.
struct TargetAnchor {
    sdk::Date day;
    std::int64_t bp;
};
constexpr TargetAnchor kTargetAnchors[] = {
    {{1994, 7, 1}, 11000}, {{1994, 12, 1}, 5500},  {{1995, 3, 15}, 6500}, {{1995, 12, 1}, 3800},
    {{1996, 6, 1}, 2400},  {{1997, 9, 1}, 2000},   {{1997, 11, 1}, 4300}, {{1998, 6, 1}, 2100},
    {{1998, 10, 1}, 4000}, {{1999, 3, 5}, 4500},   {{1999, 7, 1}, 2100},  {{2000, 6, 1}, 1750},
    {{2001, 1, 1}, 1525},  {{2001, 8, 1}, 1900},   {{2002, 6, 1}, 1800},  {{2002, 12, 1}, 2500},
    {{2003, 3, 1}, 2650},  {{2003, 12, 1}, 1650},  {{2004, 6, 1}, 1600},  {{2005, 5, 1}, 1975},
    {{2006, 12, 1}, 1325}, {{2007, 10, 1}, 1125},  {{2008, 9, 15}, 1375}, {{2009, 7, 22}, 875},
    {{2010, 3, 1}, 875},   {{2010, 7, 22}, 1075},  {{2011, 7, 21}, 1250}, {{2012, 10, 11}, 725},
    {{2013, 4, 1}, 725},   {{2014, 4, 3}, 1100},   {{2015, 7, 30}, 1425}, {{2016, 10, 1}, 1425},
    {{2017, 12, 7}, 700},  {{2018, 3, 22}, 650},   {{2019, 7, 1}, 650},   {{2019, 12, 12}, 450},
    {{2020, 8, 6}, 200},   {{2021, 3, 1}, 200},    {{2021, 12, 9}, 925},  {{2022, 8, 4}, 1375},
    {{2023, 8, 1}, 1375},  {{2024, 5, 9}, 1050},   {{2024, 9, 1}, 1050},  {{2025, 5, 8}, 1425},
    {{2026, 1, 1}, 1425},  {{2026, 12, 31}, 1300},
};
constexpr sdk::Date kBoundsFrom{2010, 1, 1};  // from here the target stays in [2.00, 14.25]
constexpr std::int64_t kTargetFloor = 200;
constexpr std::int64_t kTargetCeiling = 1425;
// Before this day the effective rates wander around the target more (open market operations
// were less tightly steered); after it they sit at target - 0.10 with rare 0.01 moves.
constexpr sdk::Date kSteadyFrom{2003, 1, 1};
// Copom met about monthly until 2005, eight times a year (every ~45 days) since 2006.
constexpr sdk::Date kEightMeetingsFrom{2006, 1, 1};

constexpr std::uint64_t kIpcaStream = sample::StreamOf("bcb.sgs/ipca");
constexpr std::uint64_t kIpcaMarksStream = sample::StreamOf("bcb.sgs/ipca-marks");
constexpr std::uint64_t kRealRateStream = sample::StreamOf("bcb.sgs/real-rate");
constexpr std::uint64_t kSelicStream = sample::StreamOf("bcb.sgs/selic");
constexpr std::uint64_t kCdiStream = sample::StreamOf("bcb.sgs/cdi");
constexpr std::uint64_t kAnchorStream = sample::StreamOf("bcb.sgs/copom-anchors");
constexpr std::uint64_t kCopomStream = sample::StreamOf("bcb.sgs/copom");

// x rounded half away from zero to a multiple of 25 (a quarter point).
std::int64_t RoundToQuarter(std::int64_t x) {
    return sample::MulDiv(x, 1, 25) * 25;
}

std::int64_t IpcaMean(const sdk::Month& month) {
    const int index = MonthIndex(month);
    const IpcaAnchor* previous = nullptr;
    for (const IpcaAnchor& anchor : kIpcaAnchors) {
        const int at = MonthIndex({anchor.year, anchor.month});
        if (at == index) {
            return anchor.mean;
        }
        if (at > index) {
            if (previous == nullptr) {
                return anchor.mean;
            }
            const int from = MonthIndex({previous->year, previous->month});
            return previous->mean + sample::MulDiv(anchor.mean - previous->mean, index - from, at - from);
        }
        previous = &anchor;
    }
    return previous->mean;
}

// A Wednesday on or after `day` that is a business day (or the business day after it).
sdk::Date MeetingOnOrAfter(const sdk::Date& day) {
    sdk::Date wednesday = day;
    while (sample::Weekday(wednesday) != 3) {
        wednesday = sample::AddDays(wednesday, 1);
    }
    return NextBusinessDay(wednesday);
}

struct TargetChange {
    sdk::Date effective;
    std::int64_t bp;
};

// The target path: Copom meetings from the Real plan to `last_day`, each stepping in quarter
// points towards the jittered anchor line; a decision applies from the next business day.
std::vector<TargetChange> SimulateCopom(std::uint64_t seed, const sdk::Date& last_day) {
    std::vector<std::int64_t> days;
    std::vector<std::int64_t> levels;
    std::uint64_t index = 0;
    for (const TargetAnchor& anchor : kTargetAnchors) {
        sample::Prng rng = sample::Prng::ForStream(seed, kAnchorStream, index++);
        const std::int64_t spread = std::max<std::int64_t>(40, anchor.bp / 20);
        days.push_back(sample::DayNumber(anchor.day));
        levels.push_back(anchor.bp + rng.Between(-spread, spread));
    }
    const auto desired = [&](const sdk::Date& day) {
        const std::int64_t n = sample::DayNumber(day);
        if (n <= days.front()) {
            return levels.front();
        }
        for (std::size_t i = 1; i < days.size(); ++i) {
            if (n <= days[i]) {
                return levels[i - 1] +
                       sample::MulDiv(levels[i] - levels[i - 1], n - days[i - 1], days[i] - days[i - 1]);
            }
        }
        return levels.back();
    };

    std::int64_t current = RoundToQuarter(desired(kRealPlanDay));
    std::vector<TargetChange> changes{{kRealPlanDay, current}};
    sdk::Date meeting = MeetingOnOrAfter(sample::AddDays(kRealPlanDay, 30));
    for (std::uint64_t k = 0; meeting <= last_day; ++k) {
        sample::Prng rng = sample::Prng::ForStream(seed, kCopomStream, k);
        const std::int64_t diff = desired(meeting) - current;
        const std::int64_t max_step = meeting < sdk::Date{1999, 1, 1}   ? 1500
                                      : meeting < sdk::Date{2000, 1, 1} ? 600
                                      : meeting < kEightMeetingsFrom    ? 150
                                                                        : 100;
        std::int64_t step = RoundToQuarter(sample::MulDiv(diff, rng.Between(60, 100), 100));
        if (std::abs(diff) < 75 && rng.Chance(250)) {
            step = 0;  // a pause when close: Copom does not chase every quarter point
        }
        step = std::clamp(step, -max_step, max_step);
        std::int64_t next = std::max(current + step, kTargetFloor);
        if (!(meeting < kBoundsFrom)) {
            next = std::min(next, kTargetCeiling);
        }
        if (next != current) {
            changes.push_back({NextBusinessDay(sample::AddDays(meeting, 1)), next});
            current = next;
        }
        const int gap = meeting < kEightMeetingsFrom ? static_cast<int>(rng.Between(28, 38))
                                                     : static_cast<int>(rng.Between(42, 49));
        meeting = MeetingOnOrAfter(sample::AddDays(meeting, gap));
    }
    return changes;
}

// -1, 0 or +1: a rare move of one hundredth.
std::int64_t Wobble(sample::Prng& rng, unsigned per_mille) {
    if (!rng.Chance(per_mille)) {
        return 0;
    }
    return rng.Chance(500) ? 1 : -1;
}

}  // namespace

std::int64_t DailyRateFromAnnual(std::int64_t annual_bp) {
    const long double growth = 1.0L + static_cast<long double>(annual_bp) / 10000.0L;
    const long double factor = std::pow(growth, 1.0L / 252.0L);
    // Half up at the 8th decimal: the factor is positive.
    const auto units = static_cast<std::int64_t>(std::floor(factor * static_cast<long double>(kE8) + 0.5L));
    return units - kE8;
}

std::int64_t MonthlyRateFromAnnual(std::int64_t annual_bp) {
    const long double growth = 1.0L + static_cast<long double>(annual_bp) / 10000.0L;
    return std::llround((std::pow(growth, 1.0L / 12.0L) - 1.0L) * 1'000'000.0L);
}

std::int64_t CompoundedPercent(std::span<const std::int64_t> daily_rates) {
    __int128 factor = kE16;
    for (const std::int64_t rate : daily_rates) {
        factor = factor * (kE8 + rate) / kE8;  // truncated to 16 decimals, as B3 accumulates
    }
    // (factor - 1) x 100 in hundredths is (factor - 1) at 1e-4: drop 12 of the 16 decimals.
    const __int128 excess = factor - kE16;
    const __int128 unit = static_cast<__int128>(1'000'000'000'000LL);
    const __int128 rounded = excess >= 0 ? (excess + unit / 2) / unit : -((-excess + unit / 2) / unit);
    return static_cast<std::int64_t>(rounded);
}

RateModel::RateModel(std::uint64_t seed, const sdk::Date& last_day, const sdk::Month& last_month) {
    BuildIpca(seed, last_month);
    BuildDays(seed, last_day);
}

void RateModel::BuildIpca(std::uint64_t seed, const sdk::Month& last_month) {
    // The forced months first: 3 negative ones in April..September of distinct years, one 0.00.
    sample::Prng marks = sample::Prng::ForStream(seed, kIpcaMarksStream);
    std::vector<sdk::Month> candidates;
    for (int index = MonthIndex({kMarksFromYear, 1}); index <= MonthIndex(last_month); ++index) {
        candidates.push_back(MonthAt(index));
    }
    if (!candidates.empty()) {
        for (int attempt = 0; attempt < 1000 && static_cast<int>(negative_months_.size()) < kNegativeMonths;
             ++attempt) {
            const sdk::Month month = marks.Pick(candidates);
            const bool taken = std::any_of(negative_months_.begin(), negative_months_.end(),
                                           [&](const sdk::Month& m) { return m.year == month.year; });
            // Deflation comes in the mid-year months of calm years, not amid an inflation spike.
            if (month.month >= 4 && month.month <= 9 && IpcaMean(month) <= 40 && !taken) {
                negative_months_.push_back(month);
            }
        }
        std::sort(negative_months_.begin(), negative_months_.end());
        do {
            zero_month_ = marks.Pick(candidates);
        } while (std::find(negative_months_.begin(), negative_months_.end(), zero_month_) !=
                 negative_months_.end());
    }

    for (int index = MonthIndex(kModelFirstMonth); index <= MonthIndex(last_month); ++index) {
        const sdk::Month month = MonthAt(index);
        sample::Prng rng = sample::Prng::ForStream(seed, kIpcaStream, static_cast<std::uint64_t>(index));
        const std::int64_t mean = IpcaMean(month);
        std::int64_t value = 0;
        if (month == kIpcaPeakMonth) {
            value = kIpcaPeak;
        } else if (mean >= 300) {
            value = std::min(sample::MulDiv(mean, 100 + rng.Between(-12, 12), 100), kIpcaOtherMax);
        } else {
            const std::int64_t season = month < sdk::Month{1995, 1} ? 0 : kIpcaSeason[month.month - 1];
            value = mean + season + rng.Between(-25, 25);
        }
        if (std::find(negative_months_.begin(), negative_months_.end(), month) != negative_months_.end()) {
            value = -rng.Between(2, 68);
        } else if (month == zero_month_ && !candidates.empty()) {
            value = 0;
        } else if (value == 0) {
            value = 1;  // exactly one month of the series prints 0.00
        }
        months_.push_back({month, value});
    }
}

std::int64_t RateModel::IpcaOf(const sdk::Month& month) const {
    const int offset = MonthIndex(month) - MonthIndex(kModelFirstMonth);
    if (offset >= 0 && offset < static_cast<int>(months_.size())) {
        return months_[static_cast<std::size_t>(offset)].ipca;
    }
    return IpcaMean(month);
}

void RateModel::BuildDays(std::uint64_t seed, const sdk::Date& last_day) {
    const std::vector<TargetChange> changes = SimulateCopom(seed, last_day);
    target_changes_ = changes.size() - 1;
    std::size_t change = 0;
    // Counted from the first of kModelFirstDay's month: a month's interest spreads over all of it.
    std::map<int, int> business_days_in_month;
    std::vector<sdk::Date> days;
    for (const sdk::Date& day : BusinessDays({kModelFirstDay.year, kModelFirstDay.month, 1}, last_day)) {
        ++business_days_in_month[MonthIndex(day.ToMonth())];
        if (!(day < kModelFirstDay)) {
            days.push_back(day);
        }
    }

    days_.reserve(days.size());
    for (const sdk::Date& day : days) {
        const auto key = static_cast<std::uint64_t>(sample::DayNumber(day));
        sample::Prng selic_rng = sample::Prng::ForStream(seed, kSelicStream, key);
        sample::Prng cdi_rng = sample::Prng::ForStream(seed, kCdiStream, key);
        ModelDay model{day, std::nullopt, 0, 0};
        if (day < kRealPlanDay) {
            // Hyperinflation: a month's interest is its inflation plus a real rate, spread over
            // its business days, each day a little off the month's mean.
            const sdk::Month month = day.ToMonth();
            const int index = MonthIndex(month);
            sample::Prng real_rng =
                sample::Prng::ForStream(seed, kRealRateStream, static_cast<std::uint64_t>(index));
            const long double inflation = static_cast<long double>(IpcaOf(month)) / 10000.0L;
            const long double real = static_cast<long double>(real_rng.Between(40, 200)) / 10000.0L;
            const long double monthly = std::max((1.0L + inflation) * (1.0L + real) - 1.0L, 0.003L);
            const long double base =
                std::pow(1.0L + monthly, 1.0L / static_cast<long double>(business_days_in_month[index])) -
                1.0L;
            const long double daily =
                base * (1.0L + static_cast<long double>(selic_rng.Between(-300, 300)) / 10000.0L);
            model.selic_bp = std::llround((std::pow(1.0L + daily, 252.0L) - 1.0L) * 10000.0L);
            model.cdi_bp =
                model.selic_bp + sample::MulDiv(model.selic_bp, cdi_rng.Between(-30, 20), 10000) - 10;
        } else {
            while (change + 1 < changes.size() && !(day < changes[change + 1].effective)) {
                ++change;
            }
            const std::int64_t target = changes[change].bp;
            model.target_bp = target;
            if (day < kSteadyFrom) {
                model.selic_bp = target - 10 + selic_rng.Between(-15, 15);
                model.cdi_bp = model.selic_bp - 10 + cdi_rng.Between(-10, 10);
            } else {
                model.selic_bp = target - 10 + Wobble(selic_rng, 20);
                model.cdi_bp = model.selic_bp - 10 + Wobble(cdi_rng, 30);
            }
        }
        days_.push_back(model);
    }
}

}  // namespace lastro::series::sgs_sample
