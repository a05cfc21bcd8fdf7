// The datasets derived from the forms, rebuilt whole inside the transaction of each ingest of
// their source (docs/plugins.md, "Derived datasets"):
//   companies.securities          <- cvm.fca_cia_aberta: the securities of each company's latest
//                                    FCA (valor_mobiliario), tickers and dates
//                                    (docs/datasets/fca_cia_aberta.md);
//   companies.shares_outstanding  <- cvm.fre_cia_aberta: each company's shares by class at each
//                                    reference date, with the cell of each figure
//                                    (docs/datasets/shares_outstanding.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::companies {

class SecuritiesDerivation : public sdk::Derivation {
public:
    sdk::IngestSummary Run(const sdk::DerivationContext& context) override;
};

class SharesDerivation : public sdk::Derivation {
public:
    sdk::IngestSummary Run(const sdk::DerivationContext& context) override;
};

}  // namespace lastro::companies
