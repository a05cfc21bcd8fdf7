#include "src/period.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/problem.hpp>

namespace lastro::industry {

Period ResolvePeriod(const sdk::Params& params, const std::string& latest) {
    const auto month = params.MonthValue("month");
    const auto from = params.MonthValue("from");
    const auto to = params.MonthValue("to");
    const auto months = params.Integer("months");
    if (month && (from || to || months)) {
        throw sdk::BadRequest("month asks for one exact month: do not combine it with from, to or months",
                              "month");
    }
    if (from && months) {
        throw sdk::BadRequest("give either from or months (with to), not both", "months");
    }
    sdk::Month last = to ? *to : *sdk::Month::Parse(latest);
    sdk::Month first = last;
    if (month) {
        first = last = *month;
    } else if (from) {
        first = *from;
    } else {
        for (std::int64_t i = 1; i < months.value_or(kDefaultMonths); ++i) {
            first = first.Previous();
        }
    }
    if (first > last) {
        throw sdk::BadRequest("from (" + first.ToString() + ") is after to (" + last.ToString() + ")",
                              "from");
    }
    Period period;
    period.from = first.ToString();
    period.to = last.ToString();
    for (sdk::Month m = first; m <= last; m = m.Next()) {
        period.months.push_back(m.ToString());
        if (period.months.size() > static_cast<std::size_t>(kMaxMonths)) {
            throw sdk::InvalidParameter(from ? "from" : "to", "the period " + period.from + " .. " +
                                                                  period.to + " is longer than " +
                                                                  std::to_string(kMaxMonths) +
                                                                  " months, the most one request serves");
        }
    }
    return period;
}

}  // namespace lastro::industry
