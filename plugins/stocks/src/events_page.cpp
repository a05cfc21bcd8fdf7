// A page of corporate actions (events_handlers.hpp): keyset by (date, id) descending, every field
// of docs/api/proventos.md, each event's tickers from the quotes and B3's company details loaded.
#include "domain/corporate_actions/corporate_actions.hpp"
#include "src/events_handlers.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>

#include <boost/describe/class.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::stocks {

// Where a page starts: after the event of sort date `date` ("" for none) and id `id`.
struct EventsAfter {
    std::string date;
    std::string id;
    bool Valid() const {
        return id.starts_with("ca_") && (date.empty() || sdk::Date::Parse(date).has_value());
    }
};
BOOST_DESCRIBE_STRUCT(EventsAfter, (), (date, id))

// Known only when the last day with rights is itself a day loaded: otherwise the next day loaded
// may be months later (a gap in the history), not the next trading day.
const char* const kExDateSql =
    "(CASE WHEN EXISTS (SELECT 1 FROM stocks_day w WHERE w.day = ca.last_date_with_rights) THEN"
    " (SELECT min(d.day) FROM stocks_day d WHERE d.day > ca.last_date_with_rights) END)";

void EventConditions::Add(std::string condition, std::vector<std::string> values) {
    for (std::string& value : values) {
        values_.push_back(std::move(value));
        condition.replace(condition.find('?'), 1, "$" + std::to_string(values_.size()));
    }
    where_ += " AND " + condition;
}

namespace {

enum Column {
    cId,
    cIssuer,
    cKind,
    cLabel,
    cShareType,
    cIsin,
    cApproved,
    cLastWithRights,
    cExDate,
    cPayment,
    cAmount,
    cAmountPublished,
    cRatio,
    cQuotedPer,
    cPriceFactor,
    cFactorSource,
    cPublished,
    cFirstSeen,
    cSortDate
};

std::optional<double> Number(const std::optional<std::string>& text) {
    if (!text) {
        return std::nullopt;
    }
    return std::stod(*text);
}

// An issuer's tickers as the quotes and the company details know them: (ticker, ISIN).
using IssuerTickers = std::map<std::string, std::set<std::pair<std::string, std::string>>>;

IssuerTickers TickersOf(sdk::SqlSession& sql, const std::set<std::string>& issuers) {
    IssuerTickers tickers;
    for (const std::string& issuer : issuers) {
        // The tickers starting with the issuer code, by the quotes' primary key (a range, not LIKE).
        std::string past = issuer;
        past.back() = static_cast<char>(past.back() + 1);
        for (const auto& row :
             sql.Query("SELECT DISTINCT ticker, isin FROM stocks_quote WHERE ticker >= $1 AND"
                       " ticker < $2 AND isin IS NOT NULL",
                       {issuer, past})) {
            tickers[issuer].emplace(*row[0], *row[1]);
        }
        for (const auto& row :
             sql.Query("SELECT ticker, isin FROM stocks_issuer_code WHERE issuer = $1 AND isin IS NOT NULL",
                       {issuer})) {
            tickers[issuer].emplace(*row[0], *row[1]);
        }
    }
    return tickers;
}

// The tickers an event applies to: those of its ISIN; without one, those of its class; without
// either, every ticker of the issuer with a share class.
std::set<std::string> EventTickers(const IssuerTickers& tickers, const sdk::SqlRows::value_type& row) {
    std::set<std::string> found;
    const auto issuer = tickers.find(*row[cIssuer]);
    if (issuer == tickers.end()) {
        return found;
    }
    const std::optional<std::string> share_class =
        row[cShareType] ? std::optional<std::string>(ShareClassOfTypeStock(*row[cShareType])) : std::nullopt;
    for (const auto& [ticker, isin] : issuer->second) {
        const std::optional<std::string> isin_class = ShareClassOfIsin(isin);
        if (row[cIsin] ? isin == *row[cIsin]
                       : (share_class ? isin_class == share_class : isin_class.has_value())) {
            found.insert(ticker);
        }
    }
    return found;
}

}  // namespace

void WriteEventPage(const sdk::RequestContext& context, const char* issuer, const std::string& date_sql,
                    EventConditions conditions, std::size_t default_limit, sdk::Result& result) {
    sdk::SqlSession sql(context.db);
    const std::string sort = "COALESCE(" + date_sql + ", '')";
    if (const auto after = sdk::ReadPosition<EventsAfter>(context.cursor_position, issuer)) {
        conditions.Add("(" + sort + " < ? OR (" + sort + " = ? AND ca.id < ?))",
                       {after->date, after->date, after->id});
    }
    const std::size_t limit = sdk::PageLimit(context.params, default_limit);
    const sdk::SqlRows rows = sql.Query(
        "SELECT ca.id, ca.issuer, ca.kind, ca.label, ca.share_type, ca.isin, ca.approved_on,"
        " ca.last_date_with_rights, " +
            std::string(kExDateSql) +
            ", ca.payment_date, ca.amount, ca.amount_published, ca.ratio_published, ca.quoted_per_shares,"
            " ca.price_factor, ca.factor_source, ca.published, ca.first_seen_at, " +
            sort + " FROM stocks_corporate_action ca WHERE true" + conditions.Where() + " ORDER BY " + sort +
            " DESC, ca.id DESC LIMIT " + std::to_string(limit + 1),
        conditions.Values());
    const std::size_t shown = std::min(rows.size(), limit);

    std::set<std::string> issuers;
    for (std::size_t i = 0; i < shown; ++i) {
        issuers.insert(*rows[i][cIssuer]);
    }
    const IssuerTickers tickers = TickersOf(sql, issuers);

    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& row = rows[i];
        json.BeginObject();
        json.Key("id").Value(*row[cId]);
        json.Key("issuer").Value(*row[cIssuer]);
        json.Key("kind").Value(*row[cKind]);
        json.Key("label").Value(*row[cLabel]);
        json.Key("share_type").Value(row[cShareType]);
        json.Key("isin").Value(row[cIsin]);
        json.Key("tickers").BeginArray();
        for (const std::string& ticker : EventTickers(tickers, row)) {
            json.Value(ticker);
        }
        json.EndArray();
        json.Key("approved_on").Value(row[cApproved]);
        json.Key("last_date_with_rights").Value(row[cLastWithRights]);
        json.Key("ex_date").Value(row[cExDate]);
        json.Key("payment_date").Value(row[cPayment]);
        json.Key("amount").Value(Number(row[cAmount]));
        json.Key("amount_published").Value(row[cAmountPublished]);
        json.Key("quoted_per_shares")
            .Value(row[cQuotedPer] ? std::optional<std::int64_t>(std::stoll(*row[cQuotedPer]))
                                   : std::nullopt);
        json.Key("ratio").Value(row[cRatio]);
        json.Key("price_factor").Value(Number(row[cPriceFactor]));
        json.Key("factor_source").Value(row[cFactorSource]);
        json.Key("published").Raw(*row[cPublished]);  // JSON the ingester wrote
        json.Key("first_seen_at").Value(*row[cFirstSeen]);
        json.EndObject();
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = shown;
    if (rows.size() > limit) {
        result.meta.next_position =
            sdk::PositionValue(EventsAfter{*rows[shown - 1][cSortDate], *rows[shown - 1][cId]});
    }
}

}  // namespace lastro::stocks
