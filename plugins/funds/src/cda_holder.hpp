// The CDA filing (cda_fi) of a class for one month: which holder row stands for the class, shared
// by /carteira/ativos and /carteira/fundos (docs/api/portfolio.md).
#pragma once

#include "funds_model.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/params.hpp>

#include <optional>
#include <string>

namespace odb {
class database;
}

namespace lastro::funds {

// The required `month` parameter (the host enforces it; a direct caller gets 422 naming it).
sdk::Month RequiredMonth(const sdk::Params& params);

// The CDA holder of `cnpj` for `month`, or nullopt when that CNPJ filed no CDA that month.
std::optional<CdaHolder> FindCdaHolder(odb::database& db, const std::string& cnpj, const sdk::Month& month);

// The class's CDA holder of exactly `month`, filed under its most preferred filing CNPJ;
// NotFound (404, charged) naming the class and the month when there is none. Never another month.
CdaHolder RequireCdaHolder(odb::database& db, const ClassRef& ref, const sdk::Month& month);

}  // namespace lastro::funds
