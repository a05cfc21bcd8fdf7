// COTAHIST's records as B3 writes them (DATASETS-2.md 6.1, SeriesHistoricas_Layout rev. 2.0):
// 245 bytes + CRLF, ISO-8859-1; header 00, quotes 01, trailer 99 with the count of every record
// of the file, header and trailer included (as COTAHIST_D03022022.TXT counts 7,263 lines).
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace lastro::stocks {

inline constexpr std::size_t kCotahistRecordBytes = 245;

// One 01 record. Prices in cents per `fatcot` shares, as published.
struct CotahistQuote {
    sdk::Date day;
    int codbdi = 2;
    std::string ticker;
    int tpmerc = 10;
    std::string nomres;  // ASCII, at most 12
    std::string especi;  // 10 bytes as composed by Especi()
    std::string prazot;  // "" for the cash market, "000" for options
    std::int64_t open = 0;
    std::int64_t high = 0;
    std::int64_t low = 0;
    std::int64_t average = 0;  // PREMED: VOLTOT x FATCOT / QUATOT, truncated
    std::int64_t close = 0;
    std::int64_t best_bid = 0;
    std::int64_t best_ask = 0;
    std::int64_t trades = 0;
    std::int64_t quantity = 0;
    std::int64_t volume = 0;  // cents
    std::int64_t strike = 0;  // cents; options only
    sdk::Date expiry{9999, 12, 31};
    std::int64_t fatcot = 1;
    std::string isin;  // 12
    int dismes = 100;
};

// ESPECI: the class in 4, a marker (EJ, ED, EDJ...) in 4 and the listing segment's code in 2
// ("ON      NM", "PN  EJS N2", "DRN       ").
std::string Especi(std::string_view share_class, std::string_view marker, std::string_view segment);

std::string CotahistLine(const CotahistQuote& quote);  // 245 bytes + CRLF
std::string CotahistHeader(int year, const sdk::Date& generated);
std::string CotahistTrailer(int year, const sdk::Date& generated, std::int64_t records);

// An ISIN from its first 11 characters: the check digit of ISO 6166 (letters as 10..35, then
// Luhn on the digits), as in BRABEVACNOR1.
std::string WithIsinCheckDigit(std::string_view eleven);

}  // namespace lastro::stocks
