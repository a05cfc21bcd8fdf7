// The quota model of the daily-report sample (docs/sample.md): every business day each fund's
// quota moves by its kind's return on the sample's CDI (sample/sgs_model.hpp, the values SGS 12
// publishes) and on one invented equity market, its net worth by that return plus the day's
// subscriptions less redemptions, and the day becomes the rows CVM's file holds. All in integers:
// quotas in 1e-12, money in cents, returns in 1e-12; the same seed gives the same rows anywhere.
#pragma once

#include "sample/inf_diario/fund_universe.hpp"
#include "sample/sgs_model.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <cstdint>
#include <vector>

namespace lastro::series::inf_diario {

// Months counted from January of year 0.
inline int MonthIndexOf(const sdk::Month& month) {
    return sgs_sample::MonthIndex(month);
}
inline sdk::Month MonthOf(int index) {
    return sgs_sample::MonthAt(index);
}

// The business days from `first` to `last`, with the CDI under each (from `model`, which must
// cover the business day before `first`), the market's returns (stream per day, so a day's
// return does not depend on the window) and the lag of each to `reference`.
Calendar BuildCalendar(std::uint64_t seed, const sgs_sample::RateModel& model, const sdk::Date& first,
                       const sdk::Date& last, const sdk::Date& reference);

// About a normal draw with standard deviation `sd` (the sum of four uniforms, so bounded at
// 3.5 sd), in integers.
std::int64_t Normalish(sdk::sample::Prng& rng, std::int64_t sd);

// Day `day`'s draw of the class: the gross return of the non-CDI kinds (1e-12), or, for the CDI
// kinds, the day's noise around each series' share of the CDI (parts per million of the CDI).
std::int64_t GrossReturn(const Fund& fund, const Calendar& calendar, std::int32_t day,
                         sdk::sample::Prng& rng);

// One row of CVM's file.
struct DailyRow {
    std::uint32_t fund = 0;    // into Universe::funds
    std::uint16_t series = 0;  // into Fund::series
    FundType type = FundType::kClassesFif;
    bool blank_investors = false;
    std::int32_t day = 0;  // into Calendar::days
    std::int64_t total = 0;
    std::int64_t quota = 0;
    std::int64_t net_worth = 0;
    std::int64_t subscriptions = 0;
    std::int64_t redemptions = 0;
    std::int64_t investors = 0;
};

class QuotaSimulation {
public:
    QuotaSimulation(std::uint64_t seed, Universe& universe, const Calendar& calendar);

    // Simulates the business days [begin, end) of one month (each day once, in order, after the
    // days before) and appends the month's rows in the file's order: by CNPJ, ID_SUBCLASSE
    // (blank first), day, and type. Days a fund does not file (its gap, the lag) are simulated
    // and left out.
    void Month(std::int32_t begin, std::int32_t end, std::vector<DailyRow>& rows);

    // Per business day: the funds and classes alive (expected to file) and those whose rows are
    // in the file (each class counted once, whatever its subclasses).
    const std::vector<std::size_t>& Alive() const { return alive_; }
    const std::vector<std::size_t>& Filed() const { return filed_; }

private:
    void Split(Fund& fund);
    void Step(std::uint32_t index, Fund& fund, std::uint16_t series_index, std::int32_t day,
              std::int64_t draw, FundType type, std::vector<DailyRow>& rows);

    std::uint64_t seed_;
    Universe& universe_;
    const Calendar& calendar_;
    std::vector<std::int64_t> draws_;
    std::vector<std::size_t> alive_;
    std::vector<std::size_t> filed_;
};

}  // namespace lastro::series::inf_diario
