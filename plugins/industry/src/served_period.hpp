// What both operations answer besides their items (contract 2.6): the period resolved against
// the derived months, the coverage, the universe, the quality warnings and updated_at.
#pragma once

#include "src/period.hpp"

#include <lastro/sdk/plugin.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace lastro::industry {

struct ServedPeriod {
    Period period;
    bool include_fic_fidc = true;
    std::vector<std::string> months;  // served: with aggregates, and not excluded as partial
    boost::json::object coverage;
    boost::json::object universe;
    boost::json::array quality_warnings;
    std::string updated_at;
};

// Resolves the request's period and reads the coverage of its months. Throws sdk::Unavailable
// before the first derivation, sdk::NotFound when no month of the period has aggregates.
ServedPeriod ServePeriod(const sdk::RequestContext& context);

// The response's data: the served parts around `items`, under the operation's own first key.
boost::json::object ResponseData(ServedPeriod&& served, const char* first_key, const std::string& first_value,
                                 boost::json::array&& items, boost::json::object&& pagination);

// meta: the sources, the data release of the aggregates, as_of the last month served.
sdk::Meta ResponseMeta(const sdk::RequestContext& context, const ServedPeriod& served, std::size_t rows);

}  // namespace lastro::industry
