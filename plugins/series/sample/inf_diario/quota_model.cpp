#include "sample/inf_diario/quota_model.hpp"

#include "domain/business_calendar.hpp"

#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace lastro::series::inf_diario {
namespace {

namespace sample = sdk::sample;
using sample::Prng;

constexpr std::uint64_t kMarketStream = sample::StreamOf("cvm.inf_diario_fi/market");
constexpr std::uint64_t kDuplicateStream = sample::StreamOf("cvm.inf_diario_fi/duplicate");

// The invented equity market: 0.04 % a day of drift (about 10 % a year), 1.1 % of daily
// deviation, and one day in 25 three times as wide (the fat tail).
constexpr std::int64_t kMarketDrift = 400'000'000;
constexpr std::int64_t kMarketSd = 11'000'000'000;
constexpr unsigned kMarketWidePerMille = 40;
// No day loses more than this (a fund's quota stays positive).
constexpr std::int64_t kWorstDay = -400'000'000'000;
// A winding-down fund redeems heavily over its last this many business days.
constexpr std::int32_t kWindDownDays = 15;

// 10^(12 - decimals): the quantum of a quota sent with `decimals` decimals.
constexpr std::int64_t kQuanta[] = {1,         10,         100,         1'000,         10'000,        100'000,
                                    1'000'000, 10'000'000, 100'000'000, 1'000'000'000, 10'000'000'000};

std::int64_t QuantumOf(int decimals) {
    const int index = 12 - decimals;
    if (index < 0 || index >= static_cast<int>(std::size(kQuanta))) {
        throw std::logic_error("inf_diario sample: a quota with " + std::to_string(decimals) + " decimals");
    }
    return kQuanta[index];
}

// Four days in a hundred two and a half times as wide as the rest.
std::int64_t FatTailed(Prng& rng, std::int64_t sd) {
    const bool wide = rng.Chance(30);
    return Normalish(rng, wide ? sd * 5 / 2 : sd);
}

}  // namespace

std::int64_t Normalish(Prng& rng, std::int64_t sd) {
    std::int64_t sum = 0;
    for (int i = 0; i < 4; ++i) {
        sum += rng.Between(-1'000'000, 1'000'000);
    }
    // The sum's deviation is 1e6 x sqrt(4/3).
    return sample::MulDiv(sum, sd, 1'154'701);
}

Calendar BuildCalendar(std::uint64_t seed, const sgs_sample::RateModel& model, const sdk::Date& first,
                       const sdk::Date& last, const sdk::Date& reference) {
    Calendar calendar;
    calendar.days = BusinessDays(first, last);
    const std::size_t n = calendar.days.size();
    if (n == 0) {
        return calendar;
    }
    const std::vector<sgs_sample::ModelDay>& model_days = model.Days();
    const auto at = std::lower_bound(
        model_days.begin(), model_days.end(), calendar.days.front(),
        [](const sgs_sample::ModelDay& day, const sdk::Date& date) { return day.date < date; });
    const auto from = static_cast<std::size_t>(at - model_days.begin());
    if (from == 0 || from + n > model_days.size()) {
        throw std::logic_error("inf_diario sample: the rate model does not cover " + first.ToString() +
                               " .. " + last.ToString());
    }
    calendar.texts.reserve(n);
    calendar.cdi.reserve(n);
    calendar.market.reserve(n);
    std::int64_t last_bp = -1;
    std::int64_t last_rate = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const sdk::Date& day = calendar.days[i];
        if (!(model_days[from + i].date == day)) {
            throw std::logic_error("inf_diario sample: the rate model's business days differ on " +
                                   day.ToString());
        }
        // The quota of a day accrues the CDI of the business day before: B3's DI of a day runs
        // from it to the next business day.
        const std::int64_t bp = model_days[from + i - 1].cdi_bp;
        if (bp != last_bp) {
            last_bp = bp;
            last_rate = sgs_sample::DailyRateFromAnnual(bp) * 10'000;  // 1e-8 to 1e-12
        }
        calendar.cdi.push_back(last_rate);
        calendar.texts.push_back(day.ToString());
        Prng rng = Prng::ForStream(seed, kMarketStream, static_cast<std::uint64_t>(sample::DayNumber(day)));
        const bool wide = rng.Chance(kMarketWidePerMille);
        calendar.market.push_back(
            std::max(kWorstDay / 2, kMarketDrift + Normalish(rng, wide ? kMarketSd * 3 : kMarketSd)));
    }
    calendar.month_end.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const sdk::Date next =
            i + 1 < n ? calendar.days[i + 1] : NextBusinessDay(sample::AddDays(calendar.days[i], 1));
        calendar.month_end[i] = next.month != calendar.days[i].month;
    }
    // Business days from each day to the reference day (the day the last file is written).
    calendar.lag.resize(n);
    int lag = 0;
    for (sdk::Date day = sample::AddDays(calendar.days.back(), 1); day <= reference;
         day = sample::AddDays(day, 1)) {
        lag += IsBusinessDay(day) ? 1 : 0;
    }
    for (std::size_t i = n; i-- > 0;) {
        calendar.lag[i] = lag++;
    }
    return calendar;
}

