#include "ingest/fidc_report_builder.hpp"

#include "ingest/fidc_metrics.hpp"
#include "ingest/fidc_numbers.hpp"
#include "ingest/fidc_series_label.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <boost/json/array.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

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

namespace json = boost::json;

// The fields of one stored row, read through its member's layout.
class RowFields {
public:
    RowFields(const FidcStoredRow& row, const FidcMemberLayout& layout) : layout_(&layout) {
        SplitFields(row.line, fields_);
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
        field = TrimBlanks(field);
        if (field.empty()) {
            return std::nullopt;
        }
        return std::string(field);
    }

private:
    const FidcMemberLayout* layout_;
    std::vector<std::string_view> fields_;
};

json::value Number(const std::optional<double>& value) {
    return value ? json::value(*value) : json::value(nullptr);
}

// A secondary document: 14 digits when it is a valid CNPJ, otherwise kept as published.
std::optional<std::string> Document(std::string_view field) {
    std::optional<std::string> text = RowFields::TextOrNull(field);
    if (text) {
        if (auto parsed = sdk::ParseCnpj(*text); parsed.digits) {
            return parsed.digits;
        }
    }
    return text;
}

// Every non-empty field of a one-row table as published, key columns left out (they are the
// report's cnpj, month, filer_type and name).
json::object PublishedFields(const RowFields& fields, const json::storage_ptr& storage) {
    json::object object(storage);
    const FidcMemberLayout& layout = fields.Layout();
    for (std::size_t i = 0; i < layout.header.size() && i < fields.Size(); ++i) {
        const std::string_view field = fields.Field(i);
        if (layout.IsKeyColumn(i) || TrimBlanks(field).empty()) {
            continue;
        }
        object.emplace(layout.header[i], json::string(field, storage));
    }
    return object;
}

json::object Bands(const RowFields& fields, const json::storage_ptr& storage) {
    using namespace tab_bands;
    json::array to_mature(storage);
    json::array delinquent(storage);
    json::array prepaid(storage);
    for (std::size_t i = 0; i < kBands; ++i) {
        to_mature.push_back(Number(fields.Decimal(kToMature + i)));
        delinquent.push_back(Number(fields.Decimal(kDelinquent + i)));
        prepaid.push_back(Number(fields.Decimal(kPrepaid + i)));
    }
    json::object object(storage);
    object.emplace("to_mature", std::move(to_mature));
    object.emplace("delinquent", std::move(delinquent));
    object.emplace("prepaid", std::move(prepaid));
    object.emplace("to_mature_total", Number(fields.Decimal(kToMatureTotal)));
    object.emplace("delinquent_total", Number(fields.Decimal(kDelinquentTotal)));
    object.emplace("prepaid_total", Number(fields.Decimal(kPrepaidTotal)));
    return object;
}

}  // namespace

