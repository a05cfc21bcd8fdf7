// Catalog of the 18 tables of CVM's FIDC monthly report (FORMATS 1 and Appendix A; the tables,
// their names and published columns are in layouts/inf_mensal_fidc.hpp): which ones every month
// must carry, how their rows map onto the model, and the columns the ingester types. Every other
// column is kept as published (FidcReport::published_json).
#pragma once

#include "layouts/inf_mensal_fidc.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk {
class NamePattern;
}

namespace lastro::funds {

// How a table's rows map onto the model.
enum class FidcShape : std::uint8_t {
    kOneRow,      // one row per report: FidcReport (typed columns and published_json)
    kSeries,      // X_1, X_2, X_3, X_6: one row per series, joined into FidcSeries
    kOperations,  // X_4: one row per series and operation, FidcQuotaOperation
    kDebtors,     // VIII: one row per SEQUENCIAL, published_json["VIII"]
};

struct FidcTableInfo {
    FidcTable table;
    std::string_view name;  // as in member names: "X_1_1"
    bool required;          // every month of an ingest must carry it
    FidcShape shape;
};

const std::array<FidcTableInfo, kFidcTableCount>& FidcTables();
const FidcTableInfo& InfoOf(FidcTable table);

// A file name read as a member of the dataset.
struct FidcMemberName {
    enum class Kind { kOther, kUnknownTable, kTable };
    Kind kind = Kind::kOther;
    FidcTable table = FidcTable::kI;
    int year = 0;
    int month = 0;  // 0 when the name carries only the year (a yearly history member)
};

// The names of the dataset's members: "inf_mensal_fidc_tab_{NAME}_{PERIOD}.csv".
const sdk::NamePattern& FidcMemberPattern();

// Reads "inf_mensal_fidc_tab_<T>_<YYYYMM|YYYY>.csv" (the last path component, case of the
// prefix ignored). <T> must name a table exactly, so X_1 and X_1_1 never mix; a well-formed
// name of a table outside the catalog is kUnknownTable; any other name is kOther.
FidcMemberName ParseMemberName(std::string_view name);

// The key columns, present in every table.
inline constexpr std::string_view kFilerTypeColumn = "TP_FUNDO_CLASSE";
inline constexpr std::string_view kCnpjColumn = "CNPJ_FUNDO_CLASSE";
inline constexpr std::string_view kLegacyCnpjColumn = "CNPJ_FUNDO";  // layout before 2020-11 / 2023-10
inline constexpr std::string_view kNameColumn = "DENOM_SOCIAL";
inline constexpr std::string_view kDateColumn = "DT_COMPTC";

enum class FidcColumnKind : std::uint8_t { kText, kDecimal, kInteger };

// A column the ingester reads besides the key columns. Numeric ones are validated on every
// row; a required one missing from a header fails the file.
struct FidcColumn {
    std::string name;
    FidcColumnKind kind = FidcColumnKind::kDecimal;
    bool required = true;
};

const std::vector<FidcColumn>& TypedColumnsOf(FidcTable table);

// Positions in TypedColumnsOf(kI).
namespace tab_i {
inline constexpr std::size_t kAssets = 0;                  // TAB_I_VL_ATIVO
inline constexpr std::size_t kWithRisk = 1;                // TAB_I2A_VL_DIRCRED_RISCO
inline constexpr std::size_t kWithoutRisk = 2;             // TAB_I2B_VL_DIRCRED_SEM_RISCO
inline constexpr std::size_t kPddWithRisk = 3;             // TAB_I2A11_VL_REDUCAO_RECUP
inline constexpr std::size_t kPddWithoutRisk = 4;          // TAB_I2B11_VL_REDUCAO_RECUP
inline constexpr std::size_t kAdministratorCnpj = 5;       // CNPJ_ADMIN
inline constexpr std::size_t kAdministrator = 6;           // ADMIN
inline constexpr std::size_t kCondominium = 7;             // CONDOM
inline constexpr std::size_t kComponentsWithRisk = 8;      // I2A1..I2A10: 8..17
inline constexpr std::size_t kComponentsWithoutRisk = 18;  // I2B1..I2B10: 18..27
inline constexpr std::size_t kComponentCount = 10;
}  // namespace tab_i

// Positions in TypedColumnsOf(kII): the total, then the segments in Segments() order.
namespace tab_ii {
inline constexpr std::size_t kTotal = 0;  // TAB_II_VL_CARTEIRA
inline constexpr std::size_t kFirstSegment = 1;
}  // namespace tab_ii

// Positions in TypedColumnsOf(kV) and (kVI): to mature (A), delinquent (B), prepaid (C), each a
// published total followed by its ten exclusive bands.
namespace tab_bands {
inline constexpr std::size_t kBands = 10;
inline constexpr std::size_t kToMatureTotal = 0;
inline constexpr std::size_t kToMature = 1;  // 1..10
inline constexpr std::size_t kDelinquentTotal = 11;
inline constexpr std::size_t kDelinquent = 12;  // 12..21
inline constexpr std::size_t kPrepaidTotal = 22;
inline constexpr std::size_t kPrepaid = 23;  // 23..32
}  // namespace tab_bands

// Positions in TypedColumnsOf of the long tables.
namespace tab_x {
inline constexpr std::size_t kSeries = 0;           // TAB_X_CLASSE_SERIE, every long table
inline constexpr std::size_t kSubclass = 1;         // X_1 ID_SUBCLASSE (absent before 2023-10)
inline constexpr std::size_t kInvestors = 2;        // X_1 TAB_X_NR_COTST
inline constexpr std::size_t kQuotaCount = 1;       // X_2 TAB_X_QT_COTA
inline constexpr std::size_t kQuotaValue = 2;       // X_2 TAB_X_VL_COTA
inline constexpr std::size_t kProfitability = 1;    // X_3 TAB_X_VL_RENTAB_MES
inline constexpr std::size_t kOperation = 1;        // X_4 TAB_X_TP_OPER
inline constexpr std::size_t kOperationValue = 2;   // X_4 TAB_X_VL_TOTAL
inline constexpr std::size_t kOperationQuotas = 3;  // X_4 TAB_X_QT_COTA
inline constexpr std::size_t kExpected = 1;         // X_6 TAB_X_PR_DESEMP_ESPERADO
inline constexpr std::size_t kReal = 2;             // X_6 TAB_X_PR_DESEMP_REAL
}  // namespace tab_x

// Positions in TypedColumnsOf(kVIII).
namespace tab_viii {
inline constexpr std::size_t kRank = 0;   // SEQUENCIAL
inline constexpr std::size_t kValue = 1;  // VALOR, kept as published
}  // namespace tab_viii

// The most detailed items of table II, in table order.
struct FidcSegment {
    std::string_view item;    // CVM's item: "A", "C1", "F8"
    std::string_view code;    // our code: "industrial"
    std::string_view name;    // the item's name in CVM's META (meta_inf_mensal_fidc_tab_II.txt)
    std::string_view source;  // the column: "TAB_II_A_VL_INDUST"
};
inline constexpr std::size_t kFidcSegmentCount = 27;
const std::array<FidcSegment, kFidcSegmentCount>& FidcSegments();

}  // namespace lastro::funds
