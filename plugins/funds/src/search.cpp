#include "src/search.hpp"

#include "domain/registry/registry_rules.hpp"
#include "domain/search/search_index.hpp"
#include "funds_model-odb-pgsql.hxx"  // the view's PostgreSQL statement, for sdk::QueryOnceAsText
#include "funds_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/query_once.hpp>
#include <lastro/sdk/query_params.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/serving/trigram_search.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/uuid.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/array.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lastro::funds {

namespace {

using FundQuery = odb::query<Fund>;

bool IsCnpjLike(std::string_view text) {
    bool digit = false;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digit = true;
        } else if (c != '.' && c != '/' && c != '-') {
            return false;
        }
    }
    return digit;
}

// Where a page starts: after this fund_id (the keyset is fund_id ascending).
struct FundsAfter {
    std::string after;
    bool Valid() const { return sdk::IsUuid(after); }
};
BOOST_DESCRIBE_STRUCT(FundsAfter, (), (after))

// A page's statement and the values it binds. Which filters it has (`shape`, the Filter bits)
// makes its text; on SQLite each text is prepared once per connection (sdk/cached_query.hpp),
// where building and preparing it on every call was 7 % of a call.
enum Filter : unsigned {
    kText = 1,
    kManager = 2,
    kAdministrator = 4,
    kCnpj = 8,
    kStatus = 16,
    kAfter = 32,
    kTrigrams = 64,  // SQLite: the trigram index drives the page (`expression`)
};
struct PageOfFunds {
    std::string text_pattern;  // sdk::ContainsPattern of the needles
    std::string manager_pattern;
    std::string administrator_pattern;
    std::string cnpj;
    std::string status;
    std::string after;
    std::string expression;     // the FTS5 expression of the needles of three characters or more
    std::int64_t from_key = 0;  // SQLite's search rows: the page starts at this page key
    std::int64_t rows = 0;      // the page and one more: whether another page exists
};

// The filters every statement tests, on the columns of T: funds_fund (Fund) or SQLite's search
// rows (FundSearchRow), which name them alike. The folded LIKEs decide what matches.
template <typename T>
std::optional<odb::query<T>> FilterConditions(const PageOfFunds& p, unsigned shape) {
    using Q = odb::query<T>;
    const std::string escape(kLikeEscape);
    std::optional<Q> query;
    auto add = [&query](Q condition) { query = query ? Q(*query && condition) : std::move(condition); };
    if (shape & kText) {
        add(Q::search_text.like(Q::_ref(p.text_pattern), escape));
    }
    if (shape & kManager) {
        add(Q::manager_folded.like(Q::_ref(p.manager_pattern), escape));
    }
    if (shape & kAdministrator) {
        add(Q::administrator_folded.like(Q::_ref(p.administrator_pattern), escape));
    }
    if (shape & kStatus) {
        add(Q::status_folded == Q::_ref(p.status));
    }
    if (shape & kAfter) {
        add(Q::fund_id > Q::_ref(p.after));
    }
    return query;
}

// A page read from funds_fund, as View (FundListPageRow, joined to the items; on PostgreSQL
// FundListPageRowByItem, each item by a subquery): on PostgreSQL every page (it plans from its
// statistics, with the universe indexes and the GIN trigram ones), on SQLite a page asked by CNPJ (its rows
// by the cnpj index, sorted; the universe condition written `+fidc_universe <> 0` so that SQLite does not
// walk the universe index instead).
template <typename View>
odb::query<View> RegistryPageQuery(const PageOfFunds& p, unsigned shape, bool sqlite) {
    std::optional<FundQuery> query = FilterConditions<Fund>(p, shape);
    if (shape & kCnpj) {
        FundQuery cnpj = FundQuery::cnpj == FundQuery::_ref(p.cnpj);
        query = query ? FundQuery(*query && cnpj) : cnpj;
    }
    FundQuery universe = sqlite && (shape & kCnpj) != 0
                             ? FundQuery(std::string("+") + FundQuery::fidc_universe + "<> 0")
                             : FundQuery(FundQuery::fidc_universe == true);
    FundQuery full = query ? FundQuery(universe && *query) : universe;
    return odb::query<View>(full + "ORDER BY" + FundQuery::fund_id + "LIMIT" +
                            sdk::Bound(FundQuery::registry_id, p.rows));
}

// SQLite, any other page: the search rows from the page's first key on, in page order
// (domain/search/search_index.hpp), driven by the trigram index when a needle has three characters
// (FundSearchMatchRow: the index's rowid bounds and orders the page, so it seeks to the key and
// stops at the page's end) or walked by their own key or status index (FundSearchWalkRow).
template <typename View>
odb::query<View> SearchRowsPageQuery(const PageOfFunds& p, unsigned shape) {
    using RowQuery = odb::query<FundSearchRow>;
    const bool trigrams = (shape & kTrigrams) != 0;
    RowQuery from =
        trigrams ? RowQuery("funds_fund_search MATCH") + sdk::Bound(RowQuery::search_text, p.expression) +
                       "AND funds_fund_search.rowid >=" + sdk::Bound(RowQuery::page_key, p.from_key) +
                       "AND funds_fund_search.rowid =" + RowQuery::page_key
                 : RowQuery(RowQuery::page_key >= RowQuery::_ref(p.from_key));
    std::optional<RowQuery> filters = FilterConditions<FundSearchRow>(p, shape);
    RowQuery full = filters ? RowQuery(from && *filters) : from;
    RowQuery order =
        trigrams ? RowQuery("ORDER BY funds_fund_search.rowid") : RowQuery("ORDER BY") + RowQuery::page_key;
    return odb::query<View>(full + order + "LIMIT" + sdk::Bound(RowQuery::page_key, p.rows));
}

