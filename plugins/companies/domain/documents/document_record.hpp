// One delivery of a listed company's document, as CVM's document indexes list it (IPE: the
// periodic and occasional documents, ipe_cia_aberta_YYYY.csv; docs/datasets/ipe_cia_aberta.md).
// Text as published, dates YYYY-MM-DD, a blank cell nullopt.
#pragma once

#include <lastro/sdk/document_id.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lastro::companies {

struct DocumentRecord {
    std::size_t line = 0;                       // 1-based line of the file
    std::string protocol;                       // Protocolo_Entrega: with `version`, the key
    std::int64_t version = 0;                   // Versao
    std::int64_t cvm_code = 0;                  // Codigo_CVM
    sdk::DocumentCell cnpj;                     // CNPJ_Companhia, classified
    std::optional<std::string> company_name;    // Nome_Companhia
    std::optional<std::string> reference_date;  // Data_Referencia
    std::optional<std::string> delivered_at;    // Data_Entrega
    std::optional<std::string> category;        // Categoria ("Fato Relevante", "Comunicado ao Mercado"...)
    std::optional<std::string> type;            // Tipo
    std::optional<std::string> species;         // Especie
    std::optional<std::string> subject;         // Assunto
    std::optional<std::string> presentation;    // Tipo_Apresentacao ("AP - Apresentação"...)
    std::optional<std::string> link;            // Link_Download, as published
};

}  // namespace lastro::companies
