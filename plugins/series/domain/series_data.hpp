// One SGS series in memory, as the handlers read it: its observations in date order and, for a
// rate, the running product of its growths, so that any span compounds with one division
// (docs/transforms.md). Built once per data release (sdk::Remembered) from the stored rows.
#pragma once

#include "domain/decimal_math.hpp"
#include "domain/series_spec.hpp"

#include <lastro/sdk/calendar.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lastro::series {

struct Observation {
    sdk::Date date;
    std::optional<std::string> value;  // decimal text as published; nullopt: published empty
};

class SeriesData {
public:
    // `observations` in ascending date order, one per date.
    SeriesData(SeriesSpec spec, std::vector<Observation> observations);

    const SeriesSpec& Spec() const { return spec_; }
    const std::vector<Observation>& Observations() const { return observations_; }
    std::size_t Size() const { return observations_.size(); }
    const sdk::Date& DateAt(std::size_t i) const { return observations_[i].date; }

    // The first index whose date is on or after `date` (Size() when none).
    std::size_t LowerBound(const sdk::Date& date) const;
    // The first index whose date is after `date`.
    std::size_t UpperBound(const sdk::Date& date) const;

    // Rates: the product of the growths (1 + r/100) of observations [begin, end), as published
    // (a yearly rate's growth is its whole year's: Compounded converts it); nullopt when one
    // of them was published without a value.
    std::optional<Real> Growth(std::size_t begin, std::size_t end) const;
    // The growth over the span the observations [begin, end) cover: Growth, converted for a
    // rate quoted per year (to the 1/252 of a business day, or the 1/12 of a month, per
    // observation).
    std::optional<Real> Compounded(std::size_t begin, std::size_t end) const;

private:
    SeriesSpec spec_;
    std::vector<Observation> observations_;
    std::vector<Real> running_;                  // running_[i]: product of growths before i (rates)
    std::vector<std::uint32_t> missing_before_;  // values published empty before i
};

}  // namespace lastro::series
