// The registry's locators: from a CNPJ, a CVM code or an ANBIMA subclass to the funds and
// classes they match. GET /v1/resolve (src/resolve.cpp) renders the result, and the
// funds.locator service (services/) hands it to other plugins.
#pragma once

#include <lastro/funds/services.hpp>

#include <cstdint>
#include <string>

namespace odb {
class database;
}

namespace lastro::funds {

struct AnbimaSubclass;

Located LocateByCnpj(odb::database& db, const std::string& cnpj);
Located LocateByCvmCode(odb::database& db, std::int64_t code);
// The classes whose ANBIMA subclasses include `subclass`: the class with its class CNPJ, and
// the only class of a fund with that CNPJ.
Located LocateAnbimaSubclass(odb::database& db, const AnbimaSubclass& subclass);

}  // namespace lastro::funds