// Runs a cached page statement of view V and keeps its rows as the page's.
template <typename V, typename Make>
void ReadPage(odb::database& db, const char* name, const PageOfFunds& values, Make make, SearchPage& page) {
    auto rows = sdk::CachedQuery<V, PageOfFunds>(db, name, make);
    rows.params = values;
    for (V& fund : rows.Execute()) {
        page.funds.push_back(FundListPageRow{std::move(fund.fund_id), std::move(fund.json)});
    }
}

}  // namespace

std::string SearchNeedle(std::string_view q) {
    std::string folded = FoldedText(q);
    if (IsCnpjLike(folded)) {
        return sdk::DigitsOnly(folded);
    }
    return folded;
}

SearchPage SearchFunds(odb::database& db, const SearchFilters& filters) {
    const bool sqlite = db.id() == odb::id_sqlite;
    SearchPage page;

    // The folded LIKEs decide what matches (domain/search/search_index.hpp); on SQLite the needles
    // of three characters or more also make one FTS5 expression for the trigram index.
    PageOfFunds values;
    unsigned shape = 0;
    auto contains = [&](Filter filter, std::string& pattern, std::string_view index_column,
                        const std::string& needle) {
        shape |= filter;
        pattern = sdk::ContainsPattern(needle);
        if (auto phrase = sdk::TrigramPhrase(index_column, needle)) {
            values.expression += (values.expression.empty() ? "" : " AND ") + *phrase;
        }
    };
    if (filters.q) {
        if (std::string needle = SearchNeedle(*filters.q); !needle.empty()) {
            contains(kText, values.text_pattern, "search_text", needle);
        }
    }
    if (auto manager = FoldedFilter(filters.manager)) {
        contains(kManager, values.manager_pattern, "manager_folded", *manager);
    }
    if (auto administrator = FoldedFilter(filters.administrator)) {
        contains(kAdministrator, values.administrator_pattern, "administrator_folded", *administrator);
    }
    if (filters.cnpj) {
        shape |= kCnpj;
        values.cnpj = *filters.cnpj;
    }
    if (auto status = FoldedFilter(filters.status)) {
        shape |= kStatus;
        values.status = *status;
    }
    if (filters.after) {
        shape |= kAfter;
        values.after = *filters.after;
        values.from_key = PageKeyFloor(*filters.after).value_or(0);
    }
    values.rows = static_cast<std::int64_t>(filters.limit) + 1;

    if (!sqlite) {
        // On PostgreSQL the statement is planned for its values: the trigram indexes or the
        // universe walk, which a prepared statement's generic plan would choose blind. Sent
        // unnamed with them, one round trip (sdk/query_once.hpp); the view's columns in order.
        for (auto& row : sdk::QueryOnceAsText<FundListPageRowByItem>(
                 db, RegistryPageQuery<FundListPageRowByItem>(values, shape, false))) {
            if (!row.at(1)) {
                throw std::logic_error("search: fund " + row.at(0).value_or("") +
                                       " of the universe has no list item");
            }
            page.funds.push_back(FundListPageRow{std::move(row.at(0)).value_or(""), std::move(*row.at(1))});
        }
    } else if (shape & kCnpj) {
        ReadPage<FundListPageRow>(
            db, sdk::KeyListName("funds.search_by_cnpj", shape), values,
            [shape](const PageOfFunds& p) { return RegistryPageQuery<FundListPageRow>(p, shape, true); },
            page);
    } else if (!values.expression.empty()) {
        shape |= kTrigrams;
        ReadPage<FundSearchMatchRow>(
            db, sdk::KeyListName("funds.search_match", shape), values,
            [shape](const PageOfFunds& p) { return SearchRowsPageQuery<FundSearchMatchRow>(p, shape); },
            page);
    } else {
        ReadPage<FundSearchWalkRow>(
            db, sdk::KeyListName("funds.search_walk", shape), values,
            [shape](const PageOfFunds& p) { return SearchRowsPageQuery<FundSearchWalkRow>(p, shape); }, page);
    }
    page.has_more = sdk::CutToPage(page.funds, filters.limit);
    return page;
}

sdk::Result HandleSearch(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    SearchFilters filters;
    filters.q = params.String("q");
    filters.cnpj = params.String("cnpj");
    filters.status = params.String("status");
    filters.manager = params.String("manager");
    filters.administrator = params.String("administrator");
    filters.limit = sdk::PageLimit(params, 25);
    if (auto from = sdk::ReadPosition<FundsAfter>(context.cursor_position, "/v1/fundos")) {
        filters.after = std::move(from->after);
    }

    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kRegistryDataset});
    const SearchPage page = SearchFunds(context.db, filters);

    // Each fund's item as the registry ingest wrote it (domain/rows/fund_list_items.hpp), joined
    // into room made for them all (a page of 100 is 75 KB).
    std::size_t bytes = 2;
    for (const FundListPageRow& fund : page.funds) {
        bytes += fund.json.size() + 1;
    }
    std::string data;
    data.reserve(bytes);
    data += '[';
    for (const FundListPageRow& fund : page.funds) {
        data += data.size() > 1 ? "," : "";
        data += fund.json;
    }
    data += ']';
    result.data_json = std::move(data);
    result.meta.row_count = page.funds.size();
    if (page.has_more) {
        result.meta.next_position = sdk::PositionValue(FundsAfter{page.funds.back().fund_id});
    }
    result.meta.extra["universe_filter"] = boost::json::object{
        {"fund_type", "FIDC"},
        {"fund_types", boost::json::array{"FIDC", "FIDC-NP", "FIC-FIDC"}},
    };
    return result;
}

}  // namespace lastro::funds
