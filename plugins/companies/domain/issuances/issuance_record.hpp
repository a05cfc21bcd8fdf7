// CRI/CRA certificates and their public offerings, as CVM's files publish them
// (docs/datasets/inf_mensal_cri.md, inf_mensal_cra.md, oferta_distribuicao.md). Text as published,
// dates YYYY-MM-DD, decimals as the published text once checked, a blank cell nullopt (never 0).
#pragma once

#include <lastro/sdk/document_id.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lastro::companies {

// The certificate types /v1/emissoes serves, as `tipo` names them.
enum class CertificateKind { kCri, kCra };

// One monthly report of a certificate (inf_mensal_{cri,cra}_geral_YYYY.csv): the key is
// (CNPJ_Emissora, Codigo_Identificacao_Certificado, Data_Referencia) and Versao.
struct CertificateReport {
    std::size_t line = 0;
    sdk::DocumentCell issuer;                    // CNPJ_Emissora, classified
    std::string code;                            // Codigo_Identificacao_Certificado
    std::string reference_date;                  // Data_Referencia
    std::int64_t version = 0;                    // Versao
    std::optional<std::string> delivered_at;     // Data_Entrega
    std::optional<std::string> emission_number;  // Numero_Emissao, as published
    std::optional<std::string> emission_name;    // Nome_Emissao
    std::optional<std::int64_t> series_count;    // Quantidade_Series
    std::optional<std::string> issued_at;        // Data_Emissao
    std::optional<std::string> issuer_name;      // Companhia_Emissora
    std::optional<std::string> fiduciary_agent;  // Agente_Fiduciario
    std::optional<std::string> lastro_type;      // Tipo_Lastro
    std::optional<std::string> lastro_detail;    // Detalhamento_Lastro
    std::optional<std::string> segment;          // CRI Segmento_Creditos_Vinculados; CRA Tipo_Segmento
    std::optional<std::string> rating_agency;    // Agencia_Classificadora
    std::optional<std::string> net_worth;        // Patrimonio_Liquido_Emissao, a checked decimal
};

// One series (class) of a certificate's monthly report (inf_mensal_{cri,cra}_classe_YYYY.csv).
struct CertificateSeries {
    std::size_t line = 0;
    sdk::DocumentCell issuer;
    std::string code;
    std::string reference_date;
    std::int64_t version = 0;
    std::optional<std::string> class_name;  // Classe (Sênior, Subordinada...)
    std::optional<std::string> number;      // Numero_Serie
    std::optional<std::string> offer_type;  // Tipo_Oferta
    std::optional<std::string> cetip_code;  // Codigo_CETIP
    std::optional<std::string> isin;        // Codigo_ISIN
    std::optional<std::string> maturity;    // Data_Vencimento
    std::optional<std::string> indexers;    // CRI Taxas_Indexadores (the CRA layout has none)
    std::optional<std::string> rate;        // Taxa_Juros, as published
    std::optional<std::string> situation;   // Situacao
    std::optional<std::string> paid_in;     // CRI Total_Integralizado; CRA Valor_Total_Integralizado
    std::optional<std::string> quantity;    // Quantidade_Certificados, a checked decimal
    std::optional<std::string> unit_value;  // Valor_Certificados, a checked decimal
};

// The two regimes of oferta_distribuicao.zip.
enum class OfferingRegime {
    kLegacy,   // oferta_distribuicao.csv: offerings under the rules before RCVM 160
    kRcvm160,  // oferta_resolucao_160.csv
};

// One CRI or CRA public offering.
struct OfferingRecord {
    std::size_t line = 0;
    OfferingRegime regime = OfferingRegime::kLegacy;
    std::string key;  // what identifies the row within its regime (issuance_rules.hpp)
    CertificateKind kind = CertificateKind::kCri;
    std::string asset;                          // legacy Tipo_Ativo; RCVM 160 Valor_Mobiliario, as published
    sdk::DocumentCell issuer;                   // CNPJ_Emissor, classified
    std::optional<std::string> issuer_name;     // Nome_Emissor
    std::optional<std::string> leader_name;     // Nome_Lider
    std::optional<std::string> process_number;  // Numero_Processo
    std::optional<std::string> registration;    // legacy Numero_Registro_Oferta; RCVM 160 Numero_Requerimento
    std::optional<std::string> emission;        // Emissao, as published
    std::optional<std::string> series;          // legacy Serie
    std::optional<std::string> offer_type;      // Tipo_Oferta
    std::optional<std::string> status;          // RCVM 160 Status_Requerimento
    std::optional<std::string> requested_at;    // legacy Data_Protocolo; RCVM 160 Data_requerimento
    std::optional<std::string> registered_at;   // legacy Data_Registro_Oferta; RCVM 160 Data_Registro
    std::optional<std::string> closed_at;       // legacy Data_Encerramento_Oferta; RCVM 160 Data_Encerramento
    std::optional<std::string> approved_at;     // RCVM 160 Data_deliberacao_aprovou_oferta (DD/MM/YYYY)
    std::optional<std::string> issued_at;       // legacy Data_Emissao
    std::optional<std::string> maturity;        // legacy Data_Vencimento
    std::optional<std::string> quantity;        // legacy Quantidade_Total; RCVM 160 Qtde_Total_Registrada
    std::optional<std::string> value_total;     // legacy Valor_Total; RCVM 160 Valor_Total_Registrado
    std::optional<std::string> lastro;          // RCVM 160 Tipo_lastro
    std::optional<std::string>
        fiduciary_regime;  // legacy Oferta_Regime_Fiduciario; RCVM 160 Regime_fiduciario
};

}  // namespace lastro::companies
