// cad_cia_aberta.csv as CVM publishes it (47 columns, ISO-8859-1, ';', CRLF, CEP written as a
// number so that leading zeros are lost), for the companies of the sample universe.
#pragma once

#include "sample/company_universe.hpp"

#include <string>
#include <vector>

namespace lastro::companies {

// The file's bytes; the company `duplicated_code` is written twice, identical (as CVM does).
std::string RegistryCsv(const std::vector<SampleCompany>& companies, std::int64_t duplicated_code);

}  // namespace lastro::companies
