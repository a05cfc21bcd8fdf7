// The rules behind the derived datasets of the forms (docs/datasets/shares_outstanding.md,
// docs/datasets/fca_cia_aberta.md): which FRE row states a company's shares, and how a security
// of the FCA names its class of shares.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::companies {

inline constexpr std::string_view kSharesDataset = "companies.shares_outstanding";
inline constexpr std::string_view kSecuritiesDataset = "companies.securities";

// A capital_social row of one FRE document, as the choice below sees it.
struct CapitalRow {
    std::int64_t ordinal = 0;                 // its place among the document's rows
    std::optional<std::string> capital_type;  // Tipo_Capital
    std::optional<std::string> approved_on;   // Data_Autorizacao_Aprovacao, YYYY-MM-DD
};

// True for the paid-in capital ("Capital Integralizado", ignoring case and accents): the shares
// issued and paid for, which are the company's shares outstanding before treasury shares.
bool IsPaidInCapital(const std::optional<std::string>& capital_type);

// The row whose share counts a document states as its shares: among its paid-in capital rows,
// the latest approval (a row without a date comes after every dated one), the first in the
// member among equals. nullopt when no row is paid-in capital.
std::optional<std::size_t> ChooseCapitalRow(const std::vector<CapitalRow>& rows);

// The class of shares a security of the FCA is (Valor_Mobiliario, Sigla_Classe_Acao_Preferencial):
// "ON" for ordinary shares, "PN" or the preferred class's code ("PNA") for preferred ones, "UNIT"
// for units; nullopt for other securities (debentures, BDRs...).
std::optional<std::string> ShareClassOf(const std::optional<std::string>& security,
                                        const std::optional<std::string>& preferred_class);

}  // namespace lastro::companies
