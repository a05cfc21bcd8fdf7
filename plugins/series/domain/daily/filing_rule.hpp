// Which of two filings of one series and day is kept (plugins/series/docs/datasets/inf_diario_fi.md,
// "One row a series and day"). During the move to CVM Resolution 175 some funds filed the same
// CNPJ and day twice, as the fund (`FI`) and as its class (`CLASSES - FIF`), with the subclass
// blank in both: the class's filing is the one the new regime asks for, so it is kept. Between
// two filings of the same rank, the later line of the file is kept (a correction is appended).
#pragma once

#include <string_view>

namespace lastro::series {

// 2 for a class's filing (TP_FUNDO_CLASSE beginning "CLASSES"), 1 for any other.
int FilingRank(std::string_view fund_type);

}  // namespace lastro::series
