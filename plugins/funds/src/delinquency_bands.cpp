#include "src/delinquency_bands.hpp"

#include "domain/fidc/fidc_values.hpp"
#include "funds_model-odb.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <boost/json/object.hpp>

#include <odb/database.hxx>

#include <cstdint>
#include <string_view>
#include <vector>

namespace lastro::funds {

namespace {

static_assert(kOverdueDays.size() == kOverdueBands);

// Bands first..b.10 of one table ("V" or "VI"), by column.
std::vector<NamedAmount> FromBand(const std::string& table,
                                  const std::array<MaybeNumber, kOverdueBands>& bands, std::size_t first) {
    std::vector<NamedAmount> out;
    for (std::size_t band = first; band < kOverdueBands; ++band) {
        out.push_back({DelinquentBandColumn(table, band), bands[band]});
    }
    return out;
}

boost::json::object ReceivablesDefinitions() {
    return {
        {"overdue_days",
         "Each row is cumulative: instalments overdue by strictly more than overdue_days days, i.e. the "
         "exclusive bands from the one after that threshold up to 'above 1080 days' (row 0 = every "
         "delinquent instalment, row 1080 = band b.10 only)."},
        {"cumulative",
         "Rows are cumulative and must not be summed: row 30 is contained in row 0, row 60 in row 30, "
         "and so on."},
        {"with_risk_brl",
         "Table V (credit rights with substantial acquisition of risks and benefits): TAB_V_B1_VL_INAD_30 .. "
         "TAB_V_B10_VL_INAD_MAIOR_1080 from the row's first band on; null when any of them is empty."},
        {"without_risk_brl",
         "Table VI (credit rights without substantial acquisition of risks and benefits): "
         "TAB_VI_B1_VL_INAD_30 .. "
         "TAB_VI_B10_VL_INAD_MAIOR_1080 from the row's first band on; null when any of them is empty."},
        {"delinquent_brl", "with_risk_brl + without_risk_brl; null when any contributing band is empty."},
        {"delinquent_partial_brl",
         "The sum of the contributing bands that are published (null when none is); "
         "delinquent_partial_missing lists the empty ones it leaves out. A class that holds only one kind "
         "of receivables may leave the other table's bands empty: then delinquent_brl is null and this "
         "is the other table's total."},
        {"ratio_denominator_brl",
         "The month's band total: the 20 to-mature bands (TAB_V_A1..A10, TAB_VI_A1..A10) plus the 20 "
         "delinquent bands (TAB_V_B1..B10, TAB_VI_B1..B10), the same for every row; null when any of "
         "them is empty."},
        {"delinquent_ratio", "delinquent_brl / ratio_denominator_brl, a fraction."},
        {"difference_from_table_i",
         "The bands classify the instalments of tables V and VI by due date (to mature, overdue) and leave "
         "out prepaid ones; table I's gross receivables (TAB_I2A_VL_DIRCRED_RISCO + "
         "TAB_I2B_VL_DIRCRED_SEM_RISCO, "
         "which are net of PDD, plus the PDD TAB_I2A11_VL_REDUCAO_RECUP and TAB_I2B11_VL_REDUCAO_RECUP) is "
         "the "
         "balance-sheet value. The two totals differ and are not interchangeable denominators."},
        {"formulas", "docs/api/fidc-metrics.md"},
    };
}

}  // namespace

sdk::Result HandleClassDelinquencyBands(const sdk::RequestContext& context) {
    const std::string class_id = context.params.String("class_id").value_or("");
    const auto month = context.params.MonthValue("month");
    if (!month) {
        throw sdk::InvalidParameter("month", "month is required (YYYY-MM)");
    }
    const ClassRef ref = FindClass(context, class_id);
    // The report's pick columns, band total and bands: one statement, not its 45 other columns
    // and a second one for its documents.
    const auto report = ReportOf<FidcReportBands>(context.db, ref, *month);
    if (!report) {
        throw sdk::NotFound("class " + class_id + " has no monthly report for " + month->ToString(), "month");
    }
    const DelinquentBands bands = ParseDelinquentBands(report->bands_json);

    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = 0; i < kOverdueDays.size(); ++i) {
        std::vector<NamedAmount> contributing = FromBand("V", bands.with_risk, i);
        const std::vector<NamedAmount> without_risk_bands = FromBand("VI", bands.without_risk, i);
        const MaybeNumber with_risk = SumOfComponents(contributing).total;
        const MaybeNumber without_risk = SumOfComponents(without_risk_bands).total;
        contributing.insert(contributing.end(), without_risk_bands.begin(), without_risk_bands.end());
        const PartialSum delinquent_sum = SumOfComponents(contributing);
        const MaybeNumber delinquent = delinquent_sum.total;
        json.BeginObject();
        json.Key("month").Value(report->month);
        json.Key("overdue_days").Value(std::int64_t{kOverdueDays[i]});
        json.Key("with_risk_brl").Value(with_risk);
        json.Key("without_risk_brl").Value(without_risk);
        json.Key("delinquent_brl").Value(delinquent);
        json.Key("delinquent_partial_brl").Value(delinquent_sum.partial);
        json.Key("delinquent_partial_missing").BeginArray();
        for (const boost::json::value& column : delinquent_sum.missing) {
            json.Value(std::string_view(column.as_string()));
        }
        json.EndArray();
        json.Key("ratio_denominator_brl").Value(report->band_denominator);
        json.Key("delinquent_ratio").Value(Ratio(delinquent, report->band_denominator));
        json.EndObject();
    }
    json.EndArray();
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kFidcReportDataset});
    result.meta.as_of = report->month;  // the reference period: the month served (contract 2.2)
    result.meta.extra["receivables_definitions"] = ReceivablesDefinitions();
    result.data_json = json.Take();
    result.meta.row_count = kOverdueDays.size();
    return result;
}

}  // namespace lastro::funds
