#include "domain/rows/quota_rows.hpp"

#include "domain/fidc/fidc_values.hpp"
#include "funds_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace lastro::funds {

namespace {

using SeriesQuery = odb::query<FidcSeries>;

// One row of the answer: the series' identity and quota figures, and its report's.
void WriteQuotaRow(sdk::JsonText& json, const FidcQuotaReport& report, const FidcQuotaSeries& series) {
    json.BeginObject();
    WriteSeriesIdentity(json, report, series);
    json.Key("quota_count").Value(series.quota_count);
    json.Key("quota_value_brl").Value(series.quota_value);
    json.Key("series_nav_brl").Value(sdk::RoundToCents(Product(series.quota_count, series.quota_value)));
    json.Key("investor_count").Value(series.investor_count);
    json.Key("monthly_return_pct").Value(series.profitability_pct);
    json.Key("senior_nav_brl").Value(report.senior_nav);
    json.Key("mezzanine_nav_brl").Value(report.mezzanine_nav);
    json.Key("subordinated_nav_brl").Value(report.subordinated_nav);
    json.Key("total_nav_brl").Value(report.series_nav_total);
    json.Key("reported_nav_brl").Value(report.nav);
    json.Key("subordination_with_mezzanine_ratio").Value(report.subordination_with_mezzanine_ratio);
    json.Key("subordination_without_mezzanine_ratio").Value(report.subordination_without_mezzanine_ratio);
    json.EndObject();
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

std::map<std::int64_t, std::vector<FidcQuotaSeries>> SeriesByReport(odb::database& db,
                                                                    const ReportSpan& span) {
    std::map<std::int64_t, std::vector<FidcQuotaSeries>> by_report;
    // One prepared statement per filing CNPJ (a class has one or two), where one per report
    // made a 120-month history 120 statements. Another CNPJ's reports of those months are not
    // in the span and their series are left out.
    struct OfCnpj {
        std::string cnpj;
        std::string from;
        std::string to;
    };
    auto q =
        sdk::CachedQuery<FidcQuotaSeries, OfCnpj>(db, "funds.series_of_cnpj_months", [](const OfCnpj& p) {
            return odb::query<FidcQuotaSeries>(SeriesQuery::cnpj == SeriesQuery::_ref(p.cnpj) &&
                                               SeriesQuery::month >= SeriesQuery::_ref(p.from) &&
                                               SeriesQuery::month <= SeriesQuery::_ref(p.to));
        });
    for (const auto& [cnpj, months] : span.months_of_cnpj) {
        q.params = {cnpj, months.first, months.second};
        for (FidcQuotaSeries& series : q.Execute()) {
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

bool SeriesOrder(const FidcQuotaSeries& a, const FidcQuotaSeries& b) {
    const int rank_a = SeniorityRank(a.seniority);
    const int rank_b = SeniorityRank(b.seniority);
    if (rank_a != rank_b) {
        return rank_a < rank_b;
    }
    // A repeated label's series by identity: "x" before "x #2".
    return a.label != b.label ? a.label < b.label : a.series_key < b.series_key;
}

void WriteSeriesIdentity(sdk::JsonText& json, const FidcQuotaReport& report, const FidcQuotaSeries& series) {
    json.Key("reporting_date").Value(report.reference_date);
    json.Key("month").Value(report.month);
    json.Key("series_id").Value(SeriesId(series.subclass_code, series.series_key));
    json.Key("share_class_type").Value(series.seniority);
    json.Key("series_code").Value(series.subclass_code);
    json.Key("series_label").Value(series.label);
}

std::size_t WriteQuotaRows(sdk::JsonText& json, const FidcQuotaReport& report,
                           std::vector<FidcQuotaSeries> series) {
    std::sort(series.begin(), series.end(), SeriesOrder);
    for (const FidcQuotaSeries& one : series) {
        WriteQuotaRow(json, report, one);
    }
    return series.size();
}

}  // namespace lastro::funds
