// Words the sample is made of: invented institutions, brands, themes and the name patterns CVM's
// registry shows for each fund type. All UTF-8, all Latin-1 representable (the files are
// ISO-8859-1). No real company is named.
#pragma once

#include "sample/universe.hpp"

#include <span>
#include <string>
#include <string_view>

namespace lastro::funds::sample {

struct ManagerSeed {
    std::string_view name;
    PersonType person_type;
    unsigned weight;  // relative share of funds it manages
};

struct AdministratorSeed {
    std::string_view name;
    std::string_view director;
    unsigned weight;
};

struct Theme {
    std::string_view label;  // mixed case, as a segment would be labelled
    unsigned weight;
};

// A fund name pattern: {B} is the brand, {T} the upper-cased theme.
struct NamePattern {
    std::string_view text;
    bool rcvm175;  // carries "RESPONSABILIDADE LIMITADA", only possible after RCVM 175
};

std::span<const ManagerSeed> Managers();
std::span<const AdministratorSeed> Administrators();
std::span<const std::string_view> Auditors();
// Custodians; some are also administrators (same name, so the same CNPJ).
std::span<const std::string_view> Custodians();
std::span<const std::string_view> Controllers();
std::span<const std::string_view> Brands();
std::span<const Theme> Themes(FundType type);
std::span<const NamePattern> NamePatterns(FundType type);

// "{B} {T} FIDC" with brand and theme substituted.
std::string ExpandPattern(std::string_view pattern, std::string_view brand, std::string_view theme);

// Upper-cases ASCII and the Latin-1 letters of UTF-8 text ("crédito" -> "CRÉDITO").
std::string UpperCase(std::string_view utf8);
// "FUNDO DE CRÉDITO FIDC" -> "Fundo de Crédito FIDC": fund acronyms stay upper case,
// short particles (de, do, em, e...) go lower case.
std::string TitleCase(std::string_view utf8);

}  // namespace lastro::funds::sample
