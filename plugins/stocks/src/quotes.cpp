// GET /v1/acoes/{ticker}/cotacoes: a ticker's history from COTAHIST, raw prices always, with the
// factors of the adjustment asked (domain/adjustment/adjustment.hpp) and bars of the frequency
// asked (docs/api/cotacoes.md). The ticker's whole history is read once per data release
// (src/quote_history.hpp); a call slices the range it asks, computes its factors and writes its page.
#include "domain/adjustment/adjustment.hpp"
#include "ingest/cotahist/cotahist_ingester.hpp"
#include "src/handlers.hpp"
#include "src/quote_history.hpp"

#include <lastro/companies/services.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>

#include <boost/describe/class.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lastro::stocks {

// Where a page starts: after the bar (or day) dated `after`.
struct QuotesAfter {
    std::string after;
    bool Valid() const { return sdk::Date::Parse(after).has_value(); }
};
BOOST_DESCRIBE_STRUCT(QuotesAfter, (), (after))

namespace {

constexpr const char* kIssuer = "/v1/acoes/{ticker}/cotacoes";
constexpr std::size_t kDefaultLimit = 500;

Adjustment ModeOf(const std::string& text) {
    return text == "total" ? Adjustment::kTotal : text == "splits" ? Adjustment::kSplits : Adjustment::kNone;
}

// The bar a day belongs to: the day itself, its week's Monday or its month.
std::string BarKey(const std::string& day, const std::string& frequency) {
    if (frequency == "monthly") {
        return day.substr(0, 7);
    }
    if (frequency == "weekly") {
        const sdk::Date d = *sdk::Date::Parse(day);
        const std::chrono::sys_days days(std::chrono::year_month_day(
            std::chrono::year(d.year), std::chrono::month(static_cast<unsigned>(d.month)),
            std::chrono::day(static_cast<unsigned>(d.day))));
        const std::chrono::weekday weekday(days);
        const auto monday = days - std::chrono::days((weekday.c_encoding() + 6) % 7);
        const std::chrono::year_month_day ymd(monday);
        return sdk::Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
                         static_cast<int>(static_cast<unsigned>(ymd.day()))}
            .ToString();
    }
    return day;
}

struct Bar {
    std::string key, first_day, day, ticker;
    std::optional<double> open, high, low, close, average, volume;
    std::optional<std::int64_t> quantity, trades;
    std::int64_t factor = 1;
    DayFactors factors;
    std::optional<double> adj_open, adj_high, adj_low, adj_close, adj_quantity;
    std::vector<const PriceEvent*> events;
    int days = 0;
};

std::optional<double> Times(const std::optional<double>& value, double factor) {
    return value ? std::optional<double>(*value * factor) : std::nullopt;
}

template <typename T>
void Add(std::optional<T>& sum, const std::optional<T>& value) {
    if (value) {
        sum = sum.value_or(0) + *value;
    }
}

void Extend(std::optional<double>& extreme, const std::optional<double>& value, bool high) {
    if (value && (!extreme || (high ? *value > *extreme : *value < *extreme))) {
        extreme = value;
    }
}

}  // namespace

