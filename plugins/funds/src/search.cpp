#include "src/search.hpp"

#include "funds_model-odb.hxx"
#include "ingest/registro_fundo_classe/registry_rules.hpp"
#include "src/search_index.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/query_params.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/uuid.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/array.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <cstdint>
#include <optional>
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

// Non-empty folded text of an optional filter, or nullopt when there is nothing to filter on.
std::optional<std::string> FoldedFilter(const std::optional<std::string>& value) {
    if (!value) {
        return std::nullopt;
    }
    std::string folded = FoldedText(*value);
    if (folded.empty()) {
        return std::nullopt;
    }
    return folded;
}

// Where a page starts: after this fund_id (the keyset is fund_id ascending).
struct FundsAfter {
    std::string after;
    bool Valid() const { return sdk::IsUuid(after); }
};
BOOST_DESCRIBE_STRUCT(FundsAfter, (), (after))

// A page's statement and the values it binds. Which filters it has (`shape`, the Filter bits)
// and how many trigram candidates it lists (`terms`, a power of two; 0: none) make its text; on
// SQLite each text is prepared once per connection (sdk/cached_query.hpp), where building and
// preparing it on every call was 7 % of a call.
enum Filter : unsigned { kText = 1, kManager = 2, kAdministrator = 4, kCnpj = 8, kStatus = 16, kAfter = 32 };
constexpr std::size_t kCandidateKeys = 512;
static_assert(kCandidateKeys >= kMostCandidatesPerRow * 101, "the candidates of a page of 100 rows");
struct PageOfFunds {
    std::string text_pattern;  // ContainsPattern of the needles
    std::string manager_pattern;
    std::string administrator_pattern;
    std::string cnpj;
    std::string status;
    std::string after;
    sdk::KeyList<std::int64_t, kCandidateKeys> candidates{};
    std::int64_t rows = 0;  // the page and one more: whether another page exists
};

// How the rows are reached. SQLite plans without statistics, so the query says it:
// - few trigram candidates (at most kMostCandidatesPerRow per row of the page): those rows by
//   registry_id, sorted;
// - a CNPJ: its rows by the cnpj index, sorted;
// - otherwise: the universe in fund_id order (funds_fund_universe_i, or
//   funds_fund_universe_status_i with a status), stopping one row past the page. Many
//   candidates mean a dense match (at least one fund in 4 x (limit + 1) of the 3,360 at full
//   size), so the walk ends soon; it tests the needles on the index's own copy of the texts
//   and fetches only the rows that match.
// The universe condition is then written `+fidc_universe <> 0` so that SQLite does not walk
// the universe index instead. PostgreSQL plans from its statistics, with the same indexes
// and the GIN trigram ones.
odb::query<FundListPageRow> PageQuery(const PageOfFunds& p, unsigned shape, std::size_t terms, bool sqlite) {
    const std::string escape(kLikeEscape);
    std::optional<FundQuery> query;
    auto add = [&query](FundQuery condition) {
        query = query ? FundQuery(*query && condition) : std::move(condition);
    };
    if (shape & kText) {
        add(FundQuery::search_text.like(FundQuery::_ref(p.text_pattern), escape));
    }
    if (shape & kManager) {
        add(FundQuery::manager_folded.like(FundQuery::_ref(p.manager_pattern), escape));
    }
    if (shape & kAdministrator) {
        add(FundQuery::administrator_folded.like(FundQuery::_ref(p.administrator_pattern), escape));
    }
    if (shape & kCnpj) {
        add(FundQuery::cnpj == FundQuery::_ref(p.cnpj));
    }
    if (shape & kStatus) {
        add(FundQuery::status_folded == FundQuery::_ref(p.status));
    }
    if (shape & kAfter) {
        add(FundQuery::fund_id > FundQuery::_ref(p.after));
    }
    if (terms > 0) {
        add(FundQuery(sdk::InKeys(FundQuery::registry_id, p.candidates, terms)));
    }
    const bool narrowed = (shape & kCnpj) != 0 || terms > 0;
    FundQuery universe = sqlite && narrowed ? FundQuery(std::string("+") + FundQuery::fidc_universe + "<> 0")
                                            : FundQuery(FundQuery::fidc_universe == true);
    FundQuery full = query ? FundQuery(universe && *query) : universe;
    return odb::query<FundListPageRow>(full + "ORDER BY" + FundQuery::fund_id + "LIMIT" +
                                       sdk::Bound(FundQuery::registry_id, p.rows));
}

}  // namespace

std::string SearchNeedle(std::string_view q) {
    std::string folded = FoldedText(q);
    if (IsCnpjLike(folded)) {
        return sdk::DigitsOnly(folded);
    }
    return folded;
}

std::string ContainsPattern(std::string_view text) {
    std::string pattern = "%";
    for (char c : text) {
        if (c == '%' || c == '_' || c == kLikeEscape.front()) {
            pattern += kLikeEscape;
        }
        pattern += c;
    }
    pattern += '%';
    return pattern;
}

SearchPage SearchFunds(odb::database& db, const SearchFilters& filters) {
    const bool sqlite = db.id() == odb::id_sqlite;
    SearchPage page;

    // The folded LIKEs decide what matches (src/search_index.hpp); on SQLite the needles of
    // three characters or more also make one FTS5 expression for the trigram index.
    PageOfFunds values;
    unsigned shape = 0;
    std::string expression;
    auto contains = [&](Filter filter, std::string& pattern, std::string_view index_column,
                        const std::string& needle) {
        shape |= filter;
        pattern = ContainsPattern(needle);
        if (auto phrase = TrigramPhrase(index_column, needle)) {
            expression += (expression.empty() ? "" : " AND ") + *phrase;
        }
    };
    if (filters.q) {
        if (std::string needle = SearchNeedle(*filters.q); !needle.empty()) {
            contains(kText, values.text_pattern, "search_text", needle);
        }
    }
    if (auto manager = FoldedFilter(filters.manager)) {
        contains(kManager, values.manager_pattern, "manager", *manager);
    }
    if (auto administrator = FoldedFilter(filters.administrator)) {
        contains(kAdministrator, values.administrator_pattern, "administrator", *administrator);
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
    }
    values.rows = static_cast<std::int64_t>(filters.limit) + 1;

    std::size_t terms = 0;
    if (sqlite && !expression.empty()) {
        const std::size_t most = kMostCandidatesPerRow * (filters.limit + 1);
        const std::vector<std::int64_t> candidates = TrigramCandidates(db, expression, most);
        if (candidates.empty()) {
            return page;
        }
        if (candidates.size() <= most) {
            terms = sdk::KeyListTerms(candidates.size());
            values.candidates.Assign(candidates.begin(), candidates.end(), terms);
        }
    }
    if (sqlite) {
        auto rows = sdk::CachedQuery<FundListPageRow, PageOfFunds>(
            db, sdk::KeyListName(sdk::KeyListName("funds.search_page", shape), terms),
            [shape, terms](const PageOfFunds& p) { return PageQuery(p, shape, terms, true); });
        rows.params = values;
        for (FundListPageRow& fund : rows.Execute()) {
            page.funds.push_back(std::move(fund));
        }
    } else {
        // On PostgreSQL the statement is planned for its values: the trigram indexes or the
        // universe walk, which a prepared statement's generic plan would choose blind.
        for (FundListPageRow& fund : db.query<FundListPageRow>(PageQuery(values, shape, terms, false))) {
            page.funds.push_back(std::move(fund));
        }
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

    // Each fund's item as the registry ingest wrote it (src/fund_list_items.hpp), joined into
    // room made for them all (a page of 100 is 75 KB).
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
