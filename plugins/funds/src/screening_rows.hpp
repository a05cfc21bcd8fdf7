// What /v1/screening ranks, precomputed (funds schema 5): one ScreeningRow per class of the FIDC
// universe with a report in a month, and the month's ScreeningMonth with the generation its
// rows were built as. Both are derived from the reports and the registry and rebuilt, inside
// the writer's transaction, by every ingest that changes either (the FIDC ingester for the
// months it replaced, the registry ingester for every month), so a reader never sees them out
// of step with their sources. The migration from schema 4 fills them from the stored reports.
#pragma once

#include "funds_model.hxx"

#include <odb/database.hxx>

#include <cstddef>
#include <string>
#include <vector>

namespace lastro::funds {

// The month's rows as the reports and the registry stand, ordered by class_id: each class once,
// the report under the class's own CNPJ, else the one under its fund's CNPJ when it is the fund's
// only class (the rule of class_reports.hpp). Inside the caller's transaction.
std::vector<ScreeningRow> BuildScreeningRows(odb::database& db, const std::string& month);

// Replaces the rows of each month and gives each a new generation; inside the caller's write
// transaction. Returns the rows written.
std::size_t RebuildScreening(odb::database& db, const std::vector<std::string>& months);

// Every month with reports, and drops the rows of months that have none any more.
std::size_t RebuildAllScreening(odb::database& db);

}  // namespace lastro::funds
