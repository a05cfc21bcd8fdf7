// The stocks sample's planted corporate actions and rename, as B3's JSON files publish them and
// as COTAHIST's closes show them.
#include "written_sample.hpp"

#include <lastro/companies/sample_listing.hpp>
#include <lastro/sdk/sample/date_math.hpp>

#include <gtest/gtest.h>

#include <regex>

namespace lastro::stocks {
namespace {

using testing::Sample;

std::string Str(const boost::json::value& v, std::string_view key) {
    return std::string(v.as_object().at(key).as_string());
}

// "16,07" -> 1607 with 2 decimals; "0,1334" -> 13340000 with 8.
std::int64_t Units(const std::string& pt, int decimals) {
    const std::size_t comma = pt.find(',');
    std::string integer = pt.substr(0, comma);
    std::string fraction = comma == std::string::npos ? "" : pt.substr(comma + 1);
    std::erase(integer, '.');
    EXPECT_LE(fraction.size(), static_cast<std::size_t>(decimals)) << pt;
    fraction.append(static_cast<std::size_t>(decimals) - fraction.size(), '0');
    return std::stoll(integer + fraction);
}

std::string Issuer(const std::string& ticker) {
    return ticker.substr(0, 4);
}

// The close before and on the ex-date (the trading day after the last day with rights).
std::pair<std::int64_t, std::int64_t> AroundExDate(const std::string& ticker, const sdk::Date& last_with) {
    const auto closes = Sample().Closes(ticker);
    const auto at = closes.find(last_with);
    EXPECT_NE(at, closes.end()) << ticker << " has no close on " << last_with.ToString();
    if (at == closes.end() || std::next(at) == closes.end()) {
        return {0, 0};
    }
    EXPECT_EQ(std::next(at)->first, sdk::sample::AddDays(last_with, 1));  // a Thursday, a trading day
    return {at->second, std::next(at)->second};
}

boost::json::value StockDividend(const std::string& ticker, const std::string& label) {
    const boost::json::value supplement =
        Sample().Json("GetListedSupplementCompany_" + Issuer(ticker) + ".json");
    for (const boost::json::value& event : supplement.as_array().at(0).at("stockDividends").as_array()) {
        if (Str(event, "label") == label) {
            return event;
        }
    }
    ADD_FAILURE() << "no " << label << " for " << ticker;
    return {};
}

TEST(SampleEventsTest, DividendAndJcpOnOneDayMatchTheCotahistClose) {
    const StocksCases& cases = Sample().market.cases;
    ASSERT_FALSE(cases.dividend_ticker.empty());
    const auto [before, ex] = AroundExDate(cases.dividend_ticker, cases.dividend_last_with);
    const boost::json::value file =
        Sample().Json("GetListedCashDividends_" + Issuer(cases.dividend_ticker) + ".json");
    std::set<std::string> labels;
    std::int64_t cash_e8 = 0;
    for (const boost::json::value& event : file.at("results").as_array()) {
        if (Str(event, "lastDatePriorEx") != "18/03/2026") {
            continue;
        }
        labels.insert(Str(event, "corporateAction"));
        EXPECT_EQ(Str(event, "typeStock"), "ON");
        EXPECT_EQ(Units(Str(event, "closingPricePriorExDate"), 2), before);
        const std::int64_t value_e8 = Units(Str(event, "valueCash"), 8);
        cash_e8 += value_e8;
        // 100 x valueCash / close, 6 decimals rounded half up: in 1e-6 %, value_e8 x 100 / cents.
        const std::int64_t expected = (value_e8 * 100 * 2 / before + 1) / 2;
        EXPECT_EQ(Units(Str(event, "corporateActionPrice"), 6), expected);
        EXPECT_EQ(Str(event, "lastDateTimePriorEx"), "2026-03-18T00:00:00");
    }
    EXPECT_EQ(labels, (std::set<std::string>{"DIVIDENDO", "JRS CAP PROPRIO"}));
    // The ex-date's close is the day before's less both, rounded to the cent.
    EXPECT_EQ(ex, before - (cash_e8 / 100'000 + 5) / 10);
    // The supplement lists both with their payment date and ISIN.
    const boost::json::value supplement =
        Sample().Json("GetListedSupplementCompany_" + Issuer(cases.dividend_ticker) + ".json");
    std::size_t paid = 0;
    for (const boost::json::value& event : supplement.as_array().at(0).at("cashDividends").as_array()) {
        if (Str(event, "lastDatePrior") == "18/03/2026") {
            ++paid;
            EXPECT_EQ(Str(event, "paymentDate"), "31/03/2026");
            EXPECT_EQ(Str(event, "isinCode").substr(0, 6), "BR" + Issuer(cases.dividend_ticker));
        }
    }
    EXPECT_EQ(paid, 2u);
}

TEST(SampleEventsTest, SplitReverseSplitAndStockDividendMoveTheCloseByTheirRatio) {
    const StocksCases& cases = Sample().market.cases;
    {
        const auto [before, ex] = AroundExDate(cases.split_ticker, cases.split_last_with);
        EXPECT_EQ(ex, (before + 1) / 2);  // 1 -> 2, rounded half up
        const boost::json::value event = StockDividend(cases.split_ticker, "DESDOBRAMENTO");
        EXPECT_EQ(Str(event, "factor"), "100,00000000000");
        EXPECT_EQ(Str(event, "lastDatePrior"), "15/04/2026");
    }
    {
        const auto [before, ex] = AroundExDate(cases.reverse_split_ticker, cases.reverse_split_last_with);
        EXPECT_EQ(ex, before * 10);  // 10 -> 1
        EXPECT_EQ(Str(StockDividend(cases.reverse_split_ticker, "GRUPAMENTO"), "factor"), "0,10000000000");
    }
    {
        const auto [before, ex] = AroundExDate(cases.bonus_ticker, cases.bonus_last_with);
        EXPECT_EQ(ex, (before * 10 * 2 + 11) / 22);  // 10 -> 11
        EXPECT_EQ(Str(StockDividend(cases.bonus_ticker, "BONIFICACAO"), "factor"), "10,00000000000");
    }
}

TEST(SampleEventsTest, TheCompaniesRenameEndsOneTickerAndStartsTheOtherTheNextDay) {
    const StocksCases& cases = Sample().market.cases;
    ASSERT_FALSE(cases.renamed_from.empty());
    EXPECT_EQ(cases.renamed_last_day, companies::kRenamedTickerLastDay);
    const auto old_closes = Sample().Closes(cases.renamed_from);
    const auto new_closes = Sample().Closes(cases.renamed_to);
    ASSERT_FALSE(old_closes.empty());
    ASSERT_FALSE(new_closes.empty());
    EXPECT_EQ(old_closes.rbegin()->first, companies::kRenamedTickerLastDay);
    EXPECT_EQ(new_closes.begin()->first, companies::kRenamedTickerFirstDay);
    // The prices carry on: one day's move at most.
    const std::int64_t last = old_closes.rbegin()->second;
    const std::int64_t first = new_closes.begin()->second;
    EXPECT_LE(std::abs(first - last) * 100, last * 3);
    // The issuer's B3 files are under the new stem, with the company's CNPJ and CVM code.
    bool listed = false;
    for (const auto& company : Sample().market.listing) {
        for (const auto& security : company.securities) {
            if (security.ticker == cases.renamed_to) {
                listed = true;
                const boost::json::value details =
                    Sample().Json("GetDetailsCompany_" + Issuer(cases.renamed_to) + ".json");
                EXPECT_EQ(Str(details, "cnpj"), company.cnpj);
                EXPECT_EQ(Str(details, "codeCVM"), std::to_string(company.cvm_code));
                EXPECT_EQ(Str(details, "code"), cases.renamed_to);
            }
        }
    }
    EXPECT_TRUE(listed);
}

TEST(SampleEventsTest, EveryCashEventsPriceIsItsCotahistClose) {
    std::size_t events = 0;
    for (const auto& path : Sample().report.files) {
        const std::string name = path.filename().string();
        if (!name.starts_with("GetListedCashDividends_")) {
            continue;
        }
        const boost::json::value file = Sample().Json(name);
        const boost::json::array& results = file.at("results").as_array();
        EXPECT_EQ(file.at("page").at("totalRecords").as_int64(), static_cast<std::int64_t>(results.size()));
        for (const boost::json::value& event : results) {
            ++events;
            const sdk::Date day = *sdk::Date::Parse(Str(event, "lastDateTimePriorEx").substr(0, 10));
            bool found = false;
            for (const auto& instrument : Sample().market.instruments) {
                if (instrument.issuer + ".json" == name.substr(23) &&
                    instrument.share_class == Str(event, "typeStock")) {
                    const auto closes = Sample().Closes(instrument.ticker);
                    if (closes.contains(day)) {
                        found = true;
                        EXPECT_EQ(Units(Str(event, "closingPricePriorExDate"), 2), closes.at(day)) << name;
                    }
                }
            }
            EXPECT_TRUE(found) << name << " " << day.ToString();
        }
    }
    EXPECT_GT(events, 5u);
}

TEST(SampleEventsTest, DetailsSupplementAndIndexFilesInB3sFormats) {
    const std::regex pt_integer("[0-9]{1,3}(\\.[0-9]{3})*");
    const std::regex classification("[^/]+ / [^/]+ / [^/]+");
    std::size_t issuers = 0;
    for (const auto& company : Sample().market.listing) {
        const std::string issuer = company.securities.back().ticker.substr(0, 4);
        const boost::json::value details = Sample().Json("GetDetailsCompany_" + issuer + ".json");
        ++issuers;
        EXPECT_EQ(Str(details, "cnpj"), company.cnpj);
        EXPECT_EQ(Str(details, "codeCVM"), std::to_string(company.cvm_code));
        EXPECT_TRUE(std::regex_match(Str(details, "industryClassification"), classification));
        const boost::json::value supplement = Sample().Json("GetListedSupplementCompany_" + issuer + ".json");
        const boost::json::value& s = supplement.as_array().at(0);
        EXPECT_TRUE(std::regex_match(Str(s, "numberCommonShares"), pt_integer))
            << Str(s, "numberCommonShares");
        EXPECT_EQ(Units(Str(s, "totalNumberShares"), 0),
                  Units(Str(s, "numberCommonShares"), 0) + Units(Str(s, "numberPreferredShares"), 0));
    }
    EXPECT_GT(issuers, 25u);

    const boost::json::value portfolio = Sample().Json("GetTheoricalPortfolio_IBOV.json");
    std::int64_t parts = 0;
    std::int64_t quantity = 0;
    for (const boost::json::value& row : portfolio.at("results").as_array()) {
        parts += Units(Str(row, "part"), 3);
        quantity += Units(Str(row, "theoricalQty"), 0);
    }
    EXPECT_EQ(parts, 100'000);  // "100,000" %, 3 decimals
    EXPECT_EQ(Units(Str(portfolio.at("header"), "theoricalQty"), 0), quantity);
    const boost::json::value index = Sample().Json("GetStockIndex.json");
    bool dividend_in_ibov = false;
    for (const boost::json::value& row : index.at("results").as_array()) {
        if (Str(row, "code") == Sample().market.cases.dividend_ticker) {
            dividend_in_ibov = Str(row, "indexes").find("IBOV") != std::string::npos;
        }
    }
    EXPECT_TRUE(dividend_in_ibov);
}

}  // namespace
}  // namespace lastro::stocks
