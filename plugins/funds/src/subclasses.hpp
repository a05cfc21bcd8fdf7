// funds.class_subclasses — GET /v1/classes/{class_id}/subclasses: the ANBIMA-source subclasses
// (anbima.subclasses) of a class, by the class's CNPJ (contract 2.12; docs/api/subclasses.md).
#pragma once

#include "funds_model.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/plugin.hpp>

#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

// The ANBIMA rows whose class CNPJ is one of the class's filing CNPJs (its own CNPJ, or its
// fund's when it is the fund's only class), by anbima_code.
std::vector<AnbimaSubclass> AnbimaSubclassesOf(odb::database& db, const ClassRef& ref);

sdk::Result HandleClassSubclasses(const sdk::RequestContext& context);

}  // namespace lastro::funds
