// One company of CVM's registry of listed companies (cad_cia_aberta.csv, docs/datasets/
// cad_cia_aberta.md): every published column, text kept as published (situations, markets and
// categories are open vocabularies: a new value must never break an ingest), dates as
// YYYY-MM-DD, a blank cell as nullopt.
#pragma once

#include <lastro/sdk/document_id.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lastro::companies {

struct PostalAddress {
    std::optional<std::string> street;      // LOGRADOURO
    std::optional<std::string> complement;  // COMPL
    std::optional<std::string> district;    // BAIRRO
    std::optional<std::string> city;        // MUN
    std::optional<std::string> state;       // UF
    std::optional<std::string> country;     // PAIS
    // CEP with its leading zeros restored (RestorePostalCode); published: as in the file.
    std::optional<std::string> postal_code;
    std::optional<std::string> postal_code_published;
    std::optional<std::string> phone_area;  // DDD_TEL
    std::optional<std::string> phone;       // TEL
    std::optional<std::string> fax_area;    // DDD_FAX
    std::optional<std::string> fax;         // FAX
    std::optional<std::string> email;       // EMAIL
};

struct CompanyRecord {
    std::size_t line = 0;                        // 1-based line of the file
    std::int64_t cvm_code = 0;                   // CD_CVM: the key
    sdk::DocumentCell cnpj;                      // CNPJ_CIA, classified (a placeholder never becomes a CNPJ)
    std::optional<std::string> legal_name;       // DENOM_SOCIAL
    std::optional<std::string> trade_name;       // DENOM_COMERC
    std::optional<std::string> registered_at;    // DT_REG
    std::optional<std::string> constituted_at;   // DT_CONST
    std::optional<std::string> cancelled_at;     // DT_CANCEL
    std::optional<std::string> cancel_reason;    // MOTIVO_CANCEL
    std::optional<std::string> situation;        // SIT
    std::optional<std::string> situation_since;  // DT_INI_SIT
    std::optional<std::string> sector;           // SETOR_ATIV
    std::optional<std::string> market;           // TP_MERC
    std::optional<std::string> category;         // CATEG_REG
    std::optional<std::string> category_since;   // DT_INI_CATEG
    std::optional<std::string> issuer_phase;     // SIT_EMISSOR
    std::optional<std::string> issuer_phase_since;  // DT_INI_SIT_EMISSOR
    std::optional<std::string> control;             // CONTROLE_ACIONARIO
    std::optional<std::string> address_type;        // TP_ENDER
    PostalAddress address;                          // LOGRADOURO ... EMAIL
    std::optional<std::string> officer_role;        // TP_RESP
    std::optional<std::string> officer_name;        // RESP
    std::optional<std::string> officer_since;       // DT_INI_RESP
    PostalAddress officer_address;                  // LOGRADOURO_RESP ... EMAIL_RESP
    sdk::DocumentCell auditor_cnpj;                 // CNPJ_AUDITOR, classified
    std::optional<std::string> auditor_name;        // AUDITOR
};

}  // namespace lastro::companies
