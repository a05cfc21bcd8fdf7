#include "sample/issuances_writer.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/sample/csv_table.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace lastro::companies {
namespace {

using sdk::sample::Prng;

// The published headers (../shared/datasets/real/cvm_headers/), every column in file order.
// inf_mensal_cri_geral_header.csv, verbatim
constexpr std::array<std::string_view, 44> kCriGeral{"CNPJ_Emissora",
                                                     "Codigo_Identificacao_Certificado",
                                                     "Data_Referencia",
                                                     "Versao",
                                                     "Data_Entrega",
                                                     "Numero_Emissao",
                                                     "Nome_Emissao",
                                                     "Quantidade_Series",
                                                     "Data_Emissao",
                                                     "Companhia_Emissora",
                                                     "Instituicao_Regime_Fiduciario",
                                                     "Agente_Fiduciario",
                                                     "CNPJ_Agente_Fiduciario",
                                                     "Custodiante",
                                                     "CNPJ_Custodiante",
                                                     "Segmento_Creditos_Vinculados",
                                                     "Valor_Aquisicao_Credito",
                                                     "Taxas_Medias_Indexadores_Creditos_Vinculados",
                                                     "Anos_Duration_Carteira",
                                                     "Meses_Duration_Carteira",
                                                     "Forma_Calculo_Duration",
                                                     "Tipos_Garantias_Coobrigacao_Securitizadora",
                                                     "Tipos_Garantias_Coobrigacao_Terceiros",
                                                     "Indice_LTV",
                                                     "Data_LTV",
                                                     "Tipo_Lastro",
                                                     "Detalhamento_Lastro",
                                                     "Sobrecolateralizacao",
                                                     "Outras_Caracteristicas_Emissao",
                                                     "Tipo_Retencao_Risco",
                                                     "Retentor_Risco",
                                                     "Agencia_Classificadora",
                                                     "CNPJ_Agencia_Classificadora",
                                                     "Data_Ultima_Classificacao",
                                                     "Recomposicao_Indice",
                                                     "Impacto_Eventos_Pre_Pagamento",
                                                     "Analise_Impacto_Eventos_Pre_Pagamento",
                                                     "Analise_Impacto_Outros_Eventos",
                                                     "Analise_Impacto_Demais_Fatos",
                                                     "Patrimonio_Liquido_Emissao",
                                                     "Desempenho_Emissao",
                                                     "Contingencias_Principais_Fatos",
                                                     "Contingencias_Valores_Envolvidos",
                                                     "Outras_Contigencias_Relevantes"};
// inf_mensal_cri_classe_header.csv, verbatim
constexpr std::array<std::string_view, 28> kCriClasse{"CNPJ_Emissora",
                                                      "Codigo_Identificacao_Certificado",
                                                      "Data_Referencia",
                                                      "Versao",
                                                      "Classe",
                                                      "Numero_Serie",
                                                      "Tipo_Oferta",
                                                      "Codigo_CETIP",
                                                      "Codigo_ISIN",
                                                      "Quantidade",
                                                      "Valor",
                                                      "Data_Vencimento",
                                                      "Taxas_Indexadores",
                                                      "Situacao",
                                                      "Total_Integralizado",
                                                      "Taxa_Juros",
                                                      "Pagamento_Periodicidade",
                                                      "Pagamento_Mes_Base",
                                                      "Quantidade_Certificados",
                                                      "Valor_Certificados",
                                                      "Rendimentos",
                                                      "Amortizacoes",
                                                      "Rentabilidade",
                                                      "Classificacao_Risco_Atual",
                                                      "Nivel_Subordinacao",
                                                      "Periodicidade_Amortizacao",
                                                      "Indice_Subordinacao_Minimo",
                                                      "Indice_Subordinacao_Data_Base"};
// inf_mensal_cra_geral_header.csv, verbatim
constexpr std::array<std::string_view, 31> kCraGeral{"CNPJ_Emissora",
                                                     "Codigo_Identificacao_Certificado",
                                                     "Data_Referencia",
                                                     "Versao",
                                                     "Data_Entrega",
                                                     "Companhia_Emissora",
                                                     "Agente_Fiduciario",
                                                     "CNPJ_Agente_Fiduciario",
                                                     "Custodiante",
                                                     "CNPJ_Custodiante",
                                                     "Instituicao_Regime_Fiduciario",
                                                     "Revolvencia",
                                                     "Numero_Emissao",
                                                     "Nome_Emissao",
                                                     "Quantidade_Series",
                                                     "Data_Emissao",
                                                     "Tipo_Lastro",
                                                     "Detalhamento_Lastro",
                                                     "Sobrecolateralizacao",
                                                     "Outras_Caracteristicas_Emissao",
                                                     "Cadeia_Producao",
                                                     "Tipo_Segmento",
                                                     "Especificacao_Tipo_Segmento",
                                                     "Tipo_Retencao_Risco",
                                                     "Retentor_Risco",
                                                     "Agencia_Classificadora",
                                                     "CNPJ_Agencia_Classificadora",
                                                     "Data_Ultima_Classificacao",
                                                     "Recomposicao_Indice",
                                                     "Patrimonio_Liquido_Emissao",
                                                     "Desempenho_Emissao"};
// inf_mensal_cra_classe_header.csv, verbatim
constexpr std::array<std::string_view, 23> kCraClasse{"CNPJ_Emissora",
                                                      "Codigo_Identificacao_Certificado",
                                                      "Data_Referencia",
                                                      "Versao",
                                                      "Classe",
                                                      "Numero_Serie",
                                                      "Tipo_Oferta",
                                                      "Codigo_CETIP",
                                                      "Codigo_ISIN",
                                                      "Data_Vencimento",
                                                      "Situacao",
                                                      "Valor_Total_Integralizado",
                                                      "Taxa_Juros",
                                                      "Pagamento_Periodicidade",
                                                      "Pagamento_Mes_Base",
                                                      "Quantidade_Certificados",
                                                      "Valor_Certificados",
                                                      "Rendimentos",
                                                      "Amortizacoes",
                                                      "Rentabilidade",
                                                      "Classificacao_Risco_Atual",
                                                      "Indice_Subordinacao_Minimo",
                                                      "Indice_Subordinacao_Data_Base"};
// inf_mensal_cri_cedente_devedor_header.csv, verbatim
constexpr std::array<std::string_view, 7> kCriCedente{
    "CNPJ_Emissora", "Codigo_Identificacao_Certificado", "Data_Referencia", "Versao", "Tipo", "CNPJ",
    "Percentual"};
// inf_mensal_cra_cedente_devedor_header.csv, verbatim
constexpr std::array<std::string_view, 7> kCraCedente{
    "CNPJ_Emissora", "Codigo_Identificacao_Certificado", "Data_Referencia", "Versao", "Tipo", "CNPJ",
    "Percentual"};
// oferta_distribuicao_header.csv, verbatim
constexpr std::array<std::string_view, 76> kLegacy{
    "Numero_Processo",
    "Numero_Registro_Oferta",
    "Tipo_Oferta",
    "Tipo_Componente_Oferta_Mista",
    "Tipo_Ativo",
    "CNPJ_Emissor",
    "Nome_Emissor",
    "CNPJ_Lider",
    "Nome_Lider",
    "Nome_Vendedor",
    "CNPJ_Ofertante",
    "Nome_Ofertante",
    "Rito_Oferta",
    "Modalidade_Oferta",
    "Modalidade_Registro",
    "Modalidade_Dispensa_Registro",
    "Data_Abertura_Processo",
    "Data_Protocolo",
    "Data_Dispensa_Oferta",
    "Data_Registro_Oferta",
    "Data_Inicio_Oferta",
    "Data_Encerramento_Oferta",
    "Emissao",
    "Classe_Ativo",
    "Serie",
    "Especie_Ativo",
    "Forma_Ativo",
    "Data_Emissao",
    "Data_Vencimento",
    "Quantidade_Sem_Lote_Suplementar",
    "Quantidade_No_Lote_Suplementar",
    "Quantidade_Total",
    "Preco_Unitario",
    "Valor_Total",
    "Oferta_Inicial",
    "Oferta_Incentivo_Fiscal",
    "Oferta_Regime_Fiduciario",
    "Atualizacao_Monetaria",
    "Juros",
    "Projeto_Audiovisual",
    "Tipo_Societario_Emissor",
    "Tipo_Fundo_Investimento",
    "Ultimo_Comunicado",
    "Data_Comunicado",
    "Nr_Pessoa_Fisica",
    "Qtd_Pessoa_Fisica",
    "Nr_Clube_Investimento",
    "Qtd_Clube_Investimento",
    "Nr_Fundos_Investimento",
    "Qtd_Fundos_Investimento",
    "Nr_Entidade_Previdencia_Privada",
    "Qtd_Entidade_Previdencia_Privada",
    "Nr_Companhia_Seguradora",
    "Qtd_Companhia_Seguradora",
    "Nr_Investidor_Estrangeiro",
    "Qtd_Investidor_Estrangeiro",
    "Nr_Instit_Intermed_Partic_Consorcio_Distrib",
    "Qtd_Instit_Intermed_Partic_Consorcio_Distrib",
    "Nr_Instit_Financ_Emissora_Partic_Consorcio",
    "Qtd_Instit_Financ_Emissora_Partic_Consorcio",
    "Nr_Demais_Instit_Financ",
    "Qtd_Demais_Instit_Financ",
    "Nr_Demais_Pessoa_Juridica_Emissora_Partic_Consorcio",
    "Qtd_Demais_Pessoa_Juridica_Emissora_Partic_Consorcio",
    "Nr_Demais_Pessoa_Juridica",
    "Qtd_Demais_Pessoa_Juridica",
    "Nr_Soc_Adm_Emp_Prop_Demais_Pess_Jurid_Emiss_Partic_Consorcio",
    "Qdt_Soc_Adm_Emp_Prop_Demais_Pess_Jurid_Emiss_Partic_Consorcio",
    "Nr_Outros",
    "Qtd_Outros",
    "Qtd_Cli_Pessoa_Fisica",
    "Qtd_Cli_Pessoa_Juridica",
    "Qtd_Cli_Pessoa_Juridica_Ligada_Adm",
    "QtD_Cli_Demais_Pessoa_Juridica",
    "Qtd_Cli_Investidor_Estrangeiro",
    "Qtd_Cli_Soc_Adm_Emp_Prop_Demais_Pess_Jurid_Emiss_Partic_Consorcio"};
// oferta_resolucao_160_header.csv, verbatim
constexpr std::array<std::string_view, 71> kRcvm160{
    "Numero_Requerimento",
    "Rito_Requerimento",
    "Numero_Processo",
    "Data_requerimento",
    "Data_Registro",
    "Data_Encerramento",
    "Status_Requerimento",
    "Valor_Mobiliario",
    "Tipo_requerimento",
    "Bookbuilding",
    "CNPJ_Emissor",
    "Nome_Emissor",
    "CNPJ_Lider",
    "Nome_Lider",
    "Grupo_Coordenador",
    "Tipo_Oferta",
    "Emissao",
    "Qtde_Total_Registrada",
    "Valor_Total_Registrado",
    "Oferta_inicial",
    "Oferta_vasos_comunicantes",
    "Publico_alvo",
    "Reabertura_serie",
    "Titulo_classificado_como_sustentavel",
    "Titulo_padronizado",
    "Destinacao_recursos",
    "Data_deliberacao_aprovou_oferta",
    "Mercado_negociacao",
    "Tipo_lastro",
    "Regime_fiduciario",
    "Ativos_alvo",
    "Descricao_garantias",
    "Descricao_lastro",
    "Identificacao_devedores_coobrigados",
    "Possibilidade_revolvencia",
    "FIDC_nao_padronizado",
    "Titulo_incentivado",
    "Regime_distribuicao",
    "Tipo_societario",
    "Administrador",
    "Gestor",
    "Agente_fiduciario",
    "Escriturador",
    "Custodiante",
    "Avaliador_Risco",
    "Processo_SEI",
    "Endereco_emissor_rede_mundial_computadores",
    "Num_Invest_Pessoa_Natural",
    "Qtde_VM_Pessoa_Natural",
    "Num_Invest_Clube_Investimento",
    "Qtde_VM_Clube_Investimento",
    "Num_Invest_Fundos_Investimento",
    "Qtde_VM_Fundos_Investimento",
    "Num_Invest_Entidade_Previdencia_Privada",
    "Qtde_VM_Entidade_Previdencia_Privada",
    "Num_Invest_Companhia_Seguradora",
    "Qtde_VM_Companhia_Seguradora",
    "Num_Invest_Investidor_Estrangeiro",
    "Qtde_VM_Investidor_Estrangeiro",
    "Num_Invest_Instit_Intermed_Partic_Consorcio_Distrib",
    "Qtde_VM_Instit_Intermed_Partic_Consorcio_Distrib",
    "Num_Invest_Instit_Financ_Emissora_Partic_Consorcio",
    "Qtde_VM_Instit_Financ_Emissora_Partic_Consorcio",
    "Num_Invest_Demais_Instit_Financ",
    "Qtde_VM_Demais_Instit_Financ",
    "Num_Invest_Demais_Pessoa_Juridica_Emissora_Partic_Consorcio",
    "Qtde_VM_Demais_Pessoa_Juridica_Emissora_Partic_Consorcio",
    "Num_Invest_Demais_Pessoa_Juridica",
    "Qtde_VM_Demais_Pessoa_Juridica",
    "Num_Invest_Soc_Adm_Emp_Prop_Demais_Pess_Jurid_Emiss_Partic_Consorcio",
    "Qdte_VM_Soc_Adm_Emp_Prop_Demais_Pess_Jurid_Emiss_Partic_Consorcio"};

// One row of a table, its fields set by column name; the others stay blank.
class Row {
public:
    explicit Row(std::span<const std::string_view> columns) : columns_(columns), fields_(columns.size()) {}
    Row& Set(std::string_view column, std::string value) {
        const auto found = std::find(columns_.begin(), columns_.end(), column);
        if (found == columns_.end()) {
            throw std::logic_error("no column " + std::string(column) + " in the layout");
        }
        fields_[static_cast<std::size_t>(found - columns_.begin())] = std::move(value);
        return *this;
    }
    const std::vector<std::string>& Fields() const { return fields_; }

private:
    std::span<const std::string_view> columns_;
    std::vector<std::string> fields_;
};

// CVM's files end their lines with CR LF.
std::string Crlf(const std::string& lf) {
    std::string text;
    text.reserve(lf.size() + lf.size() / 40);
    for (char c : lf) {
        if (c == '\n') {
            text.push_back('\r');
        }
        text.push_back(c);
    }
    return text;
}

struct Securitizer {
    std::string cnpj;  // masked
    std::string name;
};

struct Series {
    std::string class_name;
    std::string number;
    std::string cetip;
    std::string isin;
    sdk::Date maturity;
    std::string rate;
    std::string indexer;
    std::int64_t quantity = 0;
    std::int64_t unit_cents = 0;  // the nominal value of one certificate
};

struct Certificate {
    bool cri = true;
    const Securitizer* securitizer = nullptr;
    std::string cnpj_cell;  // as written: the securitizer's, or a dirty cell
    std::string code;
    int emission = 1;
    std::string emission_number;  // as written
    std::string emission_name;
    sdk::Date issued;
    sdk::Date first_month;  // the first month reported (its last day)
    sdk::Date last_month;   // the last month reported
    std::string lastro;
    std::string segment;
    std::vector<Series> series;
    std::int64_t net_worth_cents = 0;
};

constexpr std::array<std::string_view, 6> kPlaces{"Loteamento Aurora", "Edifício Ipê",
                                                  "Shopping Cerrado",  "Galpões Logísticos Guará",
                                                  "Residencial Maré",  "Lajes Corporativas Planalto"};
constexpr std::array<std::string_view, 6> kCrops{"Soja", "Milho",   "Cana-de-Açúcar",
                                                 "Café", "Algodão", "Pecuária"};
constexpr std::array<std::string_view, 4> kRates{"IPCA + 6,50% a.a.", "100% CDI + 2,00% a.a.",
                                                 "IGP-M + 7,00% a.a.", "CDI + 1,25% a.a."};

std::string Money(std::int64_t cents) {
    return sdk::sample::CentsField(cents);
}

// A CETIP-style code: two digits of the year, a letter of the month, seven digits.
std::string CetipCode(const sdk::Date& issued, std::uint64_t sequence) {
    char text[16];
    std::snprintf(text, sizeof text, "%02d%c%07llu", issued.year % 100,
                  static_cast<char>('A' + issued.month - 1),
                  static_cast<unsigned long long>(sequence % 10'000'000));
    return text;
}

sdk::Date MonthEnd(const sdk::Date& date) {
    return sdk::sample::LastDayOfMonth(date.year, date.month);
}

sdk::Date NextMonthEnd(const sdk::Date& month_end) {
    return MonthEnd(sdk::sample::AddDays(month_end, 1));
}

std::string MaskedCnpj(Prng& prng) {
    const std::string twelve = std::to_string(prng.Between(10'000'000, 99'999'999)) + "0001";
    return sdk::FormatCnpj(sdk::CnpjWithCheckDigits(twelve));
}

std::string Digits(const std::string& text) {
    std::string digits;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digits.push_back(c);
        }
    }
    return digits;
}

}  // namespace

