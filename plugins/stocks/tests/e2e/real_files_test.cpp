// The stocks plugin end to end on B3's real files (../shared/datasets/real/b3/): a real lastrod
// loading stocks and companies on SQLite and PostgreSQL, the files ingested unchanged through
// `lastro ingest`, and the answers checked against the files' bytes read here with this suite's
// own reader (cotahist_lines.hpp), never the plugin's.
#include "cotahist_lines.hpp"

#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>

#include <boost/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::stocks::e2e {
namespace {

using namespace ::lastro::sdk::testing;
namespace fs = std::filesystem;

class RealStocksTest : public BackendTest<RealStocksTest> {
public:
    static constexpr const char* kLabel = "stocks-real";
    static DeploymentOptions Options() {
        return {.plugin_dirs = {LASTRO_STOCKS_DIR}, .ingest_sample = false};
    }
};
INSTANTIATE_TEST_SUITE_P(Sqlite, RealStocksTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, RealStocksTest, ::testing::Values(Backend::kPostgres), BackendParamName);

const fs::path kReal = fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/b3";

double PerShare(std::int64_t hundredths, std::int64_t factor) {
    return static_cast<double>(hundredths) / 100.0 / static_cast<double>(factor);
}

void ExpectNear(const boost::json::value& served, double expected, const std::string& what) {
    ASSERT_TRUE(served.is_number()) << what << ": " << boost::json::serialize(served);
    EXPECT_NEAR(served.to_number<double>(), expected, std::abs(expected) * 1e-12 + 1e-12) << what;
}

TEST_P(RealStocksTest, RealCotahistDaysIngestAndComeBackAsTheFilesSay) {
    // The later day first, then the earlier and the truncated 2016 edition: order must not matter.
    const CommandResult ingest = D().Lastro(
        {"ingest", "b3.cotahist", (kReal / "COTAHIST_D04022022.TXT.zip").string(),
         (kReal / "COTAHIST_D03022022.TXT.zip").string(), (kReal / "COTAHIST_D04012016.TXT").string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    EXPECT_NE(ingest.err.find("1,745"), std::string::npos) << ingest.Describe();

    const std::vector<CotahistLine> last_day = ReadCotahist(kReal / "COTAHIST_D04022022.TXT.zip");
    const std::vector<CotahistLine> first_day = ReadCotahist(kReal / "COTAHIST_D03022022.TXT.zip");
    std::map<std::string, const CotahistLine*> by_ticker;
    std::map<std::string, const CotahistLine*> before;
    for (const CotahistLine& line : last_day) {
        if (line.market == 10 &&
            (!by_ticker.count(line.ticker) || by_ticker[line.ticker]->volume < line.volume)) {
            by_ticker[line.ticker] = &line;
        }
    }
    for (const CotahistLine& line : first_day) {
        if (line.market == 10 && (!before.count(line.ticker) || before[line.ticker]->volume < line.volume)) {
            before[line.ticker] = &line;
        }
    }

    const std::string key = D().RoomyKey();
    const std::vector<boost::json::object> active = D().AllItems("/v1/acoes", "", 500);
    ASSERT_EQ(active.size(), by_ticker.size());
    std::size_t per_lot = 0;
    for (const boost::json::object& item : active) {
        const std::string ticker(item.at("ticker").as_string());
        SCOPED_TRACE(ticker);
        ASSERT_TRUE(by_ticker.count(ticker));
        const CotahistLine& line = *by_ticker.at(ticker);
        EXPECT_EQ(item.at("last_date").as_string(), "2022-02-04");
        ExpectNear(item.at("last_close"), PerShare(line.close, line.factor), "last_close");
        ExpectNear(item.at("volume"), static_cast<double>(line.volume) / 100.0, "volume");
        EXPECT_EQ(item.at("quantity").as_int64(), line.quantity);
        EXPECT_EQ(item.at("isin").as_string(), line.isin);
        EXPECT_EQ(item.at("specification").as_string(), line.specification);
        EXPECT_EQ(item.at("quotation_factor").as_int64(), line.factor);
        per_lot += line.factor != 1 ? 1 : 0;
        if (before.count(ticker)) {
            ExpectNear(item.at("previous_close"),
                       PerShare(before.at(ticker)->close, before.at(ticker)->factor), "previous_close");
        }
    }
    EXPECT_GT(per_lot, 0u) << "no line quoted per lot in the real day";

    // Classes as COTAHIST writes them.
    const std::map<std::string, std::string> classes{
        {"PETR4", "PN"}, {"VALE3", "ON"}, {"TAEE11", "UNIT"}, {"BOVA11", "ETF"}, {"AAPL34", "BDR"}};
    for (const auto& [ticker, expected] : classes) {
        HttpResponse r = D().Get("/v1/acoes?q=" + ticker + "&limit=500", key);
        ASSERT_EQ(r.status, 200) << r.Describe();
        bool found = false;
        const boost::json::value body = r.Json();
        for (const boost::json::value& item : AsObject(body).at("data").as_array()) {
            if (item.at("ticker").as_string() == ticker) {
                found = true;
                EXPECT_EQ(item.at("class").as_string(), expected) << ticker;
                if (expected == "BDR") {
                    EXPECT_TRUE(item.at("company").is_null());
                    EXPECT_NE(std::string(item.at("company_unlinked_reason").as_string()).find("foreign"),
                              std::string::npos);
                }
            }
        }
        EXPECT_TRUE(found) << ticker;
    }

    // Tickers of 2016 only are inactive: left out by default, listed with include_inactive.
    HttpResponse r = D().Get("/v1/acoes?include_inactive=true&q=BBAS3", key);
    ASSERT_EQ(r.status, 200) << r.Describe();

    // The daily history of one ticker: every day of every file, raw prices per share.
    r = D().Get("/v1/acoes/PETR4/cotacoes", key);
    ASSERT_EQ(r.status, 200) << r.Describe();
    const boost::json::value body = r.Json();
    const boost::json::array& rows = AsObject(body).at("data").as_array();
    ASSERT_EQ(rows.size(), 2u) << r.Describe();
    EXPECT_EQ(rows[0].at("date").as_string(), "2022-02-03");
    ExpectNear(rows[0].at("close"), PerShare(before.at("PETR4")->close, 1), "close");
    ExpectNear(rows[1].at("high"), PerShare(by_ticker.at("PETR4")->high, 1), "high");
    ExpectNear(rows[1].at("adj_close"), PerShare(by_ticker.at("PETR4")->close, 1),
               "adj_close without events");
    EXPECT_EQ(rows[1].at("factor").to_number<double>(), 1.0);
}

TEST_P(RealStocksTest, RealB3CompanyFilesLinkSectorIndexesSharesAndEvents) {
    const auto ingest = [&](const std::string& dataset, const std::vector<std::string>& names) {
        std::vector<std::string> args{"ingest", dataset};
        for (const std::string& name : names) {
            args.push_back((kReal / name).string());
        }
        const CommandResult result = D().Lastro(args);
        ASSERT_EQ(result.exit_code, 0) << result.Describe();
    };
    ingest("b3.cotahist", {"COTAHIST_D04022022.TXT.zip"});
    // B3's real answers, named as B3's service gives them: the supplement names the issuer of the
    // cash dividends' file.
    ingest("b3.corporate_actions", {"GetListedCashDividends.json", "GetListedSupplementCompany.json"});
    ingest("b3.company_details", {"GetDetailsCompany.json"});
    ingest("b3.index_membership", {"GetStockIndex.json"});

    const std::string key = D().RoomyKey();
    HttpResponse r = D().Get("/v1/acoes?q=ABEV3", key);
    ASSERT_EQ(r.status, 200) << r.Describe();
    const boost::json::value body = r.Json();
    const boost::json::array& data = AsObject(body).at("data").as_array();
    ASSERT_EQ(data.size(), 1u) << r.Describe();
    const boost::json::object& abev = data[0].as_object();
    // GetDetailsCompany: "Consumo não Cíclico / Bebidas / Cervejas e Refrigerantes", codeCVM 23264.
    EXPECT_EQ(abev.at("sector").as_string(), "Consumo não Cíclico");
    EXPECT_EQ(abev.at("subsector").as_string(), "Bebidas");
    EXPECT_EQ(abev.at("segment").as_string(), "Cervejas e Refrigerantes");
    ASSERT_TRUE(abev.at("company").is_object()) << boost::json::serialize(abev);
    EXPECT_EQ(abev.at("company").at("cvm_code").as_int64(), 23264);
    EXPECT_EQ(abev.at("company").at("cnpj").as_string(), "07526557000100");
    // GetStockIndex lists ABEV3 in IBOV (among others).
    bool ibov = false;
    for (const boost::json::value& index : abev.at("indexes").as_array()) {
        ibov |= index.at("index").as_string() == "IBOV";
    }
    EXPECT_TRUE(ibov) << boost::json::serialize(abev);
    // No FRE loaded: the common shares of GetListedSupplementCompany (15.750.216.851) times the close.
    ASSERT_TRUE(abev.at("market_cap").is_object()) << boost::json::serialize(abev);
    ExpectNear(abev.at("market_cap").at("value"), 15750216851.0 * abev.at("last_close").to_number<double>(),
               "market_cap");

    // Its 29 published cash events and the supplement's subscription of 2014, the two cash events
    // of 17/12/2021 once each (both files publish them), with B3's factors.
    const std::vector<boost::json::object> events = D().AllItems("/v1/acoes/ABEV3/proventos", "", 100);
    std::size_t on_17 = 0;
    std::size_t cash = 0;
    for (const boost::json::object& event : events) {
        cash += event.at("kind").as_string() == "cash" ? 1 : 0;
        if (event.at("last_date_with_rights").as_string() == "2021-12-17") {
            ++on_17;
            const double expected =
                event.at("label").as_string() == "DIVIDENDO" ? 1 - 0.830118 / 100 : 1 - 2.925949 / 100;
            ExpectNear(event.at("price_factor"), expected, "price_factor");
            EXPECT_EQ(event.at("payment_date").as_string(), "2021-12-30");
        }
    }
    EXPECT_EQ(on_17, 2u);
    EXPECT_EQ(cash, 29u);
    EXPECT_EQ(events.size(), 30u);
}

// B3 publishes a company's events per class (typeStock ON, PN, UNT...): on the real TAEE days, a
// unit's event adjusts the unit (TAEE11) only, an ordinary share's the ordinary share only, and the
// preferred share (TAEE4) neither. The answer is written here in B3's format for these two events.
TEST_P(RealStocksTest, EventsOfOneClassAdjustThatClassOnlyUnitsIncluded) {
    const CommandResult days =
        D().Lastro({"ingest", "b3.cotahist", (kReal / "COTAHIST_D03022022.TXT.zip").string(),
                    (kReal / "COTAHIST_D04022022.TXT.zip").string()});
    ASSERT_EQ(days.exit_code, 0) << days.Describe();
    const fs::path answer = D().Dir() / "GetListedCashDividends_TAEE.json";
    std::ofstream(answer)
        << R"({"page":{"pageNumber":1,"pageSize":9999,"totalRecords":2,"totalPages":1},"results":[)"
        << R"({"typeStock":"UNT","dateApproval":"20/01/2022","valueCash":"0,7576","ratio":"1",)"
        << R"("corporateAction":"DIVIDENDO","lastDatePriorEx":"03/02/2022","dateClosingPricePriorExDate":"03/02/2022",)"
        << R"("closingPricePriorExDate":"37,88","quotedPerShares":"1","corporateActionPrice":"2,000000",)"
        << R"("lastDateTimePriorEx":"2022-02-03T00:00:00"},)"
        << R"({"typeStock":"ON","dateApproval":"20/01/2022","valueCash":"0,1265","ratio":"1",)"
        << R"("corporateAction":"JRS CAP PROPRIO","lastDatePriorEx":"03/02/2022","dateClosingPricePriorExDate":"03/02/2022",)"
        << R"("closingPricePriorExDate":"12,65","quotedPerShares":"1","corporateActionPrice":"1,000000",)"
        << R"("lastDateTimePriorEx":"2022-02-03T00:00:00"}]})";
    const CommandResult events = D().Lastro({"ingest", "b3.corporate_actions", answer.string()});
    ASSERT_EQ(events.exit_code, 0) << events.Describe();
    const std::map<std::string, double> expected{{"TAEE11", 0.98}, {"TAEE3", 0.99}, {"TAEE4", 1.0}};
    const std::string key = D().RoomyKey();
    for (const auto& [ticker, factor] : expected) {
        HttpResponse r = D().Get("/v1/acoes/" + ticker + "/cotacoes?adjustment=total", key);
        ASSERT_EQ(r.status, 200) << r.Describe();
        const boost::json::value body = r.Json();
        const boost::json::array& rows = AsObject(body).at("data").as_array();
        ASSERT_EQ(rows.size(), 2u) << r.Describe();
        ExpectNear(rows[0].at("dividend_factor"), factor, ticker + " on its last day with rights");
        ExpectNear(rows[0].at("adj_close"), rows[0].at("close").to_number<double>() * factor, ticker);
        ExpectNear(rows[1].at("factor"), 1.0, ticker + " on the ex-date");
        EXPECT_EQ(rows[0].at("events").as_array().size(), factor == 1.0 ? 0u : 1u) << r.Describe();
    }
}

TEST_P(RealStocksTest, SortsFiltersAndCursorsAreStableAndBadValuesNamed) {
    const std::string key = D().RoomyKey();
    const std::vector<CotahistLine> last_day = ReadCotahist(kReal / "COTAHIST_D04022022.TXT.zip");
    if (D().Get("/v1/acoes?limit=1", key).Json().at("data").as_array().empty()) {
        const CommandResult ingest =
            D().Lastro({"ingest", "b3.cotahist", (kReal / "COTAHIST_D04022022.TXT.zip").string()});
        ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    }
    // Every sort, both orders, read in small pages: no row skipped or repeated, and in order.
    for (const std::string sort : {"ticker", "name", "close", "volume", "market_cap", "change"}) {
        for (const std::string order : {"asc", "desc"}) {
            SCOPED_TRACE(sort + " " + order);
            const std::vector<boost::json::object> all =
                D().AllItems("/v1/acoes", "sort=" + sort + "&order=" + order, 37);
            std::set<std::string> seen;
            for (const boost::json::object& item : all) {
                EXPECT_TRUE(seen.insert(std::string(item.at("ticker").as_string())).second);
            }
            const std::vector<boost::json::object> whole =
                D().AllItems("/v1/acoes", "sort=" + sort + "&order=" + order, 500);
            ASSERT_EQ(all.size(), whole.size());
            for (std::size_t i = 0; i < all.size(); ++i) {
                EXPECT_EQ(all[i].at("ticker"), whole[i].at("ticker")) << i;
            }
            if (sort == "close") {
                // Nulls last, then by value in the order asked.
                for (std::size_t i = 1; i < whole.size(); ++i) {
                    const boost::json::value& a = whole[i - 1].at("last_close");
                    const boost::json::value& b = whole[i].at("last_close");
                    if (!a.is_null() && !b.is_null()) {
                        EXPECT_TRUE(order == "asc" ? a.to_number<double>() <= b.to_number<double>()
                                                   : a.to_number<double>() >= b.to_number<double>());
                    } else {
                        EXPECT_TRUE(b.is_null()) << "a null before a value at " << i;
                    }
                }
            }
        }
    }
    for (const std::string target :
         {"/v1/acoes?sort=price", "/v1/acoes?order=up", "/v1/acoes?class=XYZ", "/v1/acoes?index=NOPE",
          "/v1/acoes?sector=Nada", "/v1/acoes?include_inactive=maybe", "/v1/acoes?limit=501"}) {
        HttpResponse r = D().Get(target, key);
        EXPECT_EQ(r.status, 422) << target << " " << r.Describe();
        EXPECT_EQ(r.Header("content-type"), "application/problem+json") << target;
    }
    HttpResponse r = D().Get("/v1/acoes/NOPE3/cotacoes", key);
    EXPECT_EQ(r.status, 404) << r.Describe();
    r = D().Get("/v1/acoes/PETR4/cotacoes?from_date=2022-02-05&to_date=2022-02-01", key);
    EXPECT_EQ(r.status, 400) << r.Describe();
    r = D().Get("/v1/acoes/PETR4/cotacoes?adjustment=dividends", key);
    EXPECT_EQ(r.status, 422) << r.Describe();
    // A cursor of one sort is refused by another.
    r = D().Get("/v1/acoes?sort=volume&limit=1", key);
    ASSERT_EQ(r.status, 200) << r.Describe();
    const std::string cursor(AsObject(r.Json()).at("meta").at("pagination").at("next_cursor").as_string());
    r = D().Get("/v1/acoes?sort=close&limit=1&cursor=" + UrlEncode(cursor), key);
    EXPECT_EQ(r.status, 400) << r.Describe();
}

}  // namespace
}  // namespace lastro::stocks::e2e
