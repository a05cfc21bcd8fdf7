#include "services/funds_services.hpp"

#include "domain/registry/registry_lookup.hpp"
#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "layouts/inf_mensal_fidc.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/query_rows.hpp>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <map>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lastro::funds {
namespace {

// Every exported field is a column of its table in the layout the ingester reads: the exported
// list and layouts/inf_mensal_fidc.hpp cannot drift apart.
consteval bool FieldsInLayouts() {
    for (const FidcFieldLayout& field : kFidcFields) {
        bool found = false;
        for (const FidcTableLayout& table : kFidcTableLayouts) {
            for (std::string_view column : table.columns) {
                found = found || (table.name == field.table && column == field.column);
            }
        }
        if (!found) {
            return false;
        }
    }
    return true;
}
static_assert(FieldsInLayouts());

FidcMonthlyFact Fact(const FidcReport& r) {
    FidcMonthlyFact f;
    f.cnpj = r.cnpj;
    f.month = r.month;
    f.reference_date = r.reference_date;
    f.filer_type = r.filer_type;
    f.name = r.name;
    f.administrator_cnpj = r.administrator_cnpj;
    f.administrator = r.administrator;
    f.condominium = r.condominium;
    f.assets_total = r.assets_total;
    f.nav = r.nav;
    f.nav_average = r.nav_average;
    f.liabilities = r.liabilities;
    f.segments_total = r.segments_total;
    f.receivables_net = r.receivables_net;
    f.receivables_gross = r.receivables_gross;
    f.pdd = r.pdd;
    f.delinquent_total = r.delinquent_total;
    f.delinquency_ratio = r.delinquency_ratio;
    f.senior_nav = r.senior_nav;
    f.mezzanine_nav = r.mezzanine_nav;
    f.subordinated_nav = r.subordinated_nav;
    f.series_nav_total = r.series_nav_total;
    f.investor_count = r.investor_count;
    f.primary_segment_code = r.primary_segment_code;
    f.duplicates_dropped = r.duplicates_dropped;
    return f;
}

}  // namespace

Located RegistryLocator::ByCnpj(odb::database& db, const std::string& cnpj) const {
    return LocateByCnpj(db, cnpj);
}

Located RegistryLocator::ByCvmCode(odb::database& db, std::int64_t code) const {
    return LocateByCvmCode(db, code);
}

std::vector<std::string> FidcMonthlyFactsReader::Months(odb::database& db) const {
    using ReportQuery = odb::query<FidcReport>;
    std::vector<std::string> months;
    for (const FidcReportMonth& row :
         db.query<FidcReportMonth>(odb::query<FidcReportMonth>("ORDER BY" + ReportQuery::month))) {
        months.push_back(row.month);
    }
    return months;
}

void FidcMonthlyFactsReader::ForEachReport(odb::database& db, const std::string& month,
                                           const std::function<void(const FidcMonthlyFact&)>& visit) const {
    using Query = odb::query<FidcReport>;
    // The JSON documents are a lazy section: loading a report here leaves them unread.
    for (const FidcReport& report :
         db.query<FidcReport>(Query(Query::month == month) + "ORDER BY" + Query::cnpj)) {
        visit(Fact(report));
    }
}

