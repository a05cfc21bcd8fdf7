// Every row an ODB query returns, as a vector: for the small result sets a handler or a service
// needs whole (the classes of one fund, the subclasses of a code). Stream larger ones from
// odb::result instead.
#pragma once

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <vector>

namespace lastro::sdk {

template <typename T>
std::vector<T> LoadAll(odb::database& db, const odb::query<T>& query) {
    std::vector<T> rows;
    odb::result<T> result(db.query<T>(query));
    for (const T& row : result) {
        rows.push_back(row);
    }
    return rows;
}

}  // namespace lastro::sdk
