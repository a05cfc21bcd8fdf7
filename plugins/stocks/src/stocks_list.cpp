// GET /v1/acoes: the listing (stocks.listing, derive/listing_derivation.cpp), by keyset pages
// over any sort: (the sort value's nulls last, the value, ticker). Rows are the items the
// derivation wrote, kept per data release (src/kept_listing.hpp) and filtered and sorted here.
#include "derive/listing_derivation.hpp"
#include "ingest/cotahist/cotahist_ingester.hpp"
#include "src/handlers.hpp"
#include "src/kept_listing.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/text.hpp>

#include <boost/describe/class.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <set>
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

// The numeric sorts and the value each reads; "ticker" sorts by the key alone, "name" by the
// folded name.
const std::map<std::string, std::optional<double> ListedTicker::*>& NumericSorts() {
    static const std::map<std::string, std::optional<double> ListedTicker::*> sorts{
        {"close", &ListedTicker::last_close},
        {"volume", &ListedTicker::volume},
        {"market_cap", &ListedTicker::market_cap},
        {"change", &ListedTicker::change}};
    return sorts;
}

// The order of the listing's keysets: the sort value's nulls last, the value in the order asked,
// then the ticker ascending. Negative when (a, a_ticker) comes first.
template <typename V>
int Compare(const std::optional<V>& a, const std::string& a_ticker, const std::optional<V>& b,
            const std::string& b_ticker, bool descending) {
    if (a.has_value() != b.has_value()) {
        return a ? -1 : 1;
    }
    if (a && *a != *b) {
        return (*a < *b) != descending ? -1 : 1;
    }
    return a_ticker.compare(b_ticker);
}

// A number as a cursor carries it: the shortest text that reads back to the same double.
std::string NumberText(double value) {
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, value);
    return std::string(text, written.ptr);
}

std::optional<double> TextNumber(const std::string& text) {
    double value = 0;
    const auto read = std::from_chars(text.data(), text.data() + text.size(), value);
    if (read.ec != std::errc() || read.ptr != text.data() + text.size()) {
        sdk::RejectCursor(kIssuer);
    }
    return value;
}

// The values a filter may take (those loaded), for its 422: each entry's key or value.
template <typename Map, typename Pick>
std::string Allowed(const Map& loaded, Pick pick) {
    std::string list;
    for (const auto& entry : loaded) {
        list += (list.empty() ? "" : ", ") + pick(entry);
    }
    return list.empty() ? "none loaded" : list;
}

}  // namespace

sdk::Result HandleStocks(const sdk::RequestContext& context) {
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kListingDataset, kCotahistDataset});
    const sdk::Params& params = context.params;
    const std::shared_ptr<const KeptListing> listing = ListingAt(context);
    const std::string sort = params.String("sort").value_or("ticker");
    const std::string order = params.String("order").value_or("asc");
    const bool descending = order == "desc";

    const bool include_inactive = params.Boolean("include_inactive").value_or(false);
    const std::optional<std::string> cnpj = params.String("cnpj");
    std::string needle;
    if (const auto q = params.String("q")) {
        needle = sdk::FoldForSearch(*q);
    }
    const std::optional<std::string> instrument_class = params.String("class");
    std::string sector_key;
    if (const auto sector = params.String("sector")) {
        sector_key = sdk::FoldForSearch(*sector);
        if (!listing->sectors.count(sector_key)) {
            throw sdk::InvalidParameter(
                "sector", "no ticker loaded has the sector, subsector or segment '" + *sector +
                              "'; the values loaded are: " +
                              Allowed(listing->sectors, [](const auto& e) { return e.second; }));
        }
        sector_key = "|" + sector_key + "|";
    }
    const std::set<std::string>* members = nullptr;
    if (const auto index = params.String("index")) {
        const auto found = listing->index_members.find(*index);
        if (found == listing->index_members.end()) {
            throw sdk::InvalidParameter(
                "index", "no ticker loaded belongs to the index '" + *index + "'; the indexes loaded are: " +
                             Allowed(listing->index_members, [](const auto& e) { return e.first; }));
        }
        members = &found->second;
    }

    const auto numeric = NumericSorts().find(sort);
    const bool by_number = numeric != NumericSorts().end();
    const bool by_name = sort == "name";
    // Negative when `a` comes before `b` in the order asked.
    const auto compare = [&](const ListedTicker& a, const ListedTicker& b) {
        if (by_number) {
            return Compare(a.*(numeric->second), a.ticker, b.*(numeric->second), b.ticker, descending);
        }
        if (by_name) {
            return Compare(a.name_key, a.ticker, b.name_key, b.ticker, descending);
        }
        return descending ? b.ticker.compare(a.ticker) : a.ticker.compare(b.ticker);
    };
    // The cursor's row, as a row of the listing with the sort value it carries.
    std::optional<ListedTicker> after;
    if (const auto position = sdk::ReadPosition<StockAfter>(context.cursor_position, kIssuer)) {
        if (position->sort != sort || position->order != order) {
            sdk::RejectCursor(kIssuer);
        }
        after.emplace();
        after->ticker = position->ticker;
        if (by_number && position->value) {
            (*after).*(numeric->second) = TextNumber(*position->value);
        } else if (by_name) {
            after->name_key = position->value;
        }
    }

    std::vector<const ListedTicker*> matches;
    for (const ListedTicker& t : listing->tickers) {
        if ((!include_inactive && !t.active) || (cnpj && t.cnpj != cnpj) ||
            (!needle.empty() && t.search_text.find(needle) == std::string::npos) ||
            (instrument_class && t.instrument_class != *instrument_class) ||
            (!sector_key.empty() && t.sector_keys.find(sector_key) == std::string::npos) ||
            (members && !members->count(t.ticker)) || (after && compare(t, *after) <= 0)) {
            continue;
        }
        matches.push_back(&t);
    }
    const std::size_t limit = sdk::PageLimit(params, kDefaultLimit);
    const std::size_t shown = std::min(matches.size(), limit);
    std::partial_sort(matches.begin(), matches.begin() + static_cast<std::ptrdiff_t>(shown), matches.end(),
                      [&](const ListedTicker* a, const ListedTicker* b) { return compare(*a, *b) < 0; });

    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = 0; i < shown; ++i) {
        json.Raw(matches[i]->item);
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = shown;
    result.meta.extra["latest_trading_day"] = listing->latest_trading_day
                                                  ? boost::json::value(*listing->latest_trading_day)
                                                  : boost::json::value(nullptr);
    result.meta.extra["market_cap_formula"] =
        "sum over the company's share classes (ON, PN, PNA...) traded on the latest trading day of the "
        "class's"
        " close x its shares; units and BDRs never counted (docs/api/acoes.md)";
    if (matches.size() > limit) {
        const ListedTicker& last = *matches[shown - 1];
        std::optional<std::string> value;
        if (by_number && last.*(numeric->second)) {
            value = NumberText(*(last.*(numeric->second)));
        } else if (by_name) {
            value = last.name_key;
        }
        result.meta.next_position = sdk::PositionValue(StockAfter{sort, order, value, last.ticker});
    }
    return result;
}

}  // namespace lastro::stocks
