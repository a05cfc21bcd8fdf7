// The stocks plugin end to end on the sample (docs/sample.md): a real lastrod loading stocks and
// companies on SQLite and PostgreSQL, the two plugins' samples ingested by `lastro ingest
// --sample`. Every expectation is recomputed here from the sample's files (COTAHIST, B3's JSON,
// CVM's FCA), read with this suite's own code: adjusted prices by the documented rule, the
// renamed ticker's history, the quotation factor, the market capitalization's parts, the
// corporate actions never doubled.
#include "b3_json_files.hpp"
#include "cotahist_lines.hpp"

#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::stocks::e2e {
namespace {

using namespace ::lastro::sdk::testing;
namespace fs = std::filesystem;

class StocksSampleTest : public BackendTest<StocksSampleTest> {
public:
    static constexpr const char* kLabel = "stocks";
    static DeploymentOptions Options() { return {.plugin_dirs = {LASTRO_STOCKS_DIR}}; }
};
INSTANTIATE_TEST_SUITE_P(Sqlite, StocksSampleTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, StocksSampleTest, ::testing::Values(Backend::kPostgres), BackendParamName);

// The sample's COTAHIST, by ticker then day: the round-lot line of the day with the largest value.
using Days = std::map<std::string, std::map<std::string, CotahistLine>>;

const Days& SampleDays(Deployment& d) {
    static std::map<std::string, Days> cache;
    const std::string key = d.SampleDir().string();
    if (!cache.count(key)) {
        Days days;
        fs::path file = d.SampleDir() / "COTAHIST_A2026.ZIP";
        if (!fs::exists(file)) {
            file = d.SampleDir() / "COTAHIST_A2026.TXT";
        }
        for (const CotahistLine& line : ReadCotahist(file)) {
            if (line.market != 10) {
                continue;
            }
            auto& slot = days[line.ticker];
            auto found = slot.find(line.day);
            if (found == slot.end() || found->second.volume < line.volume) {
                slot[line.day] = line;
            }
        }
        cache[key] = std::move(days);
    }
    return cache.at(key);
}

double PerShare(std::int64_t hundredths, std::int64_t factor) {
    return static_cast<double>(hundredths) / 100.0 / static_cast<double>(factor);
}

// An event as the sample's files publish it, with the factor the documented rule gives it
// (docs/api/cotacoes.md, docs/datasets/b3_json.md): cash 1 - corporateActionPrice/100; a split
// or stock dividend of f % new shares 1 / (1 + f/100); a reverse split of f shares after per
// share before 1 / f.
struct FileEvent {
    std::string label, last_with, kind;
    double factor = 1;
};

// The events of `issuer` that apply to a ticker of B3 share type `share_type` ("ON", "PNA", "UNT")
// and ISIN `isin`: cash events by typeStock, stock events by isinCode.
std::vector<FileEvent> FileEvents(Deployment& d, const std::string& issuer, const std::string& share_type,
                                  const std::string& isin) {
    std::vector<FileEvent> events;
    const fs::path cash = d.SampleDir() / ("GetListedCashDividends_" + issuer + ".json");
    if (fs::exists(cash)) {
        const boost::json::value json = ReadJson(cash);
        for (const boost::json::value& item : json.at("results").as_array()) {
            if (Text(item.at("typeStock")) == share_type) {
                events.push_back({Text(item.at("corporateAction")), IsoDate(item.at("lastDatePriorEx")),
                                  "cash", 1 - PtBrNumber(item.at("corporateActionPrice")) / 100});
            }
        }
    }
    const fs::path supplement = d.SampleDir() / ("GetListedSupplementCompany_" + issuer + ".json");
    if (fs::exists(supplement)) {
        const boost::json::value json = ReadJson(supplement);
        for (const boost::json::value& item : json.as_array()[0].at("stockDividends").as_array()) {
            if (Text(item.at("isinCode")) != isin) {
                continue;
            }
            const std::string label = Text(item.at("label"));
            const double f = PtBrNumber(item.at("factor"));
            events.push_back({label, IsoDate(item.at("lastDatePrior")), "stock",
                              label == "GRUPAMENTO" ? 1 / f : 1 / (1 + f / 100)});
        }
    }
    return events;
}

// B3's share type of a COTAHIST specification: its first token ("ON", "PNA", "UNT").
std::string ShareType(const std::string& specification) {
    return specification.substr(0, specification.find(' '));
}

// The ticker of the first issuer whose supplement publishes a stock event labelled `label`.
std::string TickerWithStockEvent(Deployment& d, const std::string& label) {
    for (const std::string& name : d.SampleFiles("GetListedSupplementCompany_", ".json")) {
        const boost::json::value json = ReadJson(d.SampleDir() / name);
        for (const boost::json::value& item : json.as_array()[0].at("stockDividends").as_array()) {
            if (Text(item.at("label")) == label) {
                return name.substr(std::string("GetListedSupplementCompany_").size(), 4) + "3";
            }
        }
    }
    return {};
}

void ExpectNear(const boost::json::value& served, double expected, const std::string& what) {
    ASSERT_TRUE(served.is_number()) << what << ": " << boost::json::serialize(served);
    EXPECT_NEAR(served.to_number<double>(), expected, std::abs(expected) * 1e-9 + 1e-9) << what;
}

// Every adjusted close of `ticker` in [from, to] (ISO days; empty: open) against the rule applied
// here to the files' numbers, with the range's last day as the base.
void ExpectAdjustedAsRecomputed(Deployment& d, const std::string& ticker, const std::string& adjustment,
                                const std::string& from = "", const std::string& to = "") {
    SCOPED_TRACE(ticker + " " + adjustment + " [" + from + ", " + to + "]");
    const auto& all_days = SampleDays(d).at(ticker);
    const CotahistLine& last = all_days.rbegin()->second;
    const std::vector<FileEvent> events =
        FileEvents(d, ticker.substr(0, 4), ShareType(last.specification), last.isin);
    ASSERT_FALSE(events.empty());
    std::map<std::string, CotahistLine> days;
    for (const auto& [day, line] : all_days) {
        if ((from.empty() || day >= from) && (to.empty() || day <= to)) {
            days[day] = line;
        }
    }
    ASSERT_FALSE(days.empty());
    const std::string base = days.rbegin()->first;
    std::string query = "adjustment=" + adjustment;
    query += from.empty() ? "" : "&from_date=" + from;
    query += to.empty() ? "" : "&to_date=" + to;
    const std::vector<boost::json::object> rows = d.AllItems("/v1/acoes/" + ticker + "/cotacoes", query, 120);
    ASSERT_EQ(rows.size(), days.size());
    std::size_t adjusted = 0;
    for (const boost::json::object& row : rows) {
        const std::string day(row.at("date").as_string());
        const CotahistLine& line = days.at(day);
        double split = 1;
        double dividend = 1;
        for (const FileEvent& event : events) {
            if (day <= event.last_with && event.last_with < base) {
                (event.kind == "stock" ? split : dividend) *= event.factor;
            }
        }
        if (adjustment == "splits") {
            dividend = 1;
        }
        ExpectNear(row.at("close"), PerShare(line.close, line.factor), day + " close");
        ExpectNear(row.at("adj_close"), PerShare(line.close, line.factor) * split * dividend,
                   day + " adj_close");
        ExpectNear(row.at("split_factor"), split, day + " split_factor");
        ExpectNear(row.at("adj_quantity"), static_cast<double>(line.quantity) / split, day + " adj_quantity");
        adjusted += split * dividend != 1 ? 1 : 0;
    }
    if (from.empty() && to.empty()) {
        EXPECT_GT(adjusted, 0u);
    }
}

TEST_P(StocksSampleTest, AdjustedPricesAreTheFilesNumbersUnderTheDocumentedRule) {
    for (const std::string label : {"DESDOBRAMENTO", "GRUPAMENTO", "BONIFICACAO"}) {
        const std::string ticker = TickerWithStockEvent(D(), label);
        ASSERT_FALSE(ticker.empty()) << label;
        ExpectAdjustedAsRecomputed(D(), ticker, "splits");
        ExpectAdjustedAsRecomputed(D(), ticker, "total");
    }
    // A dividend and interest on equity on one last day with rights: both factors compose.
    std::string both;
    for (const std::string& name : D().SampleFiles("GetListedCashDividends_", ".json")) {
        std::map<std::string, std::set<std::string>> labels;
        const boost::json::value json = ReadJson(D().SampleDir() / name);
        for (const boost::json::value& item : json.at("results").as_array()) {
            labels[IsoDate(item.at("lastDatePriorEx"))].insert(Text(item.at("corporateAction")));
        }
        for (const auto& [day, set] : labels) {
            if (set.count("DIVIDENDO") && set.count("JRS CAP PROPRIO")) {
                both = name.substr(std::string("GetListedCashDividends_").size(), 4) + "3";
            }
        }
    }
    ASSERT_FALSE(both.empty());
    ExpectAdjustedAsRecomputed(D(), both, "total");

    // Every share and unit of the year with events of its own class: an ON ticker never takes
    // its company's PNA dividends, nor the reverse (B3 publishes them per class or ISIN).
    const Days& days = SampleDays(D());
    const std::string first_day = "2026-01-02";
    std::string last_day;
    for (const auto& [ticker, by_day] : days) {
        last_day = std::max(last_day, by_day.rbegin()->first);
    }
    std::size_t checked = 0;
    for (const auto& [ticker, by_day] : days) {
        const CotahistLine& last = by_day.rbegin()->second;
        const std::string type = ShareType(last.specification);
        if ((type != "ON" && !type.starts_with("PN") && type != "UNT") ||
            by_day.begin()->first != first_day || by_day.rbegin()->first != last_day) {
            continue;
        }
        if (!FileEvents(D(), ticker.substr(0, 4), type, last.isin).empty()) {
            ExpectAdjustedAsRecomputed(D(), ticker, "total");
            ++checked;
        }
    }
    EXPECT_GT(checked, 5u);

    // The events of that ticker: each published once, however many files publish it.
    const std::string key = D().RoomyKey();
    HttpResponse r = D().Get("/v1/acoes/" + both + "/proventos", key);
    ASSERT_EQ(r.status, 200) << r.Describe();
    const boost::json::value body = r.Json();
    std::map<std::string, int> seen;
    for (const boost::json::value& item : AsObject(body).at("data").as_array()) {
        ++seen[std::string(item.at("label").as_string()) + " " +
               std::string(item.at("last_date_with_rights").as_string())];
        if (item.at("kind").as_string() == "cash") {
            EXPECT_FALSE(item.at("payment_date").is_null()) << boost::json::serialize(item);
            EXPECT_FALSE(item.at("price_factor").is_null()) << boost::json::serialize(item);
        }
    }
    for (const auto& [event, count] : seen) {
        EXPECT_EQ(count, 1) << event;
    }
}

// A range is adjusted against its own last day: a split after it is not applied, one within it is,
// and every range of one ticker (read once per release, src/quote_history.hpp) gives the rule's
// numbers whichever was asked first.
TEST_P(StocksSampleTest, ARangeIsAdjustedAgainstItsOwnLastDay) {
    const std::string ticker = TickerWithStockEvent(D(), "DESDOBRAMENTO");
    const auto& days = SampleDays(D()).at(ticker);
    const CotahistLine& last = days.rbegin()->second;
    std::string split_day;
    for (const FileEvent& event :
         FileEvents(D(), ticker.substr(0, 4), ShareType(last.specification), last.isin)) {
        if (event.label == "DESDOBRAMENTO") {
            split_day = event.last_with;
        }
    }
    ASSERT_TRUE(days.count(split_day)) << split_day;
    const auto after = std::next(days.find(split_day));
    ASSERT_NE(after, days.end());
    const auto split_at = days.find(split_day);
    const std::string month_before =
        std::prev(split_at, std::min<std::ptrdiff_t>(20, std::distance(days.begin(), split_at)))->first;
    ExpectAdjustedAsRecomputed(D(), ticker, "splits", "", split_day);
    // The split day's own factor: 1 when the range ends on it, the split's when it ends after.
    const auto split_factor = [&](const std::string& to) {
        const std::vector<boost::json::object> rows =
            D().AllItems("/v1/acoes/" + ticker + "/cotacoes",
                         "adjustment=splits&from_date=" + split_day + "&to_date=" + to, 10);
        return rows.empty() ? 0.0 : rows.front().at("split_factor").to_number<double>();
    };
    EXPECT_EQ(split_factor(split_day), 1.0);
    EXPECT_LT(split_factor(after->first), 1.0);
    ExpectAdjustedAsRecomputed(D(), ticker, "splits", month_before, after->first);
    ExpectAdjustedAsRecomputed(D(), ticker, "total", month_before, "");
    ExpectAdjustedAsRecomputed(D(), ticker, "total", after->first, "");

    // A range with no trading day: no rows, the asked end as the base.
    HttpResponse r =
        D().Get("/v1/acoes/" + ticker + "/cotacoes?from_date=2030-01-01&to_date=2030-01-31", D().RoomyKey());
    ASSERT_EQ(r.status, 200) << r.Describe();
    const boost::json::value body = r.Json();
    EXPECT_TRUE(AsObject(body).at("data").as_array().empty());
    EXPECT_EQ(AsObject(body).at("meta").at("base_date").as_string(), "2030-01-31");
}

TEST_P(StocksSampleTest, RenamedTickerKeepsOneHistoryAndPerLotPricesReadPerShare) {
    // The rename, from the companies sample's FCA: one company's two ON tickers, the old ending.
    const Days& days = SampleDays(D());
    std::string old_ticker;
    std::string new_ticker;
    for (const auto& [ticker, by_day] : days) {
        const std::string last = by_day.rbegin()->first;
        if (last < "2026-10-01" && ticker.ends_with("3")) {
            for (const auto& [other, other_days] : days) {
                if (other != ticker && other.ends_with("3") && other_days.begin()->first > last &&
                    other_days.at(other_days.begin()->first).isin.substr(0, 2) == "BR" &&
                    by_day.at(last).specification == other_days.begin()->second.specification) {
                    // Its first price carries the old ticker's last.
                    if (other_days.begin()->second.open > 0 && other.substr(1) == ticker.substr(1)) {
                        old_ticker = ticker;
                        new_ticker = other;
                    }
                }
            }
        }
    }
    ASSERT_FALSE(old_ticker.empty());
    const std::vector<boost::json::object> rows =
        D().AllItems("/v1/acoes/" + new_ticker + "/cotacoes", "", 100);
    const std::size_t expected = days.at(old_ticker).size() + days.at(new_ticker).size();
    ASSERT_EQ(rows.size(), expected);
    const std::string switch_day = days.at(new_ticker).begin()->first;
    for (const boost::json::object& row : rows) {
        const std::string day(row.at("date").as_string());
        EXPECT_EQ(row.at("ticker").as_string(), day < switch_day ? old_ticker : new_ticker) << day;
    }
    HttpResponse r = D().Get("/v1/acoes/" + new_ticker + "/cotacoes?limit=1", D().RoomyKey());
    ASSERT_EQ(r.status, 200) << r.Describe();
    const boost::json::value body = r.Json();
    EXPECT_EQ(AsObject(body).at("meta").at("tickers").as_array().size(), 2u) << r.Describe();

    // Lines quoted per 1,000 shares: the listing's close is per share.
    std::size_t per_lot = 0;
    for (const boost::json::object& item : D().AllItems("/v1/acoes", "", 500)) {
        const std::string ticker(item.at("ticker").as_string());
        const CotahistLine& last = days.at(ticker).rbegin()->second;
        ExpectNear(item.at("last_close"), PerShare(last.close, last.factor), ticker);
        per_lot += last.factor == 1000 ? 1 : 0;
    }
    EXPECT_GE(per_lot, 2u);
}

TEST_P(StocksSampleTest, CompaniesSectorsIndexesAndMarketCapitalization) {
    const std::vector<boost::json::object> items = D().AllItems("/v1/acoes", "", 500);
    std::map<std::string, boost::json::object> by_ticker;
    for (const boost::json::object& item : items) {
        by_ticker[std::string(item.at("ticker").as_string())] = item;
    }
    std::size_t linked = 0;
    std::size_t capitalized = 0;
    for (const auto& [ticker, item] : by_ticker) {
        SCOPED_TRACE(ticker);
        const std::string instrument_class(item.at("class").as_string());
        const fs::path details = D().SampleDir() / ("GetDetailsCompany_" + ticker.substr(0, 4) + ".json");
        if (instrument_class == "ON" || instrument_class.starts_with("PN") || instrument_class == "UNIT") {
            ASSERT_TRUE(item.at("company").is_object()) << boost::json::serialize(item);
            ++linked;
            if (fs::exists(details)) {
                const boost::json::value json = ReadJson(details);
                EXPECT_EQ(std::to_string(item.at("company").at("cvm_code").as_int64()),
                          Text(json.at("codeCVM")));
                const std::string sector = Text(json.at("industryClassification"));
                EXPECT_EQ(sector.substr(0, sector.find(" / ")), Text(item.at("sector")));
            }
        } else {
            EXPECT_TRUE(item.at("company").is_null());
            EXPECT_TRUE(item.at("company_unlinked_reason").is_string());
        }
        if (item.at("market_cap").is_object()) {
            ++capitalized;
            const boost::json::object& cap = item.at("market_cap").as_object();
            double sum = 0;
            for (const boost::json::value& part : cap.at("parts").as_array()) {
                const std::string part_ticker(part.at("ticker").as_string());
                const std::string part_class(part.at("class").as_string());
                EXPECT_TRUE(part_class == "ON" || part_class.starts_with("PN")) << "a unit or BDR counted";
                ExpectNear(part.at("close"), by_ticker.at(part_ticker).at("last_close").to_number<double>(),
                           part_ticker);
                sum += part.at("close").to_number<double>() * part.at("shares").to_number<double>();
            }
            ExpectNear(cap.at("value"), sum, "market_cap");
        }
    }
    EXPECT_GT(linked, 10u);
    EXPECT_GT(capitalized, 10u);

    // The index filter is the membership files' list.
    std::set<std::string> ibov;
    const boost::json::value stock_index = ReadJson(D().SampleDir() / "GetStockIndex.json");
    for (const boost::json::value& item : stock_index.at("results").as_array()) {
        const std::string indexes = Text(item.at("indexes"));
        if (("," + indexes + ",").find(",IBOV,") != std::string::npos) {
            ibov.insert(Text(item.at("code")));
        }
    }
    const boost::json::value portfolio = ReadJson(D().SampleDir() / "GetTheoricalPortfolio_IBOV.json");
    for (const boost::json::value& item : portfolio.at("results").as_array()) {
        ibov.insert(Text(item.at("cod")));
    }
    std::set<std::string> served;
    for (const boost::json::object& item : D().AllItems("/v1/acoes", "index=IBOV", 500)) {
        served.insert(std::string(item.at("ticker").as_string()));
    }
    std::set<std::string> active_ibov;
    for (const std::string& ticker : ibov) {
        if (by_ticker.count(ticker)) {
            active_ibov.insert(ticker);
        }
    }
    EXPECT_EQ(served, active_ibov);
    EXPECT_FALSE(served.empty());
}

// Each filter keeps exactly the tickers whose item says so, and combined with any sort, read in
// small pages, the order holds across the pages (the listing is filtered and sorted in memory,
// src/kept_listing.hpp).
TEST_P(StocksSampleTest, FiltersKeepWhatTheItemsSayInEverySortAcrossPages) {
    const std::vector<boost::json::object> all = D().AllItems("/v1/acoes", "include_inactive=true", 500);
    ASSERT_GT(all.size(), 20u);
    const auto text = [](const boost::json::value& v) {
        return v.is_string() ? std::string(v.as_string()) : std::string();
    };
    const auto fold = [](std::string s) {
        for (char& c : s) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return s;
    };
    // A filter's expected tickers, from the unfiltered items.
    const auto expected = [&](const std::function<bool(const boost::json::object&)>& keep) {
        std::set<std::string> tickers;
        for (const boost::json::object& item : all) {
            if (keep(item)) {
                tickers.insert(text(item.at("ticker")));
            }
        }
        return tickers;
    };
    const auto served = [&](const std::string& query) {
        std::set<std::string> tickers;
        for (const boost::json::object& item :
             D().AllItems("/v1/acoes", "include_inactive=true&" + query, 7)) {
            tickers.insert(text(item.at("ticker")));
        }
        return tickers;
    };
    const boost::json::object* with_company = nullptr;
    const boost::json::object* with_sector = nullptr;
    for (const boost::json::object& item : all) {
        with_company = with_company || !item.at("company").is_object() ? with_company : &item;
        with_sector = with_sector || !item.at("subsector").is_string() ? with_sector : &item;
    }
    ASSERT_TRUE(with_company && with_sector);
    const std::string cnpj = text(with_company->at("company").at("cnpj"));
    EXPECT_EQ(served("cnpj=" + cnpj), expected([&](const boost::json::object& item) {
                  return item.at("company").is_object() && text(item.at("company").at("cnpj")) == cnpj;
              }));
    EXPECT_EQ(served("class=ON"),
              expected([&](const boost::json::object& item) { return text(item.at("class")) == "ON"; }));
    const std::string subsector = text(with_sector->at("subsector"));
    const std::set<std::string> in_subsector = expected([&](const boost::json::object& item) {
        return text(item.at("sector")) == subsector || text(item.at("subsector")) == subsector ||
               text(item.at("segment")) == subsector;
    });
    EXPECT_EQ(served("sector=" + UrlEncode(subsector)), in_subsector);
    // q: the ticker's first letters in lower case find it and whoever else has them.
    const std::string part = fold(text(with_company->at("ticker")).substr(0, 3));
    const std::set<std::string> by_q = served("q=" + part);
    EXPECT_TRUE(by_q.count(text(with_company->at("ticker"))));
    for (const std::string& ticker : by_q) {
        const auto item = std::find_if(all.begin(), all.end(), [&](const boost::json::object& i) {
            return text(i.at("ticker")) == ticker;
        });
        ASSERT_NE(item, all.end());
        const std::string haystack =
            fold(ticker + " " + text(item->at("name")) + " " +
                 (item->at("company").is_object() ? text(item->at("company").at("name")) : std::string()));
        EXPECT_NE(haystack.find(part), std::string::npos) << ticker;
    }

    // Every numeric sort, both orders, with a filter, in pages of 3: nulls last, then in order,
    // each ticker once.
    const std::map<std::string, std::function<boost::json::value(const boost::json::object&)>> fields{
        {"close", [](const boost::json::object& i) { return i.at("last_close"); }},
        {"volume", [](const boost::json::object& i) { return i.at("volume"); }},
        {"change", [](const boost::json::object& i) { return i.at("change"); }},
        {"market_cap", [](const boost::json::object& i) {
             return i.at("market_cap").is_object() ? i.at("market_cap").at("value")
                                                   : boost::json::value(nullptr);
         }}};
    for (const auto& [sort, field] : fields) {
        for (const std::string order : {"asc", "desc"}) {
            SCOPED_TRACE(sort + " " + order);
            const std::vector<boost::json::object> rows = D().AllItems(
                "/v1/acoes", "include_inactive=true&class=ON&sort=" + sort + "&order=" + order, 3);
            EXPECT_EQ(rows.size(), served("class=ON").size());
            std::set<std::string> seen;
            for (std::size_t i = 0; i < rows.size(); ++i) {
                EXPECT_TRUE(seen.insert(text(rows[i].at("ticker"))).second);
                if (i == 0) {
                    continue;
                }
                const boost::json::value a = field(rows[i - 1]);
                const boost::json::value b = field(rows[i]);
                if (a.is_null()) {
                    EXPECT_TRUE(b.is_null()) << "a value after a null at " << i;
                } else if (!b.is_null()) {
                    const double x = a.to_number<double>();
                    const double y = b.to_number<double>();
                    EXPECT_TRUE(order == "asc" ? x <= y : x >= y) << i;
                    if (x == y) {
                        EXPECT_LT(text(rows[i - 1].at("ticker")), text(rows[i].at("ticker")));
                    }
                }
            }
        }
    }
}

TEST_P(StocksSampleTest, MonthlyBarsAreBuiltFromTheDays) {
    const std::string ticker = TickerWithStockEvent(D(), "DESDOBRAMENTO");
    const auto& days = SampleDays(D()).at(ticker);
    const std::vector<boost::json::object> bars =
        D().AllItems("/v1/acoes/" + ticker + "/cotacoes", "frequency=monthly", 100);
    std::map<std::string, std::vector<const CotahistLine*>> months;
    for (const auto& [day, line] : days) {
        months[day.substr(0, 7)].push_back(&line);
    }
    ASSERT_EQ(bars.size(), months.size());
    for (const boost::json::object& bar : bars) {
        const std::string month = std::string(bar.at("date").as_string()).substr(0, 7);
        const auto& lines = months.at(month);
        double volume = 0;
        double high = 0;
        for (const CotahistLine* line : lines) {
            volume += static_cast<double>(line->volume) / 100;
            high = std::max(high, PerShare(line->high, line->factor));
        }
        ExpectNear(bar.at("close"), PerShare(lines.back()->close, lines.back()->factor), month + " close");
        ExpectNear(bar.at("open"), PerShare(lines.front()->open, lines.front()->factor), month + " open");
        ExpectNear(bar.at("high"), high, month + " high");
        ExpectNear(bar.at("volume"), volume, month + " volume");
        EXPECT_EQ(bar.at("days").as_int64(), static_cast<std::int64_t>(lines.size()));
    }
}

}  // namespace
}  // namespace lastro::stocks::e2e
