#include "src/quotas.hpp"

#include "funds_model-odb.hxx"
#include "src/class_reports.hpp"
#include "src/fidc_values.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_values.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <boost/json/array.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

using SeriesQuery = odb::query<FidcSeries>;

boost::json::object QuotaRow(const FidcReport& report, const FidcSeries& series) {
    boost::json::object row = SeriesIdentity(report, series, 18);  // the row's every field, allocated once
    row.emplace("quota_count", JsonOrNull(series.quota_count));
    row.emplace("quota_value_brl", JsonOrNull(series.quota_value));
    row.emplace("series_nav_brl",
                JsonOrNull(sdk::RoundToCents(Product(series.quota_count, series.quota_value))));
    row.emplace("investor_count", JsonOrNull(series.investor_count));
    row.emplace("monthly_return_pct", JsonOrNull(series.profitability_pct));
    row.emplace("senior_nav_brl", JsonOrNull(report.senior_nav));
    row.emplace("mezzanine_nav_brl", JsonOrNull(report.mezzanine_nav));
    row.emplace("subordinated_nav_brl", JsonOrNull(report.subordinated_nav));
    row.emplace("total_nav_brl", JsonOrNull(report.series_nav_total));
    row.emplace("reported_nav_brl", JsonOrNull(report.nav));
    row.emplace("subordination_with_mezzanine_ratio", JsonOrNull(report.subordination_with_mezzanine_ratio));
    row.emplace("subordination_without_mezzanine_ratio",
                JsonOrNull(report.subordination_without_mezzanine_ratio));
    return row;
}

}  // namespace

int SeniorityRank(const std::string& seniority) {
    if (seniority == "senior") {
        return 0;
    }
    if (seniority == "mezzanine") {
        return 1;
    }
    if (seniority == "subordinated") {
        return 2;
    }
    return 3;
}

std::string Slug(std::string_view text) {
    std::string slug;
    bool pending_hyphen = false;
    for (char c : text) {
        const bool digit = c >= '0' && c <= '9';
        const bool lower = c >= 'a' && c <= 'z';
        const bool upper = c >= 'A' && c <= 'Z';
        if (!digit && !lower && !upper) {
            pending_hyphen = !slug.empty();
            continue;
        }
        if (pending_hyphen) {
            slug += '-';
            pending_hyphen = false;
        }
        slug += upper ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return slug;
}

std::string SeriesId(const std::optional<std::string>& subclass_code, const std::string& series_key) {
    if (subclass_code && !subclass_code->empty()) {
        return *subclass_code;
    }
    return Slug(series_key);
}

ReportSpan SpanOf(const std::vector<FidcReport>& reports) {
    ReportSpan span;
    for (const FidcReport& report : reports) {
        span.ids.insert(report.id);
        auto [it, inserted] = span.months_of_cnpj.try_emplace(report.cnpj, report.month, report.month);
        if (!inserted) {
            it->second.first = std::min(it->second.first, report.month);
            it->second.second = std::max(it->second.second, report.month);
        }
    }
    return span;
}

std::map<std::int64_t, std::vector<FidcSeries>> SeriesByReport(odb::database& db,
                                                               const std::vector<FidcReport>& reports) {
    std::map<std::int64_t, std::vector<FidcSeries>> by_report;
    if (reports.empty()) {
        return by_report;
    }
    // One prepared statement per filing CNPJ (a class has one or two), where one per report
    // made a 120-month history 120 statements. Another CNPJ's reports of those months are not
    // among `reports` and their series are left out.
    struct OfCnpj {
        std::string cnpj;
        std::string from;
        std::string to;
    };
    const ReportSpan span = SpanOf(reports);
    auto q = sdk::CachedQuery<FidcSeries, OfCnpj>(db, "funds.series_of_cnpj_months", [](const OfCnpj& p) {
        return SeriesQuery::cnpj == SeriesQuery::_ref(p.cnpj) &&
               SeriesQuery::month >= SeriesQuery::_ref(p.from) &&
               SeriesQuery::month <= SeriesQuery::_ref(p.to);
    });
    for (const auto& [cnpj, months] : span.months_of_cnpj) {
        q.params = {cnpj, months.first, months.second};
        for (FidcSeries& series : q.Execute()) {
            if (span.ids.contains(series.report_id)) {
                by_report[series.report_id].push_back(std::move(series));
            }
        }
    }
    for (auto& [id, series] : by_report) {
        std::sort(series.begin(), series.end(), SeriesOrder);
    }
    return by_report;
}

bool SeriesOrder(const FidcSeries& a, const FidcSeries& b) {
    const int rank_a = SeniorityRank(a.seniority);
    const int rank_b = SeniorityRank(b.seniority);
    if (rank_a != rank_b) {
        return rank_a < rank_b;
    }
    // A repeated label's series by identity: "x" before "x #2".
    return a.label != b.label ? a.label < b.label : a.series_key < b.series_key;
}

boost::json::object SeriesIdentity(const FidcReport& report, const FidcSeries& series, std::size_t capacity) {
    boost::json::object row(std::max<std::size_t>(capacity, 6));
    row.emplace("reporting_date", report.reference_date);
    row.emplace("month", report.month);
    row.emplace("series_id", SeriesId(series.subclass_code, series.series_key));
    row.emplace("share_class_type", series.seniority);
    row.emplace("series_code", JsonOrNull(series.subclass_code));
    row.emplace("series_label", series.label);
    return row;
}

sdk::Result HandleClassQuotas(const sdk::RequestContext& context) {
    const auto from = context.params.MonthValue("from");
    const auto to = context.params.MonthValue("to");
    RequireOrderedRange(from, to);
    const ClassRef ref = FindClass(context.db, context.params.String("class_id").value_or(""));
    const std::vector<FidcReport> reports = ReportsBetween(context.db, ref, from, to);
    const auto series_by_report = SeriesByReport(context.db, reports);

    boost::json::array data;
    std::optional<std::string> latest_served;
    for (const FidcReport& report : reports) {
        auto it = series_by_report.find(report.id);
        if (it == series_by_report.end()) {
            continue;
        }
        for (const FidcSeries& series : it->second) {
            data.push_back(QuotaRow(report, series));
        }
        latest_served = std::max(latest_served.value_or(""), report.month);
    }
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kFidcReportDataset});
    result.meta.as_of = latest_served;  // the reference period: the latest month served (contract 2.2)
    result.data = std::move(data);
    return result;
}

}  // namespace lastro::funds
