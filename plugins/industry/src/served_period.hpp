// What both operations answer besides their items (contract 2.6): the period resolved against
// the derived months, the coverage, the universe, the quality warnings and updated_at. The
// answer is assembled as JSON text from the fragments the derivation stored (items, by_month
// elements, warnings), never parsed again: over 120 months that parsing and writing was most of
// a call's time (docs/performance.md).
#pragma once

#include "src/period.hpp"

#include <lastro/sdk/plugin.hpp>

#include <string>
#include <vector>

namespace lastro::industry {

struct ServedPeriod {
    Period period;
    bool include_fic_fidc = true;
    std::vector<std::string> months;  // served: with aggregates, and not excluded as partial
    std::string coverage_json;
    std::string warnings_json;  // the quality_warnings array
    std::string updated_at;
};

// Resolves the request's period and reads the coverage of its months. Throws sdk::Unavailable
// before the first derivation, sdk::NotFound when no month of the period has aggregates.
ServedPeriod ServePeriod(const sdk::RequestContext& context);

// A JSON string literal of `text`.
std::string JsonString(const std::string& text);

// The response: data as JSON text, `{"<first_key>":"<first_value>","items":<items>,...}`, and
// its meta (sources, the aggregates' release, as_of the last month served).
sdk::Result Respond(const sdk::RequestContext& context, ServedPeriod&& served, const char* first_key,
                    const std::string& first_value, const std::string& items_json, std::size_t rows,
                    const std::string& pagination_json);

}  // namespace lastro::industry