sdk::Result HandleQuotes(const sdk::RequestContext& context, const companies::ListedCompanies& companies) {
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kCotahistDataset, "b3.corporate_actions"});
    const sdk::Params& params = context.params;
    std::string ticker = params.String("ticker").value_or("");
    std::transform(ticker.begin(), ticker.end(), ticker.begin(),
                   [](unsigned char c) { return std::toupper(c); });
    const std::string adjustment = params.String("adjustment").value_or("none");
    const std::string frequency = params.String("frequency").value_or("daily");
    std::optional<std::string> from;
    std::optional<std::string> to;
    if (const auto date = params.DateValue("from_date")) {
        from = date->ToString();
    }
    if (const auto date = params.DateValue("to_date")) {
        to = date->ToString();
    }
    if (from && to && *from > *to) {
        throw sdk::BadRequest("from_date " + *from + " is after to_date " + *to, "from_date");
    }
    const std::shared_ptr<const QuoteHistory> history = HistoryOfTicker(context, companies, ticker);
    const std::vector<HistoryTicker>& chain = history->chain;
    // The asked range of the history, and the factors against its last day.
    const auto first =
        from ? std::lower_bound(history->days.begin(), history->days.end(), *from,
                                [](const HistoryDay& d, const std::string& day) { return d.day < day; })
             : history->days.begin();
    const auto last =
        to ? std::upper_bound(first, history->days.end(), *to,
                              [](const std::string& day, const HistoryDay& d) { return day < d.day; })
           : history->days.end();
    const std::span<const HistoryDay> days(first, last);
    const std::string base_date = days.empty() ? to.value_or("") : days.back().day;
    const std::vector<PriceEvent>& events = history->events;
    std::vector<std::string> day_keys;
    day_keys.reserve(days.size());
    for (const HistoryDay& d : days) {
        day_keys.push_back(d.day);
    }
    const std::vector<DayFactors> factors = FactorsOf(day_keys, events, base_date, ModeOf(adjustment));

    // Days into bars (a daily bar is its day).
    std::vector<Bar> bars;
    for (std::size_t i = 0; i < days.size(); ++i) {
        const HistoryDay& d = days[i];
        const DayFactors& f = factors[i];
        const std::string key = BarKey(d.day, frequency);
        if (bars.empty() || bars.back().key != key) {
            bars.push_back(Bar{});
            bars.back().key = key;
            bars.back().first_day = d.day;
            bars.back().open = d.open;
            bars.back().adj_open = Times(d.open, f.Total());
        }
        Bar& bar = bars.back();
        ++bar.days;
        bar.day = d.day;
        bar.ticker = chain[d.ticker].ticker;
        Extend(bar.high, d.high, true);
        Extend(bar.low, d.low, false);
        Extend(bar.adj_high, Times(d.high, f.Total()), true);
        Extend(bar.adj_low, Times(d.low, f.Total()), false);
        bar.close = d.close;
        bar.average = bar.days == 1 ? d.average : std::nullopt;  // an average of days is not B3's
        Add(bar.volume, d.volume);
        Add(bar.quantity, d.quantity);
        Add(bar.trades, d.trades);
        if (d.quantity) {
            Add(bar.adj_quantity, std::optional<double>(static_cast<double>(*d.quantity) / f.split));
        }
        bar.factor = d.quotation_factor;
        bar.factors = f;
        bar.adj_close = Times(d.close, f.Total());
        for (const PriceEvent& event : events) {
            // Its factor starts applying on this day: the last day with rights.
            if (event.last_date_with_rights == d.day) {
                bar.events.push_back(&event);
            }
        }
    }

    const auto position = sdk::ReadPosition<QuotesAfter>(context.cursor_position, kIssuer);
    const std::size_t limit = sdk::PageLimit(params, kDefaultLimit);
    auto start = bars.begin();
    if (position) {
        start = std::upper_bound(bars.begin(), bars.end(), position->after,
                                 [](const std::string& after, const Bar& bar) { return after < bar.day; });
    }
    sdk::JsonText json;
    json.BeginArray();
    std::size_t shown = 0;
    for (auto it = start; it != bars.end() && shown < limit; ++it, ++shown) {
        const Bar& bar = *it;
        json.BeginObject();
        json.Key("date").Value(bar.day);
        json.Key("first_date").Value(bar.first_day);
        json.Key("days").Value(static_cast<std::int64_t>(bar.days));
        json.Key("ticker").Value(bar.ticker);
        json.Key("open").Value(bar.open);
        json.Key("high").Value(bar.high);
        json.Key("low").Value(bar.low);
        json.Key("close").Value(bar.close);
        json.Key("average").Value(bar.average);
        json.Key("volume").Value(bar.volume);
        json.Key("quantity").Value(bar.quantity);
        json.Key("trades").Value(bar.trades);
        json.Key("quotation_factor").Value(bar.factor);
        json.Key("split_factor").Value(bar.factors.split);
        json.Key("dividend_factor").Value(bar.factors.dividend);
        json.Key("factor").Value(bar.factors.Total());
        json.Key("adj_open").Value(bar.adj_open);
        json.Key("adj_high").Value(bar.adj_high);
        json.Key("adj_low").Value(bar.adj_low);
        json.Key("adj_close").Value(bar.adj_close);
        json.Key("adj_quantity").Value(bar.adj_quantity);
        json.Key("events").BeginArray();
        for (const PriceEvent* event : bar.events) {
            json.BeginObject();
            json.Key("id").Value(event->id);
            json.Key("kind").Value(event->kind);
            json.Key("label").Value(event->label);
            json.Key("last_date_with_rights").Value(event->last_date_with_rights);
            json.Key("price_factor").Value(event->price_factor);
            json.Key("applied").Value(adjustment == "total" ||
                                      (adjustment == "splits" && event->kind == "stock"));
            json.EndObject();
        }
        json.EndArray();
        json.EndObject();
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = shown;
    if (start + static_cast<std::ptrdiff_t>(shown) != bars.end() && shown > 0) {
        result.meta.next_position =
            sdk::PositionValue(QuotesAfter{(start + static_cast<std::ptrdiff_t>(shown) - 1)->day});
    }

    boost::json::object& extra = result.meta.extra;
    extra["ticker"] = ticker;
    extra["adjustment"] = adjustment;
    extra["frequency"] = frequency;
    extra["base_date"] = base_date.empty() ? boost::json::value(nullptr) : boost::json::value(base_date);
    extra["method"] =
        "CRSP: raw prices stored, factors applied back from base_date; an event multiplies the prices of the "
        "days"
        " on or before its last date with rights (split factor for splits, reverse splits and stock "
        "dividends;"
        " 1 - corporateActionPrice/100 for cash events, as B3 publishes it); adjusted quantity = quantity /"
        " split_factor (docs/api/cotacoes.md)";
    boost::json::array tickers;
    for (const HistoryTicker& t : chain) {
        boost::json::object item;
        item["ticker"] = t.ticker;
        item["trading_from"] = t.from ? boost::json::value(*t.from) : boost::json::value(nullptr);
        item["trading_to"] = t.to ? boost::json::value(*t.to) : boost::json::value(nullptr);
        tickers.push_back(std::move(item));
    }
    extra["tickers"] = std::move(tickers);
    return result;
}

}  // namespace lastro::stocks