namespace {

std::optional<double> NumberOrNull(const boost::json::value& value) {
    if (value.is_number()) {
        return value.to_number<double>();
    }
    return std::nullopt;
}

std::optional<double> DecimalOrNull(std::string_view text) {
    const auto number = sdk::ParseDecimal(text);
    if (number.status == sdk::ValueStatus::kValue) {
        return number.value;
    }
    return std::nullopt;
}

// The asked fields by column, each with its table and its first position among them (a field
// asked twice is copied to its later positions).
struct WantedField {
    std::string_view table;
    std::size_t position;
};
using WantedFields = std::unordered_map<std::string_view, WantedField>;

// published_json (funds_model.hxx): the asked fields of the one-row tables, and the ranked
// debtors of VIII. Parsed into a monotonic buffer: a report's ~150 fields would otherwise cost
// an allocation each.
void ReadPublished(const std::string& text, const WantedFields& wanted, FidcReportDetail& detail) {
    unsigned char buffer[16384];
    boost::json::monotonic_resource memory(buffer, sizeof buffer);
    const boost::json::value parsed = boost::json::parse(text, &memory);
    for (const auto& [table, fields] : parsed.as_object()) {
        if (table == "VIII") {
            for (const boost::json::value& ranked : fields.as_array()) {
                const boost::json::array& pair = ranked.as_array();
                std::optional<double> value;
                if (pair.size() == 2 && pair[1].is_string()) {
                    value = DecimalOrNull(std::string_view(pair[1].as_string()));
                }
                detail.largest_debtors.push_back(value);
            }
            continue;
        }
        for (const auto& [column, value] : fields.as_object()) {
            const auto found = wanted.find(std::string_view(column));
            if (found != wanted.end() && found->second.table == std::string_view(table) &&
                value.is_string()) {
                detail.fields[found->second.position] = DecimalOrNull(std::string_view(value.as_string()));
            }
        }
    }
}

void ReadSegments(const std::optional<std::string>& text, FidcReportDetail& detail) {
    if (!text) {
        return;
    }
    const boost::json::value parsed = boost::json::parse(*text);
    for (const boost::json::value& item : parsed.as_array()) {
        const boost::json::object& segment = item.as_object();
        detail.segments.push_back({std::string(segment.at("code").as_string()),
                                   std::string(segment.at("name").as_string()),
                                   NumberOrNull(segment.at("value"))});
    }
}

void ReadBandArray(const boost::json::object& table, const char* key,
                   std::array<std::optional<double>, 10>& out) {
    const boost::json::value* values = table.if_contains(key);
    if (!values || !values->is_array()) {
        return;
    }
    const boost::json::array& array = values->as_array();
    for (std::size_t i = 0; i < out.size() && i < array.size(); ++i) {
        out[i] = NumberOrNull(array[i]);
    }
}

void ReadBands(const std::optional<std::string>& text, FidcReportDetail& detail) {
    if (!text) {
        return;
    }
    const boost::json::value parsed = boost::json::parse(*text);
    const boost::json::object& bands = parsed.as_object();
    if (const boost::json::value* v = bands.if_contains("V"); v && v->is_object()) {
        ReadBandArray(v->as_object(), "to_mature", detail.bands.to_mature_with_risk);
        ReadBandArray(v->as_object(), "delinquent", detail.bands.delinquent_with_risk);
    }
    if (const boost::json::value* vi = bands.if_contains("VI"); vi && vi->is_object()) {
        ReadBandArray(vi->as_object(), "to_mature", detail.bands.to_mature_without_risk);
        ReadBandArray(vi->as_object(), "delinquent", detail.bands.delinquent_without_risk);
    }
}

}  // namespace

void FidcMonthlyFactsReader::ForEachReportDetail(
    odb::database& db, const std::string& month, std::span<const FidcField> fields,
    const std::function<void(const FidcReportDetail&)>& visit) const {
    WantedFields wanted;
    std::vector<std::pair<std::size_t, std::size_t>> repeated;  // (position, first position)
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const FidcFieldLayout& layout = LayoutOf(fields[i]);
        const auto [at, added] = wanted.try_emplace(layout.column, WantedField{layout.table, i});
        if (!added) {
            repeated.emplace_back(i, at->second.position);
        }
    }
    // Four queries for the whole month, joined here by report id: one per report would cost
    // thousands of statements a month.
    std::map<std::int64_t, FidcReportDetail> details;
    {
        using Query = odb::query<FidcReport>;
        for (const FidcReport& report : db.query<FidcReport>(Query::month == month)) {
            FidcReportDetail& detail = details[report.id];
            detail.fact = Fact(report);
            detail.fields.resize(fields.size());
        }
    }
    {
        using Query = odb::query<FidcReportDocuments>;
        for (const FidcReportDocuments& documents : db.query<FidcReportDocuments>(Query::month == month)) {
            const auto found = details.find(documents.report_id);
            if (found == details.end()) {
                continue;
            }
            ReadPublished(documents.published_json, wanted, found->second);
            for (const auto& [position, first] : repeated) {
                found->second.fields[position] = found->second.fields[first];
            }
            ReadSegments(documents.segments_json, found->second);
            ReadBands(documents.bands_json, found->second);
        }
    }
    {
        using Query = odb::query<FidcSeries>;
        for (const FidcSeries& s :
             db.query<FidcSeries>(Query(Query::month == month) + "ORDER BY" + Query::label)) {
            const auto found = details.find(s.report_id);
            if (found != details.end()) {
                found->second.series.push_back({s.label, s.series_key, s.seniority, s.investor_count,
                                                s.quota_count, s.quota_value, s.profitability_pct,
                                                s.expected_performance_pct, s.real_performance_pct});
            }
        }
    }
    {
        using Query = odb::query<FidcQuotaOperation>;
        for (const FidcQuotaOperation& o :
             db.query<FidcQuotaOperation>(Query(Query::month == month) + "ORDER BY" + Query::id)) {
            const auto found = details.find(o.report_id);
            if (found != details.end()) {
                found->second.operations.push_back({o.series_key, o.kind, o.reading, o.value_brl});
            }
        }
    }
    std::vector<const FidcReportDetail*> ordered;
    ordered.reserve(details.size());
    for (const auto& [id, detail] : details) {
        ordered.push_back(&detail);
    }
    std::sort(ordered.begin(), ordered.end(), [](const FidcReportDetail* a, const FidcReportDetail* b) {
        return a->fact.cnpj < b->fact.cnpj;
    });
    for (const FidcReportDetail* detail : ordered) {
        visit(*detail);
    }
}

