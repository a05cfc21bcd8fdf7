// Values of a response as JSON: a missing value is JSON null, never 0 or "" (contract 2.1), and
// months and dates are the API's text ("2024-05", "2024-05-31").
//
//   {"cvm_code", sdk::JsonOrNull(fund.cvm_code)}      // std::optional<std::int64_t> -> 123 | null
//   {"maturity", sdk::JsonOrNull(position.maturity)}  // odb::nullable<sdk::Date> -> "2027-01-15" | null
//
// Conversions go through Boost.JSON's value_from, so a std::optional or odb::nullable of any type
// it converts (strings, integers, doubles, booleans, sdk::Month, sdk::Date) works alike.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <boost/config.hpp>
#include <boost/json/system_error.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <odb/nullable.hxx>

#include <optional>

namespace lastro::sdk {

template <typename T>
boost::json::value JsonOrNull(const std::optional<T>& value) {
    return boost::json::value_from(value);
}

template <typename T>
boost::json::value JsonOrNull(const odb::nullable<T>& value) {
    if (value.null()) {
        return nullptr;
    }
    return boost::json::value_from(*value);
}

// Boost.JSON conversions of months and dates (found by argument-dependent lookup): their text,
// and back from exactly that text; anything else is an error, not a default month.
BOOST_SYMBOL_VISIBLE void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                                     const Month& month);
BOOST_SYMBOL_VISIBLE void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const Date& date);
BOOST_SYMBOL_VISIBLE boost::json::result<Month> tag_invoke(boost::json::try_value_to_tag<Month>,
                                                           const boost::json::value& json);
BOOST_SYMBOL_VISIBLE boost::json::result<Date> tag_invoke(boost::json::try_value_to_tag<Date>,
                                                          const boost::json::value& json);

}  // namespace lastro::sdk
