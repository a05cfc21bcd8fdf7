// The rows of funds.class_quotas (GET /v1/classes/{class_id}/cotas): one per (month, quota
// series) of the class's monthly reports (contract 2.10, docs/api/quotas.md), written when a
// report is saved (domain/rows/quota_answers.hpp). Also the series identity and order that
// /cotas/operacoes shares, and the series of a span of reports.
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/serving/json_text.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

// Position of a seniority in the contract's order: senior, mezzanine, subordinated, unknown.
int SeniorityRank(const std::string& seniority);

// Lower-case ASCII letters and digits of `text`, every other run of characters one hyphen
// ("subclasse senior | serie 1" -> "subclasse-senior-serie-1").
std::string Slug(std::string_view text);

// The contextual series_id: the X_1 subclass code when CVM gave one, else the slug of the
// series key (the folded TAB_X_CLASSE_SERIE, with "#n" for the n-th series of a repeated label).
std::string SeriesId(const std::optional<std::string>& subclass_code, const std::string& series_key);

// The rows' order: seniority, then label, then series key (a repeated label's first series,
// then "#2", ...).
bool SeriesOrder(const FidcQuotaSeries& a, const FidcQuotaSeries& b);

// Where a set of reports lies: their ids, and for each filing CNPJ the first and last month of
// its reports among them. Rows tied to reports (series, quota operations) are read by CNPJ and
// month range (the (cnpj, month) indexes), one prepared statement per CNPJ, keeping the rows of
// these ids only: never by a list of report ids, whose text changes with its length.
struct ReportSpan {
    std::set<std::int64_t> ids;
    std::map<std::string, std::pair<std::string, std::string>> months_of_cnpj;
};

// The span of any range of reports (FidcReport, FidcQuotaReport: an id, a CNPJ, a month).
template <typename Reports>
ReportSpan SpanOf(const Reports& reports) {
    ReportSpan span;
    for (const auto& report : reports) {
        span.ids.insert(report.id);
        auto [it, inserted] = span.months_of_cnpj.try_emplace(report.cnpj, report.month, report.month);
        if (!inserted) {
            it->second.first = std::min(it->second.first, report.month);
            it->second.second = std::max(it->second.second, report.month);
        }
    }
    return span;
}

// The series of each report of the span (by report id), in SeriesOrder.
std::map<std::int64_t, std::vector<FidcQuotaSeries>> SeriesByReport(odb::database& db,
                                                                    const ReportSpan& span);

// The members reporting_date, month, series_id, share_class_type, series_code and series_label
// of a row, into the row's open object.
void WriteSeriesIdentity(sdk::JsonText& json, const FidcQuotaReport& report, const FidcQuotaSeries& series);

// The /cotas rows of one report, one per series in SeriesOrder, as items of the open array;
// returns how many. Written once, when the report is saved (domain/rows/quota_answers.hpp).
std::size_t WriteQuotaRows(sdk::JsonText& json, const FidcQuotaReport& report,
                           std::vector<FidcQuotaSeries> series);

}  // namespace lastro::funds
