// GET /v1/companhias: the registry of listed companies, one row per CVM code, by keyset pages
// over the code (docs/api/companhias.md). Rows are the items the ingester wrote; the filters are
// indexed columns, and `q` goes through the trigram index (sdk/serving/trigram_search.hpp).
#include "domain/filings/share_rules.hpp"
#include "domain/registry/registry_rules.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/serving/trigram_search.hpp>
#include <lastro/sdk/sql_conditions.hpp>

#include <boost/describe/class.hpp>

#include <map>
#include <string>
#include <vector>

namespace lastro::companies {

// Where a page starts: after CVM code `after`.
struct CompanyAfter {
    std::int64_t after = 0;
    bool Valid() const { return after >= 0; }
};
BOOST_DESCRIBE_STRUCT(CompanyAfter, (), (after))

namespace {

constexpr const char* kIssuer = "/v1/companhias";
constexpr std::size_t kDefaultLimit = 50;

// The tickers of the companies with codes from `first` to `last` (a page), as JSON arrays by
// code: each security of the company's latest FCA that has a ticker (companies.securities).
std::map<std::string, std::string> TickersOf(sdk::SqlSession& sql, const std::string& first,
                                             const std::string& last) {
    std::map<std::string, sdk::JsonText> arrays;
    for (const auto& row :
         sql.Query("SELECT cvm_code, ticker, share_class, security, market, segment, trading_from,"
                   " trading_to FROM companies_security WHERE ticker IS NOT NULL"
                   " AND cvm_code BETWEEN CAST($1 AS BIGINT) AND CAST($2 AS BIGINT)"
                   " ORDER BY cvm_code, ticker",
                   {first, last})) {
        auto [it, is_new] = arrays.try_emplace(*row[0]);
        if (is_new) {
            it->second.BeginArray();
        }
        sdk::JsonText& json = it->second;
        json.BeginObject();
        json.Key("ticker").Value(*row[1]);
        json.Key("share_class").Value(row[2]);
        json.Key("security").Value(row[3]);
        json.Key("market").Value(row[4]);
        json.Key("segment").Value(row[5]);
        json.Key("trading_from").Value(row[6]);
        json.Key("trading_to").Value(row[7]);
        json.EndObject();
    }
    std::map<std::string, std::string> tickers;
    for (auto& [code, json] : arrays) {
        json.EndArray();
        tickers[code] = json.Take();
    }
    return tickers;
}

}  // namespace

sdk::Result HandleCompanies(const sdk::RequestContext& context) {
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kRegistryDataset, kSecuritiesDataset});
    const sdk::Params& params = context.params;
    sdk::SqlSession sql(context.db);

    sdk::SqlConditions filters;
    if (const auto cnpj = params.String("cnpj")) {
        filters.Add("cnpj = ?", {*cnpj});
    }
    if (const auto needle = FoldedFilter(params.String("q"))) {
        filters.Add("search_text LIKE ? ESCAPE '\\'", {sdk::ContainsPattern(*needle)});
        if (!sql.IsPostgres()) {
            if (const auto phrase = sdk::TrigramPhrase("search_text", *needle)) {
                filters.Add(
                    "cvm_code IN (SELECT rowid FROM companies_company_search WHERE companies_company_search "
                    "MATCH ?)",
                    {*phrase});
            }
        }
    }
    if (const auto situation = FoldedFilter(params.String("situation"))) {
        filters.Add("situation_folded = ?", {*situation});
    }
    if (const auto from = params.DateValue("registered_from")) {
        filters.Add("registered_at >= ?", {from->ToString()});
    }
    if (const auto to = params.DateValue("registered_to")) {
        filters.Add("registered_at <= ?", {to->ToString()});
    }
    if (const auto from = params.DateValue("cancelled_from")) {
        filters.Add("cancelled_at >= ?", {from->ToString()});
    }
    if (const auto to = params.DateValue("cancelled_to")) {
        filters.Add("cancelled_at <= ?", {to->ToString()});
    }
    if (const auto position = sdk::ReadPosition<CompanyAfter>(context.cursor_position, kIssuer)) {
        filters.Add("cvm_code > ?", {std::to_string(position->after)});
    }

    const std::size_t limit = sdk::PageLimit(params, kDefaultLimit);
    const std::vector<sdk::SqlValue> values = filters.Values();
    const sdk::SqlRows rows =
        sql.Query("SELECT cvm_code, item FROM companies_company WHERE true" + filters.Where() +
                      " ORDER BY cvm_code LIMIT " + std::to_string(limit + 1),
                  values);

    const std::size_t shown = std::min(rows.size(), limit);
    const std::map<std::string, std::string> tickers =
        shown == 0 ? std::map<std::string, std::string>{} : TickersOf(sql, *rows[0][0], *rows[shown - 1][0]);
    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = 0; i < shown; ++i) {
        // The stored item, its tickers added as its last member.
        const std::string& item = *rows[i][1];
        const auto found = tickers.find(*rows[i][0]);
        json.Raw(item.substr(0, item.rfind('}')) +
                 ",\"tickers\":" + (found == tickers.end() ? "[]" : found->second) + "}");
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = shown;
    if (rows.size() > limit) {
        result.meta.next_position = sdk::PositionValue(CompanyAfter{std::stoll(*rows[shown - 1][0])});
    }
    return result;
}

}  // namespace lastro::companies
