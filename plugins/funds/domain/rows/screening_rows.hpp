// What /v1/screening ranks, precomputed (funds schema 5): one ScreeningRow per class of the FIDC
// universe with a report in a month, and the month's ScreeningMonth with the generation its
// rows were built as. Both are derived from the reports and the registry and rebuilt, inside
// the writer's transaction, by every ingest that changes either (the FIDC ingester for the
// months it replaced, the registry ingester for every month), so a reader never sees them out
// of step with their sources. Each row keeps the JSON text /v1/screening answers for it (schema
// 6), so a call concatenates the page's texts. The migration to schema 6 rebuilds every month
// (from schema 4 it fills the new tables, from 5 it gives the stored rows their text).
#pragma once

#include "funds_model.hxx"

#include <odb/database.hxx>

#include <cstddef>
#include <string>
#include <vector>

namespace lastro::funds {

// The month's rows as the reports and the registry stand, ordered by class_id: each class once,
// the report under the class's own CNPJ, else the one under its fund's CNPJ when it is the fund's
// only class (the rule of class_reports.hpp); each with its answer's JSON. Inside the caller's
// transaction.
std::vector<ScreeningRow> BuildScreeningRows(odb::database& db, const std::string& month);

// The row as /v1/screening answers it, one JSON object (sdk::WriteJson): what ScreeningRow::json
// stores.
std::string ScreeningAnswerJson(const ScreeningRow& row);

// Whether a rebuild stores the ranking of each month it gives a new generation (funds 12,
// ScreeningRankingRecord). The migration to 6 rebuilds rows before that table exists.
enum class StoredRankings { kWrite, kSkip };

// Brings the stored rows of each month to what BuildScreeningRows gives, writing only the rows
// that differ (inserted, updated, erased), and gives a new generation to each month whose rows
// changed (or that had none), with its ranking; inside the caller's write transaction. Returns
// the rows written.
std::size_t RebuildScreening(odb::database& db, const std::vector<std::string>& months,
                             StoredRankings rankings = StoredRankings::kWrite);

// Every month with reports, and drops the rows of months that have none any more.
std::size_t RebuildAllScreening(odb::database& db, StoredRankings rankings = StoredRankings::kWrite);

// The keys a month's ranking is made of, from its stored rows (funds_screening_row_rank_i), in
// class_id order.
std::vector<ScreeningRankRow> StoredRankKeys(odb::database& db, const std::string& month);

}  // namespace lastro::funds
