// Persistent model of the funds plugin: CVM's RCVM 175 registry of funds, classes and
// subclasses (registro_fundo_classe.zip, docs/api/registry.md). One row per registry entry,
// keyed by a UUIDv5 derived from CVM's own registry id, so ids survive re-ingests and
// databases. Dates are "YYYY-MM-DD" text; an empty source field is NULL, never 0 or "".
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <cstdint>
#include <optional>
#include <string>

#pragma db model version(1, 1)

namespace lastro::funds {

// registro_fundo.csv
#pragma db object table("funds_fund")
struct Fund {
#pragma db id
    std::string fund_id;
    std::int64_t registry_id = 0;  // ID_Registro_Fundo
#pragma db index
    std::optional<std::int64_t> cvm_code;  // Codigo_CVM
#pragma db index
    std::string cnpj;  // CNPJ_Fundo, 14 digits
    std::optional<std::string> name;
    std::optional<std::string> fund_type;  // Tipo_Fundo
    std::optional<std::string> status;     // Situacao
    std::optional<std::string> status_folded;
    std::optional<std::string> registered_at;   // Data_Registro
    std::optional<std::string> constituted_at;  // Data_Constituicao
    std::optional<std::string> cancelled_at;    // Data_Cancelamento
    std::optional<std::string> status_since;    // Data_Inicio_Situacao
    std::optional<std::string> adapted_rcvm175_at;
    std::optional<std::string> fiscal_year_start_at;
    std::optional<std::string> fiscal_year_end_at;
    std::optional<double> net_worth;  // Patrimonio_Liquido, BRL, as registered
    std::optional<std::string> net_worth_at;
    std::optional<std::string> director;
    std::optional<std::string> administrator_cnpj;
    std::optional<std::string> administrator;
    std::optional<std::string> manager_person_type;  // Tipo_Pessoa_Gestor: PF or PJ
    std::optional<std::string> manager_document;     // CPF_CNPJ_Gestor (a CPF when PF)
    std::optional<std::string> manager;
    // Folded name, CNPJ, manager and administrator, one per line, for `q`.
    std::string search_text;
    std::optional<std::string> manager_folded;
    std::optional<std::string> administrator_folded;
#pragma db index
    bool fidc_universe = false;
};

// registro_classe.csv
#pragma db object table("funds_class")
struct FundClass {
#pragma db id
    std::string class_id;
#pragma db index
    std::string fund_id;
    std::int64_t registry_id = 0;       // ID_Registro_Classe
    std::int64_t fund_registry_id = 0;  // ID_Registro_Fundo
#pragma db index
    std::optional<std::string> cnpj;  // CNPJ_Classe
#pragma db index
    std::optional<std::int64_t> cvm_code;
    std::optional<std::string> registered_at;   // Data_Registro
    std::optional<std::string> constituted_at;  // Data_Constituicao
    std::optional<std::string> started_at;      // Data_Inicio
    std::optional<std::string> class_type;      // Tipo_Classe
    std::optional<std::string> name;
    std::optional<std::string> status;
    std::optional<std::string> status_since;
    std::optional<std::string> classification;         // Classificacao
    std::optional<std::string> performance_benchmark;  // Indicador_Desempenho
    std::optional<std::string> quota_class;            // Classe_Cotas
    std::optional<std::string> anbima_classification;
    std::optional<std::string> long_term_taxation;
    std::optional<std::string> investment_entity;
    std::optional<std::string> full_foreign_investment;  // Permitido_Aplicacao_CemPorCento_Exterior
    std::optional<std::string> esg;
    std::optional<std::string> condominium_type;  // Forma_Condominio
    std::optional<std::string> exclusive;
    std::optional<std::string> target_audience;  // Publico_Alvo
    std::optional<double> net_worth;
    std::optional<std::string> net_worth_at;
    std::optional<std::string> auditor_cnpj;
    std::optional<std::string> auditor;
    std::optional<std::string> custodian_cnpj;
    std::optional<std::string> custodian;
    std::optional<std::string> controller_cnpj;
    std::optional<std::string> controller;
};

// registro_subclasse.csv
#pragma db object table("funds_subclass")
struct Subclass {
#pragma db id
    std::string subclass_id;
#pragma db index
    std::string class_id;
    std::string registry_id;  // ID_Subclasse: text, its form is not documented by CVM
    std::int64_t class_registry_id = 0;
#pragma db index
    std::optional<std::int64_t> cvm_code;
    std::optional<std::string> constituted_at;
    std::optional<std::string> started_at;
    std::optional<std::string> name;
    std::optional<std::string> status;
    std::optional<std::string> status_since;
    std::optional<std::string> condominium_type;
    std::optional<std::string> exclusive;
    std::optional<std::string> target_audience;
    std::optional<std::string> pension;                          // Previdenciario
    std::optional<std::string> exclusive_non_resident;           // Exclusivo_INR
    std::optional<std::string> exclusive_supplementary_pension;  // Exclusivo_Previdencia_Complementar
};

}  // namespace lastro::funds