std::int64_t GrossReturn(const Fund& fund, const Calendar& calendar, std::int32_t day, Prng& rng) {
    const auto d = static_cast<std::size_t>(day);
    switch (fund.kind) {
        case Kind::kDi:
        case Kind::kFixedIncome:
            return Normalish(rng, fund.cdi_noise_ppm);
        case Kind::kMultimarket:
            return calendar.cdi[d] + fund.alpha +
                   sample::MulDiv(calendar.market[d] - kMarketDrift, fund.beta_ppm, kPpm) +
                   FatTailed(rng, fund.idio_sd);
        case Kind::kEquity:
            return sample::MulDiv(calendar.market[d], fund.beta_ppm, kPpm) + fund.alpha +
                   FatTailed(rng, fund.idio_sd);
        case Kind::kIndex:
            return calendar.market[d] + Normalish(rng, fund.idio_sd);
        case Kind::kPrivateEquity:
            // Revalued at the month's last business day only.
            return calendar.month_end[d] ? fund.alpha + Normalish(rng, fund.idio_sd) : 0;
    }
    return 0;
}

QuotaSimulation::QuotaSimulation(std::uint64_t seed, Universe& universe, const Calendar& calendar)
    : seed_(seed),
      universe_(universe),
      calendar_(calendar),
      alive_(calendar.days.size()),
      filed_(calendar.days.size()) {}

void QuotaSimulation::Month(std::int32_t begin, std::int32_t end, std::vector<DailyRow>& rows) {
    if (begin >= end) {
        return;
    }
    const sdk::Month month = calendar_.days[static_cast<std::size_t>(begin)].ToMonth();
    for (std::uint32_t index = 0; index < universe_.funds.size(); ++index) {
        Fund& fund = universe_.funds[index];
        const std::int32_t from = std::max(begin, fund.first_day);
        const std::int32_t to = std::min(end - 1, fund.last_day);
        if (from > to) {
            continue;
        }
        draws_.assign(static_cast<std::size_t>(to - from + 1), 0);
        if (fund.fixed_returns.empty()) {
            for (std::int32_t d = from; d <= to; ++d) {
                draws_[static_cast<std::size_t>(d - from)] = GrossReturn(fund, calendar_, d, fund.rng);
            }
        }
        if (fund.subclasses_day && *fund.subclasses_day >= from && *fund.subclasses_day <= to) {
            Split(fund);
        }
        const FundType type = TypeIn(fund, month);
        for (std::size_t s = 0; s < fund.series.size(); ++s) {
            std::int32_t series_from = from;
            std::int32_t series_to = to;
            if (fund.subclasses_day) {
                if (s == 0) {
                    series_to = std::min(to, *fund.subclasses_day - 1);
                } else {
                    series_from = std::max(from, *fund.subclasses_day);
                }
            } else if (s > 0) {
                break;
            }
            for (std::int32_t d = series_from; d <= series_to; ++d) {
                Step(index, fund, static_cast<std::uint16_t>(s), d,
                     draws_[static_cast<std::size_t>(d - from)], type, rows);
            }
        }
        for (std::int32_t d = from; d <= to; ++d) {
            const auto i = static_cast<std::size_t>(d);
            ++alive_[i];
            if (d != fund.gap_day && calendar_.lag[i] >= fund.delay) {
                ++filed_[i];
            }
        }
    }
}

