// The real FIDC rows of ../shared/datasets/real/fidc_inf_mensal_derived/ (re-serialized by a
// third party: ../SOURCES.md there), read for the tests that pack them back into CVM's layout
// (fidc_real_rows_test.cpp, fidc_real_money_test.cpp).
#pragma once

#include "registry_fixture.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace lastro::funds::testing {

inline const std::filesystem::path kDerivedDir =
    std::filesystem::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/fidc_inf_mensal_derived";

// The derived file of each CVM table there is one of.
inline const std::map<std::string, std::string> kDerivedFiles = {
    {"I", "dupli_sem_tp_fundo_classe_caracteristicas_fundo.csv"},
    {"IV", "dupli_sem_tp_fundo_classe_patrimonio_liquido.csv"},
    {"X_2", "dupli_sem_tp_fundo_classe_cotas_valores.csv"},
    {"X_4", "dupli_sem_tp_fundo_classe_operacoes_estruturadas.csv"},
};

inline std::vector<std::string> SplitCommas(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
        fields.push_back(line.substr(start, comma - start));
    }
    fields.push_back(line.substr(start));
    return fields;
}

// The rows of CVM table `table` as CVM's fields: `CNPJ` is CNPJ_FUNDO_CLASSE and `Data`
// DT_COMPTC; DENOM_SOCIAL (second) is the only column that holds commas, so extra fields are its.
inline std::vector<Fields> ReadDerived(const std::string& table) {
    std::ifstream in(kDerivedDir / kDerivedFiles.at(table));
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header = SplitCommas(line);
    for (std::string& column : header) {
        column = column == "CNPJ" ? "CNPJ_FUNDO_CLASSE" : column == "Data" ? "DT_COMPTC" : column;
    }
    std::vector<Fields> rows;
    while (std::getline(in, line)) {
        std::vector<std::string> fields = SplitCommas(line);
        while (fields.size() > header.size()) {
            fields[1] += "," + fields[2];
            fields.erase(fields.begin() + 2);
        }
        Fields row;
        for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i) {
            row[header[i]] = fields[i];
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace lastro::funds::testing
