#include "domain/rows/quota_answers.hpp"

#include "domain/rows/quota_operation_rows.hpp"
#include "domain/rows/quota_rows.hpp"
#include "funds_model-odb.hxx"

#include <lastro/sdk/data_migration.hpp>
#include <lastro/sdk/serving/json_text.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lastro::funds {
namespace {

// Rows written as the items of an array, kept without its brackets: a call joins several.
template <typename Write>
std::string Items(Write write, std::int64_t& count) {
    sdk::JsonText json;
    json.BeginArray();
    count = static_cast<std::int64_t>(write(json));
    json.EndArray();
    std::string text = json.Take();
    return text.substr(1, text.size() - 2);
}

// The reports of one month with their series and X_4 rows, read whole (a month is a few thousand
// reports), then each report's answer written.
std::size_t WriteAnswersOfMonth(odb::database& db, const std::string& month) {
    using ReportQuery = odb::query<FidcReport>;
    using SeriesQuery = odb::query<FidcSeries>;
    using OperationQuery = odb::query<FidcQuotaOperation>;
    // Through report_id, which is indexed, as the ingester deletes a month.
    const auto of_month = [&month] {
        return "IN (SELECT" + ReportQuery::id + "FROM funds_fidc_report WHERE" +
               (ReportQuery::month == month) + ")";
    };
    std::vector<FidcQuotaReport> reports;
    for (FidcQuotaReport& report :
         db.query<FidcQuotaReport>(odb::query<FidcQuotaReport>(ReportQuery::month == month))) {
        reports.push_back(std::move(report));
    }
    std::map<std::int64_t, std::vector<FidcQuotaSeries>> series;
    for (FidcQuotaSeries& one :
         db.query<FidcQuotaSeries>(odb::query<FidcQuotaSeries>(SeriesQuery::report_id + of_month()))) {
        series[one.report_id].push_back(std::move(one));
    }
    std::map<std::int64_t, std::vector<FidcQuotaOperation>> operations;
    for (FidcQuotaOperation& one : db.query<FidcQuotaOperation>(
             OperationQuery(OperationQuery::report_id + of_month()) + "ORDER BY" + OperationQuery::id)) {
        operations[one.report_id].push_back(std::move(one));
    }
    static const std::vector<FidcQuotaSeries> kNoSeries;
    static const std::vector<FidcQuotaOperation> kNoOperations;
    for (const FidcQuotaReport& report : reports) {
        const auto s = series.find(report.id);
        const auto o = operations.find(report.id);
        FidcQuotaAnswer answer = QuotaAnswerOf(report, s == series.end() ? kNoSeries : s->second,
                                               o == operations.end() ? kNoOperations : o->second);
        db.persist(answer);
    }
    return reports.size();
}

void FillOnMigration(odb::database& db) {
    RebuildQuotaAnswers(db);
}

// The answers are written by the code of the newest schema once the table exists: a database
// at funds 8 gets every stored report's answer on its way to 9.
const sdk::DataMigration<9> kFillOnMigration("funds", &FillOnMigration);

}  // namespace

FidcQuotaReport QuotaReportOf(const FidcReport& report) {
    FidcQuotaReport out;
    out.id = report.id;
    out.cnpj = report.cnpj;
    out.month = report.month;
    out.reference_date = report.reference_date;
    out.filer_type = report.filer_type;
    out.nav = report.nav;
    out.senior_nav = report.senior_nav;
    out.mezzanine_nav = report.mezzanine_nav;
    out.subordinated_nav = report.subordinated_nav;
    out.series_nav_total = report.series_nav_total;
    out.subordination_with_mezzanine_ratio = report.subordination_with_mezzanine_ratio;
    out.subordination_without_mezzanine_ratio = report.subordination_without_mezzanine_ratio;
    return out;
}

FidcQuotaSeries QuotaSeriesOf(const FidcSeries& series) {
    FidcQuotaSeries out;
    out.report_id = series.report_id;
    out.label = series.label;
    out.series_key = series.series_key;
    out.seniority = series.seniority;
    out.subclass_code = series.subclass_code;
    out.investor_count = series.investor_count;
    out.quota_count = series.quota_count;
    out.quota_value = series.quota_value;
    out.profitability_pct = series.profitability_pct;
    return out;
}

FidcQuotaAnswer QuotaAnswerOf(const FidcQuotaReport& report, const std::vector<FidcQuotaSeries>& series,
                              const std::vector<FidcQuotaOperation>& operations) {
    FidcQuotaAnswer answer;
    answer.report_id = report.id;
    answer.cnpj = report.cnpj;
    answer.month = report.month;
    answer.filer_type = report.filer_type;
    answer.quota_json =
        Items([&](sdk::JsonText& json) { return WriteQuotaRows(json, report, series); }, answer.quota_rows);
    answer.operation_json =
        Items([&](sdk::JsonText& json) { return WriteOperationRows(json, report, series, operations); },
              answer.operation_rows);
    return answer;
}

std::size_t RebuildQuotaAnswers(odb::database& db) {
    db.erase_query<FidcQuotaAnswer>();
    std::vector<std::string> months;
    for (const FidcReportMonth& row : db.query<FidcReportMonth>()) {
        months.push_back(row.month);
    }
    std::size_t written = 0;
    for (const std::string& month : months) {
        written += WriteAnswersOfMonth(db, month);
    }
    return written;
}

}  // namespace lastro::funds
