// Request parameters, already validated by the host against the operation's manifest
// (type, bounds, max_length, enum, default, required). A handler reads typed values and never
// sees raw text; it throws BadRequest for combinations it cannot answer.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <boost/config.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

namespace lastro::sdk {

// string, cnpj (normalized to 14 digits) and uuid (lower case) arrive as std::string.
using ParamValue = std::variant<std::string, std::int64_t, double, bool, Month, Date>;

class BOOST_SYMBOL_VISIBLE Params {
public:
    void Set(std::string name, ParamValue value) { values_[std::move(name)] = std::move(value); }

    bool Has(const std::string& name) const { return values_.count(name) != 0; }
    std::optional<std::string> String(const std::string& name) const { return Get<std::string>(name); }
    std::optional<std::int64_t> Integer(const std::string& name) const { return Get<std::int64_t>(name); }
    std::optional<double> Number(const std::string& name) const { return Get<double>(name); }
    std::optional<bool> Boolean(const std::string& name) const { return Get<bool>(name); }
    std::optional<lastro::sdk::Month> MonthValue(const std::string& name) const {
        return Get<lastro::sdk::Month>(name);
    }
    std::optional<lastro::sdk::Date> DateValue(const std::string& name) const {
        return Get<lastro::sdk::Date>(name);
    }
    const std::map<std::string, ParamValue>& All() const { return values_; }

private:
    template <typename T>
    std::optional<T> Get(const std::string& name) const {
        auto it = values_.find(name);
        if (it == values_.end()) {
            return std::nullopt;
        }
        if (const T* value = std::get_if<T>(&it->second)) {
            return *value;
        }
        return std::nullopt;
    }

    std::map<std::string, ParamValue> values_;
};

}  // namespace lastro::sdk
