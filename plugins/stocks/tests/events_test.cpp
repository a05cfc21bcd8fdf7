// Corporate actions end to end on a plugin database (SQLite, or PostgreSQL with
// LASTRO_TEST_BACKEND): the matching of B3's two cash answers on the real AMBEV files, the three
// B3 ingesters (idempotent, events kept forever, refusals writing nothing) and the two proventos
// handlers with their ex-dates, tickers and keyset pages.
#include "domain/b3_json/b3_json.hpp"
#include "domain/corporate_actions/corporate_actions.hpp"
#include "ingest/company_details/company_details_ingester.hpp"
#include "ingest/corporate_actions/corporate_actions_ingester.hpp"
#include "ingest/index_membership/index_membership_ingester.hpp"
#include "src/events_handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>
#include <odb/transaction.hxx>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace lastro::stocks {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using sdk::testing::Bytes;
using sdk::testing::CallHandler;
using sdk::testing::RunIngest;

constexpr std::time_t kFirstIngest = 1790000000;   // 2026-09-21
constexpr std::time_t kSecondIngest = 1790500000;  // 2026-09-27

std::string RealB3(const std::string& name) {
    std::ifstream in(fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/b3" / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

bool HaveRealFiles() {
    for (const char* name : {"GetListedCashDividends.json", "GetListedSupplementCompany.json",
                             "GetDetailsCompany.json", "GetStockIndex.json", "GetTheoricalPortfolio.json"}) {
        if (RealB3(name).empty()) {
            return false;
        }
    }
    return true;
}

#define REAL_FILES_OR_SKIP()                                                            \
    if (!HaveRealFiles()) {                                                             \
        GTEST_SKIP() << "B3's real JSON answers are not in ../shared/datasets/real/b3"; \
    }

const CorporateEvent* FindEvent(const std::vector<CorporateEvent>& events, const std::string& label,
                                const std::string& last_date) {
    for (const CorporateEvent& e : events) {
        if (e.label == label && e.last_date_with_rights && e.last_date_with_rights->ToString() == last_date) {
            return &e;
        }
    }
    return nullptr;
}

TEST(CorporateEventsTest, BothCashAnswersOfAmbevMatchIntoOneEventEach) {
    REAL_FILES_OR_SKIP();
    const CashDividendsAnswer cash =
        ReadCashDividends(*Bytes(RealB3("GetListedCashDividends.json"), "c.json"));
    const SupplementAnswer supplement =
        ReadSupplement(*Bytes(RealB3("GetListedSupplementCompany.json"), "s.json"));
    const std::vector<CorporateEvent> events = BuildIssuerEvents("ABEV", &cash, &supplement);
    // 29 cash events (the supplement's two are among them, not added) and one subscription.
    ASSERT_EQ(events.size(), 30u);
    std::size_t on_2021_12_17 = 0;
    for (const CorporateEvent& e : events) {
        on_2021_12_17 += e.last_date_with_rights && e.last_date_with_rights->ToString() == "2021-12-17";
    }
    EXPECT_EQ(on_2021_12_17, 2u);  // two events, not four

    const CorporateEvent* dividend = FindEvent(events, "DIVIDENDO", "2021-12-17");
    ASSERT_NE(dividend, nullptr);
    EXPECT_EQ(dividend->kind, EventKind::kCash);
    EXPECT_EQ(dividend->share_type, "ON");
    EXPECT_EQ(dividend->isin, "BRABEVACNOR1");
    EXPECT_EQ(dividend->payment_date->ToString(), "2021-12-30");
    EXPECT_EQ(dividend->amount_published, "0,1334");
    EXPECT_EQ(dividend->amount, 0.1334);
    EXPECT_EQ(dividend->price_factor, 0.99169882);
    EXPECT_EQ(dividend->factor_source, "GetListedCashDividends.corporateActionPrice");
    EXPECT_TRUE(dividend->published.contains("GetListedCashDividends"));
    EXPECT_EQ(dividend->published.at("GetListedSupplementCompany.cashDividends").at("rate").as_string(),
              "0,13340000000");
    const CorporateEvent* jcp = FindEvent(events, "JRS CAP PROPRIO", "2021-12-17");
    ASSERT_NE(jcp, nullptr);
    EXPECT_EQ(jcp->isin, "BRABEVACNOR1");
    EXPECT_EQ(jcp->price_factor, 0.97074051);
    EXPECT_NE(jcp->id, dividend->id);

    const CorporateEvent* subscription = FindEvent(events, "SUBSCRICAO", "2014-04-28");
    ASSERT_NE(subscription, nullptr);
    EXPECT_EQ(subscription->kind, EventKind::kSubscription);
    EXPECT_EQ(subscription->price_factor, std::nullopt);  // subscriptions get no price factor
    EXPECT_EQ(subscription->amount_published, "16,09000000000");
    EXPECT_EQ(subscription->ratio_published, "0,13994090200");
    EXPECT_EQ(subscription->share_type, "ON");

    // The same event alone from either answer has the same id: ids do not depend on which
    // files an ingest had.
    const std::vector<CorporateEvent> cash_only = BuildIssuerEvents("ABEV", &cash, nullptr);
    const std::vector<CorporateEvent> supplement_only = BuildIssuerEvents("ABEV", nullptr, &supplement);
    EXPECT_EQ(FindEvent(cash_only, "DIVIDENDO", "2021-12-17")->id, dividend->id);
    EXPECT_EQ(FindEvent(supplement_only, "DIVIDENDO", "2021-12-17")->id, dividend->id);
    EXPECT_EQ(FindEvent(supplement_only, "DIVIDENDO", "2021-12-17")->price_factor, std::nullopt);
    std::set<std::string> ids;
    for (const CorporateEvent& e : events) {
        ids.insert(e.id);
    }
    EXPECT_EQ(ids.size(), events.size());
}

TEST(CorporateEventsTest, DuplicatesStayApartAndStockEventsGetTheirFactor) {
    const std::string record =
        R"({"typeStock":"PN","corporateAction":"RENDIMENTO","valueCash":"1,5","lastDatePriorEx":"02/01/2024",)"
        R"("quotedPerShares":"1000","corporateActionPrice":"0,5"})";
    const CashDividendsAnswer cash =
        ReadCashDividends(*Bytes(R"({"results":[)" + record + "," + record + "]}", "c.json"));
    const SupplementAnswer supplement = ReadSupplement(*Bytes(
        R"([{"code":"XPTO","cashDividends":[{"label":"RENDIMENTO","isinCode":"BRXPTOACNPR1","rate":"0,0015",)"
        R"("lastDatePrior":"02/01/2024","paymentDate":"10/01/2024"}],)"
        R"("stockDividends":[{"label":"DESDOBRAMENTO","isinCode":"BRXPTOACNPR1","factor":"100,00000000000",)"
        R"("lastDatePrior":"25/04/2008"},{"label":"GRUPAMENTO","isinCode":"BRXPTOACNPR1","factor":"0,1",)"
        R"("lastDatePrior":"24/05/2024"}]}])",
        "s.json"));
    const std::vector<CorporateEvent> events = BuildIssuerEvents("XPTO", &cash, &supplement);
    // Two identical cash records are two events (occurrences 1 and 2); the supplement's rate per
    // share matches the first (valueCash 1,5 per 1000 shares, trap 3) and is not a third event.
    ASSERT_EQ(events.size(), 4u);
    EXPECT_NE(events[0].id, events[1].id);
    EXPECT_EQ(events[0].quoted_per_shares, 1000);
    EXPECT_EQ(events[0].isin, "BRXPTOACNPR1");
    EXPECT_EQ(events[1].isin, std::nullopt);
    EXPECT_EQ(events[2].label, "DESDOBRAMENTO");
    EXPECT_EQ(events[2].kind, EventKind::kStock);
    EXPECT_EQ(events[2].price_factor, 0.5);
    EXPECT_EQ(events[2].factor_source, "GetListedSupplementCompany.stockDividends.factor");
    EXPECT_EQ(events[2].ratio_published, "100,00000000000");
    EXPECT_DOUBLE_EQ(*events[3].price_factor, 10);
}

class B3Database : public sdk::testing::PluginDatabase {
public:
    B3Database() : PluginDatabase("stocks") {
        for (const char* dataset : {"b3.corporate_actions", "b3.cotahist", "b3.company_details"}) {
            host_.SetRelease(dataset, "r");
        }
    }
    // `text` written as `name` in a directory of its own per call (files of one name coexist).
    fs::path File(const std::string& name, const std::string& text) {
        const fs::path dir = Subdir("in" + std::to_string(++files_));
        std::ofstream(dir / name, std::ios::binary) << text;
        return dir / name;
    }
    sdk::IngestSummary Actions(const std::vector<fs::path>& inputs, std::time_t now = kFirstIngest) {
        CorporateActionsIngester ingester;
        return RunIngest(ingester, Db(), "b3.corporate_actions", inputs, now);
    }
    std::string Error(const std::function<void()>& body) {
        try {
            body();
        } catch (const sdk::IngestError& error) {
            return error.what();
        }
        return "";
    }
    sdk::SqlRows Rows(const std::string& query) {
        odb::transaction transaction(Db().begin());
        sdk::SqlRows rows = sdk::SqlSession(Db()).Query(query);
        transaction.commit();
        return rows;
    }
    std::string One(const std::string& query) { return Rows(query).at(0).at(0).value_or("NULL"); }
    void Execute(const std::string& statement) {
        odb::transaction transaction(Db().begin());
        sdk::SqlSession(Db()).Execute(statement);
        transaction.commit();
    }
    sdk::Result Call(const sdk::Handler& handler, const sdk::Params& params,
                     const std::optional<json::value>& cursor = std::nullopt) {
        return CallHandler(handler, Db(), params, host_, cursor);
    }
    std::vector<json::object> All(const sdk::Handler& handler, sdk::Params params, std::int64_t limit) {
        std::vector<json::object> rows;
        std::optional<json::value> cursor;
        params.Set("limit", limit);
        do {
            const sdk::Result page = Call(handler, params, cursor);
            for (const auto& item : page.data.as_array()) {
                rows.push_back(item.as_object());
            }
            cursor = page.meta.next_position;
        } while (cursor);
        return rows;
    }

private:
    sdk::testing::FakeHost host_;
    int files_ = 0;
};

TEST(CorporateActionsIngestTest, IdempotentKeptForeverAndMergedAcrossIngests) {
    REAL_FILES_OR_SKIP();
    B3Database db;
    const fs::path cash = db.File("GetListedCashDividends_ABEV.json", RealB3("GetListedCashDividends.json"));
    const fs::path supplement =
        db.File("GetListedSupplementCompany.json", RealB3("GetListedSupplementCompany.json"));

    // The cash answer alone first: 29 events, no ISIN yet.
    sdk::IngestSummary summary = db.Actions({cash});
    EXPECT_EQ(summary.inserted, 29u);
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_corporate_action WHERE isin IS NOT NULL"), "0");
    const std::string dividend_id = db.One(
        "SELECT id FROM stocks_corporate_action WHERE label = 'DIVIDENDO' AND last_date_with_rights = "
        "'2021-12-17'");

    // Then the supplement alone: its two cash records join the stored events, keeping their
    // factor from the cash answer; the subscription is new.
    summary = db.Actions({supplement}, kSecondIngest);
    EXPECT_EQ(summary.inserted, 1u);
    EXPECT_EQ(summary.updated, 2u);
    EXPECT_EQ(summary.unchanged, 0u);
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_corporate_action"), "30");
    const sdk::SqlRows dividend = db.Rows(
        "SELECT id, isin, payment_date, price_factor, factor_source, amount_published, first_seen_at, "
        "published"
        " FROM stocks_corporate_action WHERE label = 'DIVIDENDO' AND last_date_with_rights = '2021-12-17'");
    ASSERT_EQ(dividend.size(), 1u);
    EXPECT_EQ(*dividend[0][0], dividend_id);
    EXPECT_EQ(dividend[0][1], "BRABEVACNOR1");
    EXPECT_EQ(dividend[0][2], "2021-12-30");
    EXPECT_DOUBLE_EQ(std::stod(*dividend[0][3]), 0.99169882);
    EXPECT_EQ(dividend[0][4], "GetListedCashDividends.corporateActionPrice");
    EXPECT_EQ(dividend[0][5], "0,1334");                // the cash answer's text, not the supplement's rate
    EXPECT_EQ(dividend[0][6], "2026-09-21T14:13:20Z");  // first seen by the first ingest
    const json::object published = json::parse(*dividend[0][7]).as_object();
    EXPECT_TRUE(published.contains("GetListedCashDividends"));
    EXPECT_TRUE(published.contains("GetListedSupplementCompany.cashDividends"));

    // Both again: nothing changes, ids stay.
    summary = db.Actions({cash, supplement}, kSecondIngest);
    EXPECT_EQ(summary.inserted, 0u);
    EXPECT_EQ(summary.updated, 0u);
    EXPECT_EQ(summary.unchanged, 30u);
    summary = db.Actions({supplement}, kSecondIngest);
    EXPECT_EQ(summary.unchanged, 3u);

    // A later answer without the old events (B3 keeps 12 months): they stay.
    const std::string latest_only =
        R"({"results":[{"typeStock":"ON","dateApproval":"09/12/2021","valueCash":"0,1334","ratio":"1",)"
        R"("corporateAction":"DIVIDENDO","lastDatePriorEx":"17/12/2021","quotedPerShares":"1",)"
        R"("corporateActionPrice":"0,830118"}]})";
    summary = db.Actions({db.File("GetListedCashDividends_ABEV.json", latest_only)}, kSecondIngest);
    EXPECT_EQ(summary.inserted, 0u);
    EXPECT_EQ(summary.removed, 0u);
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_corporate_action"), "30");
    EXPECT_EQ(db.One("SELECT id FROM stocks_corporate_action WHERE label = 'DIVIDENDO' AND"
                     " last_date_with_rights = '2021-12-17'"),
              dividend_id);

    // The supplement's share counts in stocks_issuer.
    const sdk::SqlRows issuer = db.Rows(
        "SELECT common_shares, preferred_shares, total_shares, quoted_per_shares_since, round_lot, "
        "trading_name,"
        " cvm_code, supplement_source FROM stocks_issuer WHERE issuer = 'ABEV'");
    ASSERT_EQ(issuer.size(), 1u);
    EXPECT_EQ(issuer[0][0], "15750216851");
    EXPECT_EQ(issuer[0][1], "0");
    EXPECT_EQ(issuer[0][2], "15750216851");
    EXPECT_EQ(issuer[0][3], "2013-11-01");
    EXPECT_EQ(issuer[0][4], "100");
    EXPECT_EQ(issuer[0][5], "AMBEV S/A");
    EXPECT_EQ(issuer[0][6], "23264");
}

TEST(CorporateActionsIngestTest, RefusalsNameTheFileAndWriteNothing) {
    REAL_FILES_OR_SKIP();
    B3Database db;
    const std::string cash = RealB3("GetListedCashDividends.json");
    const std::string supplement = RealB3("GetListedSupplementCompany.json");

    // An unsuffixed cash answer needs exactly one supplement to take its company from.
    EXPECT_NE(
        db.Error([&] { db.Actions({db.File("GetListedCashDividends.json", cash)}); })
            .find("GetListedCashDividends.json: GetListedCashDividends does not name its company, and this "
                  "ingest has 0 GetListedSupplementCompany files to take it from: name the file "
                  "GetListedCashDividends_<ISSUER>.json"),
        std::string::npos);
    std::string petr = supplement;
    petr.replace(petr.find("\"code\":\"ABEV\""), 13, "\"code\":\"PETR\"");
    EXPECT_NE(db.Error([&] {
                    db.Actions({db.File("GetListedCashDividends.json", cash),
                                db.File("GetListedSupplementCompany_ABEV.json", supplement),
                                db.File("GetListedSupplementCompany_PETR.json", petr)});
                }).find("this ingest has 2 GetListedSupplementCompany files"),
              std::string::npos);
    EXPECT_NE(db.Error([&] { db.Actions({db.File("GetListedSupplementCompany_PETR.json", supplement)}); })
                  .find("GetListedSupplementCompany_PETR.json: the file is named for issuer PETR but its "
                        "code is ABEV"),
              std::string::npos);
    EXPECT_NE(db.Error([&] {
                    db.Actions({db.File("GetListedSupplementCompany.json", supplement),
                                db.File("GetListedSupplementCompany_ABEV.json", supplement)});
                }).find("a second GetListedSupplementCompany of issuer ABEV"),
              std::string::npos);
    EXPECT_NE(db.Error([&] {
                    db.Actions({db.File("GetListedDividends_ABEV.json", cash)});
                }).find("GetListedDividends_ABEV.json: not a file of b3.corporate_actions"),
              std::string::npos);
    // A bad record beside good files: the ingest fails whole.
    std::string bad = cash;
    bad.replace(bad.find("\"0,474335\""), 10, "\"0,47,4335\"");
    EXPECT_NE(
        db.Error([&] {
              db.Actions({db.File("GetListedSupplementCompany.json", supplement),
                          db.File("GetListedCashDividends_ABEV.json", bad)});
          })
            .find(
                "GetListedCashDividends_ABEV.json: results[2]: corporateActionPrice is not a pt-BR decimal"),
        std::string::npos);
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_corporate_action"), "0");
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_issuer"), "0");

    // The unsuffixed cash answer with its one supplement is the same as the named one.
    const sdk::IngestSummary summary = db.Actions({db.File("GetListedCashDividends.json", cash),
                                                   db.File("GetListedSupplementCompany.json", supplement)});
    EXPECT_EQ(summary.inserted, 30u);
    EXPECT_EQ(db.One("SELECT count(DISTINCT issuer) FROM stocks_corporate_action"), "1");
}

TEST(CompanyDetailsIngestTest, DetailsAndCodesReplacedIdempotently) {
    REAL_FILES_OR_SKIP();
    B3Database db;
    CompanyDetailsIngester ingester;
    const fs::path details = db.File("GetDetailsCompany.json", RealB3("GetDetailsCompany.json"));
    sdk::IngestSummary summary = RunIngest(ingester, db.Db(), "b3.company_details", {details}, kFirstIngest);
    EXPECT_EQ(summary.inserted, 1u);
    EXPECT_EQ(summary.as_of, "2022-06-06");
    const sdk::SqlRows issuer = db.Rows(
        "SELECT cnpj, cvm_code, company_name, sector, subsector, segment, market, details_as_of, codes"
        " FROM stocks_issuer WHERE issuer = 'ABEV'");
    ASSERT_EQ(issuer.size(), 1u);
    EXPECT_EQ(issuer[0][0], "07526557000100");
    EXPECT_EQ(issuer[0][1], "23264");
    EXPECT_EQ(issuer[0][2], "AMBEV S.A.");
    EXPECT_EQ(issuer[0][3], "Consumo não Cíclico");
    EXPECT_EQ(issuer[0][4], "Bebidas");
    EXPECT_EQ(issuer[0][5], "Cervejas e Refrigerantes");
    EXPECT_EQ(issuer[0][6], "BOLSA");
    EXPECT_EQ(issuer[0][7], "2022-06-06");
    EXPECT_EQ(issuer[0][8], R"([{"code":"ABEV3","isin":"BRABEVACNOR1"}])");
    EXPECT_EQ(db.One("SELECT isin FROM stocks_issuer_code WHERE ticker = 'ABEV3' AND issuer = 'ABEV'"),
              "BRABEVACNOR1");
    summary = RunIngest(ingester, db.Db(), "b3.company_details", {details}, kSecondIngest);
    EXPECT_EQ(summary.unchanged, 1u);
    EXPECT_EQ(summary.inserted + summary.updated, 0u);

    std::string other = RealB3("GetDetailsCompany.json");
    other.replace(other.find("\"ABEV3\",\"isin\""), 7, "\"ABEV4\"");
    summary = RunIngest(ingester, db.Db(), "b3.company_details",
                        {db.File("GetDetailsCompany_ABEV.json", other)}, kSecondIngest);
    EXPECT_EQ(summary.updated, 1u);
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_issuer_code"), "1");
    EXPECT_EQ(db.One("SELECT ticker FROM stocks_issuer_code"), "ABEV4");
    EXPECT_NE(db.Error([&] {
                    RunIngest(ingester, db.Db(), "b3.company_details",
                              {db.File("GetDetailsCompany_PETR.json", other)}, kSecondIngest);
                })
                  .find("GetDetailsCompany_PETR.json: the file is named for issuer PETR but its "
                        "issuingCompany is ABEV"),
              std::string::npos);
}

TEST(IndexMembershipIngestTest, EachFileReplacesItsSource) {
    REAL_FILES_OR_SKIP();
    B3Database db;
    IndexMembershipIngester ingester;
    const fs::path index = db.File("GetStockIndex.json", RealB3("GetStockIndex.json"));
    const fs::path ibov = db.File("GetTheoricalPortfolio_ibov.json", RealB3("GetTheoricalPortfolio.json"));
    EXPECT_NE(
        db.Error([&] {
              RunIngest(ingester, db.Db(), "b3.index_membership",
                        {db.File("GetTheoricalPortfolio.json", RealB3("GetTheoricalPortfolio.json"))},
                        kFirstIngest);
          })
            .find(
                "GetTheoricalPortfolio.json: B3's GetTheoricalPortfolio answer does not name its index: name "
                "the file GetTheoricalPortfolio_<INDEX>.json"),
        std::string::npos);

    sdk::IngestSummary summary =
        RunIngest(ingester, db.Db(), "b3.index_membership", {index, ibov}, kFirstIngest);
    const std::string from_index =
        db.One("SELECT count(*) FROM stocks_index_member WHERE source = 'GetStockIndex'");
    EXPECT_EQ(summary.inserted, std::stoul(from_index) + 92);
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_index_member WHERE source = 'GetTheoricalPortfolio' AND"
                     " index_code = 'IBOV'"),
              "92");
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_index_member WHERE source = 'GetStockIndex' AND index_code "
                     "= 'IBOV'"),
              "92");  // the two sources agree on the Ibovespa of May 2022
    EXPECT_EQ(
        db.One("SELECT as_of FROM stocks_index_member WHERE source = 'GetStockIndex' AND ticker = 'RRRP3'"
               " AND index_code = 'SMLL'"),
        "2022-05-13");
    const sdk::SqlRows abev = db.Rows(
        "SELECT theoretical_quantity, weight_published FROM stocks_index_member"
        " WHERE source = 'GetTheoricalPortfolio' AND ticker = 'ABEV3'");
    ASSERT_EQ(abev.size(), 1u);
    EXPECT_EQ(abev[0][0], "4380195841");
    EXPECT_EQ(abev[0][1], "3,157");

    summary = RunIngest(ingester, db.Db(), "b3.index_membership", {ibov}, kFirstIngest);
    EXPECT_EQ(summary.unchanged, 92u);
    EXPECT_EQ(summary.inserted + summary.updated + summary.removed, 0u);
    // A smaller portfolio replaces the index's rows, and only them.
    summary = RunIngest(ingester, db.Db(), "b3.index_membership",
                        {db.File("GetTheoricalPortfolio_IBOV.json",
                                 R"({"results":[{"cod":"ABEV3","theoricalQty":"1","part":"100,000"}]})")},
                        kFirstIngest);
    EXPECT_EQ(summary.updated, 1u);
    EXPECT_EQ(summary.removed, 91u);
    EXPECT_EQ(db.One("SELECT count(*) FROM stocks_index_member WHERE source = 'GetStockIndex'"), from_index);
}

class EventHandlersTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!HaveRealFiles()) {
            GTEST_SKIP() << "B3's real JSON answers are not in ../shared/datasets/real/b3";
        }
        db_.Actions({db_.File("GetListedCashDividends.json", RealB3("GetListedCashDividends.json")),
                     db_.File("GetListedSupplementCompany.json", RealB3("GetListedSupplementCompany.json"))});
        // The few quote rows and trading days COTAHIST would give.
        db_.Execute(
            "INSERT INTO stocks_quote (ticker, day, market_type, bdi, term, isin, quotation_factor) VALUES"
            " ('ABEV3', '2021-12-17', 10, 2, '', 'BRABEVACNOR1', 1),"
            " ('ABEV3', '2021-12-20', 10, 2, '', 'BRABEVACNOR1', 1),"
            " ('ABEV3F', '2021-12-20', 20, 96, '', 'BRABEVACNOR1', 1)");
        db_.Execute(
            "INSERT INTO stocks_day (day, file_id, rows_kept) VALUES ('2021-12-17', 1, 3),"
            " ('2021-12-20', 2, 3)");
    }
    B3Database db_;
};

TEST_F(EventHandlersTest, TickerEventsWithExDatesTickersAndPages) {
    sdk::Params params;
    params.Set("ticker", std::string("abev3"));
    const sdk::Result first = db_.Call(&HandleTickerEvents, params);
    const json::array& rows = first.data.as_array();
    ASSERT_EQ(rows.size(), 30u);
    const json::object& newest = rows[0].as_object();
    EXPECT_EQ(newest.at("last_date_with_rights"), "2021-12-17");
    EXPECT_EQ(newest.at("ex_date"), "2021-12-20");  // the next trading day loaded
    EXPECT_EQ(newest.at("issuer"), "ABEV");
    EXPECT_EQ(newest.at("tickers"), (json::array{"ABEV3", "ABEV3F"}));
    bool dividend = false;
    for (const auto& row : rows) {
        const json::object& o = row.as_object();
        if (o.at("label") == "DIVIDENDO" && o.at("last_date_with_rights") == "2021-12-17") {
            dividend = true;
            EXPECT_EQ(o.at("price_factor").as_double(), 0.99169882);
            EXPECT_EQ(o.at("amount").as_double(), 0.1334);
            EXPECT_EQ(o.at("amount_published"), "0,1334");
            EXPECT_EQ(o.at("payment_date"), "2021-12-30");
            EXPECT_EQ(o.at("isin"), "BRABEVACNOR1");
            EXPECT_EQ(o.at("kind"), "cash");
            EXPECT_EQ(o.at("published").at("GetListedCashDividends").at("corporateActionPrice"), "0,830118");
        }
        if (o.at("last_date_with_rights") == "2021-01-13") {
            EXPECT_TRUE(o.at("ex_date").is_null()) << o.at("ex_date");  // its day is not loaded
            EXPECT_TRUE(o.at("isin").is_null());  // only the cash answer has it, by class
            EXPECT_EQ(o.at("tickers"), (json::array{"ABEV3", "ABEV3F"}));
        }
    }
    EXPECT_TRUE(dividend);
    EXPECT_EQ(first.meta.extra.at("ticker").at("issuer"), "ABEV");
    EXPECT_EQ(first.meta.extra.at("ticker").at("class"), "ON");

    // Pages of 7 give the same rows in the same order.
    const std::vector<json::object> paged = db_.All(&HandleTickerEvents, params, 7);
    ASSERT_EQ(paged.size(), 30u);
    for (std::size_t i = 0; i < paged.size(); ++i) {
        EXPECT_EQ(paged[i].at("id"), rows[i].at("id")) << i;
    }

    sdk::Params range = params;
    range.Set("from_date", sdk::Date{2021, 1, 1});
    range.Set("to_date", sdk::Date{2021, 12, 31});
    EXPECT_EQ(db_.Call(&HandleTickerEvents, range).data.as_array().size(), 3u);

    // A ticker of another class of the issuer sees none of these ON events.
    db_.Execute(
        "INSERT INTO stocks_quote (ticker, day, market_type, bdi, term, isin, quotation_factor) VALUES"
        " ('ABEV4', '2021-12-20', 10, 2, '', 'BRABEVACNPR8', 1)");
    sdk::Params preferred;
    preferred.Set("ticker", std::string("ABEV4"));
    EXPECT_EQ(db_.Call(&HandleTickerEvents, preferred).data.as_array().size(), 0u);

    sdk::Params unknown;
    unknown.Set("ticker", std::string("XXXX3"));
    try {
        db_.Call(&HandleTickerEvents, unknown);
        ADD_FAILURE() << "an unknown ticker answered";
    } catch (const sdk::Problem& problem) {
        EXPECT_EQ(problem.Code(), sdk::ProblemCode::kNotFound);
        EXPECT_NE(std::string(problem.what()).find("ticker XXXX3 is in no quote"), std::string::npos);
    }
    sdk::Params backwards = params;
    backwards.Set("from_date", sdk::Date{2022, 1, 1});
    backwards.Set("to_date", sdk::Date{2021, 1, 1});
    try {
        db_.Call(&HandleTickerEvents, backwards);
        ADD_FAILURE() << "to_date before from_date answered";
    } catch (const sdk::Problem& problem) {
        EXPECT_EQ(problem.Code(), sdk::ProblemCode::kInvalidParameter);
        EXPECT_EQ(problem.Parameter(), "to_date");
    }
    // A cursor of another shape is refused, never a crash.
    EXPECT_THROW(db_.Call(&HandleTickerEvents, params, json::value(json::object{{"after", 3}})),
                 sdk::Problem);
}

