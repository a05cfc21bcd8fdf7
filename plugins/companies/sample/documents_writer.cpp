#include "sample/documents_writer.hpp"

#include <lastro/sdk/sample/csv_table.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string_view>

namespace lastro::companies {
namespace {

using sdk::sample::Prng;

// The index's header, verbatim (shared/datasets/real/cvm_headers/ipe_cia_aberta_header.csv).
constexpr std::array<std::string_view, 13> kColumns{
    "CNPJ_Companhia", "Nome_Companhia", "Codigo_CVM",   "Data_Referencia",   "Categoria",         "Tipo",
    "Especie",        "Assunto",        "Data_Entrega", "Tipo_Apresentacao", "Protocolo_Entrega", "Versao",
    "Link_Download"};

struct Kind {
    std::string_view category;
    std::string_view type;
    std::string_view species;
    std::string_view subject;
};
constexpr std::array<Kind, 7> kKinds{{
    {"Fato Relevante", "", "", "Aquisição de participação societária"},
    {"Comunicado ao Mercado", "Outros Comunicados Não Considerados Fatos Relevantes", "",
     "Esclarecimentos sobre notícia"},
    {"Assembleia", "AGO", "Edital de Convocação", "Assembleia Geral Ordinária"},
    {"Assembleia", "AGO", "Ata", "Assembleia Geral Ordinária"},
    {"Reunião da Administração", "Conselho de Administração", "Ata",
     "Aprovação das demonstrações financeiras"},
    {"Calendário de Eventos Corporativos", "", "", "Calendário anual"},
    {"Aviso aos Acionistas", "Outros Avisos", "", "Pagamento de dividendos"},
}};

struct Delivery {
    const SampleCompany* company = nullptr;
    sdk::Date delivered;
    sdk::Date reference;
    const Kind* kind = nullptr;
    std::string protocol;
    int version = 1;
    std::string cnpj_cell;  // the company's, or a placeholder
};

std::string Protocol(const SampleCompany& company, const sdk::Date& delivered, std::uint64_t sequence) {
    char text[64];
    std::snprintf(text, sizeof text, "%06lldIPE%02d%02d%04d%010llu-%02llu",
                  static_cast<long long>(company.cvm_code), delivered.day, delivered.month, delivered.year,
                  static_cast<unsigned long long>(sequence), static_cast<unsigned long long>(sequence % 97));
    return text;
}

std::string Link(std::uint64_t sequence, int version) {
    return "https://www.rad.cvm.gov.br/ENET/"
           "frmDownloadDocumento.aspx?Tela=ext&descTipo=IPE&CodigoInstituicao=1"
           "&numProtocolo=" +
           std::to_string(1'000'000 + sequence) + "&numSequencia=" + std::to_string(700'000 + sequence) +
           "&numVersao=" + std::to_string(version);
}

std::vector<std::string> Row(const Delivery& d, std::uint64_t sequence) {
    return {d.cnpj_cell,
            d.company->legal_name,
            std::to_string(d.company->cvm_code),
            d.reference.ToString(),
            std::string(d.kind->category),
            std::string(d.kind->type),
            std::string(d.kind->species),
            std::string(d.kind->subject),
            d.delivered.ToString(),
            d.version == 1 ? "AP - Apresentação" : "RE - Reapresentação Espontânea",
            d.protocol,
            std::to_string(d.version),
            Link(sequence, d.version)};
}

// A company files while registered and not cancelled before the year.
bool Files(const SampleCompany& company, int year) {
    return company.registered.year <= year && (!company.cancelled || company.cancelled->year >= year);
}

}  // namespace

DocumentsSample WriteIpeSample(sdk::sample::SampleDirectory& out, const CompanyUniverse& universe,
                               std::uint64_t seed, sdk::SampleScale scale) {
    const bool full = scale == sdk::SampleScale::kFull;
    DocumentsSample sample;
    DocumentCases& cases = sample.cases;
    std::uint64_t sequence = 0;
    for (int year = kIpeFirstYear; year <= kIpeLastYear; ++year) {
        Prng prng = Prng::ForStream(seed, sdk::sample::StreamOf("cvm.ipe_cia_aberta"),
                                    static_cast<std::uint64_t>(year));
        const sdk::Date first{year, 1, 2};
        const sdk::Date last = year == kCompaniesReferenceDate.year
                                   ? sdk::sample::AddDays(kCompaniesReferenceDate, -1)
                                   : sdk::Date{year, 12, 30};
        std::vector<Delivery> deliveries;
        for (const SampleCompany& company : universe.current) {
            if (!Files(company, year)) {
                continue;
            }
            const int count = static_cast<int>(full ? prng.Between(18, 32) : prng.Between(2, 6));
            for (int i = 0; i < count; ++i) {
                Delivery d;
                d.company = &company;
                d.delivered = sdk::sample::RandomDate(prng, first,
                                                      company.cancelled && company.cancelled->year == year
                                                          ? std::min(last, *company.cancelled)
                                                          : last);
                d.reference = sdk::sample::AddDays(d.delivered, -static_cast<int>(prng.Between(0, 20)));
                d.kind = &kKinds[prng.Below(kKinds.size())];
                d.protocol = Protocol(company, d.delivered, ++sequence);
                d.cnpj_cell = company.cnpj;
                deliveries.push_back(std::move(d));
            }
        }
        std::sort(deliveries.begin(), deliveries.end(), [](const Delivery& a, const Delivery& b) {
            return a.company->legal_name != b.company->legal_name
                       ? a.company->legal_name < b.company->legal_name
                       : a.delivered < b.delivered;
        });
        // The planted cases, on fixed companies of the universe.
        if (year == kIpeFirstYear && deliveries.size() > 3) {
            deliveries[1].cnpj_cell = "00.000.000/0000-00";
            cases.placeholder_protocol = deliveries[1].protocol;
            cases.repeated_protocol = deliveries[2].protocol;
            deliveries.insert(deliveries.begin() + 3, deliveries[2]);  // the same line twice
        }
        if (year == kIpeLastYear) {
            for (std::size_t i = 0; i < deliveries.size(); ++i) {
                if (deliveries[i].company->legal_name == universe.cases.accented_name) {
                    Delivery fact = deliveries[i];
                    fact.kind = &kKinds[0];
                    fact.version = 1;
                    Delivery again = fact;
                    again.version = 2;
                    again.delivered = sdk::sample::AddDays(fact.delivered, 1);
                    deliveries[i] = fact;
                    deliveries.insert(deliveries.begin() + static_cast<std::ptrdiff_t>(i) + 1, again);
                    cases.redelivered_code = fact.company->cvm_code;
                    cases.redelivered_protocol = fact.protocol;
                    break;
                }
            }
        }

        sdk::sample::CsvTable table(kColumns);
        std::uint64_t row_sequence = static_cast<std::uint64_t>(year) * 1'000'000;
        for (const Delivery& d : deliveries) {
            table.AddRow(Row(d, ++row_sequence));
        }
        sample.rows += table.RowCount();
        const std::string name = "ipe_cia_aberta_" + std::to_string(year);
        out.WriteZip(name + ".zip", {{name + ".csv", table.ToLatin1()}});
    }
    return sample;
}

}  // namespace lastro::companies
