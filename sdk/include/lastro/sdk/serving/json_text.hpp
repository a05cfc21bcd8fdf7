// JSON text for responses, the host's and what a plugin stores to answer later (Result::data_json).
// Boost.JSON's serializer writes doubles in exponent form (1.15687912E6); money reads better as 1156879.12,
// so numbers go through std::to_chars, which gives the shortest digits that read back to the same double, in
// plain notation for magnitudes from 1e-6 to 1e15 (1000000, never 1e+06; docs/api.md "Numbers") and in the
// shortest form beyond. Everything else is written as Boost.JSON would.
#pragma once

#include <boost/config.hpp>
#include <boost/json/value.hpp>

#include <string>

namespace lastro::sdk {

BOOST_SYMBOL_VISIBLE std::string WriteJson(const boost::json::value& value);

}  // namespace lastro::sdk
