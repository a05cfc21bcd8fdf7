// The parameters every series operation shares: the date range (from_date, to_date as
// YYYY-MM-DD, YYYY-MM or YYYY), frequency and transform, and the cursor's position.
#pragma once

#include "domain/transforms.hpp"

#include <lastro/sdk/params.hpp>

#include <boost/describe/class.hpp>

#include <optional>
#include <string>

namespace lastro::series {

// `name` as a day: YYYY-MM-DD as is; YYYY-MM and YYYY as their first day, or with `last` their
// last one. sdk::InvalidParameter naming `name` otherwise.
std::optional<sdk::Date> ReadDateBound(const sdk::Params& params, const std::string& name, bool last);

// from_date, to_date (from_date after to_date is 422 naming to_date), transform and frequency
// (`native` when not asked; nullopt native: required).
SeriesQuery ReadSeriesQuery(const sdk::Params& params, std::optional<Frequency> native);

// Where a page starts: after the period `after` (a PeriodSpan::key).
struct PeriodAfter {
    std::string after;
    bool Valid() const;
};
BOOST_DESCRIBE_STRUCT(PeriodAfter, (), (after))

// The CDI's: also the factor accumulated through that period (B3's, 16 decimals, as digits);
// null once a day without a rate was passed.
struct CdiAfter {
    std::string after;
    std::optional<std::string> accumulated;
    bool Valid() const;
};
BOOST_DESCRIBE_STRUCT(CdiAfter, (), (after, accumulated))

}  // namespace lastro::series
