#include "sample/documents_writer.hpp"

#include "sample/kit.hpp"
#include "sample/streams.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <algorithm>
#include <optional>
#include <tuple>

namespace lastro::funds::sample {
namespace {

constexpr int kLastYear = kLastDocumentYear;

struct DocumentType {
    std::string_view label;  // TP_DOC
    std::string_view slug;   // for the file name
    unsigned weight;
};

// Financial statements are drawn apart: one a year, for every class in operation.
constexpr std::array<DocumentType, 7> kTypes{{
    {"Regulamento", "regulamento", 120},
    {"Fato Relevante", "fato_relevante", 140},
    {"Comunicado ao Mercado", "comunicado_ao_mercado", 150},
    {"Ata de Assembleia Geral", "ata_assembleia_geral", 170},
    {"Relatório de Rating", "relatorio_rating", 110},
    {"Convocação de Assembleia", "convocacao_assembleia", 130},
    {"Material Publicitário", "material_publicitario", 60},
}};
constexpr DocumentType kStatements{"Demonstrações Financeiras", "demonstracoes_financeiras", 0};

struct Filer {
    bool fund_level = false;  // TP_FUNDO_CLASSE = Fundo: a multi-class fund's own documents
    std::string cnpj;         // bare
    std::string name;
    std::uint64_t stream_index = 0;
    sdk::Date since;                 // registered
    std::optional<sdk::Date> until;  // cancelled
    std::optional<sdk::Date> operating_since;
    const Fund* fund = nullptr;
    const FundClass* fund_class = nullptr;
};

struct Document {
    const Filer* filer = nullptr;
    std::string subclass_id;
    sdk::Date reference;  // DT_COMPTC
    sdk::Date received;   // DT_RECEB
    const DocumentType* type = nullptr;
    std::string audit;
};

sdk::Date LastDayReceived() {
    return AddDays(kReferenceDate, -1);
}

std::vector<Filer> Filers(const Universe& universe) {
    std::vector<Filer> filers;
    for (const Fund& fund : universe.funds) {
        if (!IsFidcFamily(fund.type) || fund.classes.empty()) {
            continue;
        }
        if (fund.classes.size() > 1) {
            Filer f;
            f.fund_level = true;
            f.cnpj = fund.cnpj;
            f.name = fund.name;
            f.stream_index = static_cast<std::uint64_t>(fund.id) * 2 + 1;
            f.since = fund.registered;
            f.until = fund.cancelled;
            f.operating_since = fund.classes.front().started;
            f.fund = &fund;
            filers.push_back(std::move(f));
        }
        for (const FundClass& c : fund.classes) {
            Filer f;
            f.cnpj = c.cnpj;
            f.name = c.name;
            f.stream_index = static_cast<std::uint64_t>(c.id) * 2;
            f.since = c.registered;
            if (c.situation == Situation::kCancelled) {
                f.until = c.situation_since;
            }
            f.operating_since = c.started;
            f.fund = &fund;
            f.fund_class = &c;
            filers.push_back(std::move(f));
        }
    }
    return filers;
}

std::optional<sdk::Date> Clamp(const Filer& f, sdk::Date first, sdk::Date last) {
    first = Later(first, f.since);
    if (f.until) {
        last = Earlier(last, AddDays(*f.until, -1));
    }
    if (last < first) {
        return std::nullopt;
    }
    return first;
}

}  // namespace

std::string EventualFileName(int year) {
    return "eventual_fi_" + std::to_string(year) + ".csv";
}

DocumentFiles RenderDocuments(const Universe& universe, int first_year) {
    const std::vector<Filer> filers = Filers(universe);

    // The class with the most documents: a live FIDC class, registered before 2025.
    Prng plan = Prng::ForStream(universe.seed, kDocumentStream, 0);
    std::vector<std::size_t> busy_candidates;
    for (std::size_t i = 0; i < filers.size(); ++i) {
        const Filer& f = filers[i];
        if (!f.fund_level && f.fund->type == FundType::kFidc && f.fund->situation == Situation::kNormal &&
            f.since < sdk::Date{2025, 1, 1}) {
            busy_candidates.push_back(i);
        }
    }
    const std::size_t busiest = busy_candidates.empty() ? filers.size() : plan.Pick(busy_candidates);

    std::vector<unsigned> weights;
    for (const DocumentType& type : kTypes) {
        weights.push_back(type.weight);
    }

    std::vector<Document> documents;
    for (std::size_t i = 0; i < filers.size(); ++i) {
        const Filer& f = filers[i];
        Prng rng = Prng::ForStream(universe.seed, kDocumentStream, f.stream_index + 1);
        for (int year = first_year; year <= kLastYear; ++year) {
            const sdk::Date year_first{year, 1, 1};
            const sdk::Date year_last = year == kLastYear ? LastDayReceived() : sdk::Date{year, 12, 31};
            const std::optional<sdk::Date> first = Clamp(f, year_first, year_last);
            // 0 to 12 documents a year, most classes a handful.
            auto count = static_cast<std::int64_t>(
                rng.Weighted({80, 150, 180, 170, 130, 100, 60, 40, 30, 20, 15, 15, 10}));
            if (i == busiest) {
                count = year == kLastYear ? rng.Between(30, 34) : rng.Between(34, 38);
            }
            const sdk::Date last = f.until ? Earlier(year_last, AddDays(*f.until, -1)) : year_last;
            if (!first) {
                continue;
            }
            for (std::int64_t n = 0; n < count; ++n) {
                Document d;
                d.filer = &f;
                d.type = &kTypes[rng.Weighted(weights)];
                d.received = NextWeekday(RandomDate(rng, *first, last));
                if (last < d.received) {
                    d.received = last;
                }
                d.reference = AddDays(d.received, -rng.Between(0, 10));
                if (d.type->label == "Material Publicitário" && f.fund_class) {
                    for (const Subclass& s : f.fund_class->subclasses) {
                        if (s.seniority == Seniority::kSenior) {
                            d.subclass_id = std::to_string(s.id);
                            break;
                        }
                    }
                }
                documents.push_back(std::move(d));
            }
            // The audited statements of the fiscal year closed in the previous months.
            if (f.fund_class && f.operating_since && f.fund->fiscal_year_end) {
                const int end_month = f.fund->fiscal_year_end->month;
                for (int y = year - 1; y <= year; ++y) {
                    const sdk::Date closing = LastDayOfMonth(y, end_month);
                    const sdk::Date received = NextWeekday(AddDays(closing, rng.Between(60, 88)));
                    if (received < *first || last < received || closing < *f.operating_since) {
                        continue;
                    }
                    Document d;
                    d.filer = &f;
                    d.type = &kStatements;
                    d.reference = closing;
                    d.received = received;
                    d.audit = rng.Chance(880)   ? "Sem ressalva"
                              : rng.Chance(800) ? "Com ressalva"
                                                : "Abstenção de opinião";
                    documents.push_back(std::move(d));
                }
            }
        }
    }
    std::stable_sort(documents.begin(), documents.end(), [](const Document& a, const Document& b) {
        return std::tie(a.received, a.filer->cnpj, a.type->label) <
               std::tie(b.received, b.filer->cnpj, b.type->label);
    });

    DocumentFiles out;
    std::int64_t id = plan.Between(900'000, 1'100'000);
    std::vector<CsvTable> tables(static_cast<std::size_t>(kLastYear - first_year + 1),
                                 CsvTable(kEventualColumns));
    for (const Document& d : documents) {
        id += plan.Between(1, 40);
        const std::string id_text = std::to_string(id);
        const Filer& f = *d.filer;
        tables[static_cast<std::size_t>(d.received.year - first_year)].AddRow(
            {f.fund_level ? "Fundo" : "Classe", sdk::FormatCnpj(f.cnpj), f.name, d.subclass_id,
             d.reference.ToString(), d.received.ToString(), std::string(d.type->label),
             std::string(d.type->slug) + "_" + id_text + ".pdf", id_text,
             "https://cvmweb.cvm.gov.br/SWB/Sistemas/SCW/CPublica/Fundos/Documento.aspx?ID_DOC=" + id_text,
             d.audit});
        ++out.documents;
    }
    for (int year = first_year; year <= kLastYear; ++year) {
        out.files.push_back(
            {EventualFileName(year), tables[static_cast<std::size_t>(year - first_year)].ToLatin1()});
    }
    if (busiest < filers.size()) {
        out.busiest_cnpj = sdk::FormatCnpj(filers[busiest].cnpj);
    }
    return out;
}

}  // namespace lastro::funds::sample
