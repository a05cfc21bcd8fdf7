#include "ingest/inf_mensal_fidc/fidc_report_builder.hpp"

#include "domain/fidc/fidc_series_label.hpp"
#include "ingest/inf_mensal_fidc/fidc_amortization.hpp"
#include "ingest/inf_mensal_fidc/fidc_json_text.hpp"
#include "ingest/inf_mensal_fidc/fidc_metrics.hpp"
#include "ingest/inf_mensal_fidc/fidc_numbers.hpp"

#include <lastro/sdk/ingest/csv.hpp>
#include <lastro/sdk/ingest/values.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace lastro::funds {

namespace {

// The fields of one stored row, read through its member's layout.
class RowFields {
public:
    // A stored line is the member's fields joined by ';' (quoting off), so splitting gives them
    // back exactly.
    RowFields(const FidcStoredRow& row, const FidcMemberLayout& layout) : layout_(&layout) {
        sdk::SplitFields(row.line, ';', fields_);
    }

    const FidcMemberLayout& Layout() const { return *layout_; }
    std::size_t Size() const { return fields_.size(); }
    std::string_view Field(std::size_t index) const {
        return index < fields_.size() ? fields_[index] : std::string_view();
    }
    // A TypedColumnsOf position; empty when the member's layout lacks that optional column.
    std::string_view Typed(std::size_t position) const {
        const std::optional<std::size_t>& index = layout_->typed[position];
        return index ? Field(*index) : std::string_view();
    }
    std::optional<double> Decimal(std::size_t position) const { return DecimalOrNull(Typed(position)); }
    std::optional<std::int64_t> Integer(std::size_t position) const { return IntegerOrNull(Typed(position)); }
    std::optional<std::string> Text(std::size_t position) const { return TextOrNull(Typed(position)); }

    static std::optional<std::string> TextOrNull(std::string_view field) {
        field = sdk::TrimBlanks(field);
        if (field.empty()) {
            return std::nullopt;
        }
        return std::string(field);
    }

private:
    const FidcMemberLayout* layout_;
    std::vector<std::string_view> fields_;
};

// Every non-empty field of a one-row table as published, key columns left out (they are the
// report's cnpj, month, filer_type and name).
void WritePublishedFields(JsonTextWriter& out, const RowFields& fields,
                          const std::vector<FidcReportBuilder::PublishedColumn>& columns) {
    const auto empty = [&fields](std::size_t index) { return sdk::TrimBlanks(fields.Field(index)).empty(); };
    out.BeginObject();
    for (const FidcReportBuilder::PublishedColumn& column : columns) {
        if (column.index >= fields.Size() || empty(column.index) ||
            std::any_of(column.same_name_before.begin(), column.same_name_before.end(),
                        [&empty](std::size_t earlier) { return !empty(earlier); })) {
            continue;
        }
        out.StringMember(column.key, fields.Field(column.index));
    }
    out.EndObject();
}

// One table of bands_json; the exclusive bands also go to the metric inputs.
void WriteBands(JsonTextWriter& out, const RowFields& fields, FidcMetricInputs& inputs) {
    using namespace tab_bands;
    std::array<std::optional<double>, kBands> to_mature;
    std::array<std::optional<double>, kBands> delinquent;
    for (std::size_t i = 0; i < kBands; ++i) {
        to_mature[i] = fields.Decimal(kToMature + i);
        delinquent[i] = fields.Decimal(kDelinquent + i);
    }
    out.BeginObject();
    out.Key("to_mature");
    out.BeginArray();
    for (const std::optional<double>& value : to_mature) {
        out.NumberOrNull(value);
    }
    out.EndArray();
    out.Key("delinquent");
    out.BeginArray();
    for (const std::optional<double>& value : delinquent) {
        out.NumberOrNull(value);
    }
    out.EndArray();
    out.Key("prepaid");
    out.BeginArray();
    for (std::size_t i = 0; i < kBands; ++i) {
        out.NumberOrNull(fields.Decimal(kPrepaid + i));
    }
    out.EndArray();
    out.Key("to_mature_total");
    out.NumberOrNull(fields.Decimal(kToMatureTotal));
    out.Key("delinquent_total");
    out.NumberOrNull(fields.Decimal(kDelinquentTotal));
    out.Key("prepaid_total");
    out.NumberOrNull(fields.Decimal(kPrepaidTotal));
    out.EndObject();
    inputs.to_mature_bands.insert(inputs.to_mature_bands.end(), to_mature.begin(), to_mature.end());
    inputs.delinquent_bands.insert(inputs.delinquent_bands.end(), delinquent.begin(), delinquent.end());
}

}  // namespace

