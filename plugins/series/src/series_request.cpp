#include "src/series_request.hpp"

#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <cctype>

namespace lastro::series {
namespace {

bool AllDigits(const std::string& text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool IsPeriodKey(const std::string& key) {
    return (key.size() == 4 && AllDigits(key)) || (key.size() == 7 && sdk::Month::Parse(key)) ||
           (key.size() == 10 && sdk::Date::Parse(key));
}

}  // namespace

std::optional<sdk::Date> ReadDateBound(const sdk::Params& params, const std::string& name, bool last) {
    const std::optional<std::string> text = params.String(name);
    if (!text) {
        return std::nullopt;
    }
    if (text->size() == 10) {
        if (std::optional<sdk::Date> date = sdk::Date::Parse(*text)) {
            return date;
        }
    } else if (text->size() == 7) {
        if (std::optional<sdk::Month> month = sdk::Month::Parse(*text)) {
            return sdk::Date{month->year, month->month,
                             last ? sdk::DaysInMonth(month->year, month->month) : 1};
        }
    } else if (text->size() == 4 && AllDigits(*text)) {
        if (std::optional<sdk::Month> month = sdk::Month::Parse(*text + "-01")) {
            return last ? sdk::Date{month->year, 12, 31} : sdk::Date{month->year, 1, 1};
        }
    }
    throw sdk::InvalidParameter(
        name,
        "expected a date YYYY-MM-DD, a month YYYY-MM or a year YYYY (1900..2999), found '" + *text + "'");
}

SeriesQuery ReadSeriesQuery(const sdk::Params& params, std::optional<Frequency> native) {
    SeriesQuery query;
    query.from = ReadDateBound(params, "from_date", false);
    query.to = ReadDateBound(params, "to_date", true);
    if (query.from && query.to && *query.to < *query.from) {
        throw sdk::InvalidParameter("to_date", "to_date (" + query.to->ToString() +
                                                   ") is before from_date (" + query.from->ToString() + ")");
    }
    if (const std::optional<std::string> frequency = params.String("frequency")) {
        query.frequency = ParseFrequency(*frequency).value();  // the manifest's enum
    } else if (native) {
        query.frequency = *native;
    } else {
        throw sdk::InvalidParameter(
            "frequency", "the series differ in frequency: ask frequency=monthly or yearly to align them");
    }
    query.transform = ParseTransform(params.String("transform").value_or("none")).value();
    return query;
}

bool PeriodAfter::Valid() const {
    return IsPeriodKey(after);
}

bool CdiAfter::Valid() const {
    return IsPeriodKey(after) && (!accumulated || (AllDigits(*accumulated) && accumulated->size() <= 60));
}

}  // namespace lastro::series
