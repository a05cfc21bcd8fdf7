// funds.classes — GET /v1/fundos/{fund_id}/classes: every registry field of a fund's classes
// and their subclasses (docs/api/classes.md).
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/plugin.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

boost::json::object SubclassItem(const Subclass& subclass);
boost::json::object ClassItem(const FundClass& fund_class, const std::vector<const Subclass*>& subclasses);

// The classes of `fund_id` (any fund of the registry), in CVM registration order. NotFound
// when the fund does not exist.
boost::json::array FundClasses(odb::database& db, const std::string& fund_id);

sdk::Result HandleClasses(const sdk::RequestContext& context);

}  // namespace lastro::funds