namespace {

bool IsCancelled(const std::optional<std::string>& status) {
    if (!status) {
        return false;
    }
    const std::string folded = sdk::LowerAscii(*status);
    return folded.find("cancel") != std::string::npos || folded.find("liquidad") != std::string::npos;
}

// One value for a set of ANBIMA labels: the value when they agree, "mixed" when not.
void Merge(std::optional<std::string>& into, const std::optional<std::string>& value) {
    if (!value) {
        return;
    }
    if (!into) {
        into = value;
    } else if (*into != *value) {
        into = "mixed";
    }
}

}  // namespace

void FidcRegistryReader::ForEachVehicle(odb::database& db,
                                        const std::function<void(const FidcRegistryVehicle&)>& visit) const {
    // ANBIMA's type and focus by the CNPJ its rows name (class CNPJ, and fund CNPJ).
    std::map<std::string, std::pair<std::optional<std::string>, std::optional<std::string>>> by_class,
        by_fund;
    for (const AnbimaSubclass& s : db.query<AnbimaSubclass>()) {
        auto& c = by_class[s.class_cnpj];
        Merge(c.first, s.type);
        Merge(c.second, s.focus);
        auto& f = by_fund[s.fund_cnpj];
        Merge(f.first, s.type);
        Merge(f.second, s.focus);
    }
    using FundQuery = odb::query<Fund>;
    std::vector<Fund> funds =
        sdk::LoadAll(db, FundQuery(FundQuery(FundQuery::fidc_universe == true) + "ORDER BY" +
                                   FundQuery::cnpj + "," + FundQuery::registry_id));
    std::map<std::string, const Fund*> fund_by_id;
    for (const Fund& fund : funds) {
        fund_by_id.emplace(fund.fund_id, &fund);
    }
    std::vector<FidcRegistryVehicle> classes;
    std::map<std::string, std::int64_t> classes_with_cnpj;
    using ClassQuery = odb::query<FundClass>;
    for (const FundClass& c :
         db.query<FundClass>(ClassQuery("ORDER BY") + ClassQuery::cnpj + "," + ClassQuery::registry_id)) {
        const auto fund = fund_by_id.find(c.fund_id);
        if (fund == fund_by_id.end() || !c.cnpj) {
            continue;  // not of the FIDC family, or without a CNPJ of its own (files under its fund's)
        }
        ++classes_with_cnpj[c.fund_id];
        const Fund& f = *fund->second;
        FidcRegistryVehicle v;
        v.kind = "class";
        v.cnpj = *c.cnpj;
        v.fund_cnpj = f.cnpj;
        v.fund_id = f.fund_id;
        v.class_id = c.class_id;
        v.name = c.name;
        v.fund_type = f.fund_type;
        v.status = c.status;
        v.registered_at = c.registered_at;
        v.cancelled_at = IsCancelled(c.status) ? c.status_since : std::nullopt;
        v.adapted_rcvm175_at = f.adapted_rcvm175_at;
        v.manager = f.manager;
        v.manager_document = f.manager_document;
        v.administrator = f.administrator;
        v.administrator_cnpj = f.administrator_cnpj;
        const auto anbima = by_class.find(v.cnpj);
        const auto& labels = anbima != by_class.end() ? anbima->second : by_fund[f.cnpj];
        v.anbima_type = labels.first;
        v.anbima_focus = labels.second;
        classes.push_back(std::move(v));
    }
    for (const Fund& f : funds) {
        FidcRegistryVehicle v;
        v.kind = "fund";
        v.cnpj = f.cnpj;
        v.fund_cnpj = f.cnpj;
        v.fund_id = f.fund_id;
        v.name = f.name;
        v.fund_type = f.fund_type;
        v.status = f.status;
        v.registered_at = f.registered_at;
        v.cancelled_at = f.cancelled_at;
        v.adapted_rcvm175_at = f.adapted_rcvm175_at;
        v.manager = f.manager;
        v.manager_document = f.manager_document;
        v.administrator = f.administrator;
        v.administrator_cnpj = f.administrator_cnpj;
        v.fund_classes_with_cnpj = classes_with_cnpj[f.fund_id];
        const auto anbima = by_fund.find(f.cnpj);
        if (anbima != by_fund.end()) {
            v.anbima_type = anbima->second.first;
            v.anbima_focus = anbima->second.second;
        }
        visit(v);
    }
    for (FidcRegistryVehicle& v : classes) {
        v.fund_classes_with_cnpj = classes_with_cnpj[v.fund_id];
        visit(v);
    }
}

}  // namespace lastro::funds
