// GET /v1/acoes: the listing (stocks.listing, derive/listing_derivation.cpp), by keyset pages
// over any sort: (the sort column's nulls last, the column, ticker). Rows are the items the
// derivation wrote; the filters are columns of the same table.
#include "derive/listing_derivation.hpp"
#include "ingest/cotahist/cotahist_ingester.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/serving/trigram_search.hpp>
#include <lastro/sdk/sql_conditions.hpp>
#include <lastro/sdk/text.hpp>

#include <boost/describe/class.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lastro::stocks {

// Where a page starts: after the row whose sort value is `value` (null: among the nulls) and
// ticker `ticker`, for the sort and order named (a cursor of another sort is refused).
struct StockAfter {
    std::string sort;
    std::string order;
    std::optional<std::string> value;
    std::string ticker;
    bool Valid() const { return !ticker.empty() && (order == "asc" || order == "desc"); }
};
BOOST_DESCRIBE_STRUCT(StockAfter, (), (sort, order, value, ticker))

namespace {

constexpr const char* kIssuer = "/v1/acoes";
constexpr std::size_t kDefaultLimit = 50;

// The listing's column of each sort; "ticker" sorts by the key alone. Text sorts compare as text,
// the others as numbers.
const std::map<std::string, std::string>& SortColumns() {
    static const std::map<std::string, std::string> columns{{"name", "name_key"},
                                                            {"close", "last_close"},
                                                            {"volume", "volume"},
                                                            {"market_cap", "market_cap"},
                                                            {"change", "change"}};
    return columns;
}

// The allowed values of a filter whose values are those loaded, for its 422.
std::string Allowed(sdk::SqlSession& sql, const std::string& query) {
    std::string list;
    for (const auto& row : sql.Query(query)) {
        list += (list.empty() ? "" : ", ") + row[0].value_or("");
    }
    return list.empty() ? "none loaded" : list;
}

}  // namespace

sdk::Result HandleStocks(const sdk::RequestContext& context) {
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kListingDataset, kCotahistDataset});
    const sdk::Params& params = context.params;
    sdk::SqlSession sql(context.db);
    const std::string sort = params.String("sort").value_or("ticker");
    const std::string order = params.String("order").value_or("asc");
    const bool descending = order == "desc";

    sdk::SqlConditions filters;
    if (!params.Boolean("include_inactive").value_or(false)) {
        filters.Add("active = 1");
    }
    if (const auto cnpj = params.String("cnpj")) {
        filters.Add("cnpj = ?", {*cnpj});
    }
    if (const auto q = params.String("q")) {
        const std::string needle = sdk::FoldForSearch(*q);
        if (!needle.empty()) {
            filters.Add("search_text LIKE ? ESCAPE '\\'", {sdk::ContainsPattern(needle)});
        }
    }
    if (const auto instrument_class = params.String("class")) {
        filters.Add("class = ?", {*instrument_class});
    }
    if (const auto sector = params.String("sector")) {
        const std::string key = sdk::FoldForSearch(*sector);
        if (sql.Query("SELECT 1 FROM stocks_listing_sector WHERE sector_key = $1", {key}).empty()) {
            throw sdk::InvalidParameter(
                "sector", "no ticker loaded has the sector, subsector or segment '" + *sector +
                              "'; the values loaded are: " +
                              Allowed(sql, "SELECT name FROM stocks_listing_sector ORDER BY sector_key"));
        }
        filters.Add("sector_keys LIKE ?", {"%|" + key + "|%"});
    }
    if (const auto index = params.String("index")) {
        if (sql.Query("SELECT 1 FROM stocks_listing_index WHERE index_code = $1", {*index}).empty()) {
            throw sdk::InvalidParameter(
                "index",
                "no ticker loaded belongs to the index '" + *index + "'; the indexes loaded are: " +
                    Allowed(sql, "SELECT DISTINCT index_code FROM stocks_listing_index ORDER BY index_code"));
        }
        filters.Add("ticker IN (SELECT ticker FROM stocks_listing_index WHERE index_code = ?)", {*index});
    }

    const auto column = SortColumns().find(sort);
    const bool numeric = column != SortColumns().end() && sort != "name";
    const std::string bound = numeric ? "CAST(? AS DOUBLE PRECISION)" : "?";
    if (const auto position = sdk::ReadPosition<StockAfter>(context.cursor_position, kIssuer)) {
        if (position->sort != sort || position->order != order) {
            sdk::RejectCursor(kIssuer);
        }
        if (column == SortColumns().end()) {
            filters.Add(descending ? "ticker < ?" : "ticker > ?", {position->ticker});
        } else if (position->value) {
            const std::string& col = column->second;
            filters.Add("((" + col + " IS NOT NULL AND " + col + (descending ? " < " : " > ") + bound +
                            ") OR (" + col + " = " + bound + " AND ticker > ?) OR " + col + " IS NULL)",
                        {*position->value, *position->value, position->ticker});
        } else {
            filters.Add(column->second + " IS NULL AND ticker > ?", {position->ticker});
        }
    }
    std::string order_by;
    std::string select = "ticker, NULL AS sort_value";
    if (column == SortColumns().end()) {
        order_by = descending ? "ticker DESC" : "ticker";
    } else {
        const std::string& col = column->second;
        order_by = "CASE WHEN " + col + " IS NULL THEN 1 ELSE 0 END, " + col + (descending ? " DESC" : "") +
                   ", ticker";
        // The sort value as the cursor carries it: text that reads back to the same number. Named
        // apart, or PostgreSQL's ORDER BY would take the text for the column it casts.
        select = "ticker, " + (numeric ? "CAST(" + col + " AS TEXT)" : col) + " AS sort_value";
    }

    const std::size_t limit = sdk::PageLimit(params, kDefaultLimit);
    const std::vector<sdk::SqlValue> values = filters.Values();
    const sdk::SqlRows rows =
        sql.Query("SELECT " + select + " FROM stocks_listing WHERE true" + filters.Where() + " ORDER BY " +
                      order_by + " LIMIT " + std::to_string(limit + 1),
                  values);
    const std::size_t shown = std::min(rows.size(), limit);
    // The page's items, read by key once the order is known: sorting the keys alone keeps the
    // items' kilobytes out of the sort.
    std::map<std::string, std::string> items;
    if (shown > 0) {
        std::string in;
        std::vector<sdk::SqlValue> keys;
        for (std::size_t i = 0; i < shown; ++i) {
            in += (i ? ", $" : "$") + std::to_string(i + 1);
            keys.emplace_back(*rows[i][0]);
        }
        for (const auto& row :
             sql.Query("SELECT ticker, item FROM stocks_listing WHERE ticker IN (" + in + ")", keys)) {
            items.emplace(*row[0], *row[1]);
        }
    }
    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = 0; i < shown; ++i) {
        json.Raw(items.at(*rows[i][0]));
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = shown;
    const sdk::SqlRows latest = sql.Query("SELECT MAX(day) FROM stocks_day");
    result.meta.extra["latest_trading_day"] = latest.empty() || !latest[0][0]
                                                  ? boost::json::value(nullptr)
                                                  : boost::json::value(latest[0][0]->c_str());
    result.meta.extra["market_cap_formula"] =
        "sum over the company's share classes (ON, PN, PNA...) traded on the latest trading day of the "
        "class's"
        " close x its shares; units and BDRs never counted (docs/api/acoes.md)";
    if (rows.size() > limit) {
        result.meta.next_position =
            sdk::PositionValue(StockAfter{sort, order, rows[shown - 1][1], *rows[shown - 1][0]});
    }
    return result;
}

}  // namespace lastro::stocks
