// funds.screening — GET /v1/screening: the FIDC universe's classes in one month's reports,
// filtered by fund type, registry fields and indicators, sorted and paged by a keyset on
// (sort value, class_id) with nulls last (contract 4.2, docs/api/screening.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace lastro::funds {

// FIDC, FIDC-NP or FIC-FIDC for a registry Tipo_Fundo in any spelling ("FIC FIDC", "fidc-np");
// nullopt for any other type.
std::optional<std::string> CanonicalFidcType(std::string_view fund_type);

sdk::Result HandleScreening(const sdk::RequestContext& context);

}  // namespace lastro::funds
