// Rules over registry values shared by the ingester and the handlers: persistent ids, the
// FIDC universe, search folding and what a registry situation (Situacao) means.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lastro::funds {

inline constexpr std::string_view kRegistryDataset = "cvm.registro_fundo_classe";
// Fixed namespace of every funds UUIDv5: ids depend on CVM's registry ids only.
inline constexpr std::string_view kFundsNamespace = "2b9c1d52-4f1e-4a7e-9d3b-6c0f5e8a7b41";

// UUIDv5 ids from CVM's registry ids (the canonical decimal text for the numeric ones).
std::string FundIdFor(std::string_view id_registro_fundo);
std::string ClassIdFor(std::string_view id_registro_classe);
std::string SubclassIdFor(std::string_view id_subclasse);

// True for Tipo_Fundo FIDC, FIDC-NP and FIC-FIDC, ignoring case and punctuation
// ("FIC FIDC", "FICFIDC", "fidc-np").
bool IsFidcUniverse(std::string_view fund_type);
// FIDC, FIDC-NP or FIC-FIDC for a registry Tipo_Fundo in any spelling ("FIC FIDC", "fidc-np");
// nullopt for any other type.
std::optional<std::string> CanonicalFidcType(std::string_view fund_type);

// The text `q` searches: folded name, CNPJ, folded manager and administrator, one per line.
std::string FundSearchText(const std::optional<std::string>& name, const std::string& cnpj,
                           const std::optional<std::string>& manager,
                           const std::optional<std::string>& administrator);

// Case- and accent-folded text (sdk::FoldForSearch) with surrounding blanks removed.
std::string FoldedText(std::string_view text);
std::optional<std::string> Folded(const std::optional<std::string>& text);
// A filter's folded text, or nullopt when there is nothing to filter on (absent, or blank once
// folded): what /v1/fundos and /v1/screening match against the registry's folded columns.
std::optional<std::string> FoldedFilter(const std::optional<std::string>& value);

// Situacao "Em Funcionamento Normal", in any case.
bool IsActiveStatus(const std::optional<std::string>& status);
// Situacao "Cancelado"/"Cancelada" (any case or accents).
bool IsCancelledStatus(const std::optional<std::string>& status);
// Cancelled or liquidated ("Liquidado"/"Liquidada"); "Em Liquidação" is still running.
bool IsEndedStatus(const std::optional<std::string>& status);

}  // namespace lastro::funds
