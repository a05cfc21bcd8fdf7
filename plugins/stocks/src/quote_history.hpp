// A ticker's whole daily history as /v1/acoes/{ticker}/cotacoes reads it: the tickers it runs
// through (a renamed ticker's, from the company's FCA), one line per trading day, and the events
// with a price factor that apply to its class. It changes only with an ingest, so it is read once
// per data release and kept (sdk::Remembered) for every later page, range, adjustment and
// frequency asked of the ticker, within a byte budget (docs/performance.md, "Listed stocks").
#pragma once

#include "domain/adjustment/adjustment.hpp"

#include <lastro/companies/services.hpp>
#include <lastro/sdk/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lastro::stocks {

// One ticker of the history, with the days it stands for (FCA trading dates; open ends: all).
struct HistoryTicker {
    std::string ticker;
    std::optional<std::string> from, to;
};

// A trading day of the history, prices per share (after the quotation factor).
struct HistoryDay {
    std::string day;
    std::size_t ticker = 0;  // its index in QuoteHistory::chain
    std::optional<double> open, high, low, close, average, volume;
    std::optional<std::int64_t> quantity, trades;
    std::int64_t quotation_factor = 1;
};

struct QuoteHistory {
    std::vector<HistoryTicker> chain;  // in trading order
    std::vector<HistoryDay> days;      // ascending, one per trading day
    std::vector<PriceEvent> events;    // by last date with rights
    std::size_t Bytes() const;         // what keeping it costs, about
};

// The history of `ticker` (upper case) at the call's data release; a NotFound problem when no
// line of the cash market has the ticker.
std::shared_ptr<const QuoteHistory> HistoryOfTicker(const sdk::RequestContext& context,
                                                    const companies::ListedCompanies& companies,
                                                    const std::string& ticker);

}  // namespace lastro::stocks
