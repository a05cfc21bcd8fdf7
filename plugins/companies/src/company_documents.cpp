// GET /v1/companhias/{cvm_code}/documentos: a company's documents as CVM's indexes list them,
// newest delivery first, by keyset pages (docs/api/documentos.md). Listing a document does not
// read it: `link` is CVM's official download link as published.
#include "domain/documents/document_rules.hpp"
#include "domain/filings/filing_rules.hpp"
#include "domain/registry/registry_rules.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/sql_conditions.hpp>

#include <boost/describe/class.hpp>

#include <string>
#include <vector>

namespace lastro::companies {

// Where a page starts: after this delivery in the newest-first order.
struct DocumentAfter {
    std::string delivered_at;  // "" for a delivery without a date (they come last)
    std::string kind;
    std::string protocol;
    std::int64_t version = 0;
    bool Valid() const {
        return delivered_at.size() <= 10 && !kind.empty() && !protocol.empty() && version >= 0;
    }
};
BOOST_DESCRIBE_STRUCT(DocumentAfter, (), (delivered_at, kind, protocol, version))

namespace {

constexpr const char* kIssuer = "/v1/companhias/{cvm_code}/documentos";
constexpr std::size_t kDefaultLimit = 50;
// The page order, newest delivery first, and the same key as a row value for the cursor.
constexpr const char* kOrder =
    "COALESCE(d.delivered_at, '') DESC, d.kind DESC, d.protocol DESC, d.version DESC";
constexpr const char* kOrderKey = "(COALESCE(d.delivered_at, ''), d.kind, d.protocol, d.version)";

}  // namespace

sdk::Result HandleCompanyDocuments(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    const std::int64_t cvm_code = *params.Integer("cvm_code");
    const std::string code = std::to_string(cvm_code);
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kIpeDataset, kFre.dataset, kRegistryDataset});
    sdk::SqlSession sql(context.db);

    sdk::SqlConditions where;
    where.Add("d.cvm_code = ?", {code});
    if (const auto kind = params.String("kind")) {
        where.Add("d.kind = ?", {*kind});
    }
    if (const auto category = FoldedFilter(params.String("category"))) {
        where.Add("d.category_folded = ?", {*category});
    }
    if (const auto from = params.DateValue("delivered_from")) {
        where.Add("d.delivered_at >= ?", {from->ToString()});
    }
    if (const auto to = params.DateValue("delivered_to")) {
        where.Add("d.delivered_at <= ?", {to->ToString()});
    }
    if (const auto from = params.DateValue("reference_from")) {
        where.Add("d.reference_date >= ?", {from->ToString()});
    }
    if (const auto to = params.DateValue("reference_to")) {
        where.Add("d.reference_date <= ?", {to->ToString()});
    }
    if (params.String("versions").value_or("latest") == "latest") {
        where.Add(
            "NOT EXISTS (SELECT 1 FROM companies_document newer WHERE newer.kind = d.kind"
            " AND newer.delivery = d.delivery AND newer.version > d.version)");
    }
    if (const auto after = sdk::ReadPosition<DocumentAfter>(context.cursor_position, kIssuer)) {
        where.Add(std::string(kOrderKey) + " < (?, ?, ?, CAST(? AS BIGINT))",
                  {after->delivered_at, after->kind, after->protocol, std::to_string(after->version)});
    }

    const std::size_t limit = sdk::PageLimit(params, kDefaultLimit);
    const sdk::SqlRows rows = sql.Query(
        "SELECT d.kind, d.protocol, d.version, d.cnpj, d.cnpj_published, d.cnpj_kind, d.company_name,"
        " d.reference_date, d.delivered_at, d.category, d.type, d.species, d.subject, d.presentation, d.link,"
        " d.first_seen_at, NOT EXISTS (SELECT 1 FROM companies_document newer WHERE newer.kind = d.kind"
        " AND newer.delivery = d.delivery AND newer.version > d.version)"
        " FROM companies_document d WHERE true" +
            where.Where() + " ORDER BY " + kOrder + " LIMIT " + std::to_string(limit + 1),
        where.Values());
    if (rows.empty() && !context.cursor_position) {
        const bool known =
            !sql.Query("SELECT 1 FROM companies_company WHERE cvm_code = $1", {code}).empty() ||
            !sql.Query("SELECT 1 FROM companies_document WHERE cvm_code = $1 LIMIT 1", {code}).empty();
        if (!known) {
            throw sdk::NotFound(
                "no listed company has CVM code " + code +
                    " in CVM's registry or its document indexes (GET /v1/companhias lists them)",
                "cvm_code");
        }
    }

    const std::size_t shown = std::min(rows.size(), limit);
    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& row = rows[i];
        const bool latest = *row[16] == "1" || *row[16] == "t" || *row[16] == "true";
        json.BeginObject();
        json.Key("kind").Value(*row[0]);
        json.Key("protocol").Value(*row[1]);
        json.Key("version").Value(static_cast<std::int64_t>(std::stoll(*row[2])));
        json.Key("latest_version").Value(latest);
        json.Key("cvm_code").Value(cvm_code);
        json.Key("cnpj").Value(row[3]);
        json.Key("cnpj_published").Value(row[4]);
        json.Key("cnpj_kind").Value(*row[5]);
        json.Key("company_name").Value(row[6]);
        json.Key("reference_date").Value(row[7]);
        json.Key("delivered_at").Value(row[8]);
        json.Key("category").Value(row[9]);
        json.Key("type").Value(row[10]);
        json.Key("species").Value(row[11]);
        json.Key("subject").Value(row[12]);
        json.Key("presentation").Value(row[13]);
        json.Key("link").Value(row[14]);
        json.Key("first_seen_at").Value(*row[15]);
        json.EndObject();
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = shown;
    if (rows.size() > limit) {
        const auto& last = rows[shown - 1];
        result.meta.next_position =
            sdk::PositionValue(DocumentAfter{last[8].value_or(""), *last[0], *last[1], std::stoll(*last[2])});
    }
    return result;
}

}  // namespace lastro::companies
