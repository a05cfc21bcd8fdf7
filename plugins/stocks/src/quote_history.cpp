#include "src/quote_history.hpp"

#include "domain/corporate_actions/corporate_actions.hpp"
#include "domain/cotahist/cotahist_reader.hpp"
#include "domain/cotahist/instrument_class.hpp"
#include "domain/market/prices.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/remembered.hpp>
#include <lastro/sdk/sql_conditions.hpp>

#include <algorithm>
#include <list>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>

namespace lastro::stocks {

namespace {

// What the kept histories may cost together: a year of every ticker of B3's cash market (1,500
// tickers, 196 days) is about 50 MB; beyond it the least recently asked ticker goes first.
constexpr std::size_t kKeptBytes = std::size_t{64} << 20;

using Cell = std::optional<std::string>;

std::optional<std::int64_t> Int(const Cell& cell) {
    return cell ? std::optional<std::int64_t>(std::stoll(*cell)) : std::nullopt;
}

// The tickers of `ticker`'s company and class, in trading order, from the FCA (companies.listed);
// the ticker alone when no FCA lists it.
std::vector<HistoryTicker> ChainOf(const sdk::RequestContext& context,
                                   const companies::ListedCompanies& companies, const std::string& ticker) {
    const std::vector<companies::CompanySecurity> own = companies.ByTicker(context.db, ticker);
    if (own.empty()) {
        return {{ticker, std::nullopt, std::nullopt}};
    }
    const companies::CompanySecurity& security = own.front();
    std::vector<HistoryTicker> chain;
    for (const companies::CompanySecurity& other : companies.Securities(context.db, security.cvm_code)) {
        if (!other.ticker || other.security != security.security ||
            other.share_class != security.share_class) {
            continue;
        }
        if (std::any_of(chain.begin(), chain.end(),
                        [&](const HistoryTicker& t) { return t.ticker == *other.ticker; })) {
            continue;
        }
        chain.push_back({*other.ticker, other.trading_from, other.trading_to});
    }
    std::sort(chain.begin(), chain.end(), [](const HistoryTicker& a, const HistoryTicker& b) {
        return a.from.value_or("") < b.from.value_or("");
    });
    if (chain.empty()) {
        chain.push_back({ticker, std::nullopt, std::nullopt});
    }
    return chain;
}

// The ISINs and B3 classes a history's days were traded under, which choose its events.
struct TradedAs {
    std::set<std::string> isins;
    std::set<std::string> classes;
};

// Each day's line of the history: of the ticker that stood for the day (its FCA trading dates),
// the line with the largest traded value.
std::vector<HistoryDay> ReadDays(sdk::SqlSession& sql, const std::vector<HistoryTicker>& chain, int market,
                                 TradedAs& traded) {
    std::vector<std::string> texts;
    for (const HistoryTicker& t : chain) {
        texts.push_back(t.ticker);
    }
    texts.push_back(std::to_string(market));
    const std::vector<sdk::SqlValue> values(texts.begin(), texts.end());
    const std::size_t n = chain.size();
    const sdk::SqlRows rows = sql.Query(
        "SELECT day, ticker, open_price, high_price, low_price, close_price, average_price, volume, quantity,"
        " trades, quotation_factor, isin, specification, bdi FROM stocks_quote WHERE ticker IN (" +
            sdk::SqlPlaceholders(1, n) + ") AND market_type = CAST($" + std::to_string(n + 1) +
            " AS INTEGER) ORDER BY day, volume DESC, bdi",
        values);
    std::vector<HistoryDay> days;
    days.reserve(rows.size());
    for (const auto& row : rows) {
        const std::string& ticker = *row[1];
        const std::string& day = *row[0];
        const auto stands = std::find_if(chain.begin(), chain.end(), [&](const HistoryTicker& t) {
            return t.ticker == ticker && (!t.from || *t.from <= day) && (!t.to || *t.to >= day);
        });
        if (stands == chain.end() || (!days.empty() && days.back().day == day)) {
            continue;
        }
        HistoryDay d;
        d.day = day;
        d.ticker = static_cast<std::size_t>(stands - chain.begin());
        d.quotation_factor = std::stoll(*row[10]);
        d.open = PerShare(Int(row[2]), d.quotation_factor);
        d.high = PerShare(Int(row[3]), d.quotation_factor);
        d.low = PerShare(Int(row[4]), d.quotation_factor);
        d.close = PerShare(Int(row[5]), d.quotation_factor);
        d.average = PerShare(Int(row[6]), d.quotation_factor);
        d.volume = Reais(Int(row[7]));
        d.quantity = Int(row[8]);
        d.trades = Int(row[9]);
        if (row[11]) {
            traded.isins.insert(*row[11]);
        }
        traded.classes.insert(InstrumentClass(row[12].value_or(""), static_cast<int>(std::stoll(*row[13]))));
        days.push_back(std::move(d));
    }
    return days;
}

// The events with a price factor of the history's issuers that apply to its class: by ISIN when
// the event names one, else by B3's share type, else (neither published) to every class.
std::vector<PriceEvent> EventsOf(sdk::SqlSession& sql, const std::vector<HistoryTicker>& chain,
                                 const TradedAs& traded) {
    std::set<std::string> issuers;
    for (const HistoryTicker& t : chain) {
        issuers.insert(t.ticker.substr(0, 4));
        for (const auto& row :
             sql.Query("SELECT issuer FROM stocks_issuer_code WHERE ticker = $1", {t.ticker})) {
            issuers.insert(*row[0]);
        }
    }
    const std::vector<std::string> issuer_list(issuers.begin(), issuers.end());
    const std::vector<sdk::SqlValue> values(issuer_list.begin(), issuer_list.end());
    std::vector<PriceEvent> events;
    for (const auto& row :
         sql.Query("SELECT id, kind, label, last_date_with_rights, price_factor, isin, share_type"
                   " FROM stocks_corporate_action WHERE issuer IN (" +
                       sdk::SqlPlaceholders(1, issuer_list.size()) +
                       ") AND price_factor IS NOT NULL AND last_date_with_rights IS NOT NULL"
                       " AND kind IN ('cash', 'stock') ORDER BY last_date_with_rights, id",
                   values)) {
        // B3's typeStock ("ON", "PNA", "UNT") read as the class COTAHIST's specification gives; an
        // event B3 published with neither an ISIN nor a class is the issuer's, for every class (as
        // /v1/acoes/{ticker}/proventos lists it).
        const bool applies = row[5]   ? traded.isins.count(*row[5]) > 0
                             : row[6] ? traded.classes.count(ShareClassOfTypeStock(*row[6])) > 0
                                      : true;
        if (applies) {
            events.push_back({*row[0], *row[1], *row[2], *row[3], std::stod(*row[4])});
        }
    }
    return events;
}

std::shared_ptr<const QuoteHistory> ReadHistory(const sdk::RequestContext& context,
                                                const companies::ListedCompanies& companies,
                                                const std::string& ticker) {
    sdk::SqlSession sql(context.db);
    // A ticker with odd-lot lines is an odd-lot ticker (PETR4F); every other one trades in round lots.
    const int market =
        sql.Query("SELECT 1 FROM stocks_quote WHERE ticker = $1 AND market_type = 20 LIMIT 1", {ticker})
                .empty()
            ? kMarketCash
            : kMarketOddLot;
    if (sql.Query("SELECT 1 FROM stocks_quote WHERE ticker = $1 LIMIT 1", {ticker}).empty()) {
        throw sdk::NotFound("no COTAHIST line of the cash market loaded has the ticker " + ticker, "ticker");
    }
    auto history = std::make_shared<QuoteHistory>();
    history->chain = ChainOf(context, companies, ticker);
    TradedAs traded;
    history->days = ReadDays(sql, history->chain, market, traded);
    history->events = EventsOf(sql, history->chain, traded);
    return history;
}

// The histories read at one data release, the most recently asked first, within kKeptBytes. Only
// tickers with lines are kept, so what clients ask never grows it beyond the data.
class KeptHistories {
public:
    std::shared_ptr<const QuoteHistory> Find(const std::string& ticker) const {
        std::lock_guard lock(mutex_);
        const auto found = by_ticker_.find(ticker);
        if (found == by_ticker_.end()) {
            return nullptr;
        }
        recency_.splice(recency_.begin(), recency_, found->second.place);
        return found->second.history;
    }

