// Where the columns of one member (one table's CSV) are, found by header name in either key
// layout of FORMATS 1.2: "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE" or the older "CNPJ_FUNDO" alone.
#pragma once

#include "domain/fidc/fidc_tables.hpp"

#include <lastro/sdk/cvm_csv.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

struct FidcMemberLayout {
    FidcTable table = FidcTable::kI;
    std::string source;  // the name errors use: "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_I_202401.csv"
    bool legacy_cnpj = false;  // the CNPJ_FUNDO layout: no filer type
    std::vector<std::string> header;
    std::size_t cnpj = 0;
    std::size_t date = 0;
    std::size_t name = 0;
    std::optional<std::size_t> filer_type;
    // Index of each TypedColumnsOf(table) column; nullopt for an optional column the header lacks.
    std::vector<std::optional<std::size_t>> typed;

    // Throws IngestError(file, 1, "missing column X") when a key or required typed column is absent.
    static FidcMemberLayout FromHeader(const sdk::CvmCsvReader& reader, FidcTable table);

    bool IsKeyColumn(std::size_t index) const {
        return index == cnpj || index == date || index == name || (filer_type && index == *filer_type);
    }
    std::string_view LayoutName() const { return legacy_cnpj ? "cnpj_fundo" : "fundo_classe"; }
};

}  // namespace lastro::funds