IssuancesSample WriteIssuancesSample(sdk::sample::SampleDirectory& out, const CompanyUniverse& universe,
                                     std::uint64_t seed, sdk::SampleScale scale) {
    const bool full = scale == sdk::SampleScale::kFull;
    Prng prng = Prng::ForStream(seed, sdk::sample::StreamOf("cvm.inf_mensal_cri"));
    IssuancesSample sample;
    IssuanceCases& cases = sample.cases;

    // The securitizers: the registry's (SETOR_ATIV Securitização de Recebíveis), then some it does
    // not list (CVM's reports name many securitizers that are not listed companies).
    std::vector<Securitizer> securitizers;
    for (const SampleCompany& company : universe.current) {
        if (company.securitizer) {
            securitizers.push_back({company.cnpj, company.legal_name});
        }
    }
    if (securitizers.empty()) {
        throw std::logic_error("the sample universe has no securitizer");
    }
    std::sort(securitizers.begin(), securitizers.end(),
              [](const Securitizer& a, const Securitizer& b) { return a.cnpj < b.cnpj; });
    const std::size_t unlisted = full ? 60 : 1;
    for (std::size_t i = 0; i < unlisted; ++i) {
        securitizers.push_back({MaskedCnpj(prng), "Virgo " + std::to_string(i + 1) + " Securitizadora S.A."});
    }
    cases.shared_securitizer_cnpj = Digits(securitizers[0].cnpj);
    cases.unlisted_cnpj = Digits(securitizers[securitizers.size() - unlisted].cnpj);

    // The certificates.
    const sdk::Date first_month{kCertificateFirstYear, 1, 31};
    const sdk::Date last_month = MonthEnd(
        sdk::sample::AddDays(sdk::Date{kCompaniesReferenceDate.year, kCompaniesReferenceDate.month, 1}, -1));
    const std::size_t cri_count = full ? 900 : 8;
    const std::size_t cra_count = full ? 450 : 4;
    std::vector<Certificate> certificates;
    std::vector<int> emissions(securitizers.size(), 0);
    std::uint64_t sequence = 0;
    for (std::size_t i = 0; i < cri_count + cra_count; ++i) {
        Certificate c;
        c.cri = i < cri_count;
        // The first CRI and the first CRA are the shared securitizer's; the others spread over all.
        const std::size_t who =
            (i == 0 || i == cri_count) ? 0 : static_cast<std::size_t>(prng.Below(securitizers.size()));
        c.securitizer = &securitizers[who];
        c.cnpj_cell = c.securitizer->cnpj;
        c.emission = ++emissions[who];
        c.emission_number = std::to_string(c.emission);
        c.issued = sdk::sample::RandomDate(prng, sdk::Date{2019, 1, 2}, sdk::Date{2026, 5, 28});
        c.code = CetipCode(c.issued, 1'000'000 + (++sequence) * 7919);
        if (c.cri) {
            const std::string place(prng.Pick(kPlaces));
            c.emission_name = std::to_string(c.emission) + "ª Emissão de CRI - " + place;
            c.lastro = prng.Chance(500) ? "Contratos de compra e venda" : "CCI";
            c.segment = prng.Chance(500) ? "Residencial" : "Comercial";
        } else {
            const std::string crop(prng.Pick(kCrops));
            c.emission_name = std::to_string(c.emission) + "ª Emissão de CRA - " + crop;
            c.lastro = "CPR-F";
            c.segment = crop;
        }
        c.first_month = std::max(first_month, MonthEnd(c.issued));
        c.last_month = last_month;
        const int series = static_cast<int>(prng.Between(1, 3));
        for (int s = 0; s < series; ++s) {
            Series serie;
            serie.class_name = s == 0 ? "Sênior" : (s == series - 1 ? "Subordinada" : "Mezanino");
            serie.number = std::to_string(s + 1);
            serie.cetip = CetipCode(c.issued, 2'000'000 + (++sequence) * 104'729);
            serie.isin = "BR" + std::string(c.cri ? "RBR" : "ECO") + (c.cri ? "CRI" : "CRA") +
                         std::to_string(100 + sequence % 900) + "0";
            serie.maturity = sdk::sample::AddDays(c.issued, static_cast<int>(prng.Between(720, 5400)));
            serie.rate = std::string(prng.Pick(kRates));
            serie.indexer = serie.rate.substr(0, serie.rate.find(' '));
            serie.quantity = prng.Between(1'000, 400'000);
            serie.unit_cents = 100'000;
            c.series.push_back(serie);
        }
        c.net_worth_cents = prng.Between(10'000'000, 80'000'000'000);
        certificates.push_back(std::move(c));
    }
    // The planted cases (fixed positions, every scale), issued before the first month reported.
    for (std::size_t i :
         {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, cri_count, cri_count + 1}) {
        Certificate& c = certificates[i];
        if (first_month < c.issued) {
            c.issued = sdk::Date{2024, 6, static_cast<int>(10 + i % 10)};
            c.first_month = first_month;
        }
    }
    Certificate& reissued = certificates[0];
    reissued.emission_name = "1ª Emissão de CRI - Loteamento Aurora";
    cases.reissued_code = reissued.code;
    Certificate& ended = certificates[1];
    ended.last_month = sdk::Date{2026, 3, 31};
    cases.ended_code = ended.code;
    Certificate& dirty = certificates[cri_count + 1];
    dirty.cnpj_cell = "0";
    cases.dirty_code = dirty.code;
    Certificate& twelfth = certificates[2];
    twelfth.emission_number = std::to_string(twelfth.emission) + "ª";  // a number written with its ordinal
    Certificate& by_unlisted = certificates[3];
    by_unlisted.securitizer = &securitizers[securitizers.size() - unlisted];
    by_unlisted.cnpj_cell = by_unlisted.securitizer->cnpj;

    // The monthly reports, one zip per type and year.
    for (const bool cri : {true, false}) {
        const std::string prefix = cri ? "inf_mensal_cri" : "inf_mensal_cra";
        const std::span<const std::string_view> geral_columns =
            cri ? std::span<const std::string_view>(kCriGeral) : std::span<const std::string_view>(kCraGeral);
        const std::span<const std::string_view> classe_columns =
            cri ? std::span<const std::string_view>(kCriClasse)
                : std::span<const std::string_view>(kCraClasse);
        const std::span<const std::string_view> cedente_columns =
            cri ? std::span<const std::string_view>(kCriCedente)
                : std::span<const std::string_view>(kCraCedente);
        for (int year = kCertificateFirstYear; year <= kCertificateLastYear; ++year) {
            sdk::sample::CsvTable geral(geral_columns);
            sdk::sample::CsvTable classe(classe_columns);
            sdk::sample::CsvTable cedente(cedente_columns);
            for (sdk::Date month{year, 1, 31}; month.year == year && month <= last_month;
                 month = NextMonthEnd(month)) {
                for (const Certificate& c : certificates) {
                    if (c.cri != cri || month < c.first_month || c.last_month < month) {
                        continue;
                    }
                    // The re-reported month: Versao 1, then Versao 2 correcting the net worth and a series.
                    const bool twice = &c == &reissued && month == sdk::Date{2026, 8, 31};
                    for (int version = 1; version <= (twice ? 2 : 1); ++version) {
                        const std::string reference = month.ToString();
                        const std::string delivered =
                            sdk::sample::AddDays(month, 20 + version * 5).ToString();
                        const std::int64_t net_worth = c.net_worth_cents + (month.month * 1'000'00) +
                                                       (twice && version == 1 ? 5'000'00 : 0);
                        Row row(geral_columns);
                        row.Set("CNPJ_Emissora", c.cnpj_cell)
                            .Set("Codigo_Identificacao_Certificado", c.code)
                            .Set("Data_Referencia", reference)
                            .Set("Versao", std::to_string(version))
                            .Set("Data_Entrega", delivered)
                            .Set("Numero_Emissao", c.emission_number)
                            .Set("Nome_Emissao", c.emission_name)
                            .Set("Quantidade_Series", std::to_string(c.series.size()))
                            .Set("Data_Emissao", c.issued.ToString())
                            .Set("Companhia_Emissora", c.securitizer->name)
                            .Set("Agente_Fiduciario", "Oliveira Trust DTVM S.A.")
                            .Set("CNPJ_Agente_Fiduciario", "36.113.876/0001-91")
                            .Set("Tipo_Lastro", c.lastro)
                            .Set("Detalhamento_Lastro",
                                 cri ? "Créditos imobiliários" : "Direitos creditórios do agronegócio")
                            .Set(cri ? "Segmento_Creditos_Vinculados" : "Tipo_Segmento", c.segment)
                            .Set("Agencia_Classificadora", "")
                            .Set("Patrimonio_Liquido_Emissao", Money(net_worth));
                        geral.AddRow(row.Fields());
                        for (std::size_t s = 0; s < c.series.size(); ++s) {
                            const Series& serie = c.series[s];
                            const std::int64_t paid_in = serie.quantity * serie.unit_cents;
                            Row line(classe_columns);
                            line.Set("CNPJ_Emissora", c.cnpj_cell)
                                .Set("Codigo_Identificacao_Certificado", c.code)
                                .Set("Data_Referencia", reference)
                                .Set("Versao", std::to_string(version))
                                .Set("Classe", serie.class_name)
                                .Set("Numero_Serie", serie.number)
                                .Set("Tipo_Oferta", "Oferta pública")
                                .Set("Codigo_CETIP", serie.cetip)
                                .Set("Codigo_ISIN", serie.isin)
                                .Set("Data_Vencimento", serie.maturity.ToString())
                                .Set("Situacao", "Adimplente")
                                .Set(cri ? "Total_Integralizado" : "Valor_Total_Integralizado",
                                     Money(twice && version == 1 && s == 0 ? paid_in / 2 : paid_in))
                                .Set("Taxa_Juros", serie.rate)
                                .Set("Quantidade_Certificados", std::to_string(serie.quantity))
                                .Set("Valor_Certificados", Money(serie.unit_cents));
                            if (cri) {
                                line.Set("Taxas_Indexadores", serie.indexer);
                            }
                            classe.AddRow(line.Fields());
                        }
                        Row debtor(cedente_columns);
                        // CVM's cedente/devedor cells hold CPFs and zeros too; this member is not read.
                        debtor.Set("CNPJ_Emissora", c.cnpj_cell)
                            .Set("Codigo_Identificacao_Certificado", c.code)
                            .Set("Data_Referencia", reference)
                            .Set("Versao", std::to_string(version))
                            .Set("Tipo", "Devedor")
                            .Set("CNPJ", prng.Chance(200) ? "123.456.789-09" : c.cnpj_cell)
                            .Set("Percentual", "100.00");
                        cedente.AddRow(debtor.Fields());
                    }
                }
            }
            (cri ? sample.cri_reports : sample.cra_reports) += geral.RowCount();
            const std::string y = std::to_string(year);
            out.WriteZip(prefix + "_" + y + ".zip",
                         {{prefix + "_geral_" + y + ".csv", Crlf(geral.ToLatin1())},
                          {prefix + "_classe_" + y + ".csv", Crlf(classe.ToLatin1())},
                          {prefix + "_cedente_devedor_" + y + ".csv", Crlf(cedente.ToLatin1())}});
        }
    }

    // The offerings: both regimes, every asset (most rows are of other assets, as in CVM's file).
    sdk::sample::CsvTable legacy(kLegacy);
    sdk::sample::CsvTable rcvm160(kRcvm160);
    std::uint64_t process = 0;
    for (std::size_t i = 0; i < certificates.size(); ++i) {
        const Certificate& c = certificates[i];
        if (c.cnpj_cell.size() < 14 || !prng.Chance(i < 2 || i == cri_count ? 1000 : 600)) {
            continue;
        }
        const std::string asset =
            c.cri ? "Certificados de Recebíveis Imobiliários" : "Certificados de Recebíveis do Agronegócio";
        const std::int64_t value = c.series[0].quantity * c.series[0].unit_cents;
        // Before 2023 an offering is registered under the legacy rules; from then on under RCVM 160.
        if (c.issued.year < 2023 || i == 0) {
            const std::uint64_t number = ++process;
            Row row(kLegacy);
            row.Set("Numero_Processo",
                    "RJ-" + std::to_string(c.issued.year) + "-" + std::to_string(10'000 + number))
                .Set("Numero_Registro_Oferta", "CVM/SRE/" + std::string(c.cri ? "CRI" : "CRA") + "/" +
                                                   std::to_string(c.issued.year) + "/" +
                                                   std::to_string(100 + number))
                .Set("Tipo_Oferta", "Primária")
                .Set("Tipo_Ativo", asset)
                .Set("CNPJ_Emissor", c.cnpj_cell)
                .Set("Nome_Emissor", c.securitizer->name)
                .Set("Nome_Lider", "Banco Itaú BBA S.A.")
                .Set("Rito_Oferta", "Ordinário")
                .Set("Data_Protocolo", sdk::sample::AddDays(c.issued, -40).ToString())
                .Set("Data_Registro_Oferta", sdk::sample::AddDays(c.issued, -5).ToString())
                .Set("Data_Inicio_Oferta", c.issued.ToString())
                .Set("Data_Encerramento_Oferta", sdk::sample::AddDays(c.issued, 60).ToString())
                .Set("Emissao", c.emission_number)
                .Set("Serie", "1")
                .Set("Data_Emissao", c.issued.ToString())
                .Set("Data_Vencimento", c.series[0].maturity.ToString())
                .Set("Quantidade_Total", std::to_string(c.series[0].quantity))
                .Set("Preco_Unitario", Money(c.series[0].unit_cents))
                .Set("Valor_Total", Money(value))
                .Set("Oferta_Regime_Fiduciario", "S");
            legacy.AddRow(row.Fields());
        }
        if (c.issued.year >= 2023 || i == 0) {
            const std::uint64_t number = ++process;
            Row row(kRcvm160);
            const sdk::Date approved = sdk::sample::AddDays(c.issued, -30);
            char approved_text[16];  // DD/MM/YYYY, as RCVM 160's Data_deliberacao_aprovou_oferta is written
            std::snprintf(approved_text, sizeof approved_text, "%02d/%02d/%04d", approved.day, approved.month,
                          approved.year);
            row.Set("Numero_Requerimento", std::to_string(2023'000'000 + number))
                .Set("Rito_Requerimento", "Automático")
                .Set("Numero_Processo", "19957." + std::to_string(100'000 + number) + "/2023-11")
                .Set("Data_requerimento", sdk::sample::AddDays(c.issued, -20).ToString())
                .Set("Data_Registro", sdk::sample::AddDays(c.issued, -10).ToString())
                .Set("Data_Encerramento", sdk::sample::AddDays(c.issued, 45).ToString())
                .Set("Status_Requerimento", "Oferta Encerrada")
                .Set("Valor_Mobiliario", asset)
                .Set("Tipo_requerimento", "Registro de oferta")
                .Set("CNPJ_Emissor", c.cnpj_cell)
                .Set("Nome_Emissor", c.securitizer->name)
                .Set("Nome_Lider", "XP Investimentos CCTVM S.A.")
                .Set("Tipo_Oferta", "Primária")
                .Set("Emissao", c.emission_number)
                .Set("Qtde_Total_Registrada", std::to_string(c.series[0].quantity))
                .Set("Valor_Total_Registrado", Money(value))
                .Set("Data_deliberacao_aprovou_oferta", approved_text)
                .Set("Tipo_lastro", c.lastro)
                .Set("Regime_fiduciario", "Sim");
            rcvm160.AddRow(row.Fields());
        }
    }
    // An offering whose CNPJ_Emissor is a CPF: kept, never matched.
    {
        Row row(kRcvm160);
        row.Set("Numero_Requerimento", std::to_string(2023'900'001))
            .Set("Data_Registro", "2024-05-02")
            .Set("Valor_Mobiliario", "Certificados de Recebíveis Imobiliários")
            .Set("CNPJ_Emissor", "123.456.789-09")
            .Set("Nome_Emissor", "Pessoa Física Ilustrativa")
            .Set("Emissao", "1")
            .Set("Data_deliberacao_aprovou_oferta", "15/04/2024");
        rcvm160.AddRow(row.Fields());
    }
    // Offerings of other assets, which the ingest passes over: ~48,900 and ~13,900 rows in all at full size.
    const std::size_t legacy_others = full ? 48'900 - legacy.RowCount() : 6;
    const std::size_t rcvm_others = full ? 13'900 - rcvm160.RowCount() : 4;
    constexpr std::array<std::string_view, 4> kOtherAssets{"Debêntures", "Ações", "Cotas de FIDC",
                                                           "Notas Promissórias"};
    for (std::size_t i = 0; i < legacy_others; ++i) {
        Row row(kLegacy);
        const sdk::Date day = sdk::sample::RandomDate(prng, sdk::Date{2003, 1, 2}, sdk::Date{2022, 12, 28});
        row.Set("Numero_Processo", "RJ-" + std::to_string(day.year) + "-" + std::to_string(50'000 + i))
            .Set("Tipo_Ativo", std::string(prng.Pick(kOtherAssets)))
            .Set("CNPJ_Emissor", universe.current[i % universe.current.size()].cnpj)
            .Set("Nome_Emissor", universe.current[i % universe.current.size()].legal_name)
            .Set("Data_Registro_Oferta", day.ToString())
            .Set("Valor_Total", Money(prng.Between(1'000'000'00, 900'000'000'00)));
        legacy.AddRow(row.Fields());
    }
    for (std::size_t i = 0; i < rcvm_others; ++i) {
        Row row(kRcvm160);
        const sdk::Date day = sdk::sample::RandomDate(prng, sdk::Date{2023, 1, 2}, sdk::Date{2026, 9, 28});
        row.Set("Numero_Requerimento", std::to_string(2024'000'000 + i))
            .Set("Valor_Mobiliario", std::string(prng.Pick(kOtherAssets)))
            .Set("CNPJ_Emissor", universe.current[i % universe.current.size()].cnpj)
            .Set("Nome_Emissor", universe.current[i % universe.current.size()].legal_name)
            .Set("Data_Registro", day.ToString())
            .Set("Valor_Total_Registrado", Money(prng.Between(1'000'000'00, 900'000'000'00)));
        rcvm160.AddRow(row.Fields());
    }
    sample.offerings = legacy.RowCount() + rcvm160.RowCount();
    out.WriteZip("oferta_distribuicao.zip", {{"oferta_distribuicao.csv", Crlf(legacy.ToLatin1())},
                                             {"oferta_resolucao_160.csv", Crlf(rcvm160.ToLatin1())}});
    return sample;
}

}  // namespace lastro::companies
