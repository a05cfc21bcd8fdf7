#include "src/quotas.hpp"

#include "funds_model-odb.hxx"
#include "src/class_reports.hpp"
#include "src/common.hpp"
#include "src/fidc_values.hpp"

#include <lastro/sdk/cached_query.hpp>

#include <boost/json/array.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>

namespace lastro::funds {

namespace {

using SeriesQuery = odb::query<FidcSeries>;

boost::json::object QuotaFieldSources() {
    boost::json::object sources;
    AddSeriesIdentitySources(sources);
    sources["quota_count"] = "inf_mensal_fidc tab_X_2 TAB_X_QT_COTA";
    sources["quota_value_brl"] = "inf_mensal_fidc tab_X_2 TAB_X_VL_COTA";
    sources["series_nav_brl"] =
        "derived: TAB_X_QT_COTA x TAB_X_VL_COTA of the series (tab_X_2), docs/api/quotas.md";
    sources["investor_count"] = "inf_mensal_fidc tab_X_1 TAB_X_NR_COTST";
    sources["monthly_return_pct"] = "inf_mensal_fidc tab_X_3 TAB_X_VL_RENTAB_MES";
    sources["senior_nav_brl"] =
        "derived: sum of TAB_X_QT_COTA x TAB_X_VL_COTA over the senior series (tab_X_2), "
        "docs/api/fidc-metrics.md";
    sources["mezzanine_nav_brl"] =
        "derived: sum of TAB_X_QT_COTA x TAB_X_VL_COTA over the mezzanine series (tab_X_2), "
        "docs/api/fidc-metrics.md";
    sources["subordinated_nav_brl"] =
        "derived: sum of TAB_X_QT_COTA x TAB_X_VL_COTA over the subordinated series (tab_X_2), "
        "docs/api/fidc-metrics.md";
    sources["total_nav_brl"] =
        "derived: sum of TAB_X_QT_COTA x TAB_X_VL_COTA over every series (tab_X_2), docs/api/fidc-metrics.md";
    sources["reported_nav_brl"] = "inf_mensal_fidc tab_IV TAB_IV_A_VL_PL";
    sources["subordination_with_mezzanine_ratio"] =
        "derived: (mezzanine_nav_brl + subordinated_nav_brl) / total_nav_brl, docs/api/fidc-metrics.md";
    sources["subordination_without_mezzanine_ratio"] =
        "derived: subordinated_nav_brl / total_nav_brl, docs/api/fidc-metrics.md";
    return sources;
}

boost::json::object QuotaRow(const FidcReport& report, const FidcSeries& series) {
    boost::json::object row = SeriesIdentity(report, series);
    row["quota_count"] = JsonOrNull(series.quota_count);
    row["quota_value_brl"] = JsonOrNull(series.quota_value);
    row["series_nav_brl"] = JsonOrNull(Product(series.quota_count, series.quota_value));
    row["investor_count"] = JsonOrNull(series.investor_count);
    row["monthly_return_pct"] = JsonOrNull(series.profitability_pct);
    row["senior_nav_brl"] = JsonOrNull(report.senior_nav);
    row["mezzanine_nav_brl"] = JsonOrNull(report.mezzanine_nav);
    row["subordinated_nav_brl"] = JsonOrNull(report.subordinated_nav);
    row["total_nav_brl"] = JsonOrNull(report.series_nav_total);
    row["reported_nav_brl"] = JsonOrNull(report.nav);
    row["subordination_with_mezzanine_ratio"] = JsonOrNull(report.subordination_with_mezzanine_ratio);
    row["subordination_without_mezzanine_ratio"] = JsonOrNull(report.subordination_without_mezzanine_ratio);
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

std::map<std::int64_t, std::vector<FidcSeries>> SeriesByReport(odb::database& db,
                                                               const std::vector<FidcReport>& reports) {
    std::map<std::int64_t, std::vector<FidcSeries>> by_report;
    if (reports.empty()) {
        return by_report;
    }
    // One prepared statement, run per report (an IN list would be a new statement per length).
    struct OfReport {
        std::int64_t report_id = 0;
    };
    auto q = sdk::CachedQuery<FidcSeries, OfReport>(db, "funds.series_of_report", [](const OfReport& p) {
        return SeriesQuery::report_id == SeriesQuery::_ref(p.report_id);
    });
    for (const FidcReport& report : reports) {
        q.params.report_id = report.id;
        for (FidcSeries& series : q.Execute()) {
            by_report[series.report_id].push_back(std::move(series));
        }
    }
    for (auto& [id, series] : by_report) {
        std::sort(series.begin(), series.end(), [](const FidcSeries& a, const FidcSeries& b) {
            const int rank_a = SeniorityRank(a.seniority);
            const int rank_b = SeniorityRank(b.seniority);
            return rank_a != rank_b ? rank_a < rank_b : a.label < b.label;
        });
    }
    return by_report;
}

boost::json::object SeriesIdentity(const FidcReport& report, const FidcSeries& series) {
    return {
        {"reporting_date", report.reference_date},
        {"month", report.month},
        {"series_id", SeriesId(series.subclass_code, series.series_key)},
        {"share_class_type", series.seniority},
        {"series_code", JsonOrNull(series.subclass_code)},
        {"series_label", series.label},
    };
}

void AddSeriesIdentitySources(boost::json::object& sources) {
    sources["reporting_date"] = "inf_mensal_fidc DT_COMPTC";
    sources["month"] = "derived: YYYY-MM of DT_COMPTC";
    sources["series_id"] =
        "derived: tab_X_1 ID_SUBCLASSE, else the folded TAB_X_CLASSE_SERIE as a slug, docs/api/quotas.md";
    sources["share_class_type"] =
        "derived: seniority parsed from TAB_X_CLASSE_SERIE, docs/api/fidc-metrics.md";
    sources["series_code"] = "inf_mensal_fidc tab_X_1 ID_SUBCLASSE";
    sources["series_label"] = "inf_mensal_fidc tab_X TAB_X_CLASSE_SERIE";
}

sdk::Result HandleClassQuotas(const sdk::RequestContext& context) {
    const auto from = context.params.MonthValue("from");
    const auto to = context.params.MonthValue("to");
    RequireOrderedRange(from, to);
    const ClassRef ref = FindClass(context.db, context.params.String("class_id").value_or(""));
    const std::vector<FidcReport> reports = ReportsBetween(context.db, ref, from, to);
    const auto series_by_report = SeriesByReport(context.db, reports);

    boost::json::array data;
    for (const FidcReport& report : reports) {
        auto it = series_by_report.find(report.id);
        if (it == series_by_report.end()) {
            continue;
        }
        for (const FidcSeries& series : it->second) {
            data.push_back(QuotaRow(report, series));
        }
    }
    sdk::Result result;
    result.meta = DatasetMeta(context.host, kFidcReportDataset);
    result.meta.extra["field_sources"] = QuotaFieldSources();
    result.data = std::move(data);
    return result;
}

}  // namespace lastro::funds
