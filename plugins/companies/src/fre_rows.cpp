// GET /v1/companhias/fre/{cnpj}/{table}/linhas: a company's rows of one table of its FRE, the
// latest version of each reference date by default, or a version asked for, or what was known
// at a date (docs/api/fre.md). The table's columns and their types come from the catalog of the
// year each row was published in (model/filing_tables.cpp).
#include "domain/filings/filing_rules.hpp"
#include "src/handlers.hpp"
#include "store/filing_catalog.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/sql_conditions.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/parse.hpp>

#include <map>
#include <string>
#include <vector>

namespace lastro::companies {

// Where a page starts: after this row in the order newest reference date, version and document
// first, then the rows of a document in the member's order.
struct FreRowAfter {
    std::string reference_date;  // "" for a row without one (they come last)
    std::int64_t version = 0;
    std::int64_t document_id = 0;
    std::int64_t ordinal = 0;
    bool Valid() const {
        return reference_date.size() <= 10 && version >= 0 && document_id > 0 && ordinal > 0;
    }
};
BOOST_DESCRIBE_STRUCT(FreRowAfter, (), (reference_date, version, document_id, ordinal))

namespace {

constexpr const char* kIssuer = "/v1/companhias/fre/{cnpj}/{table}/linhas";
constexpr std::size_t kDefaultLimit = 100;

FilingTable FindTable(sdk::SqlSession& sql, const std::string& kind, const std::string& asked) {
    FilingTable table = LoadFilingTable(sql, kind, asked);
    if (!table.years.empty()) {
        return table;
    }
    // Unknown: the tables there are, each with its years.
    std::map<std::string, std::string> known;
    for (const auto& row : sql.Query(
             "SELECT table_name, year FROM companies_filing_table WHERE kind = $1 ORDER BY table_key, year",
             {kind})) {
        std::string& years = known[*row[0]];
        years += (years.empty() ? "" : ", ") + *row[1];
    }
    if (known.empty()) {
        throw sdk::NotFound("no FRE year is loaded: there is no table to read (dataset cvm.fre_cia_aberta)",
                            "table");
    }
    std::string list;
    for (const auto& [name, years] : known) {
        list += (list.empty() ? "" : "; ") + name + " (" + years + ")";
    }
    throw sdk::NotFound(
        "the FRE has no table '" + asked + "'; its tables, with the years loaded, are: " + list, "table");
}

void WriteCell(sdk::JsonText& json, const boost::json::value& cell, CellType type) {
    if (!cell.is_string()) {
        json.Null();
        return;
    }
    const std::string_view text = cell.as_string();
    if (type == CellType::kNumber && IsPlainDecimal(text)) {
        json.Raw(text);
    } else {
        json.Value(text);
    }
}

bool IsTrue(const std::optional<std::string>& value) {
    return value && (*value == "1" || *value == "t" || *value == "true");
}

}  // namespace

sdk::Result HandleFreRows(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    const std::string cnpj = *params.String("cnpj");
    const std::string kind(kFre.kind);
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kFre.dataset});
    sdk::SqlSession sql(context.db);

    const auto version = params.Integer("version");
    const auto as_of = params.DateValue("as_of");
    if (version && as_of) {
        throw sdk::BadRequest("version and as_of both choose which version to read: give one of them",
                              "version");
    }
    const FilingTable table = FindTable(sql, kind, *params.String("table"));
    if (sql.Query("SELECT 1 FROM companies_document WHERE kind = $1 AND cnpj = $2 LIMIT 1", {kind, cnpj})
            .empty()) {
        throw sdk::NotFound(
            "no FRE delivered under CNPJ " + cnpj +
                " is loaded (GET /v1/companhias?cnpj= finds the company; its documents with kind=fre "
                "list its FRE deliveries)",
            "cnpj");
    }

    sdk::SqlConditions where;
    where.Add("r.kind = ?", {kind});
    where.Add("r.cnpj = ?", {cnpj});
    where.Add("r.table_key = ?", {TableKey(table.name)});
    const std::string newer =
        "SELECT 1 FROM companies_document n WHERE n.kind = d.kind AND n.delivery = d.delivery AND n.version "
        "> d.version";
    std::string selection = "latest";
    if (version) {
        where.Add("r.version = CAST(? AS BIGINT)", {std::to_string(*version)});
        selection = "version " + std::to_string(*version);
    } else if (as_of) {
        const std::string day = as_of->ToString();
        where.Add("d.delivered_at <= ?", {day});
        where.Add("NOT EXISTS (" + newer + " AND n.delivered_at <= ?)", {day});
        selection = "as_of " + day;
    } else {
        where.Add("NOT EXISTS (" + newer + ")");
    }
    if (const auto from = params.DateValue("reference_from")) {
        where.Add("r.reference_date >= ?", {from->ToString()});
    }
    if (const auto to = params.DateValue("reference_to")) {
        where.Add("r.reference_date <= ?", {to->ToString()});
    }
    if (const auto after = sdk::ReadPosition<FreRowAfter>(context.cursor_position, kIssuer)) {
        where.Add(
            "((COALESCE(r.reference_date, ''), r.version, r.document_id) < (?, CAST(? AS BIGINT), CAST(? AS "
            "BIGINT))"
            " OR ((COALESCE(r.reference_date, ''), r.version, r.document_id) = (?, CAST(? AS BIGINT), CAST(? "
            "AS "
            "BIGINT))"
            " AND r.ordinal > CAST(? AS INTEGER)))",
            {after->reference_date, std::to_string(after->version), std::to_string(after->document_id),
             after->reference_date, std::to_string(after->version), std::to_string(after->document_id),
             std::to_string(after->ordinal)});
    }

    const std::size_t limit = sdk::PageLimit(params, kDefaultLimit);
    const sdk::SqlRows rows = sql.Query(
        "SELECT r.reference_date, r.version, r.document_id, r.ordinal, r.year, r.cells, r.cnpj_published,"
        " d.cvm_code, d.company_name, d.delivered_at, d.link, NOT EXISTS (" +
            newer +
            ")"
            " FROM companies_filing_row r JOIN companies_document d ON d.kind = r.kind"
            " AND d.protocol = CAST(r.document_id AS TEXT) AND d.version = r.version WHERE true" +
            where.Where() +
            " ORDER BY COALESCE(r.reference_date, '') DESC, r.version DESC, r.document_id DESC, r.ordinal"
            " LIMIT " +
            std::to_string(limit + 1),
        where.Values());
    if (rows.empty() && version && !context.cursor_position &&
        sql.Query("SELECT 1 FROM companies_document WHERE kind = $1 AND cnpj = $2 AND version = CAST($3 AS "
                  "BIGINT)"
                  " LIMIT 1",
                  {kind, cnpj, std::to_string(*version)})
            .empty()) {
        std::string versions;
        for (const auto& row : sql.Query("SELECT DISTINCT version FROM companies_document WHERE kind = $1 "
                                         "AND cnpj = $2 ORDER BY version",
                                         {kind, cnpj})) {
            versions += (versions.empty() ? "" : ", ") + *row[0];
        }
        throw sdk::NotFound("no FRE of CNPJ " + cnpj + " has version " + std::to_string(*version) +
                                " (its versions: " + versions + ")",
                            "version");
    }

    const std::size_t shown = std::min(rows.size(), limit);
    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& row = rows[i];
        const FilingCells cells(table, std::stoi(*row[4]), *row[5]);
        json.BeginObject();
        json.Key("cnpj").Value(cnpj);
        json.Key("cnpj_published").Value(row[6]);
        json.Key("cvm_code").Value(static_cast<std::int64_t>(std::stoll(*row[7])));
        json.Key("company_name").Value(row[8]);
        json.Key("reference_date").Value(row[0]);
        json.Key("version").Value(static_cast<std::int64_t>(std::stoll(*row[1])));
        json.Key("latest_version").Value(IsTrue(row[11]));
        json.Key("document_id").Value(static_cast<std::int64_t>(std::stoll(*row[2])));
        json.Key("row").Value(static_cast<std::int64_t>(std::stoll(*row[3])));
        json.Key("delivered_at").Value(row[9]);
        json.Key("link").Value(row[10]);
        json.Key("year").Value(static_cast<std::int64_t>(std::stoll(*row[4])));
        json.Key("values").BeginObject();
        const boost::json::array& values = cells.Cells();
        for (std::size_t c = 0; c < cells.Columns().size() && c < values.size(); ++c) {
            json.Key(cells.Columns()[c].name);
            WriteCell(json, values[c], cells.Columns()[c].type);
        }
        json.EndObject();
        json.EndObject();
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = shown;
    if (rows.size() > limit) {
        const auto& last = rows[shown - 1];
        result.meta.next_position = sdk::PositionValue(FreRowAfter{
            last[0].value_or(""), std::stoll(*last[1]), std::stoll(*last[2]), std::stoll(*last[3])});
    }

    boost::json::object described;
    described["name"] = table.name;
    boost::json::object years;
    for (const auto& [year, columns] : table.years) {
        boost::json::array list;
        for (const FilingColumn& column : columns) {
            list.push_back(boost::json::object{{"name", column.name}, {"type", CellTypeName(column.type)}});
        }
        years[std::to_string(year)] = std::move(list);
    }
    described["columns_by_year"] = std::move(years);
    result.meta.extra["table"] = std::move(described);
    result.meta.extra["version_selection"] = selection;
    return result;
}

}  // namespace lastro::companies
