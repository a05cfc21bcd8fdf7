// Reads served by indexes (docs/testing.md, "Query plans"): while a QueryPlanCheck is alive, every
// handler that CallHandler runs on a SQLite database has each SELECT it executed explained with
// EXPLAIN QUERY PLAN, in its own transaction, and the test fails (ADD_FAILURE) naming the
// statement and the plan line when one reads a whole table or a whole index:
//
//   SCAN funds_fund                          a full table scan
//   SCAN funds_fund USING INDEX ...          every entry of an index
//
// SEARCH lines (an index or the rowid with a constraint), temporary B-trees for ORDER BY and
// a virtual table asked with a constraint (an FTS5 MATCH) pass. SQLite plans these queries
// without statistics (lastro never runs ANALYZE), so the plan a test sees on its small database
// is the plan lastrod runs on full-size data. Plans never depend on timing, and nothing here
// measures time. With LASTRO_TEST_PRINT_PLANS set in the environment, every statement checked
// and its plan are printed on standard output.
#pragma once

#include <string>
#include <vector>

namespace odb {
class database;
}

namespace lastro::sdk::testing {

class QueryPlanCheck {
public:
    QueryPlanCheck();
    ~QueryPlanCheck();
    QueryPlanCheck(const QueryPlanCheck&) = delete;
    QueryPlanCheck& operator=(const QueryPlanCheck&) = delete;

    // Whether a QueryPlanCheck is alive (CallHandler asks).
    static bool Active();
};

// The lines of SQLite's EXPLAIN QUERY PLAN of `sql` (run on `db`, which must be SQLite, inside
// the caller's transaction), and of them the ones that scan a whole table or index.
std::vector<std::string> QueryPlan(odb::database& db, const std::string& sql);
std::vector<std::string> FullScans(const std::vector<std::string>& plan);

}  // namespace lastro::sdk::testing
