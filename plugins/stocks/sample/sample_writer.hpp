// The stocks plugin's sample (docs/sample.md): a year of B3's files for the companies sample's
// listed companies (SampleListing), in B3's formats: COTAHIST_A2026 and, per issuer,
// GetListedCashDividends, GetListedSupplementCompany and GetDetailsCompany, with GetStockIndex
// and GetTheoricalPortfolio_IBOV.
#pragma once

#include "sample/stock_market.hpp"

#include <lastro/sdk/sample.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace lastro::stocks {

// The COTAHIST year file's records, header to trailer, each handed to `emit` as written (so a
// full year streams to disk); returns the record count the trailer carries.
std::int64_t WriteCotahist(const StockMarket& market, std::uint64_t seed,
                           const std::function<void(const std::string&)>& emit);

class StocksSampleWriter : public sdk::SampleWriter {
public:
    sdk::SampleReport Write(const sdk::SampleRequest& request) override;
};

}  // namespace lastro::stocks
