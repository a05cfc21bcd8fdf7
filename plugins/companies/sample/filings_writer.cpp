#include "sample/filings_writer.hpp"

#include "sample/crlf.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/sample/csv_table.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

namespace lastro::companies {
namespace {

using sdk::sample::Prng;

// The index member's header and the columns every table member starts with, verbatim
// (shared/datasets/real/cvm_headers/fre_cia_aberta_header.csv and the tables' headers).
constexpr std::array<std::string_view, 9> kIndexColumns{
    "CNPJ_CIA", "DT_REFER", "VERSAO", "DENOM_CIA", "CD_CVM", "CATEG_DOC", "ID_DOC", "DT_RECEB", "LINK_DOC"};
constexpr std::string_view kKeyColumns = "CNPJ_Companhia;Data_Referencia;Versao;ID_Documento;Nome_Companhia";

// A table of the form: its own columns as CVM publishes them, the forms that have it, and rows
// per document at each scale.
struct FormTable {
    std::string_view name;
    std::string_view columns;
    bool old_form;
    bool new_form;
    int sample_rows;  // at most, per document
    int full_rows;    // on average, per document
};

// The 2025 headers are the real ones; capital_social_aumento's is the published pre-2023 layout
// (DATASETS-2.md 4.3; the old form's member list is not confirmed by a real file).
constexpr std::array<FormTable, 14> kTables{{
    {"capital_social",
     "ID_Capital_Social;Tipo_Capital;Data_Autorizacao_Aprovacao;Valor_Capital;Prazo_Integralizacao;"
     "Quantidade_Acoes_Ordinarias;Quantidade_Acoes_Preferenciais;Quantidade_Total_Acoes",
     true, true, 3, 3},
    {"capital_social_classe_acao", "ID_Capital_Social;Tipo_Classe_Acao_Preferencial;Quantidade_Acoes", true,
     true, 2, 1},
    {"capital_social_aumento",
     "Data_Deliberacao;Orgao_Deliberacao_Aumento;Data_Emissao;Valor_Total_Emissao;Tipo_Subscricao;"
     "Quantidade_Acoes_Ordinarias;Quantidade_Acoes_Preferenciais;Quantidade_Total_Acoes;Subscricao_Capital_"
     "Anterior;"
     "Fator_Cotacao;Preco_Emissao;Criterio_Determinacao_Preco_Emissao;Forma_Integralizacao",
     true, false, 2, 2},
    {"distribuicao_capital",
     "Quantidade_Acionistas_PF;Quantidade_Acionistas_PJ;Quantidade_Acionistas_Investidores_Institucionais;"
     "Quantidade_Acoes_Ordinarias_Circulacao;Percentual_Acoes_Ordinarias_Circulacao;"
     "Quantidade_Acoes_Preferenciais_Circulacao;Percentual_Acoes_Preferenciais_Circulacao;"
     "Quantidade_Total_Acoes_Circulacao;Percentual_Total_Acoes_Circulacao;Data_Ultima_Assembleia",
     true, true, 1, 1},
    {"posicao_acionaria",
     "ID_Acionista;Acionista;Tipo_Pessoa_Acionista;CPF_CNPJ_Acionista;ID_Acionista_Relacionado;"
     "Acionista_Relacionado;Tipo_Pessoa_Acionista_Relacionado;CPF_CNPJ_Acionista_Relacionado;"
     "Quantidade_Acao_Ordinaria_Circulacao;Percentual_Acao_Ordinaria_Circulacao;"
     "Quantidade_Acao_Preferencial_Circulacao;Percentual_Acao_Preferencial_Circulacao;"
     "Quantidade_Total_Acoes_Circulacao;Percentual_Total_Acoes_Circulacao;Nacionalidade;Sigla_UF;"
     "Residente_Exterior;Representante_Legal;Tipo_Pessoa_Representante_Legal;CPF_CNPJ_Representante_legal;"
     "Data_Composicao_Capital_Social;Data_Ultima_Alteracao;Acionista_Controlador;Participante_Acordo_"
     "Acionistas",
     true, true, 5, 20},
    {"auditor",
     "ID_Auditor;Auditor;CPF_Auditor;CNPJ_Auditor;Codigo_CVM_Auditor;Tipo_Origem_Auditor;Data_Inicio_"
     "Contratacao;"
     "Data_Fim_Contratacao;Data_Inicio_Prestacao_Servico;Servico_Contratado;Remuneracao_Auditor;"
     "Justificativa_Substituicao;Razao_Apresentada",
     true, true, 1, 1},
    {"administrador_membro_conselho_fiscal",
     "Orgao_Administracao;Nome;CPF;Profissao;Cargo_Eletivo_Ocupado;Complemento_Cargo_Eletivo_Ocupado;Data_"
     "Eleicao;"
     "Data_Posse;Data_Inicio_Primeiro_Mandato;Prazo_Mandato;Eleito_Controlador;Outro_Cargo_Funcao;"
     "Experiencia_Profissional;Data_Nascimento;Numero_Mandatos_Consecutivos;Percentual_Participacao_Reunioes",
     true, true, 4, 7},
    {"membro_comite",
     "Nome;CPF;Profissao;Tipo_Comite;Descricao_Outros_Comites;Cargo_Ocupado;Descricao_Outro_Cargo_Ocupado;"
     "Data_Eleicao;Data_Posse;Data_Inicio_Primeiro_Mandato;Prazo_Mandato;Outro_Cargo_Funcao;"
     "Experiencia_Profissional;Data_Nascimento;Numero_Mandatos_Consecutivos;Percentual_Participacao_Reunioes",
     true, true, 3, 4},
    {"remuneracao_total_orgao",
     "Data_Inicio_Exercicio_Social;Data_Fim_Exercicio_Social;Total_Remuneracao;Orgao_Administracao;Numero_"
     "Membros;"
     "Total_Remuneracao_Orgao;Numero_Membros_Remunerados;Salario;Beneficios_Diretos_Indiretos;Participacoes_"
     "Comites;"
     "Outros_Valores_Fixos;Descricao_Outros_Remuneracoes_Fixas;Bonus;Participacao_Resultados;Participacao_"
     "Reunioes;"
     "Outros_Valores_Variaveis;Comissoes;Descricao_Outros_Remuneracoes_Variaveis;Pos_emprego;Cessacao_Cargo;"
     "Baseada_Acoes;Observacao",
     true, true, 3, 5},
    {"relacao_familiar",
     "Nome_Administrador;CPF_Administrador;Nome_Emissor;CNPJ_Emissor;Cargo_Administrador;Nome_Pessoa_"
     "Relacionada;"
     "CPF_Pessoa_Relacionada;Nome_Emissor_Pessoa_Relacionada;CNPJ_Emissor_Pessoa_Relacionada;"
     "Cargo_Pessoa_Relacionada;Tipo_Parentesco;Observacao",
     true, true, 1, 2},
    {"participacao_sociedade",
     "ID_Sociedade;Razao_Social;CNPJ;Tipo_Sociedade;Descricao_Atividades;Pais_Sede;UF_Sede;Municipio_Sede;"
     "Participacao_Emissor;Possui_Registro_CVM;Codigo_CVM;Razao_Aquisicao_Manutencao;Data_Valor_Mercado;"
     "Data_Valor_Contabil;Valor_Mercado;Valor_Contabil",
     true, true, 3, 5},
    {"transacao_parte_relacionada",
     "Parte_Relacionada;Tipo_Pessoa;Documento_Parte_Relacionada;Relacao_Emissor;Data_Transacao;Objeto_"
     "Contrato;"
     "Montante_Envolvido;Saldo_Existente;Montante_Interesse_Parte_Relacionada;Garantia_Seguro;Duracao_"
     "Transacao;"
     "Emprestimo_Divida;Rescisao;Natureza_Razao_Operacao;Taxa_Juros;Posicao_Contratual_Emissor;"
     "Especificacao_Posicao_Contratual_Emissor",
     true, true, 3, 8},
    {"administrador_declaracao_genero",
     "Orgao_Administracao;Quantidade_Feminino;Quantidade_Masculino;Quantidade_Nao_Binario;Quantidade_Outros;"
     "Quantidade_Sem_Resposta;Nao_Aplicavel",
     false, true, 3, 3},
    {"empregado_local_faixa_etaria", "Local;Quantidade_Ate30Anos;Quantidade_30a50Anos;Quantidade_Acima50Anos",
     false, true, 2, 3},
}};

constexpr std::array<std::string_view, 12> kFirstNames{"Ana",     "Bruno", "Carla",    "Diego",
                                                       "Elisa",   "Fábio", "Gabriela", "Hugo",
                                                       "Isabela", "João",  "Lúcia",    "Márcio"};
constexpr std::array<std::string_view, 10> kLastNames{"Almeida",  "Barbosa", "Cardoso",   "Damasceno",
                                                      "Esteves",  "Ferraz",  "Gonçalves", "Holanda",
                                                      "Siqueira", "Teixeira"};
constexpr std::array<std::string_view, 8> kFirms{"Participações",   "Holding",        "Investimentos",
                                                 "Empreendimentos", "Administradora", "Comercial",
                                                 "Logística",       "Energia"};
constexpr std::array<std::string_view, 3> kOrgans{"Conselho de Administração", "Diretoria",
                                                  "Conselho Fiscal"};
constexpr std::array<std::string_view, 6> kStates{"SP", "RJ", "MG", "RS", "PR", "BA"};
constexpr std::array<std::string_view, 6> kPhrases{
    "Conforme deliberação do conselho",       "Não aplicável",
    "Prestação de serviços de auditoria",     "Contrato de mútuo entre partes relacionadas",
    "Aquisição para expansão das atividades", "Indeterminado"};
constexpr std::array<std::string_view, 13> kFlags{"Residente_Exterior",
                                                  "Acionista_Controlador",
                                                  "Participante_Acordo_Acionistas",
                                                  "Possui_Registro_CVM",
                                                  "Eleito_Controlador",
                                                  "Nao_Aplicavel",
                                                  "Garantia_Seguro",
                                                  "Emprestimo_Divida",
                                                  "Rescisao",
                                                  "Conversibilidade",
                                                  "Resgatavel",
                                                  "Restricao_Circulacao",
                                                  "Subscricao_Capital_Anterior"};
constexpr std::array<std::string_view, 13> kMoney{
    "Total_Remuneracao",     "Total_Remuneracao_Orgao",  "Salario",   "Beneficios_Diretos_Indiretos",
    "Participacoes_Comites", "Outros_Valores_Fixos",     "Bonus",     "Participacao_Resultados",
    "Participacao_Reunioes", "Outros_Valores_Variaveis", "Comissoes", "Remuneracao_Auditor",
    "Preco_Emissao"};
constexpr std::array<std::string_view, 3> kMoneyTail{"Pos_emprego", "Cessacao_Cargo", "Baseada_Acoes"};

bool Contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

template <std::size_t N>
bool OneOf(const std::array<std::string_view, N>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string_view> Split(std::string_view columns) {
    std::vector<std::string_view> parts;
    for (std::size_t from = 0;;) {
        const std::size_t semicolon = columns.find(';', from);
        parts.push_back(columns.substr(from, semicolon - from));
        if (semicolon == std::string_view::npos) {
            return parts;
        }
        from = semicolon + 1;
    }
}

std::string Cpf(Prng& prng) {
    std::string digits = std::to_string(prng.Between(100'000'000, 999'999'999));
    for (int round = 0; round < 2; ++round) {
        int sum = 0;
        const int weight = static_cast<int>(digits.size()) + 1;
        for (std::size_t i = 0; i < digits.size(); ++i) {
            sum += (digits[i] - '0') * (weight - static_cast<int>(i));
        }
        const int rest = sum % 11;
        digits += static_cast<char>('0' + (rest < 2 ? 0 : 11 - rest));
    }
    return digits.substr(0, 3) + "." + digits.substr(3, 3) + "." + digits.substr(6, 3) + "-" +
           digits.substr(9);
}

std::string Cnpj(Prng& prng) {
    return sdk::CnpjWithCheckDigits(std::to_string(prng.Between(10'000'000, 99'999'999)) + "0001");
}

std::string Person(Prng& prng) {
    return std::string(prng.Pick(kFirstNames)) + " " + std::string(prng.Pick(kLastNames)) + " " +
           std::string(prng.Pick(kLastNames));
}

std::string Firm(Prng& prng) {
    return std::string(prng.Pick(kLastNames)) + " " + std::string(prng.Pick(kFirms)) + " S.A.";
}

// One document of a company: which version, its id and when it was delivered.
struct Document {
    const SampleCompany* company = nullptr;
    int version = 1;
    std::int64_t id = 0;
    sdk::Date delivered;
};

// The cells of one row of `table` for `document`; `prng` is the document's content stream, so
// a re-delivery relists the same rows.
std::vector<std::string> Cells(const std::vector<std::string_view>& columns, Prng& prng, int year,
                               std::int64_t& row_id) {
    const bool person = prng.Chance(350);
    const sdk::Date first{year - 1, 1, 1};
    const sdk::Date last{year, 12, 31};
    std::vector<std::string> cells;
    cells.reserve(columns.size());
    for (std::string_view column : columns) {
        std::string cell;
        if (prng.Chance(40) && !column.starts_with("ID_")) {
            cell = "";  // a blank cell: a missing value
        } else if (column.starts_with("ID_")) {
            cell = std::to_string(++row_id);
        } else if (column.starts_with("Tipo_Pessoa")) {
            cell = person ? "PF" : "PJ";
        } else if (Contains(column, "CPF_CNPJ") || column.starts_with("Documento_")) {
            cell = person ? Cpf(prng) : sdk::FormatCnpj(Cnpj(prng));
        } else if (Contains(column, "CPF")) {
            cell = Cpf(prng);
        } else if (Contains(column, "CNPJ")) {
            cell = Cnpj(prng);
        } else if (column.starts_with("Codigo_CVM")) {
            cell = std::to_string(prng.Between(1'000, 30'000));
        } else if (column.starts_with("Percentual") || column == "Participacao_Emissor") {
            cell = sdk::sample::Decimal(prng.Between(1, 10'000), 2);
        } else if (column.starts_with("Quantidade") || column.starts_with("Numero_")) {
            cell = std::to_string(prng.Between(0, 900'000'000));
        } else if (column.starts_with("Valor") || column.starts_with("Montante") ||
                   column.starts_with("Saldo") || OneOf(kMoney, column) || OneOf(kMoneyTail, column)) {
            cell = sdk::sample::Decimal(prng.Between(0, 5'000'000'000), 2);
        } else if (column == "Fator_Cotacao") {
            cell = std::to_string(prng.Between(1, 1000));
        } else if (column.starts_with("Data")) {
            cell = column == "Data_Nascimento"
                       ? sdk::sample::RandomDate(prng, {1950, 1, 1}, {1995, 12, 31}).ToString()
                       : sdk::sample::RandomDate(prng, first, last).ToString();
        } else if (OneOf(kFlags, column)) {
            cell = prng.Chance(300) ? "S" : "N";
        } else if (column == "Sigla_UF" || column == "UF_Sede") {
            cell = std::string(prng.Pick(kStates));
        } else if (column == "Nacionalidade") {
            cell = "Brasileira";
        } else if (column == "Pais_Sede") {
            cell = "Brasil";
        } else if (column.starts_with("Orgao_")) {
            cell = std::string(prng.Pick(kOrgans));
        } else if (column.starts_with("Nome") || column == "Representante_Legal") {
            cell = Person(prng);
        } else if (column.starts_with("Acionista") || column == "Auditor" || column == "Razao_Social" ||
                   column == "Parte_Relacionada") {
            cell = person ? Person(prng) : Firm(prng);
        } else {
            cell = std::string(prng.Pick(kPhrases));
        }
        cells.push_back(std::move(cell));
    }
    return cells;
}

constexpr std::array<std::string_view, 3> kCapitalTypes{"Capital Integralizado", "Capital Subscrito",
                                                        "Capital Emitido"};

std::size_t Find(const std::vector<std::string_view>& columns, std::string_view name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
}

// A capital_social row as the form fills it: one row per kind of capital (the first paid-in),
// never blank share counts, and the total the sum of the ordinary and preferred shares.
void ShapeCapital(const std::vector<std::string_view>& own, std::vector<std::string>& cells, int row) {
    cells[Find(own, "Tipo_Capital")] =
        std::string(kCapitalTypes[static_cast<std::size_t>(row) % kCapitalTypes.size()]);
    std::string& ordinary = cells[Find(own, "Quantidade_Acoes_Ordinarias")];
    std::string& preferred = cells[Find(own, "Quantidade_Acoes_Preferenciais")];
    if (ordinary.empty()) {
        ordinary = "1000000";
    }
    if (preferred.empty()) {
        preferred = "0";
    }
    cells[Find(own, "Quantidade_Total_Acoes")] = std::to_string(std::stoll(ordinary) + std::stoll(preferred));
}

// CVM's link to a form's document, as its indexes publish them.
std::string Link(std::string_view form, std::int64_t id) {
    return "https://www.rad.cvm.gov.br/ENET/frmExibirArquivo" + std::string(form) +
           ".aspx?NumeroSequencialDocumento=" + std::to_string(id) + "&CodigoTipoInstituicao=1";
}

// The FCA's members this sample writes, their own columns verbatim
// (shared/datasets/real/cvm_headers/fca_cia_aberta_*_header.csv).
constexpr std::string_view kFcaKeyColumns =
    "CNPJ_Companhia;Data_Referencia;Versao;ID_Documento;Nome_Empresarial";
constexpr std::string_view kGeneralColumns =
    "Data_Nome_Empresarial;Nome_Empresarial_Anterior;Data_Constituicao;Codigo_CVM;Data_Registro_CVM;"
    "Categoria_Registro_CVM;Data_Categoria_Registro_CVM;Situacao_Registro_CVM;Data_Situacao_Registro_CVM;"
    "Pais_Origem;"
    "Pais_Custodia_Valores_Mobiliarios;Setor_Atividade;Descricao_Atividade;Situacao_Emissor;Data_Situacao_"
    "Emissor;"
    "Especie_Controle_Acionario;Data_Especie_Controle_Acionario;Dia_Encerramento_Exercicio_Social;"
    "Mes_Encerramento_Exercicio_Social;Data_Alteracao_Exercicio_Social;Pagina_Web";
constexpr std::string_view kSecurityColumns =
    "Valor_Mobiliario;Sigla_Classe_Acao_Preferencial;Classe_Acao_Preferencial;Codigo_Negociacao;Composicao_"
    "BDR_Unit;"
    "Mercado;Sigla_Entidade_Administradora;Entidade_Administradora;Data_Inicio_Negociacao;Data_Fim_"
    "Negociacao;"
    "Segmento;Data_Inicio_Listagem;Data_Fim_Listagem";
std::vector<std::string> SecurityRow(const FcaSecurity& security) {
    const std::string until = security.until ? security.until->ToString() : "";
    return {std::string(security.kind),
            std::string(security.preferred_class),
            std::string(security.preferred_name),
            security.ticker,
            std::string(security.composition),
            security.exchange ? "Bolsa" : "Balcão Organizado",
            security.exchange ? "B3" : "CETIP",
            security.exchange ? "B3 S.A. - Brasil, Bolsa, Balcão"
                              : "B3 S.A. - Brasil, Bolsa, Balcão - Segmento CETIP UTVM",
            security.since.ToString(),
            until,
            std::string(security.segment),
            security.since.ToString(),
            until};
}

}  // namespace

SecuritiesSample WriteFcaSample(sdk::sample::SampleDirectory& out, const CompanyUniverse& universe,
                                std::uint64_t seed, sdk::SampleScale scale) {
    (void)scale;  // every company delivers one form a year: the registry's size sets the scale
    SecuritiesSample sample;
    const FcaSecurities fca = DrawFcaSecurities(universe, seed);
    sample.cases = fca.cases;
    const sdk::Date reference{kFcaYear, 1, 1};
    std::vector<std::string_view> general = Split(kFcaKeyColumns);
    for (std::string_view column : Split(kGeneralColumns)) {
        general.push_back(column);
    }
    std::vector<std::string_view> securities = Split(kFcaKeyColumns);
    for (std::string_view column : Split(kSecurityColumns)) {
        securities.push_back(column);
    }
    sdk::sample::CsvTable index(kIndexColumns);
    sdk::sample::CsvTable general_table(general);
    sdk::sample::CsvTable security_table(securities);
    std::int64_t document_id = 300'000;
    for (const FcaFiling& filing : fca.filings) {
        const SampleCompany& company = *filing.company;
        const std::string stem = SampleTickerStem(company.cvm_code);
        for (const FcaVersion& version : filing.versions) {
            const std::int64_t id = ++document_id;
            index.AddRow({company.cnpj, reference.ToString(), std::to_string(version.version),
                          company.legal_name, std::to_string(company.cvm_code), "FCA", std::to_string(id),
                          version.delivered.ToString(), Link("FCA", id)});
            const std::vector<std::string> key{company.cnpj, reference.ToString(),
                                               std::to_string(version.version), std::to_string(id),
                                               company.legal_name};
            std::vector<std::string> row = key;
            for (const std::string& cell : {std::string(""),
                                            std::string(""),
                                            company.constituted.ToString(),
                                            std::to_string(company.cvm_code),
                                            company.registered.ToString(),
                                            company.category,
                                            company.registered.ToString(),
                                            company.situation,
                                            company.situation_since.ToString(),
                                            std::string("Brasil"),
                                            std::string("Brasil"),
                                            company.sector,
                                            std::string("Atividades de ") + company.sector,
                                            company.issuer_phase,
                                            company.situation_since.ToString(),
                                            company.control,
                                            company.registered.ToString(),
                                            std::string("31"),
                                            std::string("12"),
                                            std::string(""),
                                            std::string("https://ri.") + stem + ".com.br"}) {
                row.push_back(cell);
            }
            general_table.AddRow(row);
            for (const FcaSecurity& security : version.securities) {
                std::vector<std::string> line = key;
                const std::vector<std::string> cells = SecurityRow(security);
                line.insert(line.end(), cells.begin(), cells.end());
                security_table.AddRow(line);
            }
        }
    }
    sample.index_rows = index.RowCount();
    sample.table_rows = general_table.RowCount() + security_table.RowCount();
    const std::string suffix = "_" + std::to_string(kFcaYear) + ".csv";
    out.WriteZip("fca_cia_aberta_" + std::to_string(kFcaYear) + ".zip",
                 {{"fca_cia_aberta" + suffix, WithCrlf(index.ToLatin1())},
                  {"fca_cia_aberta_geral" + suffix, WithCrlf(general_table.ToLatin1())},
                  {"fca_cia_aberta_valor_mobiliario" + suffix, WithCrlf(security_table.ToLatin1())}});
    return sample;
}

FilingsSample WriteFreSample(sdk::sample::SampleDirectory& out, const CompanyUniverse& universe,
                             std::uint64_t seed, sdk::SampleScale scale) {
    const bool full = scale == sdk::SampleScale::kFull;
    FilingsSample sample;
    const SampleCompany* planted = nullptr;
    for (const SampleCompany& company : universe.current) {
        if (company.legal_name == universe.cases.accented_name) {
            planted = &company;
        }
    }
    std::int64_t document_id = 90'000;
    for (const int year : {kFreOldFormYear, kFreNewFormYear}) {
        Prng prng = Prng::ForStream(seed, sdk::sample::StreamOf("cvm.fre_cia_aberta"),
                                    static_cast<std::uint64_t>(year));
        const sdk::Date reference{year, 1, 1};
        // Each company's documents: version 1 in the first half of the year, and a re-delivery now
        // and then; the planted company delivers three versions of its 2025 form.
        std::vector<Document> documents;
        for (const SampleCompany& company : universe.current) {
            if (!DeliversForms(company, year)) {
                continue;
            }
            Document first{&company, 1, ++document_id,
                           sdk::sample::RandomDate(prng, {year, 3, 1}, {year, 6, 30})};
            documents.push_back(first);
            const int versions =
                &company == planted && year == kFreNewFormYear ? 3 : (prng.Chance(150) ? 2 : 1);
            for (int v = 2; v <= versions; ++v) {
                Document again = documents.back();
                again.version = v;
                again.id = ++document_id;
                again.delivered =
                    sdk::sample::AddDays(again.delivered, static_cast<int>(prng.Between(20, 60)));
                documents.push_back(again);
            }
        }
        if (planted && year == kFreNewFormYear) {
            sample.cases.cvm_code = planted->cvm_code;
            std::string digits;
            for (char c : planted->cnpj) {
                if (c >= '0' && c <= '9') {
                    digits += c;
                }
            }
            sample.cases.cnpj = digits;
            int v = 0;
            for (const Document& d : documents) {
                if (d.company == planted) {
                    sample.cases.delivered[v++] = d.delivered.ToString();
                }
            }
        }

        sdk::sample::CsvTable index(kIndexColumns);
        for (const Document& d : documents) {
            index.AddRow({d.company->cnpj, reference.ToString(), std::to_string(d.version),
                          d.company->legal_name, std::to_string(d.company->cvm_code), "FRE",
                          std::to_string(d.id), d.delivered.ToString(), Link("FRE", d.id)});
        }
        sample.index_rows += index.RowCount();
        const std::string suffix = "_" + std::to_string(year) + ".csv";
        std::vector<sdk::sample::ArchiveMember> members;
        members.push_back({"fre_cia_aberta" + suffix, WithCrlf(index.ToLatin1())});

        for (const FormTable& table : kTables) {
            if (!(year == kFreOldFormYear ? table.old_form : table.new_form)) {
                continue;
            }
            const std::vector<std::string_view> own = Split(table.columns);
            std::vector<std::string_view> header = Split(kKeyColumns);
            header.insert(header.end(), own.begin(), own.end());
            sdk::sample::CsvTable member(header);
            std::int64_t row_id = 0;
            for (const Document& d : documents) {
                // The document's content: the same rows for every version of a company's form.
                Prng content =
                    Prng::ForStream(seed, sdk::sample::StreamOf(table.name),
                                    static_cast<std::uint64_t>(d.company->cvm_code * 10'000 + year));
                const int rows = static_cast<int>(full ? content.Between(0, 2 * table.full_rows)
                                                       : content.Between(1, table.sample_rows));
                for (int r = 0; r < rows; ++r) {
                    std::vector<std::string> cells = Cells(own, content, year, row_id);
                    if (table.name == "capital_social") {
                        ShapeCapital(own, cells, r);
                    }
                    if (d.company == planted) {
                        // The planted company's cases: its capital changes with each version, a
                        // shareholder is a person (a CPF), one holding has CVM's placeholder CNPJ.
                        for (std::size_t c = 0; c < own.size(); ++c) {
                            if (own[c] == "Valor_Capital" && r == 0) {
                                cells[c] =
                                    std::to_string(1'500'000'000 + 250'000'000 * (d.version - 1)) + ".00";
                            } else if (own[c] == "Tipo_Pessoa_Acionista" && r == 0) {
                                cells[c] = "PF";
                            } else if (own[c] == "CPF_CNPJ_Acionista" && r == 0) {
                                cells[c] = "529.982.247-25";
                            } else if (own[c] == "CNPJ" && r == 0) {
                                cells[c] = "00000000000000";
                            } else if (own[c] == "Percentual_Total_Acoes_Circulacao" && r == 0) {
                                cells[c] = "95.73";
                            }
                        }
                    }
                    std::vector<std::string> line{d.company->cnpj, reference.ToString(),
                                                  std::to_string(d.version), std::to_string(d.id),
                                                  d.company->legal_name};
                    line.insert(line.end(), cells.begin(), cells.end());
                    member.AddRow(line);
                }
            }
            sample.table_rows += member.RowCount();
            members.push_back(
                {"fre_cia_aberta_" + std::string(table.name) + suffix, WithCrlf(member.ToLatin1())});
        }
        out.WriteZip("fre_cia_aberta_" + std::to_string(year) + ".zip", std::move(members));
    }
    return sample;
}

}  // namespace lastro::companies
