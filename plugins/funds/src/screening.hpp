// funds.screening — GET /v1/screening: the FIDC universe's classes in one month's reports,
// filtered by fund type, registry fields and indicators, sorted and paged by a keyset on
// (sort value, class_id) with nulls last (contract 4.2, docs/api/screening.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

sdk::Result HandleScreening(const sdk::RequestContext& context);

}  // namespace lastro::funds
