#include <lastro/sdk/serving/json_values.hpp>

#include <boost/json/error.hpp>

namespace lastro::sdk {

namespace {

// The text of `json` parsed by `parse`, or the error Boost.JSON reports for a mismatch.
template <typename T, typename Parse>
boost::json::result<T> FromText(const boost::json::value& json, Parse parse) {
    if (!json.is_string()) {
        return boost::system::error_code(boost::json::error::not_string);
    }
    if (std::optional<T> parsed = parse(json.get_string())) {
        return *parsed;
    }
    return boost::system::error_code(boost::json::error::syntax);
}

}  // namespace

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const Month& month) {
    json = month.ToString();
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const Date& date) {
    json = date.ToString();
}

boost::json::result<Month> tag_invoke(boost::json::try_value_to_tag<Month>, const boost::json::value& json) {
    return FromText<Month>(json, [](std::string_view text) { return Month::Parse(text); });
}

boost::json::result<Date> tag_invoke(boost::json::try_value_to_tag<Date>, const boost::json::value& json) {
    return FromText<Date>(json, [](std::string_view text) { return Date::Parse(text); });
}

}  // namespace lastro::sdk
