// The managers' ranking of one month and universe (docs/ranking.md), from the month's vehicles
// as the universe rules kept them and the same month a year before.
#pragma once

#include "industry_model.hxx"

#include <vector>

namespace lastro::industry {

// `vehicles`: the month's VehicleMonth rows; `year_before`: the ManagerMonth rows of the same
// universe 12 months earlier (empty when that month has none). Vehicles set aside or outside
// the universe, and those whose manager is unknown, are not ranked.
std::vector<ManagerMonth> RankManagers(const std::string& month, bool include_fic_fidc,
                                       const std::vector<VehicleMonth>& vehicles,
                                       const std::vector<ManagerMonth>& year_before);

}  // namespace lastro::industry
