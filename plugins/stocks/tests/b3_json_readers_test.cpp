// The B3 JSON readers on B3's real answers (../shared/datasets/real/b3/, skipped with a message
// when absent) and on every refusal; the decimal, class and factor rules they feed.
#include "domain/b3_json/b3_json.hpp"
#include "domain/corporate_actions/corporate_actions.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace lastro::stocks {
namespace {

namespace fs = std::filesystem;
using sdk::testing::Bytes;

fs::path RealB3(const std::string& name) {
    return fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/b3" / name;
}

std::string ReadText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

#define REAL_B3_OR_SKIP(text, name)                                              \
    const std::string text = ReadText(RealB3(name));                             \
    if (text.empty()) {                                                          \
        GTEST_SKIP() << "B3's real " << name << " is not in ../shared/datasets"; \
    }

// The message of the IngestError `body` throws ("" when none).
template <typename Body>
std::string Refusal(Body&& body) {
    try {
        body();
    } catch (const sdk::IngestError& error) {
        return error.what();
    }
    return "";
}

TEST(PtBrDecimalTest, ReadsB3sNumbersAndRefusesTheRest) {
    EXPECT_EQ(ParsePtBrDecimal("15.750.216.851")->decimal, "15750216851");
    EXPECT_EQ(ParsePtBrDecimal("58.130.517.165,22")->decimal, "58130517165.22");
    EXPECT_EQ(ParsePtBrDecimal(" 0,830118 ")->decimal, "0.830118");
    EXPECT_EQ(ParsePtBrDecimal(" 0,830118 ")->published, "0,830118");
    EXPECT_DOUBLE_EQ(ParsePtBrDecimal("0,830118")->value, 0.830118);
    EXPECT_EQ(ParsePtBrDecimal("1.000")->decimal, "1000");  // pt-BR: a thousand, not one
    EXPECT_EQ(ParsePtBrDecimal("-3")->decimal, "-3");
    EXPECT_EQ(ParsePtBrDecimal("100")->decimal, "100");
    for (const char* bad : {"", " ", "1,2,3", "1.23", "12.3456", "1234.567", ",5", "5,", "1e5", "0.5", "+1",
                            "1.000.00", "abc", "1 000", "-", "1,"}) {
        EXPECT_FALSE(ParsePtBrDecimal(bad).has_value()) << bad;
    }
    EXPECT_EQ(CanonicalDecimal("0.13340000000"), "0.1334");
    EXPECT_EQ(CanonicalDecimal("007"), "7");
    EXPECT_EQ(CanonicalDecimal("-0.0"), "0");
    EXPECT_EQ(CanonicalDecimal("10.50"), "10.5");
}

TEST(B3JsonReadersTest, CashDividendsOfTheRealAnswer) {
    REAL_B3_OR_SKIP(text, "GetListedCashDividends.json");
    const CashDividendsAnswer answer = ReadCashDividends(*Bytes(text, "GetListedCashDividends.json", 1000));
    ASSERT_EQ(answer.records.size(), 29u);
    const CashDividendRecord& dividend = answer.records[0];
    EXPECT_EQ(dividend.path, "results[0]");
    EXPECT_EQ(dividend.corporate_action, "DIVIDENDO");
    EXPECT_EQ(dividend.type_stock, "ON");
    EXPECT_EQ(dividend.approved_on->ToString(), "2021-12-09");
    EXPECT_EQ(dividend.last_date_prior_ex->ToString(), "2021-12-17");
    EXPECT_EQ(dividend.value_cash->published, "0,1334");
    EXPECT_EQ(dividend.value_cash->decimal, "0.1334");
    EXPECT_EQ(dividend.closing_price->decimal, "16.07");
    EXPECT_EQ(dividend.quoted_per_shares, 1);
    EXPECT_EQ(dividend.corporate_action_price->decimal, "0.830118");
    EXPECT_EQ(dividend.published.at("lastDateTimePriorEx").as_string(), "2021-12-17T00:00:00");
    // 1 - 0,830118 / 100, exactly as B3 publishes it.
    EXPECT_EQ(CashPriceFactor(*dividend.corporate_action_price), 0.99169882);
    const CashDividendRecord& jcp = answer.records[1];
    EXPECT_EQ(jcp.corporate_action, "JRS CAP PROPRIO");
    EXPECT_EQ(jcp.last_date_prior_ex, dividend.last_date_prior_ex);
    EXPECT_EQ(jcp.value_cash->decimal, "0.4702");
    EXPECT_EQ(CashPriceFactor(*jcp.corporate_action_price), 0.97074051);

    // B3's quirk: the same answer as a JSON string holding it reads the same.
    const std::string quoted = boost::json::serialize(boost::json::value(text));
    const CashDividendsAnswer again = ReadCashDividends(*Bytes(quoted, "GetListedCashDividends.json"));
    ASSERT_EQ(again.records.size(), 29u);
    EXPECT_EQ(again.records[28].published, answer.records[28].published);
}

TEST(B3JsonReadersTest, SupplementOfTheRealAnswer) {
    REAL_B3_OR_SKIP(text, "GetListedSupplementCompany.json");
    const SupplementAnswer answer = ReadSupplement(*Bytes(text, "GetListedSupplementCompany.json", 7));
    EXPECT_EQ(answer.code, "ABEV");
    EXPECT_EQ(answer.trading_name, "AMBEV S/A");  // B3 pads it with blanks
    EXPECT_EQ(answer.cvm_code, 23264);
    EXPECT_EQ(answer.common_shares->decimal, "15750216851");
    EXPECT_EQ(answer.preferred_shares->decimal, "0");
    EXPECT_EQ(answer.total_shares->decimal, "15750216851");
    EXPECT_EQ(answer.stock_capital->decimal, "58130517165.22");
    EXPECT_EQ(answer.quoted_per_shares_since->ToString(), "2013-11-01");
    EXPECT_EQ(answer.round_lot, 100);
    EXPECT_FALSE(answer.published.contains("cashDividends"));
    EXPECT_EQ(answer.published.at("preferredSharesForm").as_string(), "");  // kept as published
    ASSERT_EQ(answer.cash.size(), 2u);
    EXPECT_EQ(answer.cash[0].path, "[0].cashDividends[0]");
    EXPECT_EQ(answer.cash[0].isin, "BRABEVACNOR1");
    EXPECT_EQ(answer.cash[0].payment_date->ToString(), "2021-12-30");
    EXPECT_EQ(answer.cash[0].rate->decimal, "0.13340000000");
    EXPECT_EQ(answer.cash[0].last_date_prior->ToString(), "2021-12-17");
    EXPECT_EQ(answer.cash[1].label, "JRS CAP PROPRIO");
    EXPECT_TRUE(answer.stock.empty());
    ASSERT_EQ(answer.subscriptions.size(), 1u);
    EXPECT_EQ(answer.subscriptions[0].percentage->decimal, "0.13994090200");
    EXPECT_EQ(answer.subscriptions[0].price_unit->decimal, "16.09000000000");
    EXPECT_EQ(answer.subscriptions[0].trading_period, "30/04/2014 a 22/05/2014");
    EXPECT_EQ(answer.subscriptions[0].subscription_date->ToString(), "2014-05-29");
    EXPECT_FALSE(answer.cash[0].published.at("remarks").as_string().size());
}

TEST(B3JsonReadersTest, DetailsOfTheRealAnswer) {
    REAL_B3_OR_SKIP(text, "GetDetailsCompany.json");
    const DetailsAnswer answer = ReadDetails(*Bytes(text, "GetDetailsCompany.json"));
    EXPECT_EQ(answer.issuing_company, "ABEV");
    EXPECT_EQ(answer.company_name, "AMBEV S.A.");
    EXPECT_EQ(answer.cnpj, "07526557000100");
    EXPECT_EQ(answer.cvm_code, 23264);
    EXPECT_EQ(answer.market, "BOLSA");
    EXPECT_EQ(answer.last_date->ToString(), "2022-06-06");
    ASSERT_EQ(answer.other_codes.size(), 1u);
    EXPECT_EQ(answer.other_codes[0].ticker, "ABEV3");
    EXPECT_EQ(answer.other_codes[0].isin, "BRABEVACNOR1");
    EXPECT_TRUE(answer.published.at("industryClassificationEng").is_null());
    const IndustryClassification parts = SplitIndustryClassification(*answer.industry_classification);
    EXPECT_EQ(parts.sector, "Consumo não Cíclico");
    EXPECT_EQ(parts.subsector, "Bebidas");
    EXPECT_EQ(parts.segment, "Cervejas e Refrigerantes");
    const IndustryClassification short_one = SplitIndustryClassification("Financeiro / Outros");
    EXPECT_EQ(short_one.subsector, "Outros");
    EXPECT_EQ(short_one.segment, std::nullopt);
    EXPECT_EQ(SplitIndustryClassification("A / B / C / D").segment, "C / D");
}

TEST(B3JsonReadersTest, StockIndexAndPortfolioOfTheRealAnswers) {
    REAL_B3_OR_SKIP(index_text, "GetStockIndex.json");
    const StockIndexAnswer index = ReadStockIndex(*Bytes(index_text, "GetStockIndex.json", 4096));
    ASSERT_EQ(index.records.size(), 660u);
    EXPECT_EQ(index.update->ToString(), "2022-05-13");
    EXPECT_EQ(index.records[1].ticker, "RRRP3");
    EXPECT_EQ(index.records[1].spotlight, "ON   NM");
    EXPECT_EQ(index.records[1].indexes, (std::vector<std::string>{"IBOV", "IBRA", "IBXX", "IGCT", "IGCX",
                                                                  "IGNM", "ITAG", "IVBX", "SMLL"}));
    EXPECT_EQ(index.records[659].ticker, "Z1OM34");

    REAL_B3_OR_SKIP(portfolio_text, "GetTheoricalPortfolio.json");
    const PortfolioAnswer portfolio =
        ReadTheoricalPortfolio(*Bytes(portfolio_text, "GetTheoricalPortfolio.json"));
    ASSERT_EQ(portfolio.records.size(), 92u);
    EXPECT_EQ(portfolio.records[0].ticker, "ABEV3");
    EXPECT_EQ(portfolio.records[0].theoretical_quantity->decimal, "4380195841");
    EXPECT_EQ(portfolio.records[0].part->published, "3,157");
    EXPECT_EQ(portfolio.records[0].type, "ON");
    EXPECT_EQ(portfolio.total_quantity->decimal, "96626612142");
    EXPECT_EQ(portfolio.reductor->decimal, "18673489.42022432");
}

TEST(B3JsonReadersTest, BadFilesAreRefusedNamingFileRecordAndField) {
    const auto cash = [](const std::string& text) {
        return Refusal([&] { ReadCashDividends(*Bytes(text, "GetListedCashDividends_ABEV.json")); });
    };
    const std::string good = R"({"typeStock":"ON","corporateAction":"DIVIDENDO","valueCash":"0,1"})";
    EXPECT_EQ(cash(R"({"results":[)" + good + "]}"), "");
    EXPECT_NE(cash("<html>erro</html>").find("GetListedCashDividends_ABEV.json: not JSON"),
              std::string::npos);
    EXPECT_NE(cash("").find("empty file"), std::string::npos);
    EXPECT_NE(
        cash(R"({"page":{}})").find("no \"results\" array at the top: not a GetListedCashDividends answer"),
        std::string::npos);
    EXPECT_NE(
        cash(R"({"results":[)" + good + R"(,{"corporateAction":"DIVIDENDO","valueCash":"1,2,3"}]})")
            .find("GetListedCashDividends_ABEV.json: results[1]: valueCash is not a pt-BR decimal: '1,2,3'"),
        std::string::npos);
    EXPECT_NE(cash(R"({"results":[{"corporateAction":"DIVIDENDO","lastDatePriorEx":"31/02/2021"}]})")
                  .find("results[0]: lastDatePriorEx is not a DD/MM/YYYY date: '31/02/2021'"),
              std::string::npos);
    EXPECT_NE(cash(R"({"results":[{"corporateAction":" "}]})")
                  .find("results[0]: corporateAction is missing or blank"),
              std::string::npos);
    EXPECT_NE(cash(R"({"results":[{"corporateAction":"X","valueCash":0.5}]})")
                  .find("results[0]: valueCash is a JSON number, not B3's text"),
              std::string::npos);
    EXPECT_NE(cash(R"({"results":[{"corporateAction":"X","quotedPerShares":"0"}]})")
                  .find("results[0]: quotedPerShares is not a positive number of shares"),
              std::string::npos);
    EXPECT_NE(
        cash(R"({"results":[{"corporateAction":["X"]}]})").find("results[0]: corporateAction is not text"),
        std::string::npos);
    EXPECT_NE(cash(R"({"results":[3]})").find("results[0] is not an object"), std::string::npos);
    EXPECT_NE(cash(R"("not json inside")").find("a JSON string whose text is not JSON"), std::string::npos);
    EXPECT_NE(cash(R"("\"x\"")").find("a JSON string holding a JSON string"), std::string::npos);
    // Deeper than kMaxB3JsonDepth: refused by the parser, never a stack overflow.
    EXPECT_NE(cash(std::string(40, '[') + std::string(40, ']')).find("not JSON"), std::string::npos);
    // Above kMaxB3JsonBytes: refused before parsing.
    EXPECT_NE(cash(std::string(kMaxB3JsonBytes + 1, ' ')).find("more than 67108864 bytes"),
              std::string::npos);

    const auto supplement = [](const std::string& text) {
        return Refusal([&] { ReadSupplement(*Bytes(text, "GetListedSupplementCompany_ABEV.json")); });
    };
    EXPECT_NE(supplement("[]").find("an empty answer ([]): B3 knows no company"), std::string::npos);
    EXPECT_NE(supplement(R"([{"code":"A"},{"code":"B"}])").find("2 companies in one answer"),
              std::string::npos);
    EXPECT_NE(supplement(R"({"code":"ABEV"})").find("not an array of companies"), std::string::npos);
    EXPECT_NE(supplement(R"([{"code":"ABEV","numberCommonShares":"15,750,216,851"}])")
                  .find("[0]: numberCommonShares is not a pt-BR decimal"),
              std::string::npos);
    EXPECT_NE(supplement(R"([{"code":"ABEV","stockDividends":[{"label":"GRUPAMENTO","factor":"x"}]}])")
                  .find("[0].stockDividends[0]: factor is not a pt-BR decimal: 'x'"),
              std::string::npos);
    EXPECT_NE(
        supplement(R"([{"code":"ABEV","cashDividends":{}}])").find("[0]: cashDividends is not an array"),
        std::string::npos);
    EXPECT_NE(Refusal([] {
                  ReadDetails(*Bytes(R"({"issuingCompany":"ABEV","lastDate":"2022-06-06"})", "d.json"));
              }).find("d.json: $: lastDate is not a DD/MM/YYYY date"),
              std::string::npos);
    EXPECT_NE(Refusal([] {
                  ReadStockIndex(*Bytes(R"({"header":{"update":"13/05/2022"},"results":[]})", "i.json"));
              }).find("i.json: header: update is not a YYYY-MM-DD date"),
              std::string::npos);
    EXPECT_NE(
        Refusal([] {
            ReadTheoricalPortfolio(*Bytes(R"({"results":[{"cod":"ABEV3","part":"3,1,57"}]})", "p.json"));
        }).find("p.json: results[0]: part is not a pt-BR decimal: '3,1,57'"),
        std::string::npos);
}

TEST(CorporateActionRulesTest, ClassesFactorsAndIds) {
    EXPECT_EQ(ShareClassOfIsin("BRABEVACNOR1"), "ON");
    EXPECT_EQ(ShareClassOfIsin("BRPETRACNPR6"), "PN");
    EXPECT_EQ(ShareClassOfIsin("BRBRKMACNPA4"), "PNA");
    EXPECT_EQ(ShareClassOfIsin("BRTAEECDAM10"), "UNIT");
    EXPECT_EQ(ShareClassOfIsin("BRHGLGCTF004"), std::nullopt);  // a fund's quota
    EXPECT_EQ(ShareClassOfIsin("ACNOR"), std::nullopt);
    EXPECT_EQ(ShareClassOfTypeStock(" unt "), "UNIT");

    // docs/datasets/b3_json.md, "The stock factor".
    EXPECT_EQ(StockEventPriceFactor("DESDOBRAMENTO", 100), 0.5);   // PETR4 2008, 1:2
    EXPECT_EQ(StockEventPriceFactor("DESDOBRAMENTO", 300), 0.25);  // MGLU3 2020, 1:4
    EXPECT_DOUBLE_EQ(*StockEventPriceFactor("BONIFICACAO", 10), 1 / 1.1);
    EXPECT_DOUBLE_EQ(*StockEventPriceFactor("GRUPAMENTO", 0.1), 10);  // MGLU3 2024, 10 into 1
    EXPECT_EQ(StockEventPriceFactor("GRUPAMENTO", 10), std::nullopt);
    EXPECT_EQ(StockEventPriceFactor("CIS RED CAP", 5), std::nullopt);
    EXPECT_EQ(StockEventPriceFactor("DESDOBRAMENTO", 0), std::nullopt);
    EXPECT_EQ(CashPriceFactor(*ParsePtBrDecimal("100")), std::nullopt);
    EXPECT_EQ(CashPriceFactor(*ParsePtBrDecimal("0")), 1.0);

    EXPECT_EQ(EventIdOf("ABEV|cash|DIVIDENDO|ON|2021-12-17|0.1334|1"),
              EventIdOf("ABEV|cash|DIVIDENDO|ON|2021-12-17|0.1334|1"));
    EXPECT_NE(EventIdOf("ABEV|cash|DIVIDENDO|ON|2021-12-17|0.1334|1"),
              EventIdOf("ABEV|cash|DIVIDENDO|ON|2021-12-17|0.1334|2"));
    EXPECT_EQ(EventIdOf("x").size(), 35u);
    EXPECT_EQ(IssuerOfTicker("abev3"), "ABEV");
    EXPECT_EQ(IssuerOfTicker("ABEV"), std::nullopt);
    EXPECT_EQ(IssuerCode(" abev "), "ABEV");
    EXPECT_EQ(IssuerCode("AB-EV"), std::nullopt);
}

}  // namespace
}  // namespace lastro::stocks