FidcReportBuilder::FidcReportBuilder(const std::vector<FidcMemberLayout>& members) : members_(members) {
    published_columns_.reserve(members.size());
    for (const FidcMemberLayout& layout : members) {
        std::vector<PublishedColumn>& columns = published_columns_.emplace_back();
        std::size_t& key_bytes = published_key_bytes_.emplace_back();
        for (std::size_t i = 0; i < layout.header.size(); ++i) {
            if (layout.IsKeyColumn(i)) {
                continue;
            }
            PublishedColumn column;
            column.index = i;
            AppendJsonString(column.key, layout.header[i]);
            column.key.push_back(':');
            for (const PublishedColumn& earlier : columns) {
                if (layout.header[earlier.index] == layout.header[i]) {
                    column.same_name_before.push_back(earlier.index);
                }
            }
            key_bytes += column.key.size();
            columns.push_back(std::move(column));
        }
    }
}

FidcBuiltReport FidcReportBuilder::Build(const FidcReportRows& rows) const {
    using enum FidcTable;
    const auto row_of = [&rows](FidcTable table) -> const FidcStoredRow* {
        const auto& kept = rows.tables[IndexOf(table)];
        return kept.empty() ? nullptr : &kept.begin()->second;
    };
    const auto fields_of = [this](const FidcStoredRow& row) { return RowFields(row, members_[row.member]); };
    // A one-row table's row is read by several parts of the report: split it once.
    std::array<std::optional<RowFields>, kFidcTableCount> one_row_fields;
    const auto fields_of_table = [&](FidcTable table) -> const RowFields& {
        std::optional<RowFields>& fields = one_row_fields[IndexOf(table)];
        if (!fields) {
            fields.emplace(fields_of(*row_of(table)));
        }
        return *fields;
    };

    FidcBuiltReport built;
    FidcReport& report = built.report;
    report.cnpj = rows.cnpj;
    report.month = rows.month.ToString();
    if (rows.kind == FilerKind::kClasse || rows.kind == FilerKind::kFundo || rows.kind == FilerKind::kOther) {
        report.filer_type = rows.filer_type;
    }
    report.duplicates_dropped = rows.dropped;

    // The date, layout and name come from table IV (the report's NAV), else I, else the first
    // table the report has.
    const FidcStoredRow* primary = row_of(kIV) ? row_of(kIV) : row_of(kI);
    for (std::size_t t = 0; !primary && t < kFidcTableCount; ++t) {
        if (!rows.tables[t].empty()) {
            primary = &rows.tables[t].begin()->second;
        }
    }
    if (primary) {
        std::optional<RowFields> other_table;
        const RowFields& fields = primary == row_of(kIV)  ? fields_of_table(kIV)
                                  : primary == row_of(kI) ? fields_of_table(kI)
                                                          : other_table.emplace(fields_of(*primary));
        report.reference_date = std::string(sdk::TrimBlanks(fields.Field(fields.Layout().date)));
        report.layout = std::string(fields.Layout().LayoutName());
        report.name = RowFields::TextOrNull(fields.Field(fields.Layout().name));
    }

    FidcMetricInputs inputs;
    JsonTextWriter json;

    if (row_of(kI)) {
        using namespace tab_i;
        const RowFields& fields = fields_of_table(kI);
        report.administrator_cnpj = sdk::DocumentOrText(fields.Typed(kAdministratorCnpj));
        report.administrator = fields.Text(kAdministrator);
        report.condominium = fields.Text(kCondominium);
        report.assets_total = fields.Decimal(kAssets);
        report.receivables_with_risk = fields.Decimal(kWithRisk);
        report.receivables_without_risk = fields.Decimal(kWithoutRisk);
        report.pdd_with_risk = fields.Decimal(kPddWithRisk);
        report.pdd_without_risk = fields.Decimal(kPddWithoutRisk);
        for (std::size_t i = 0; i < kComponentCount; ++i) {
            inputs.receivable_components.push_back(fields.Decimal(kComponentsWithRisk + i));
            inputs.receivable_components.push_back(fields.Decimal(kComponentsWithoutRisk + i));
        }
    }
    inputs.receivables_with_risk = report.receivables_with_risk;
    inputs.receivables_without_risk = report.receivables_without_risk;
    inputs.pdd_with_risk = report.pdd_with_risk;
    inputs.pdd_without_risk = report.pdd_without_risk;

    if (row_of(kII)) {
        const RowFields& fields = fields_of_table(kII);
        report.segments_total = fields.Decimal(tab_ii::kTotal);
        inputs.has_segments = true;
        inputs.segments_total = report.segments_total;
        json.BeginArray();
        for (std::size_t i = 0; i < kFidcSegmentCount; ++i) {
            const FidcSegment& segment = FidcSegments()[i];
            inputs.segment_values[i] = fields.Decimal(tab_ii::kFirstSegment + i);
            json.BeginObject();
            json.Key("code");
            json.String(segment.code);
            json.Key("name");
            json.String(segment.name);
            json.Key("source");
            json.String(segment.source);
            json.Key("value");
            json.NumberOrNull(inputs.segment_values[i]);
            json.EndObject();
        }
        json.EndArray();
        report.segments_json = json.Take();
    }

    if (row_of(kIII)) {
        report.liabilities = fields_of_table(kIII).Decimal(0);
    }
    if (row_of(kIV)) {
        const RowFields& fields = fields_of_table(kIV);
        report.nav = fields.Decimal(0);
        report.nav_average = fields.Decimal(1);
    }

    if (row_of(kV) || row_of(kVI)) {
        json.BeginObject();
        for (auto [name, table] : {std::pair{"V", kV}, std::pair{"VI", kVI}}) {
            json.Key(name);
            if (row_of(table)) {
                WriteBands(json, fields_of_table(table), inputs);
            } else {
                json.Null();
                // A table without a row: its bands are missing, not zero.
                inputs.to_mature_bands.resize(inputs.to_mature_bands.size() + tab_bands::kBands);
                inputs.delinquent_bands.resize(inputs.delinquent_bands.size() + tab_bands::kBands);
            }
        }
        json.EndObject();
        report.bands_json = json.Take();
    }

    // published_json: the one-row tables in catalog order, then VIII by rank. One allocation
    // of about its size (keys, quoted values, a debtor's ["rank","value"]) beats growing it.
    constexpr std::size_t kDebtorBytes = 32;
    std::size_t published_bytes = kDebtorBytes * rows.tables[IndexOf(kVIII)].size();
    for (const FidcTableInfo& info : FidcTables()) {
        if (info.shape == FidcShape::kOneRow && row_of(info.table)) {
            published_bytes +=
                published_key_bytes_[row_of(info.table)->member] + 2 * row_of(info.table)->line.size();
        }
    }
    json.Reserve(published_bytes);
    json.BeginObject();
    for (const FidcTableInfo& info : FidcTables()) {
        if (info.shape != FidcShape::kOneRow || !row_of(info.table)) {
            continue;
        }
        const RowFields& fields = fields_of_table(info.table);
        json.Key(info.name);
        WritePublishedFields(json, fields, published_columns_[row_of(info.table)->member]);
    }
    if (const auto& debtors = rows.tables[IndexOf(kVIII)]; !debtors.empty()) {
        std::vector<std::pair<std::int64_t, RowFields>> ranked;
        for (const auto& [key, row] : debtors) {
            RowFields fields = fields_of(row);
            const std::int64_t rank = fields.Integer(tab_viii::kRank).value_or(0);
            ranked.emplace_back(rank, std::move(fields));
        }
        std::sort(ranked.begin(), ranked.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        json.Key("VIII");
        json.BeginArray();
        for (const auto& [rank, fields] : ranked) {
            json.BeginArray();
            json.String(fields.Typed(tab_viii::kRank));
            const std::string_view value = fields.Typed(tab_viii::kValue);
            if (sdk::TrimBlanks(value).empty()) {
                json.Null();
            } else {
                json.String(value);
            }
            json.EndArray();
        }
        json.EndArray();
    }
    json.EndObject();
    report.published_json = json.Take();

    // Series: every series identity (FidcRowStore: the folded label, "#n" for the n-th series of
    // a repeated label) of X_1, X_2, X_3 or X_6.
    constexpr std::array<FidcTable, 4> kSeriesTables = {kX1, kX2, kX3, kX6};
    std::map<std::string_view, std::array<const FidcStoredRow*, 4>> series_rows;
    for (std::size_t s = 0; s < kSeriesTables.size(); ++s) {
        for (const auto& [key, row] : rows.tables[IndexOf(kSeriesTables[s])]) {
            series_rows[key][s] = &row;
        }
    }
    for (const auto& [key, parts] : series_rows) {
        FidcSeries series;
        series.cnpj = report.cnpj;
        series.month = report.month;
        series.series_key = std::string(key);
        for (const FidcStoredRow* part : parts) {
            if (part) {
                series.label = std::string(fields_of(*part).Typed(tab_x::kSeries));
                break;
            }
        }
        const std::string_view seniority = SeniorityOf(series.label);
        series.seniority = std::string(seniority);
        if (parts[0]) {
            const RowFields fields = fields_of(*parts[0]);
            series.subclass_code = fields.Text(tab_x::kSubclass);
            series.investor_count = fields.Integer(tab_x::kInvestors);
        }
        if (parts[1]) {
            const RowFields fields = fields_of(*parts[1]);
            series.quota_count = fields.Decimal(tab_x::kQuotaCount);
            series.quota_value = fields.Decimal(tab_x::kQuotaValue);
        }
        if (parts[2]) {
            series.profitability_pct = fields_of(*parts[2]).Decimal(tab_x::kProfitability);
        }
        if (parts[3]) {
            const RowFields fields = fields_of(*parts[3]);
            series.expected_performance_pct = fields.Decimal(tab_x::kExpected);
            series.real_performance_pct = fields.Decimal(tab_x::kReal);
        }
        inputs.series.push_back({seniority, series.investor_count, series.quota_count, series.quota_value,
                                 series.profitability_pct});
        built.series.push_back(std::move(series));
    }

    // The series' X_2 quota count, the evidence of an amortization's reading.
    std::map<std::string_view, std::optional<double>> series_quotas;
    for (const FidcSeries& series : built.series) {
        series_quotas.emplace(series.series_key, series.quota_count);
    }
    for (const auto& [key, row] : rows.tables[IndexOf(kX4)]) {
        const RowFields fields = fields_of(row);
        FidcQuotaOperation operation;
        operation.cnpj = report.cnpj;
        operation.month = report.month;
        operation.series_label = std::string(fields.Typed(tab_x::kSeries));
        operation.series_key = key.substr(0, key.find(kFidcKeySeparator));  // the series identity
        operation.published_kind = std::string(fields.Typed(tab_x::kOperation));
        operation.kind = std::string(OperationKindOf(operation.published_kind));
        operation.value = fields.Decimal(tab_x::kOperationValue);
        operation.quota_count = fields.Decimal(tab_x::kOperationQuotas);
        FidcReadAmount read{FidcReading::kAsPublished, operation.value};
        if (operation.kind == "amortization") {
            const auto quotas = series_quotas.find(operation.series_key);
            read = ReadAmortization(operation.value, operation.quota_count,
                                    quotas == series_quotas.end() ? std::nullopt : quotas->second);
        }
        operation.reading = std::string(ReadingName(read.reading));
        operation.value_brl = read.value_brl;
        built.operations.push_back(std::move(operation));
    }

    ApplyFidcMetrics(inputs, report);
    return built;
}

}  // namespace lastro::funds
