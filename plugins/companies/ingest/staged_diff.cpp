#include "ingest/staged_diff.hpp"

namespace lastro::companies {
namespace {

std::size_t Count(sdk::SqlSession& sql, const std::string& query) {
    const sdk::SqlRows rows = sql.Query(query);
    return rows.empty() || !rows[0][0] ? 0 : std::stoull(*rows[0][0]);
}

// "a.x = b.x AND a.y = b.y" over the key.
std::string Matching(const std::vector<std::string>& key, const std::string& a, const std::string& b) {
    std::string condition;
    for (const std::string& column : key) {
        condition += (condition.empty() ? "" : " AND ") + a + "." + column + " = " + b + "." + column;
    }
    return condition;
}

}  // namespace

std::size_t CountAndRemoveGone(sdk::SqlSession& sql, const StagedDiff& diff, sdk::IngestSummary& summary) {
    const std::string stored = "SELECT 1 FROM " + diff.target + " o WHERE o.kind = '" + diff.kind + "' AND " +
                               Matching(diff.key, "o", "n");
    const std::size_t staged = Count(sql, "SELECT count(*) FROM " + diff.stage);
    const std::size_t inserted =
        Count(sql, "SELECT count(*) FROM " + diff.stage + " n WHERE NOT EXISTS (" + stored + ")");
    const std::size_t unchanged = Count(sql, "SELECT count(*) FROM " + diff.stage + " n WHERE EXISTS (" +
                                                 stored + " AND " + diff.unchanged + ")");
    const std::string gone = " FROM " + diff.target + " WHERE kind = '" + diff.kind + "' AND " + diff.scope +
                             " AND NOT EXISTS (SELECT 1 FROM " + diff.stage + " n WHERE " +
                             Matching(diff.key, "n", diff.target) + ")";
    const std::size_t removed = Count(sql, "SELECT count(*)" + gone);
    summary.inserted += inserted;
    summary.unchanged += unchanged;
    summary.updated += staged - inserted - unchanged;
    summary.removed += removed;
    if (removed > 0) {
        sql.Execute("DELETE" + gone);
    }
    return staged - unchanged;
}

}  // namespace lastro::companies
