// B3's COTAHIST files (docs/datasets/cotahist.md, ../shared/datasets/DATASETS-2.md §6.1): fixed-
// width records of 245 bytes, a header (00), one quote per line (01) and a trailer (99) that counts
// every record. The reader keeps the cash market's lines (TPMERC 010 round lots, 020 odd lots) and
// counts the rest by market type: options, their exercises, forwards, futures and auctions are not
// served. Prices stay the published integers: two implied decimals, per `quotation_factor` shares.
#pragma once

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/fixed_width.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace lastro::stocks {

inline constexpr int kMarketCash = 10;    // mercado à vista
inline constexpr int kMarketOddLot = 20;  // mercado fracionário

struct QuoteRecord {
    std::size_t line = 0;
    sdk::Date day;
    int bdi = 0;                               // CODBDI
    std::string ticker;                        // CODNEG
    int market_type = 0;                       // TPMERC
    std::optional<std::string> short_name;     // NOMRES
    std::optional<std::string> specification;  // ESPECI, trimmed ("ON      NM")
    std::string term;                          // PRAZOT as published, trimmed ("" on the cash market)
    // Prices in hundredths of a real per `quotation_factor` shares; nullopt when blank.
    std::optional<std::int64_t> open, high, low, average, close, best_bid, best_ask;
    std::optional<std::int64_t> trades;        // TOTNEG
    std::optional<std::int64_t> quantity;      // QUATOT
    std::optional<std::int64_t> volume;        // VOLTOT, hundredths of a real
    std::int64_t quotation_factor = 1;         // FATCOT
    std::optional<std::string> isin;           // CODISI
    std::optional<std::int64_t> distribution;  // DISMES
};

struct CotahistHeader {
    std::string edition;  // "COTAHIST.2016"
    std::optional<sdk::Date> generated;
};

class CotahistReader {
public:
    explicit CotahistReader(std::unique_ptr<sdk::ByteSource> source);

    const std::string& SourceName() const { return reader_.SourceName(); }

    enum class Outcome { kQuote, kRejected, kEnd };
    // The next cash-market quote. kRejected: a quote whose ticker, date, numbers or quotation
    // factor are unusable, with `problem` saying why (record.line is set). Throws
    // sdk::IngestError for a record no layout knows or one cut short (a truncated file), a header
    // that is not first, and records after the trailer.
    Outcome Next(QuoteRecord& record, std::string& problem);

    const std::optional<CotahistHeader>& Header() const { return header_; }
    // The trailer's count of every record (header and trailer included); nullopt without one.
    const std::optional<std::int64_t>& DeclaredRecords() const { return declared_; }
    // Every record read, header and trailer included, as the trailer counts them.
    std::int64_t RecordsRead() const { return records_; }
    // Quote lines left out, by market type (TPMERC).
    const std::map<int, std::int64_t>& Dropped() const { return dropped_; }
    // The problem with the file's count, once at the end: "the trailer declares 1,745 records,
    // the file has 505" or "no trailer record (99)"; nullopt when they agree.
    std::optional<std::string> CountProblem() const;

private:
    sdk::FixedWidthReader reader_;
    std::optional<CotahistHeader> header_;
    std::optional<std::int64_t> declared_;
    std::int64_t records_ = 0;
    bool trailer_seen_ = false;
    std::map<int, std::int64_t> dropped_;
};

// "1,745": counts in messages.
std::string GroupThousands(std::int64_t value);

}  // namespace lastro::stocks
