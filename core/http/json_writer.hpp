// JSON text for responses. Boost.JSON's serializer writes doubles in exponent form
// (1.15687912E6); money reads better as 1156879.12, so numbers go through std::to_chars,
// which gives the shortest text that reads back to the same double, in plain notation when
// that is shortest. Everything else is written as Boost.JSON would.
#pragma once

#include <boost/json/value.hpp>

#include <string>

namespace lastro::http {

std::string WriteJson(const boost::json::value& value);

}  // namespace lastro::http
