// funds.class_quotas — GET /v1/classes/{class_id}/cotas: one row per (month, quota series) of
// the class's monthly reports (contract 2.10, docs/api/quotas.md). Also the series identity that
// /cotas/operacoes shares.
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/plugin.hpp>

#include <boost/json/object.hpp>

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
bool SeriesOrder(const FidcSeries& a, const FidcSeries& b);

// Where a set of reports lies: their ids, and for each filing CNPJ the first and last month of
// its reports among them. Rows tied to reports (series, quota operations) are read by CNPJ and
// month range (the (cnpj, month) indexes), one prepared statement per CNPJ, keeping the rows of
// these ids only: never by a list of report ids, whose text changes with its length.
struct ReportSpan {
    std::set<std::int64_t> ids;
    std::map<std::string, std::pair<std::string, std::string>> months_of_cnpj;
};
ReportSpan SpanOf(const std::vector<FidcReport>& reports);

// The series of each report (by report id), in SeriesOrder.
std::map<std::int64_t, std::vector<FidcSeries>> SeriesByReport(odb::database& db,
                                                               const std::vector<FidcReport>& reports);

// reporting_date, month, series_id, share_class_type, series_code and series_label of a row, in
// an object with room for `capacity` fields (the caller's own, emplaced after these).
boost::json::object SeriesIdentity(const FidcReport& report, const FidcSeries& series,
                                   std::size_t capacity = 6);

sdk::Result HandleClassQuotas(const sdk::RequestContext& context);

}  // namespace lastro::funds
