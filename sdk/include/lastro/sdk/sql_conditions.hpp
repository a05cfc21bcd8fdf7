// A WHERE clause built from the filters a request asks for (plugins' handlers), with its values bound as $1,
// $2... (sdk::SqlSession's parameters): the handlers never paste a client's text into SQL.
#pragma once

#include <lastro/sdk/bulk_sql.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace lastro::sdk {

// "$first, $first+1, ..." for `count` values: the placeholders of an IN (...) list or a tuple.
inline std::string SqlPlaceholders(std::size_t first, std::size_t count) {
    std::string text;
    for (std::size_t i = 0; i < count; ++i) {
        text += (i == 0 ? "$" : ", $") + std::to_string(first + i);
    }
    return text;
}

class SqlConditions {
public:
    // Appends " AND `condition`", each '?' of it taking the next of `values`, in order.
    void Add(std::string condition, std::vector<std::string> values = {}) {
        for (std::string& value : values) {
            values_.push_back(std::move(value));
            condition.replace(condition.find('?'), 1, "$" + std::to_string(values_.size()));
        }
        where_ += " AND " + condition;
    }
    // " AND a = $1 AND b >= $2", to follow "WHERE true".
    const std::string& Where() const { return where_; }
    // Views of the values: valid while this object lives.
    std::vector<SqlValue> Values() const { return {values_.begin(), values_.end()}; }

private:
    std::string where_;
    std::vector<std::string> values_;
};

}  // namespace lastro::sdk
