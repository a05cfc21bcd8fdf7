// Readers of the five JSON answers of B3's listed-companies and index services
// (docs/datasets/b3_json.md): GetListedCashDividends, GetListedSupplementCompany,
// GetDetailsCompany, GetStockIndex and GetTheoricalPortfolio. Each record keeps every field as
// B3 published it (`published`, the JSON object itself) beside the values the plugin reads,
// parsed: pt-BR decimals ("15.750.216.851", "0,830118") to exact decimal text with a point and a
// double, dd/mm/yyyy dates to sdk::Date; a blank or null field is nullopt, never 0.
//
// A bad file (not JSON, a shape B3 does not answer, a malformed number or date) throws
// sdk::IngestError naming the file, the record (as its JSON path, "results[3]") and the field.
// Inputs above kMaxB3JsonBytes or nested deeper than kMaxB3JsonDepth are refused. B3 sometimes
// answers a JSON string whose text is the JSON: that body is read once more.
#pragma once

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::stocks {

// The largest answer read: B3's largest (GetStockIndex, ~60 KB for 660 tickers) is a thousand
// times smaller, so a larger file is not one of these answers.
constexpr std::size_t kMaxB3JsonBytes = 64u << 20;
// B3's answers nest four levels (array, company, cashDividends, record); a string body adds one.
constexpr std::size_t kMaxB3JsonDepth = 16;

// A pt-BR decimal as published and read.
struct PtBrDecimal {
    std::string published;  // "15.750.216.851", trimmed
    std::string decimal;    // "15750216851", "0.830118": the same digits with a point
    double value = 0;
};

// "1.234,56" (thousands '.', decimal ','), "0,830118", "-3", "100": nullopt when it is not one
// (a blank is not one either: callers test blanks first).
std::optional<PtBrDecimal> ParsePtBrDecimal(std::string_view text);
// A decimal's text without leading zeros in the integer part and trailing zeros in the fraction
// ("0.13340000000" -> "0.1334", "007" -> "7", "-0.0" -> "0"), so equal numbers compare equal.
std::string CanonicalDecimal(std::string_view decimal);

// The JSON of one answer: the bytes of `source` (at most kMaxB3JsonBytes) parsed, and a string
// body parsed once more. IngestError naming the source otherwise.
boost::json::value ReadB3Json(sdk::ByteSource& source);

// ---- GetListedCashDividends: {"page": {...}, "results": [record...]}

struct CashDividendRecord {
    std::string path;  // "results[0]"
    boost::json::object published;
    std::string corporate_action;  // DIVIDENDO, JRS CAP PROPRIO, RENDIMENTO... (required)
    std::optional<std::string> type_stock;
    std::optional<sdk::Date> approved_on;               // dateApproval
    std::optional<PtBrDecimal> value_cash;              // valueCash: per quoted_per_shares shares
    std::optional<std::string> ratio;                   // as published
    std::optional<sdk::Date> last_date_prior_ex;        // lastDatePriorEx: the last day with rights
    std::optional<sdk::Date> closing_price_date;        // dateClosingPricePriorExDate
    std::optional<PtBrDecimal> closing_price;           // closingPricePriorExDate
    std::optional<std::int64_t> quoted_per_shares;      // 1, or 1000 for prices quoted per thousand
    std::optional<PtBrDecimal> corporate_action_price;  // percent of the closing price
};

struct CashDividendsAnswer {
    std::vector<CashDividendRecord> records;
};

CashDividendsAnswer ReadCashDividends(sdk::ByteSource& source);

// ---- GetListedSupplementCompany: [company] (one company per answer)

struct SupplementCashRecord {
    std::string path;  // "[0].cashDividends[1]"
    boost::json::object published;
    std::string label;
    std::optional<std::string> isin;  // isinCode
    std::optional<std::string> asset_issued;
    std::optional<sdk::Date> payment_date;
    std::optional<PtBrDecimal> rate;
    std::optional<std::string> related_to;
    std::optional<sdk::Date> approved_on;
    std::optional<sdk::Date> last_date_prior;
};

struct SupplementStockRecord {
    std::string path;
    boost::json::object published;
    std::string label;  // DESDOBRAMENTO, GRUPAMENTO, BONIFICACAO...
    std::optional<std::string> isin;
    std::optional<std::string> asset_issued;
    std::optional<PtBrDecimal> factor;
    std::optional<sdk::Date> approved_on;
    std::optional<sdk::Date> last_date_prior;
};

struct SupplementSubscriptionRecord {
    std::string path;
    boost::json::object published;
    std::string label;  // SUBSCRICAO
    std::optional<std::string> isin;
    std::optional<std::string> asset_issued;
    std::optional<PtBrDecimal> percentage;
    std::optional<PtBrDecimal> price_unit;
    std::optional<std::string> trading_period;  // "30/04/2014 a 22/05/2014", as published
    std::optional<sdk::Date> subscription_date;
    std::optional<sdk::Date> approved_on;
    std::optional<sdk::Date> last_date_prior;
};

struct SupplementAnswer {
    boost::json::object published;  // the company's fields, without the three event arrays
    std::string code;               // the issuer: ABEV
    std::optional<std::string> trading_name;
    std::optional<std::int64_t> cvm_code;
    std::optional<PtBrDecimal> stock_capital;
    std::optional<PtBrDecimal> common_shares;
    std::optional<PtBrDecimal> preferred_shares;
    std::optional<PtBrDecimal> total_shares;
    std::optional<sdk::Date> quoted_per_shares_since;  // quotedPerSharSince, as B3 spells it
    std::optional<std::int64_t> round_lot;
    std::optional<std::string> segment;
    std::vector<SupplementCashRecord> cash;
    std::vector<SupplementStockRecord> stock;
    std::vector<SupplementSubscriptionRecord> subscriptions;
};

SupplementAnswer ReadSupplement(sdk::ByteSource& source);

// One record of each cash block read from its published object (as `published` keeps it), for
// an event rebuilt from the records stored; `file` and `path` name it in messages.
CashDividendRecord ReadCashDividendRecord(const std::string& file, const std::string& path,
                                          const boost::json::object& object);
SupplementCashRecord ReadSupplementCashRecord(const std::string& file, const std::string& path,
                                              const boost::json::object& object);

// B3's issuer code (ABEV, B3SA) as a file name or a `code` writes it: 1 to 12 ASCII letters and
// digits, upper-cased; nullopt for anything else.
std::optional<std::string> IssuerCode(std::string_view text);

// ---- GetDetailsCompany: {company}

struct OtherCode {
    std::string ticker;
    std::optional<std::string> isin;
};

struct DetailsAnswer {
    boost::json::object published;
    std::string issuing_company;  // ABEV
    std::optional<std::string> company_name;
    std::optional<std::string> trading_name;
    std::optional<std::string> cnpj;  // as published (digits)
    std::optional<std::string> industry_classification;
    std::optional<std::string> market;
    std::optional<std::int64_t> cvm_code;
    std::optional<sdk::Date> last_date;  // lastDate's day ("06/06/2022 23:05:06")
    std::vector<OtherCode> other_codes;
};

DetailsAnswer ReadDetails(sdk::ByteSource& source);

// industryClassification "Consumo não Cíclico / Bebidas / Cervejas e Refrigerantes" split on
// " / " into sector, subsector and segment (a fourth part and beyond stay in the segment); the
// parts B3 left out are nullopt.
struct IndustryClassification {
    std::optional<std::string> sector;
    std::optional<std::string> subsector;
    std::optional<std::string> segment;
};
IndustryClassification SplitIndustryClassification(std::string_view text);

// ---- GetStockIndex: {"page", "header": {"update": "2022-05-13", ...}, "results": [...]}

struct StockIndexRecord {
    std::string path;
    std::string ticker;  // code
    std::optional<std::string> company;
    std::optional<std::string> spotlight;
    std::vector<std::string> indexes;  // "IBOV,IBRA" split, blanks dropped, in published order
};

struct StockIndexAnswer {
    std::optional<sdk::Date> update;  // header.update
    std::vector<StockIndexRecord> records;
};

StockIndexAnswer ReadStockIndex(sdk::ByteSource& source);

// ---- GetTheoricalPortfolio: {"page", "header": {part, theoricalQty, reductor}, "results": [...]}

struct PortfolioRecord {
    std::string path;
    std::string ticker;  // cod
    std::optional<std::string> asset;
    std::optional<std::string> type;
    std::optional<PtBrDecimal> theoretical_quantity;  // theoricalQty
    std::optional<PtBrDecimal> part;                  // percent of the index
};

struct PortfolioAnswer {
    std::optional<PtBrDecimal> total_quantity;  // header.theoricalQty
    std::optional<PtBrDecimal> reductor;
    std::vector<PortfolioRecord> records;
};

PortfolioAnswer ReadTheoricalPortfolio(sdk::ByteSource& source);

}  // namespace lastro::stocks
