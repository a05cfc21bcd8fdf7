// The twelve indicators of one month of one universe (docs/indicators.md gives every formula,
// its CVM columns and what it does not mean). Each item is a JSON object with the month, its
// figures and `units` naming the unit of every figure.
#pragma once

#include "derive/universe.hpp"

#include <boost/json/object.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::industry {

inline constexpr std::array<std::string_view, 12> kIndicators = {
    "resumo",       "fluxos", "segmentos",        "ativos",          "prazos",        "rentabilidade",
    "concentracao", "anbima", "anbima/segmentos", "distribuicao-pl", "participantes", "concentracao-top"};

// A vehicle of the month before, for same-store figures and entries and exits.
struct PreviousVehicle {
    std::optional<double> nav;
    bool fic_fidc = false;
    bool set_aside = false;
};
using PreviousMonth = std::map<std::string, PreviousVehicle>;  // by CNPJ; empty when no month before

// Whether `v` is in the universe (FIC-FIDC included or not) and carries figures (not set aside).
bool InUniverse(const Vehicle& v, bool include_fic_fidc);

// Every indicator's item for the month (keys as kIndicators).
std::map<std::string, boost::json::object> ComputeIndicators(const MonthUniverse& universe,
                                                             bool include_fic_fidc,
                                                             const PreviousMonth& previous,
                                                             bool has_previous_month);

}  // namespace lastro::industry
