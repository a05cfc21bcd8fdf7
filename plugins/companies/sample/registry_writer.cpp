#include "sample/registry_writer.hpp"

#include "sample/crlf.hpp"

#include <lastro/sdk/sample/csv_table.hpp>

#include <array>
#include <string_view>

namespace lastro::companies {
namespace {

// The registry's header, verbatim (shared/datasets/real/cvm_headers/cad_cia_aberta_header.csv).
constexpr std::array<std::string_view, 47> kColumns{"CNPJ_CIA",
                                                    "DENOM_SOCIAL",
                                                    "DENOM_COMERC",
                                                    "DT_REG",
                                                    "DT_CONST",
                                                    "DT_CANCEL",
                                                    "MOTIVO_CANCEL",
                                                    "SIT",
                                                    "DT_INI_SIT",
                                                    "CD_CVM",
                                                    "SETOR_ATIV",
                                                    "TP_MERC",
                                                    "CATEG_REG",
                                                    "DT_INI_CATEG",
                                                    "SIT_EMISSOR",
                                                    "DT_INI_SIT_EMISSOR",
                                                    "CONTROLE_ACIONARIO",
                                                    "TP_ENDER",
                                                    "LOGRADOURO",
                                                    "COMPL",
                                                    "BAIRRO",
                                                    "MUN",
                                                    "UF",
                                                    "PAIS",
                                                    "CEP",
                                                    "DDD_TEL",
                                                    "TEL",
                                                    "DDD_FAX",
                                                    "FAX",
                                                    "EMAIL",
                                                    "TP_RESP",
                                                    "RESP",
                                                    "DT_INI_RESP",
                                                    "LOGRADOURO_RESP",
                                                    "COMPL_RESP",
                                                    "BAIRRO_RESP",
                                                    "MUN_RESP",
                                                    "UF_RESP",
                                                    "PAIS_RESP",
                                                    "CEP_RESP",
                                                    "DDD_TEL_RESP",
                                                    "TEL_RESP",
                                                    "DDD_FAX_RESP",
                                                    "FAX_RESP",
                                                    "EMAIL_RESP",
                                                    "CNPJ_AUDITOR",
                                                    "AUDITOR"};

// CVM stores CEP as a number: 01310100 is published 1310100.
std::string PublishedPostalCode(const std::string& postal_code) {
    const std::size_t first = postal_code.find_first_not_of('0');
    return first == std::string::npos ? "0" : postal_code.substr(first);
}

std::string Slug(const std::string& name) {
    std::string slug;
    for (char c : name) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            slug.push_back(c);
        } else if (c >= 'A' && c <= 'Z') {
            slug.push_back(static_cast<char>(c - 'A' + 'a'));
        }
        if (slug.size() == 12) {
            break;
        }
    }
    return slug;
}

std::vector<std::string> Row(const SampleCompany& c) {
    const std::string cep = PublishedPostalCode(c.postal_code);
    const std::string email = "ri@" + Slug(c.legal_name) + ".com.br";
    const bool cancelled = c.cancelled.has_value();
    return {c.cnpj,
            c.legal_name,
            c.trade_name,
            c.registered.ToString(),
            c.constituted.ToString(),
            cancelled ? c.cancelled->ToString() : "",
            c.cancel_reason,
            c.situation,
            c.situation_since.ToString(),
            std::to_string(c.cvm_code),
            c.sector,
            c.market,
            c.category,
            c.registered.ToString(),
            c.issuer_phase,
            c.registered.ToString(),
            c.control,
            "SEDE",
            "AV. PAULISTA, 1000",
            "ANDAR 10",
            "CENTRO",
            c.city,
            c.state,
            "BRASIL",
            cep,
            "11",
            "30000000",
            "",
            "",
            email,
            cancelled ? "" : "DIRETOR DE RELAÇÕES COM INVESTIDORES",
            cancelled ? "" : "JOÃO DA SILVA",
            cancelled ? "" : c.registered.ToString(),
            cancelled ? "" : "AV. PAULISTA, 1000",
            cancelled ? "" : "ANDAR 10",
            cancelled ? "" : "CENTRO",
            cancelled ? "" : c.city,
            cancelled ? "" : c.state,
            "",
            cancelled ? "" : cep,
            cancelled ? "" : "11",
            cancelled ? "" : "30000000",
            "",
            "",
            cancelled ? "" : email,
            "61.366.936/0001-25",
            "ERNST & YOUNG AUDITORES INDEPENDENTES S/S"};
}

}  // namespace

std::string RegistryCsv(const std::vector<SampleCompany>& companies, std::int64_t duplicated_code) {
    sdk::sample::CsvTable table(kColumns);
    for (const SampleCompany& company : companies) {
        table.AddRow(Row(company));
        if (company.cvm_code == duplicated_code) {
            table.AddRow(Row(company));
        }
    }
    return WithCrlf(table.ToLatin1());
}

}  // namespace lastro::companies
