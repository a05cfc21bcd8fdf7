#include "src/snapshot.hpp"

#include "domain/fidc/fidc_values.hpp"
#include "domain/rows/quota_rows.hpp"
#include "funds_model-odb.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_values.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <boost/json/array.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <vector>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

std::optional<FidcReport> Take(std::map<std::string, FidcReport>& by_month, const std::string& month) {
    auto it = by_month.find(month);
    if (it == by_month.end()) {
        return std::nullopt;
    }
    return std::move(it->second);
}

MaybeNumber Field(const std::optional<FidcReport>& report, MaybeNumber FidcReport::* member) {
    return report ? (*report).*member : std::nullopt;
}

// (current − previous) × 100: a difference of fractions in percentage points.
MaybeNumber VariationPp(const MaybeNumber& current, const MaybeNumber& previous) {
    const MaybeNumber difference = Difference(current, previous);
    return difference ? MaybeNumber(*difference * 100.0) : std::nullopt;
}

// |I2A11| + |I2B11| by column (CVM files publish the provision with either sign).
PartialSum PddOf(const FidcReport& report) {
    const auto abs = [](const MaybeNumber& value) {
        return value ? MaybeNumber(std::fabs(*value)) : std::nullopt;
    };
    return SumOfComponents({{"TAB_I2A11_VL_REDUCAO_RECUP", abs(report.pdd_with_risk)},
                            {"TAB_I2B11_VL_REDUCAO_RECUP", abs(report.pdd_without_risk)}});
}

boost::json::object Receivables(const FidcReport& report) {
    const MaybeNumber net_plus_pdd = sdk::SumOfAmounts({report.receivables_net, report.pdd});
    // Complete components need no second look; only a null sum is taken apart, from the
    // published fields (read only then: they are the largest part of a report).
    PartialSum components = report.receivables_components
                                ? PartialSum{report.receivables_components, report.receivables_components, {}}
                                : SumOfComponents(ReceivableComponents(report.published_json));
    return {
        {"gross_brl", JsonOrNull(report.receivables_gross)},
        {"reported_net_brl", JsonOrNull(report.receivables_net)},
        {"pdd_brl", JsonOrNull(report.pdd)},
        {"with_risk_net_brl", JsonOrNull(report.receivables_with_risk)},
        {"without_risk_net_brl", JsonOrNull(report.receivables_without_risk)},
        {"components_brl", JsonOrNull(report.receivables_components)},
        {"components_partial_brl", JsonOrNull(components.partial)},
        {"components_partial_missing", std::move(components.missing)},
        {"reconciliation",
         boost::json::object{
             {"net_plus_pdd_brl", JsonOrNull(net_plus_pdd)},
             {"gross_brl", JsonOrNull(report.receivables_gross)},
             {"difference_brl", JsonOrNull(sdk::MoneyDifference(report.receivables_gross, net_plus_pdd))},
             {"components_minus_gross_brl",
              JsonOrNull(sdk::MoneyDifference(report.receivables_components, report.receivables_gross))},
         }},
    };
}

boost::json::object ReceivablesOfMonth(const std::string& month, const std::optional<FidcReport>& report) {
    return {
        {"month", month},
        {"gross_brl", JsonOrNull(Field(report, &FidcReport::receivables_gross))},
        {"reported_net_brl", JsonOrNull(Field(report, &FidcReport::receivables_net))},
        {"pdd_brl", JsonOrNull(Field(report, &FidcReport::pdd))},
    };
}

boost::json::object ReceivablesDefinitions() {
    return {
        {"gross_brl",
         "Calculated gross receivables: reported_net_brl + pdd_brl (the value before the provision for "
         "losses). Also served as receivables_brl."},
        {"reported_net_brl",
         "Receivables as table I reports them, net of the provision: TAB_I2A_VL_DIRCRED_RISCO (with "
         "substantial acquisition of risks) + TAB_I2B_VL_DIRCRED_SEM_RISCO (without)."},
        {"pdd_brl",
         "Provision for doubtful receivables (PDD): |TAB_I2A11_VL_REDUCAO_RECUP| + "
         "|TAB_I2B11_VL_REDUCAO_RECUP| "
         "(CVM files publish it with either sign)."},
        {"with_risk_net_brl", "TAB_I2A_VL_DIRCRED_RISCO as published (net of its PDD)."},
        {"without_risk_net_brl", "TAB_I2B_VL_DIRCRED_SEM_RISCO as published (net of its PDD)."},
        {"components_brl",
         "Sum of the published components TAB_I2A1..TAB_I2A10 and TAB_I2B1..TAB_I2B10 (before the PDD "
         "lines); null when any of them is empty."},
        {"components_partial_brl",
         "Sum of the components that are published, null when none is; components_partial_missing lists "
         "the empty ones it leaves out (equal to components_brl when that list is empty)."},
        {"reconciliation",
         "net_plus_pdd_brl = reported_net_brl + pdd_brl; difference_brl = gross_brl - net_plus_pdd_brl (0 "
         "when "
         "consistent); components_minus_gross_brl = components_brl - gross_brl (how far the published "
         "components are from the calculated gross). Differences are exact to the cent."},
        {"missing_components",
         "A sum is null when any of its components is empty (an empty field is unknown, not 0); the "
         "*_partial_* fields serve the sum of the components present with the list of those left out."},
        {"delinquency_denominator",
         "delinquency_ratio uses the total of the exclusive bands of tables V and VI, not gross_brl "
         "(see /carteira/inadimplencia/faixas)."},
        {"formulas", "docs/api/fidc-metrics.md"},
    };
}

}  // namespace