void QuotaSimulation::Split(Fund& fund) {
    const FundSeries& base = fund.series[0];
    std::vector<std::int64_t> weights;
    for (std::size_t s = 1; s < fund.series.size(); ++s) {
        weights.push_back(fund.series[s].weight);
    }
    const std::vector<std::int64_t> worth = sample::Allocate(base.net_worth, weights);
    const std::vector<std::int64_t> investors = sample::Allocate(base.investors, weights);
    for (std::size_t s = 1; s < fund.series.size(); ++s) {
        FundSeries& series = fund.series[s];
        series.quota = base.quota;
        series.net_worth = worth[s - 1];
        series.investors = std::max<std::int64_t>(1, investors[s - 1]);
        series.started = true;
    }
}

void QuotaSimulation::Step(std::uint32_t index, Fund& fund, std::uint16_t series_index, std::int32_t day,
                           std::int64_t draw, FundType type, std::vector<DailyRow>& rows) {
    FundSeries& series = fund.series[series_index];
    const auto d = static_cast<std::size_t>(day);
    std::int64_t subscriptions = 0;
    std::int64_t redemptions = 0;
    if (fund.starts_new && day == fund.first_day && !series.started) {
        // Inception: quota 1, the day's subscription is the capital (series.net_worth).
        series.quota = kOne;
        subscriptions = series.net_worth;
    } else {
        std::int64_t rate = 0;
        if (!fund.fixed_returns.empty()) {
            rate = fund.fixed_returns[d];
        } else if (FollowsCdi(fund.kind)) {
            rate = sample::MulDiv(calendar_.cdi[d],
                                  std::clamp(series.cdi_share_ppm + draw, kCdiShareMinPpm, kCdiShareMaxPpm),
                                  kPpm);
        } else {
            rate = draw - series.fee;
        }
        rate = std::max(rate, kWorstDay);
        const std::int64_t quantum = QuantumOf(fund.quota_decimals);
        const std::int64_t quota =
            std::max(quantum, sample::MulDiv(series.quota, kOne + rate, kOne * quantum) * quantum);
        const std::int64_t grown = sample::MulDiv(series.net_worth, quota, series.quota);
        if (fund.winds_down && day > fund.last_day - kWindDownDays) {
            redemptions = sample::MulDiv(grown, series.rng.Between(40'000, 120'000), kPpm);
        } else {
            if (series.rng.Chance(series.subscription_per_mille)) {
                subscriptions =
                    sample::MulDiv(grown, series.rng.Between(series.flow_ppm / 5, series.flow_ppm), kPpm);
            }
            if (series.rng.Chance(series.redemption_per_mille)) {
                redemptions = std::min(
                    sample::MulDiv(grown, series.rng.Between(series.flow_ppm / 5, series.flow_ppm), kPpm),
                    grown / 3);
            }
        }
        series.quota = quota;
        series.net_worth = grown + subscriptions - redemptions;
    }
    series.started = true;
    if (!series.exclusive) {
        const std::int64_t step = 1 + series.investors / 800;
        if (subscriptions > 0) {
            series.investors += series.rng.Between(0, step);
        }
        if (redemptions > 0) {
            series.investors = std::max<std::int64_t>(1, series.investors - series.rng.Between(0, step));
        }
    }
    const std::int64_t liabilities =
        series.liabilities_ppm + series.rng.Between(0, series.liabilities_ppm / 5);
    const std::int64_t total = series.net_worth + sample::MulDiv(series.net_worth, liabilities, kPpm);

    if (day == fund.gap_day || calendar_.lag[d] < fund.delay) {
        return;  // simulated, not filed
    }
    DailyRow row;
    row.fund = index;
    row.series = series_index;
    row.type = type;
    row.blank_investors =
        std::binary_search(fund.blank_investor_days.begin(), fund.blank_investor_days.end(), day);
    row.day = day;
    row.total = total;
    row.quota = series.quota;
    row.net_worth = series.net_worth;
    row.subscriptions = subscriptions;
    row.redemptions = redemptions;
    row.investors = series.investors;
    rows.push_back(row);
    if (series_index == 0 && fund.duplicate_days && fund.duplicate_days->first <= day &&
        day <= fund.duplicate_days->second) {
        // The transition artifact: the same CNPJ and day filed again as FI, the quota cut to 8
        // decimals and R$ 10 to 500 less in the portfolio and net worth.
        Prng rng = Prng::ForStream(seed_, kDuplicateStream, d);
        const std::int64_t less = rng.Between(1'000, 50'000);
        DailyRow copy = row;
        copy.type = FundType::kFi;
        copy.quota = row.quota - row.quota % 10'000;
        copy.net_worth -= less;
        copy.total -= less;
        rows.push_back(copy);
    }
}

}  // namespace lastro::series::inf_diario