FidcBuiltReport FidcReportBuilder::Build(const FidcReportRows& rows) const {
    using enum FidcTable;
    const auto row_of = [&rows](FidcTable table) -> const FidcStoredRow* {
        const auto& kept = rows.tables[IndexOf(table)];
        return kept.empty() ? nullptr : &kept.begin()->second;
    };
    const auto fields_of = [this](const FidcStoredRow& row) { return RowFields(row, members_[row.member]); };

    // Most JSON pieces of a report live only until it is serialized.
    unsigned char json_buffer[16384];
    json::monotonic_resource resource(json_buffer, sizeof json_buffer);
    const json::storage_ptr storage(&resource);

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
        const RowFields fields = fields_of(*primary);
        report.reference_date = std::string(TrimBlanks(fields.Field(fields.Layout().date)));
        report.layout = std::string(fields.Layout().LayoutName());
        report.name = RowFields::TextOrNull(fields.Field(fields.Layout().name));
    }

    FidcMetricInputs inputs;
    json::object published(storage);

    if (const FidcStoredRow* row = row_of(kI)) {
        using namespace tab_i;
        const RowFields fields = fields_of(*row);
        report.administrator_cnpj = Document(fields.Typed(kAdministratorCnpj));
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

    if (const FidcStoredRow* row = row_of(kII)) {
        const RowFields fields = fields_of(*row);
        report.segments_total = fields.Decimal(tab_ii::kTotal);
        inputs.has_segments = true;
        inputs.segments_total = report.segments_total;
        json::array segments(storage);
        for (std::size_t i = 0; i < kFidcSegmentCount; ++i) {
            const FidcSegment& segment = FidcSegments()[i];
            inputs.segment_values[i] = fields.Decimal(tab_ii::kFirstSegment + i);
            json::object item(storage);
            item.emplace("code", segment.code);
            item.emplace("name", segment.name);
            item.emplace("source", segment.source);
            item.emplace("value", Number(inputs.segment_values[i]));
            segments.push_back(std::move(item));
        }
        report.segments_json = json::serialize(segments);
    }

    if (const FidcStoredRow* row = row_of(kIII)) {
        report.liabilities = fields_of(*row).Decimal(0);
    }
    if (const FidcStoredRow* row = row_of(kIV)) {
        const RowFields fields = fields_of(*row);
        report.nav = fields.Decimal(0);
        report.nav_average = fields.Decimal(1);
    }

    const FidcStoredRow* with_risk = row_of(kV);
    const FidcStoredRow* without_risk = row_of(kVI);
    if (with_risk || without_risk) {
        json::object bands(storage);
        for (auto [name, row] : {std::pair{"V", with_risk}, std::pair{"VI", without_risk}}) {
            if (!row) {
                bands.emplace(name, nullptr);
                continue;
            }
            const RowFields fields = fields_of(*row);
            bands.emplace(name, Bands(fields, storage));
            for (std::size_t i = 0; i < tab_bands::kBands; ++i) {
                inputs.to_mature_bands.push_back(fields.Decimal(tab_bands::kToMature + i));
                inputs.delinquent_bands.push_back(fields.Decimal(tab_bands::kDelinquent + i));
            }
        }
        report.bands_json = json::serialize(bands);
    }

    // published_json: the one-row tables in catalog order, then VIII by rank.
    for (const FidcTableInfo& info : FidcTables()) {
        if (info.shape != FidcShape::kOneRow) {
            continue;
        }
        if (const FidcStoredRow* row = row_of(info.table)) {
            published.emplace(info.name, PublishedFields(fields_of(*row), storage));
        }
    }
    if (const auto& debtors = rows.tables[IndexOf(kVIII)]; !debtors.empty()) {
        std::vector<std::pair<std::int64_t, const FidcStoredRow*>> ranked;
        for (const auto& [key, row] : debtors) {
            ranked.emplace_back(fields_of(row).Integer(tab_viii::kRank).value_or(0), &row);
        }
        std::sort(ranked.begin(), ranked.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        json::array list(storage);
        for (const auto& [rank, row] : ranked) {
            const RowFields fields = fields_of(*row);
            json::array pair(storage);
            pair.emplace_back(json::string(fields.Typed(tab_viii::kRank), storage));
            const std::string_view value = fields.Typed(tab_viii::kValue);
            if (TrimBlanks(value).empty()) {
                pair.emplace_back(nullptr);
            } else {
                pair.emplace_back(json::string(value, storage));
            }
            list.push_back(std::move(pair));
        }
        published.emplace("VIII", std::move(list));
    }
    report.published_json = json::serialize(published);

    // Series: every series key of X_1, X_2, X_3 or X_6.
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

    for (const auto& [key, row] : rows.tables[IndexOf(kX4)]) {
        const RowFields fields = fields_of(row);
        FidcQuotaOperation operation;
        operation.cnpj = report.cnpj;
        operation.month = report.month;
        operation.series_label = std::string(fields.Typed(tab_x::kSeries));
        operation.series_key = FoldLabel(operation.series_label);
        operation.published_kind = std::string(fields.Typed(tab_x::kOperation));
        operation.kind = std::string(OperationKindOf(operation.published_kind));
        operation.value = fields.Decimal(tab_x::kOperationValue);
        operation.quota_count = fields.Decimal(tab_x::kOperationQuotas);
        built.operations.push_back(std::move(operation));
    }

    ApplyFidcMetrics(inputs, report);
    return built;
}

}  // namespace lastro::funds