boost::json::object SnapshotData(const std::string& class_id, const FidcReport& current,
                                 const std::optional<FidcReport>& previous,
                                 const std::vector<FidcQuotaSeries>& current_series) {
    const sdk::Month month = *sdk::Month::Parse(current.month);
    const MaybeNumber nav_previous = Field(previous, &FidcReport::nav);
    const MaybeNumber nav_ratio = Ratio(current.nav, nav_previous);
    const std::optional<std::int64_t> investors_previous =
        previous ? previous->investor_count : std::optional<std::int64_t>();
    const std::optional<std::int64_t> investors_delta =
        current.investor_count && investors_previous
            ? std::optional<std::int64_t>(*current.investor_count - *investors_previous)
            : std::nullopt;
    const MaybeNumber delinquency_previous = Field(previous, &FidcReport::delinquency_ratio);
    const MaybeNumber subordination_previous =
        Field(previous, &FidcReport::subordination_with_mezzanine_ratio);
    // investor_count is null when a series left its count empty; what the others report is
    // served apart, with how many series it covers.
    std::optional<std::int64_t> investors_reported;
    std::int64_t series_reporting = 0;
    for (const FidcQuotaSeries& series : current_series) {
        if (series.investor_count) {
            investors_reported = investors_reported.value_or(0) + *series.investor_count;
            ++series_reporting;
        }
    }
    PartialSum pdd = PddOf(current);

    return {
        {"class_id", class_id},
        {"month", current.month},
        {"previous_month", month.Previous().ToString()},
        {"nav_brl", JsonOrNull(current.nav)},
        {"nav_previous_brl", JsonOrNull(nav_previous)},
        {"nav_variation_ratio", JsonOrNull(nav_ratio ? MaybeNumber(*nav_ratio - 1.0) : std::nullopt)},
        {"investor_count", JsonOrNull(current.investor_count)},
        {"investor_count_previous", JsonOrNull(investors_previous)},
        {"investor_count_delta", JsonOrNull(investors_delta)},
        {"investor_count_reported", JsonOrNull(investors_reported)},
        {"series_reporting", series_reporting},
        {"series_total", static_cast<std::int64_t>(current_series.size())},
        {"delinquency_ratio", JsonOrNull(current.delinquency_ratio)},
        {"delinquency_previous_ratio", JsonOrNull(delinquency_previous)},
        {"delinquency_variation_pp",
         JsonOrNull(VariationPp(current.delinquency_ratio, delinquency_previous))},
        {"pdd_brl", JsonOrNull(current.pdd)},
        {"pdd_partial_brl", JsonOrNull(pdd.partial)},
        {"pdd_partial_missing", std::move(pdd.missing)},
        {"pdd_ratio", JsonOrNull(current.pdd_ratio)},
        {"subordination_with_mezzanine_ratio", JsonOrNull(current.subordination_with_mezzanine_ratio)},
        {"subordination_without_mezzanine_ratio", JsonOrNull(current.subordination_without_mezzanine_ratio)},
        {"subordination_previous_ratio", JsonOrNull(subordination_previous)},
        {"subordination_variation_pp",
         JsonOrNull(VariationPp(current.subordination_with_mezzanine_ratio, subordination_previous))},
        {"receivables_brl", JsonOrNull(current.receivables_gross)},
        {"positive_segment_count", JsonOrNull(current.positive_segment_count)},
        {"series_with_profitability_count", JsonOrNull(current.series_with_profitability_count)},
        {"receivables", Receivables(current)},
    };
}

sdk::Result HandleClassSnapshot(const sdk::RequestContext& context) {
    const std::string class_id = context.params.String("class_id").value_or("");
    const auto requested = context.params.MonthValue("month");
    const ClassRef ref = FindClass(context, class_id);

    // The asked month (by default the latest filed) and the calendar month before it.
    const std::optional<sdk::Month> asked = requested ? requested : LatestReportedMonth(context, ref);
    if (!asked) {
        throw sdk::NotFound("class " + class_id + " has no monthly report", "class_id");
    }
    const std::string month = asked->ToString();
    std::map<std::string, FidcReport> by_month;
    for (FidcReport& report : ReportsBetween(context.db, ref, asked->Previous(), asked)) {
        std::string key = report.month;
        by_month.emplace(std::move(key), std::move(report));
    }
    std::optional<FidcReport> current = Take(by_month, month);
    if (!current) {
        throw sdk::NotFound("class " + class_id + " has no monthly report for " + month, "month");
    }
    if (!current->receivables_components) {
        LoadReportDocuments(context.db, *current);  // published_json: which components are missing
    }
    const auto series_by_report = SeriesByReport(context.db, SpanOf(std::span(&*current, 1)));
    const auto series = series_by_report.find(current->id);
    const std::string previous_month = sdk::Month::Parse(month)->Previous().ToString();
    const std::optional<FidcReport> previous = Take(by_month, previous_month);

    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kFidcReportDataset});
    result.meta.as_of = month;  // the reference period: the month served (contract 2.2)
    // docs/api/snapshot.md: without `month`, the latest month the class reported.
    result.meta.extra["month_selection"] = requested ? "requested" : "latest_reported";
    result.meta.extra["receivables_definitions"] = ReceivablesDefinitions();
    result.meta.extra["receivables_by_month"] = boost::json::array{
        ReceivablesOfMonth(month, current),
        ReceivablesOfMonth(previous_month, previous),
    };
    result.data =
        SnapshotData(class_id, *current, previous,
                     series == series_by_report.end() ? std::vector<FidcQuotaSeries>() : series->second);
    return result;
}

}  // namespace lastro::funds
