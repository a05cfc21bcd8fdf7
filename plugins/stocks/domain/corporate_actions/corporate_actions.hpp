// B3's corporate actions as one event model (docs/datasets/b3_json.md, "Events"): the cash events
// of GetListedCashDividends and of GetListedSupplementCompany.cashDividends matched into one event
// each, the stock events (splits, reverse splits, stock dividends) and the subscriptions, each
// with a stable id derived from its published key and the factor it multiplies earlier prices by.
#pragma once

#include "domain/b3_json/b3_json.hpp"

#include <lastro/sdk/calendar.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::stocks {

inline constexpr std::string_view kCorporateActionsDataset = "b3.corporate_actions";
inline constexpr std::string_view kCompanyDetailsDataset = "b3.company_details";
inline constexpr std::string_view kIndexMembershipDataset = "b3.index_membership";

// The names `published` keeps each source's record under.
inline constexpr std::string_view kCashSource = "GetListedCashDividends";
inline constexpr std::string_view kSupplementCashSource = "GetListedSupplementCompany.cashDividends";
inline constexpr std::string_view kSupplementStockSource = "GetListedSupplementCompany.stockDividends";
inline constexpr std::string_view kSupplementSubscriptionSource = "GetListedSupplementCompany.subscriptions";
// factor_source of a cash event's price_factor, and of a stock event's.
inline constexpr std::string_view kCashFactorSource = "GetListedCashDividends.corporateActionPrice";
inline constexpr std::string_view kStockFactorSource = "GetListedSupplementCompany.stockDividends.factor";

enum class EventKind { kCash, kStock, kSubscription };
std::string_view EventKindName(EventKind kind);  // "cash", "stock", "subscription"

// The share class an ISIN names in its characters 7 to 11 (B3's convention: BRABEVACNOR1 is ON):
// ACNOR ON, ACNPR PN, ACNPA PNA, ACNPB PNB, ACNPC PNC, ACNPD PND, and CDAM (7 to 10) UNIT;
// nullopt for another ISIN (a fund's, a receipt's).
std::optional<std::string> ShareClassOfIsin(std::string_view isin);
// typeStock as a class to compare with ShareClassOfIsin: trimmed, upper case, UNT read as UNIT.
std::string ShareClassOfTypeStock(std::string_view type_stock);

// The factor a cash event multiplies the prices before its ex-date by, as B3 publishes it:
// 1 - corporateActionPrice / 100, computed on the decimal digits (0,830118 -> 0.99169882
// exactly, then the nearest double). nullopt when the percentage is not in [0, 100).
std::optional<double> CashPriceFactor(const PtBrDecimal& corporate_action_price);

// The factor a stock event of GetListedSupplementCompany.stockDividends multiplies the prices
// before its ex-date by, from its label and its published `factor` (docs/datasets/b3_json.md,
// "The stock factor", for the evidence):
//   DESDOBRAMENTO (split) and BONIFICACAO (stock dividend): `factor` is the percentage of new
//     shares per share held ("100" = one new share per share, a 1:2 split; "300" = 1:4;
//     "5" = 5 shares per 100): shares are multiplied by 1 + factor/100, prices by
//     1 / (1 + factor/100);
//   GRUPAMENTO (reverse split): `factor` is the shares after per share before ("0,1" = 10 into
//     1): shares are multiplied by factor, prices by 1 / factor.
// nullopt (no factor, the event kept without one) for any other label, a factor <= 0, and a
// GRUPAMENTO factor >= 1 (which would not be a reverse split as read here).
std::optional<double> StockEventPriceFactor(std::string_view label, double factor);

struct CorporateEvent {
    std::string id;
    std::string issuer;
    EventKind kind = EventKind::kCash;
    std::string label;
    std::optional<std::string> share_type;  // typeStock, else the ISIN's class
    std::optional<std::string> isin;
    std::optional<sdk::Date> approved_on;
    std::optional<sdk::Date> last_date_with_rights;
    std::optional<sdk::Date> payment_date;
    // Cash: valueCash (else the supplement's rate), per quoted_per_shares shares when that is not
    // 1 (B3 quotes some shares per thousand: trap 3); subscriptions: the percentage subscribable.
    std::optional<std::string> amount_published;
    std::optional<double> amount;
    std::optional<std::string> ratio_published;  // ratio, factor or priceUnit as published
    std::optional<std::int64_t> quoted_per_shares;
    std::optional<double> price_factor;
    std::optional<std::string> factor_source;
    boost::json::object published;  // each source's record under its name (kCashSource...)
    std::string key;                // the published key the id is derived from, for messages
};

// Every event of one issuer: `cash` (GetListedCashDividends, may be null) and `supplement`
// (GetListedSupplementCompany, may be null). A cash record and a supplement cash record are one
// event when they have the same label, class (typeStock against the ISIN's), last day with
// rights and amount, compared as numbers (or valueCash = rate x quotedPerShares); each record is
// matched at most once, in published order, so duplicates stay as many events as published.
// Exact duplicates get occurrence numbers 1, 2... in their key, so their ids differ and stay.
std::vector<CorporateEvent> BuildIssuerEvents(const std::string& issuer, const CashDividendsAnswer* cash,
                                              const SupplementAnswer* supplement);

// The id of a published key: "ca_" and 32 hexadecimal digits (two 64-bit FNV-1a hashes of the
// key), the same on every build and platform, so an event keeps its id across ingests.
std::string EventIdOf(std::string_view key);

// B3's issuer code of a ticker: its first four characters (ABEV3 -> ABEV); nullopt for a ticker
// shorter than five characters.
std::optional<std::string> IssuerOfTicker(std::string_view ticker);

}  // namespace lastro::stocks
