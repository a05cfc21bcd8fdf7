// Fuzz target: the stocks plugin's reader of B3's COTAHIST files
// (plugins/stocks/domain/cotahist/cotahist_reader.cpp, through lastro-stocks-objs); the input is a
// COTAHIST_D<DDMMYYYY>.TXT as published, handed out in chunks of a size its length picks. Only
// IngestError may come out, naming the file and a line inside it. Every record must end as a
// cash-market quote that keeps the reader's promises (TPMERC 010 or 020, a real day, a ticker and
// UTF-8 texts without surrounding blanks, a quotation factor > 0, no zero best bid or ask) or as a
// rejection with a reason; lines inside the file and ascending (the header is optional, so the
// first quote may be line 1); the header, the trailer's count, the records read and the count's
// problem must be readable once the end is reached.
#include "fuzz_support.hpp"

#include "domain/cotahist/cotahist_reader.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

using namespace lastro;

namespace {

constexpr const char* kTarget = "cotahist_reader";
constexpr const char* kName = "COTAHIST_D04012016.TXT";

[[noreturn]] void Broken(std::size_t line, const std::string& what) {
    fuzz::Broken(kTarget, line, what);
}

// Trimmed, non-empty UTF-8, or absent.
void CheckText(std::size_t line, const std::optional<std::string>& text, const char* what) {
    fuzz::ExpectText(kTarget, line, text, what);
    if (text && (text->front() == ' ' || text->back() == ' ')) {
        Broken(line, std::string(what) + " keeps blanks around it: '" + *text + "'");
    }
}

void CheckQuote(const stocks::QuoteRecord& q) {
    if (q.market_type != stocks::kMarketCash && q.market_type != stocks::kMarketOddLot) {
        Broken(q.line, "a quote of market type " + std::to_string(q.market_type) + " kept");
    }
    if (q.ticker.empty() || !sdk::IsValidUtf8(q.ticker) || q.ticker.front() == ' ' ||
        q.ticker.back() == ' ') {
        Broken(q.line, "a quote without a trimmed UTF-8 ticker: '" + q.ticker + "'");
    }
    const std::optional<sdk::Date> again = sdk::Date::Parse(q.day.ToString());
    if (!again || again->ToString() != q.day.ToString()) {
        Broken(q.line, "a quote whose day is not a real day: " + q.day.ToString());
    }
    if (q.quotation_factor <= 0) {
        Broken(q.line, "a quote with quotation factor " + std::to_string(q.quotation_factor));
    }
    if ((q.best_bid && *q.best_bid == 0) || (q.best_ask && *q.best_ask == 0)) {
        Broken(q.line, "a zero best bid or ask kept (no offer is none)");
    }
    CheckText(q.line, q.short_name, "NOMRES");
    CheckText(q.line, q.specification, "ESPECI");
    CheckText(q.line, q.isin, "CODISI");
    if (!q.term.empty()) {
        CheckText(q.line, q.term, "PRAZOT");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::size_t lines =
        std::max<std::size_t>(fuzz::LineCount({reinterpret_cast<const char*>(data), size}), 1);
    static constexpr std::array<std::size_t, 4> kChunks{1 << 16, 5, 4096, 1 << 16};
    const std::size_t chunk = kChunks[size % kChunks.size()];
    try {
        stocks::CotahistReader reader(std::make_unique<fuzz::MemorySource>(data, size, chunk, kName));
        stocks::QuoteRecord record;
        std::string problem;
        std::size_t last_line = 0;  // a file may start without its header
        for (;;) {
            problem.clear();
            const stocks::CotahistReader::Outcome outcome = reader.Next(record, problem);
            if (outcome == stocks::CotahistReader::Outcome::kEnd) {
                break;
            }
            if (record.line <= last_line || record.line > lines) {
                Broken(record.line,
                       "record out of order or outside the file's " + std::to_string(lines) + " lines");
            }
            last_line = record.line;
            if (outcome == stocks::CotahistReader::Outcome::kQuote) {
                CheckQuote(record);
            } else if (problem.empty() || !sdk::IsValidUtf8(problem)) {
                Broken(record.line, "a rejection without a reason, or not UTF-8: [" + problem + "]");
            }
        }
        if (reader.Next(record, problem) != stocks::CotahistReader::Outcome::kEnd) {
            Broken(last_line, "a record after the end");
        }
        if (reader.RecordsRead() < 0 || static_cast<std::size_t>(reader.RecordsRead()) > lines) {
            Broken(last_line,
                   "more records read than the file has lines: " + std::to_string(reader.RecordsRead()));
        }
        if (reader.Header() && !sdk::IsValidUtf8(reader.Header()->edition)) {
            Broken(1, "the header's NOMARQ is not UTF-8");
        }
        const std::optional<std::string> count = reader.CountProblem();
        if (count && (count->empty() || !sdk::IsValidUtf8(*count))) {
            Broken(last_line, "the count's problem is empty or not UTF-8");
        }
        if (!count && reader.DeclaredRecords() != reader.RecordsRead()) {
            Broken(last_line, "the trailer's count disagrees with the records read, and no problem said so");
        }
    } catch (const sdk::IngestError& e) {
        if (e.File() != kName || e.Line() > lines) {
            Broken(e.Line(), std::string("refusal outside the file: ") + e.what());
        }
    } catch (const std::exception& e) {
        fuzz::UnexpectedException(kTarget, e);
    }
    return 0;
}
