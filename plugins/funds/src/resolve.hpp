// funds.resolve — GET /v1/resolve: from a locator (CNPJ, CVM code, ANBIMA code) to the
// persistent fund_id and class_id values of every registry entry it matches (contract 2.5).
#pragma once

#include <lastro/sdk/params.hpp>
#include <lastro/sdk/plugin.hpp>

#include <boost/json/object.hpp>

#include <string>

namespace odb {
class database;
}

namespace lastro::funds {

struct Locator {
    std::string name;   // "cnpj", "cvm_code" or "anbima_code": the parameter given
    std::string value;  // as the host validated it (a CNPJ is 14 digits)
};

// Exactly one locator, else BadRequest.
Locator ReadLocator(const sdk::Params& params);

// The `data` object of the response; NotFound when nothing matches, InvalidParameter for a
// cvm_code that is not a number. Covers the whole registry, not only the FIDC universe.
boost::json::object Resolve(odb::database& db, const Locator& locator);

sdk::Result HandleResolve(const sdk::RequestContext& context);

}  // namespace lastro::funds