TEST_F(EventHandlersTest, MarketEventsByDateFieldAndKind) {
    sdk::Params by_payment;
    by_payment.Set("date_field", std::string("payment_date"));
    by_payment.Set("from_date", sdk::Date{2021, 12, 30});
    by_payment.Set("to_date", sdk::Date{2021, 12, 30});
    EXPECT_EQ(db_.Call(&HandleEvents, by_payment).data.as_array().size(), 2u);

    sdk::Params by_ex;
    by_ex.Set("date_field", std::string("ex_date"));
    by_ex.Set("from_date", sdk::Date{2021, 12, 20});
    const sdk::Result ex = db_.Call(&HandleEvents, by_ex);
    EXPECT_EQ(ex.data.as_array().size(), 2u);
    EXPECT_EQ(ex.meta.extra.at("date_field"), "ex_date");

    sdk::Params subscriptions;
    subscriptions.Set("kind", std::string("subscription"));
    const sdk::Result subscription = db_.Call(&HandleEvents, subscriptions);
    ASSERT_EQ(subscription.data.as_array().size(), 1u);
    EXPECT_TRUE(subscription.data.as_array()[0].at("price_factor").is_null());
    EXPECT_EQ(subscription.data.as_array()[0].at("ratio"), "0,13994090200");

    // Every event once over pages of 4, newest first.
    const std::vector<json::object> all = db_.All(&HandleEvents, sdk::Params(), 4);
    ASSERT_EQ(all.size(), 30u);
    std::set<std::string> ids;
    for (std::size_t i = 0; i < all.size(); ++i) {
        ids.insert(std::string(all[i].at("id").as_string()));
        if (i > 0) {
            EXPECT_GE(std::string(all[i - 1].at("last_date_with_rights").as_string()),
                      std::string(all[i].at("last_date_with_rights").as_string()));
        }
    }
    EXPECT_EQ(ids.size(), 30u);
}

}  // namespace
}  // namespace lastro::stocks
