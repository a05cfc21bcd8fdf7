// The invented B3 market of the stocks sample (docs/sample.md), drawn once from the seed: the
// instruments (the companies sample's tickers, from SampleListing, and a few funds, ETFs and
// BDRs of no CVM company), their corporate actions and every close of the year. The COTAHIST
// file and the JSON files are written from it, so a dividend's closingPricePriorExDate is the
// COTAHIST close of its last day with rights, and a split's ex-date close is the ratio of the
// day before.
#pragma once

#include <lastro/companies/sample_listing.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lastro::stocks {

// The year the sample covers: B3's trading days from the first of 2026 to the samples' common
// reference date (funds, series and companies: 2026-10-14).
inline constexpr sdk::Date kFirstTradingDay{2026, 1, 2};
inline constexpr sdk::Date kStocksReferenceDate{2026, 10, 14};
inline constexpr int kCotahistYear = 2026;

enum class InstrumentKind { kShare, kUnit, kFii, kEtf, kBdr };

struct Instrument {
    std::string ticker;
    std::string issuer;       // B3's issuer code: the ticker's four-letter stem
    std::string nomres;       // COTAHIST's short name, ASCII, at most 12
    std::string share_class;  // ON, PNA, UNT, CI, DRN: ESPECI's first part
    std::string segment;      // NM, N1, N2 or empty: ESPECI's last part
    std::string isin;
    InstrumentKind kind = InstrumentKind::kShare;
    int codbdi = 2;
    std::int64_t fatcot = 1;  // shares the prices are quoted per
    int company = -1;         // index in StockMarket::listing; -1 for funds, ETFs and BDRs
    sdk::Date from;           // first day it may trade
    std::optional<sdk::Date> to;
    bool daily = true;               // trades every trading day (else now and then)
    bool odd_lots = true;            // has TPMERC 020 lines (CODBDI 96, ticker + F)
    int option_series = 0;           // option lines (TPMERC 070/080) on it per day
    int continues = -1;              // a renamed ticker: the instrument whose prices it carries on
    std::int64_t first_price = 0;    // cents per FATCOT shares on its first day
    std::int64_t common_shares = 0;  // invented (GetListedSupplementCompany), per company
    std::int64_t preferred_shares = 0;
};

// One corporate action as B3 publishes it.
struct StockEvent {
    std::string label;  // DIVIDENDO, JRS CAP PROPRIO, DESDOBRAMENTO, GRUPAMENTO, BONIFICACAO
    bool cash = true;
    int instrument = 0;
    sdk::Date approved;
    sdk::Date last_with;             // lastDatePriorEx / lastDatePrior: the last day with the right
    sdk::Date payment;               // cash only
    std::int64_t value_e8 = 0;       // cash per share, R$ 1e-8 (known once the walk reaches last_with)
    std::int64_t yield_bp = 0;       // cash: the share of the close it pays, in basis points
    std::int64_t shares_before = 1;  // stock: `before` shares become `after`
    std::int64_t shares_after = 1;
    std::string related_to;  // "Anual/2025"...
};

struct StocksCases {
    std::string split_ticker;  // DESDOBRAMENTO 1 -> 2
    sdk::Date split_last_with;
    std::string reverse_split_ticker;  // GRUPAMENTO 10 -> 1
    sdk::Date reverse_split_last_with;
    std::string bonus_ticker;  // BONIFICACAO 10 %
    sdk::Date bonus_last_with;
    std::string dividend_ticker;  // DIVIDENDO and JRS CAP PROPRIO on one last day with rights
    sdk::Date dividend_last_with;
    std::string renamed_from;  // the companies sample's rename
    std::string renamed_to;
    sdk::Date renamed_last_day;
    std::vector<std::string> per_thousand;  // FATCOT 1000
};

struct StockMarket {
    std::vector<companies::ListedSampleCompany> listing;
    std::vector<Instrument> instruments;  // by ticker
    std::vector<StockEvent> events;
    std::vector<sdk::Date> days;                    // the trading days
    std::vector<std::vector<std::int64_t>> closes;  // [instrument][day]: cents per FATCOT; 0 = no trade
    StocksCases cases;
};

StockMarket DrawStockMarket(std::uint64_t seed, sdk::SampleScale scale);

// B3's published stockDividends `factor` for `before` shares becoming `after` (docs/sample.md):
// the only place that decides it.
std::string PublishedStockFactor(const StockEvent& event);

// pt-BR renderings of B3's JSON: "15.750.216.851", "0,830118", dd/mm/yyyy.
std::string PtInteger(std::int64_t value);
std::string PtDecimal(std::int64_t units, int decimals, bool trim_zeros = false);
std::string PtDate(const sdk::Date& day);

}  // namespace lastro::stocks
