// funds.classes — GET /v1/fundos/{fund_id}/classes: every registry field of a fund's classes
// and their subclasses (docs/api/classes.md).
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/plugin.hpp>

#include <cstddef>
#include <string>

namespace odb {
class database;
}

namespace lastro::funds {

// The classes of a fund as a JSON array written as text (sdk::JsonText), and how many.
struct FundClassesJson {
    std::string json;
    std::size_t rows = 0;
};

// The classes of `fund_id` (any fund of the registry), in CVM registration order. NotFound
// when the fund does not exist.
FundClassesJson FundClasses(odb::database& db, const std::string& fund_id);

sdk::Result HandleClasses(const sdk::RequestContext& context);

}  // namespace lastro::funds
