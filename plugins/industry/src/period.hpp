// The months a request asks for (docs/api/industria.md, "Period"): `month`, or `from`/`to`, or
// `months` ending at `to`; by default the 12 months ending at the latest month with reports.
#pragma once

#include <lastro/sdk/params.hpp>

#include <string>
#include <vector>

namespace lastro::industry {

inline constexpr int kMaxMonths = 120;
inline constexpr int kDefaultMonths = 12;

struct Period {
    std::string from;
    std::string to;
    std::vector<std::string> months;  // from .. to, every calendar month
};

// Throws sdk::BadRequest for a combination that cannot be answered (month with from, to or
// months; from with months; from after to) and sdk::InvalidParameter for a period longer than
// kMaxMonths. `latest` is the latest month with aggregates.
Period ResolvePeriod(const sdk::Params& params, const std::string& latest);

}  // namespace lastro::industry