    void Keep(const std::string& ticker, std::shared_ptr<const QuoteHistory> history) const {
        const std::size_t bytes = history->Bytes();
        if (bytes > kKeptBytes) {
            return;
        }
        std::lock_guard lock(mutex_);
        if (by_ticker_.count(ticker)) {
            return;  // another call read it meanwhile
        }
        while (bytes_ + bytes > kKeptBytes && !recency_.empty()) {
            const auto oldest = by_ticker_.find(recency_.back());
            bytes_ -= oldest->second.bytes;
            by_ticker_.erase(oldest);
            recency_.pop_back();
        }
        recency_.push_front(ticker);
        by_ticker_.emplace(ticker, Entry{std::move(history), bytes, recency_.begin()});
        bytes_ += bytes;
    }

private:
    struct Entry {
        std::shared_ptr<const QuoteHistory> history;
        std::size_t bytes = 0;
        std::list<std::string>::iterator place;
    };
    mutable std::mutex mutex_;
    mutable std::list<std::string> recency_;
    mutable std::unordered_map<std::string, Entry> by_ticker_;
    mutable std::size_t bytes_ = 0;
};

}  // namespace

std::size_t QuoteHistory::Bytes() const {
    std::size_t bytes = sizeof(QuoteHistory) + days.capacity() * sizeof(HistoryDay);
    for (const HistoryTicker& t : chain) {
        bytes += sizeof(HistoryTicker) + t.ticker.capacity();
    }
    for (const PriceEvent& event : events) {
        bytes += sizeof(PriceEvent) + event.id.capacity() + event.kind.capacity() + event.label.capacity() +
                 event.last_date_with_rights.capacity();
    }
    return bytes;
}

std::shared_ptr<const QuoteHistory> HistoryOfTicker(const sdk::RequestContext& context,
                                                    const companies::ListedCompanies& companies,
                                                    const std::string& ticker) {
    const std::shared_ptr<const KeptHistories> kept = sdk::Remembered<KeptHistories>(
        context.host, "stocks.quote_histories", [] { return std::make_shared<const KeptHistories>(); });
    if (std::shared_ptr<const QuoteHistory> history = kept->Find(ticker)) {
        return history;
    }
    std::shared_ptr<const QuoteHistory> history = ReadHistory(context, companies, ticker);
    kept->Keep(ticker, history);
    return history;
}

}  // namespace lastro::stocks
