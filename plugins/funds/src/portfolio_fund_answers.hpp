// The stored answers of /v1/classes/{class_id}/carteira/fundos (PortfolioFundAnswer, funds
// schema 14, dataset funds.portfolio_fund_answers). Building one answer reads the holder's CDA
// positions of two months, the registry's identity of each invested CNPJ, each invested class's
// FIDC reports back to the month that publishes each figure, the subclasses held and ANBIMA's
// types: about a dozen statements and 300 to 450 µs a call at full size, the costliest read of
// the API. The answers of every holder that has positions in funds are therefore built inside
// the write transaction of each ingest of those four datasets, and a call reads one row
// (docs/performance.md, "Tenth round").
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/plugin.hpp>

#include <optional>
#include <string>

namespace odb {
class database;
}

namespace lastro::funds {

inline constexpr const char* kPortfolioFundAnswersDataset = "funds.portfolio_fund_answers";

// The stored answer of `holder_cnpj`'s CDA of `month`, if any.
std::optional<PortfolioFundAnswer> StoredPortfolioFundAnswer(odb::database& db,
                                                             const std::string& holder_cnpj,
                                                             const std::string& month);

// Makes the stored answers those the data gives now: one for every CDA holder's month with a
// BLC_2 position in a fund (by CNPJ) whose CNPJ is a class's or a fund's of the registry (the
// holders a class can be asked for); writes only what differs, erases the rest. Runs inside the
// caller's transaction. `periods` gets the months it wrote or erased.
sdk::IngestSummary RebuildPortfolioFundAnswers(odb::database& db);

// Registered for funds.portfolio_fund_answers, derived from cvm.cda_fi, cvm.registro_fundo_classe,
// cvm.inf_mensal_fidc and anbima.subclasses: every answer is built again after any of their
// ingests (an FIDC month changes the answers of the months after it, a CDA month those of the
// next; 1,795 answers at full size take about a second).
class PortfolioFundAnswersDerivation : public sdk::Derivation {
public:
    sdk::IngestSummary Run(const sdk::DerivationContext& context) override;
};

}  // namespace lastro::funds
