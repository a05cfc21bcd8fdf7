// The registry class behind a `{class_id}` path parameter and the CNPJs under which CVM files
// its monthly facts. Every class-level endpoint starts here (docs/api/quotas.md and
// docs/api/snapshot.md say which reports are a class's).
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/plugin.hpp>

#include <optional>
#include <string>
#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

inline constexpr const char* kFidcReportDataset = "cvm.inf_mensal_fidc";
inline constexpr const char* kCdaDataset = "cvm.cda_fi";
inline constexpr const char* kDocumentsDataset = "cvm.eventual_fi";
inline constexpr const char* kAnbimaDataset = "anbima.subclasses";

// Months sort as text; these bound every "YYYY-MM".
inline constexpr const char* kFirstMonth = "0000-00";
inline constexpr const char* kLastMonth = "9999-99";

// A class of the registry as the class operations find it (FindClass): its keys, not its rows.
struct ClassRef {
    std::string class_id;
    std::string fund_id;
    std::optional<std::string> cnpj;  // the class's own CNPJ, when it has one
    std::string fund_cnpj;
    bool only_class = false;  // the fund has no other class in the registry
    // CNPJs whose filings are this class's, preferred first: the class's own CNPJ, then the
    // fund's CNPJ when the class is the fund's only class (funds filed as "Fundo" before RCVM
    // 175 and in the CNPJ_FUNDO layout). Never a CNPJ shared with another class.
    std::vector<std::string> filing_cnpjs;
};

// The filing CNPJs by the rule above, from a class's CNPJ, its fund's and whether it is the
// fund's only class.
std::vector<std::string> FilingCnpjs(const std::optional<std::string>& class_cnpj,
                                     const std::string& fund_cnpj, bool only_class);

// The class `class_id`; NotFound (charged, contract 7) naming the id when the registry has no
// such class.
ClassRef FindClass(odb::database& db, const std::string& class_id);
// The same for a call: a class found before at the call's release is not read again (the
// classes found are kept per release, sdk::Remembered).
ClassRef FindClass(const sdk::RequestContext& context, const std::string& class_id);

// Reports come without their JSON documents (FidcReport::json_documents, not loaded); a caller
// that needs them calls LoadReportDocuments.

// Fills segments_json, bands_json and published_json of `report` from the database.
void LoadReportDocuments(odb::database& db, FidcReport& report);

// The monthly report of `month` for the class: the report filed under the most preferred
// CNPJ of filing_cnpjs. nullopt when the class did not report that month (never another month).
// The whole report (FidcReport) or what the bands read of it (FidcReportBands).
template <typename Report = FidcReport>
std::optional<Report> ReportOf(odb::database& db, const ClassRef& ref, const sdk::Month& month);

// One report per month in [from, to] (either end open when nullopt), ascending by month, with
// the same CNPJ preference as ReportOf: whole reports (FidcReport), or their stored answers of
// /cotas (FidcQuotaRowsText) or /cotas/operacoes (FidcOperationRowsText).
template <typename Report = FidcReport>
std::vector<Report> ReportsBetween(odb::database& db, const ClassRef& ref,
                                   const std::optional<sdk::Month>& from,
                                   const std::optional<sdk::Month>& to);

// The newest month the class reported under any of its filing CNPJs; nullopt when none.
std::optional<sdk::Month> LatestReportedMonth(odb::database& db, const ClassRef& ref);
// The same for a call, kept per release with the class (FindClass).
std::optional<sdk::Month> LatestReportedMonth(const sdk::RequestContext& context, const ClassRef& ref);

// BadRequest (400) naming both parameters when `from` is after `to`.
void RequireOrderedRange(const std::optional<sdk::Month>& from, const std::optional<sdk::Month>& to);

}  // namespace lastro::funds
