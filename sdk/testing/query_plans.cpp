#include <lastro/sdk/testing/query_plans.hpp>

#include <odb/sqlite/connection.hxx>
#include <odb/sqlite/database.hxx>
#include <odb/transaction.hxx>

#include <sqlite3.h>

#include <atomic>
#include <stdexcept>

namespace lastro::sdk::testing {
namespace {

std::atomic<int> active{0};

}  // namespace

QueryPlanCheck::QueryPlanCheck() {
    ++active;
}
QueryPlanCheck::~QueryPlanCheck() {
    --active;
}
bool QueryPlanCheck::Active() {
    return active.load() > 0;
}

std::vector<std::string> QueryPlan(odb::database& db, const std::string& sql) {
    if (db.id() != odb::id_sqlite) {
        throw std::logic_error("QueryPlan reads SQLite's EXPLAIN QUERY PLAN");
    }
    auto& connection = static_cast<odb::sqlite::connection&>(odb::transaction::current().connection());
    const std::string explain = "EXPLAIN QUERY PLAN " + sql;
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(connection.handle(), explain.c_str(), static_cast<int>(explain.size()), &statement,
                           nullptr) != SQLITE_OK) {
        const std::string error = sqlite3_errmsg(connection.handle());
        sqlite3_finalize(statement);
        throw std::runtime_error("EXPLAIN QUERY PLAN failed: " + error + ": " + sql);
    }
    std::vector<std::string> lines;
    while (sqlite3_step(statement) == SQLITE_ROW) {
        // Columns: id, parent, notused, detail.
        const unsigned char* detail = sqlite3_column_text(statement, 3);
        lines.emplace_back(detail ? reinterpret_cast<const char*>(detail) : "");
    }
    sqlite3_finalize(statement);
    return lines;
}

std::vector<std::string> FullScans(const std::vector<std::string>& plan) {
    std::vector<std::string> scans;
    for (const std::string& line : plan) {
        if (line.rfind("SCAN ", 0) != 0 || line == "SCAN CONSTANT ROW") {
            continue;
        }
        // A list of values the statement itself gives ("(a, b) IN (VALUES (?, ?), ...)"): read
        // whole, as it should be.
        if (line.ends_with("-ROW VALUES CLAUSE")) {
            continue;
        }
        // A virtual table asked with a constraint: FTS5 writes its plan as "INDEX 0:M..." for a
        // MATCH (a full scan of an FTS5 table is "INDEX 0:").
        if (const auto at = line.find(" VIRTUAL TABLE INDEX "); at != std::string::npos) {
            const std::string index = line.substr(at + 21);
            if (index.find(':') != std::string::npos &&
                index.find('M', index.find(':')) != std::string::npos) {
                continue;
            }
        }
        scans.push_back(line);
    }
    return scans;
}

}  // namespace lastro::sdk::testing
