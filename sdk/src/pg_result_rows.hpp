// Internal: a PostgreSQL result's rows as text (what query_once.hpp and bulk_sql.hpp return),
// NULL as nullopt.
#pragma once

#include <libpq-fe.h>

#include <optional>
#include <string>
#include <vector>

namespace lastro::sdk::detail {

inline std::vector<std::vector<std::optional<std::string>>> PgResultRows(const PGresult* result) {
    std::vector<std::vector<std::optional<std::string>>> rows;
    const int columns = PQnfields(result);
    rows.reserve(static_cast<std::size_t>(PQntuples(result)));
    for (int r = 0; r < PQntuples(result); ++r) {
        auto& row = rows.emplace_back();
        row.reserve(static_cast<std::size_t>(columns));
        for (int c = 0; c < columns; ++c) {
            if (PQgetisnull(result, r, c)) {
                row.emplace_back(std::nullopt);
            } else {
                row.emplace_back(std::string(PQgetvalue(result, r, c),
                                             static_cast<std::size_t>(PQgetlength(result, r, c))));
            }
        }
    }
    return rows;
}

}  // namespace lastro::sdk::detail
