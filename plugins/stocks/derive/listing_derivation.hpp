// stocks.listing (docs/api/acoes.md): one row per round-lot ticker for /v1/acoes, rebuilt whole
// after an ingest of any of its sources (the B3 files, and the companies plugin's FCA and FRE):
// the ticker's last trading day, its company through companies.listed (the FCA's tickers with
// their dates, else B3's company details), B3's sector and index membership, and the company's
// market capitalization (domain/market_cap.hpp).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <string_view>

namespace lastro::stocks {

inline constexpr std::string_view kListingDataset = "stocks.listing";

class ListingDerivation : public sdk::Derivation {
public:
    sdk::IngestSummary Run(const sdk::DerivationContext& context) override;
};

}  // namespace lastro::stocks
