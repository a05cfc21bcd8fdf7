// The stored answers of /cotas and /cotas/operacoes (FidcQuotaAnswer, funds schema 9): each
// report's rows of both routes, written by the routes' own row writers (quota_rows.hpp,
// quota_operation_rows.hpp) when the report is saved, so a call reads one text a month and joins
// them (docs/performance.md, "Quota answers stored with their reports").
#pragma once

#include "funds_model.hxx"

#include <cstddef>
#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

// The columns of a report and of a series that the rows show, from the stored objects (at ingest).
FidcQuotaReport QuotaReportOf(const FidcReport& report);
FidcQuotaSeries QuotaSeriesOf(const FidcSeries& series);

// The stored answer of one report: its quota columns, its series (any order) and its X_4 rows
// (table order).
FidcQuotaAnswer QuotaAnswerOf(const FidcQuotaReport& report, const std::vector<FidcQuotaSeries>& series,
                              const std::vector<FidcQuotaOperation>& operations);

// Writes every stored report's answer again from its report, series and X_4 rows (the
// migration to funds 9, and tests that persist reports without the ingester); returns how many.
std::size_t RebuildQuotaAnswers(odb::database& db);

}  // namespace lastro::funds
