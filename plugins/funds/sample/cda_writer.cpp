#include "sample/cda_writer.hpp"

#include "sample/balance_sheet.hpp"
#include "sample/kit.hpp"
#include "sample/streams.hpp"
#include "sample/vocabulary.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace lastro::funds::sample {
namespace {

// CDA months are numbered 0 (2026-03) to 5 (2026-08); a shorter history covers only the last
// of them, and the CDA then has only those.
constexpr int kCdaMonths = 6;

// What funds a block of positions: the class's securities in the month's balance sheet.
enum class Source {
    kFidcQuotas,    // quotas of FIDC classes (and of the fund outside the registry): I.2.h
    kFidcNpQuotas,  // quotas of FIDC-NP classes: I.2.i
    kPublicBonds,
    kRepos,
    kBankDeposits,
    kDebentures,
    kOtherFixedIncome,
    kOther
};

std::int64_t SourceAmount(const BalanceSheet& b, Source source) {
    switch (source) {
        case Source::kFidcQuotas:
            return b.securities[kSecFidcQuotas];
        case Source::kFidcNpQuotas:
            return b.securities[kSecFidcNpQuotas];
        case Source::kPublicBonds:
            return b.securities[kSecPublicBonds];
        case Source::kRepos:
            return b.securities[kSecRepos];
        case Source::kBankDeposits:
            return b.securities[kSecBankDeposits];
        case Source::kDebentures:
            return b.securities[kSecDebentures];
        case Source::kOtherFixedIncome:
            return b.securities[kSecOtherFixedIncome];
        case Source::kOther:
            return b.other_short / 2;
    }
    return 0;
}

struct Line {
    int block = 1;  // BLC_n
    Source source = Source::kPublicBonds;
    int first = 0;  // CDA month indexes (0 = 2026-03) in which the position is held
    int last = kCdaMonths - 1;
    std::int64_t weight = 1000;
    std::string aplic;                // TP_APLIC
    std::string ativo;                // TP_ATIVO
    std::string negoc;                // TP_NEGOC
    std::vector<std::string> fields;  // the block's own columns
    // Fund quotas: the invested series' quota value is the price.
    const ClassHistory* fund = nullptr;
    std::size_t series = 0;
    std::int64_t base_price = 0;  // R$ 1e-8 at 2026-02, accruing the CDI (or fixed for outside funds)
    bool whole_units = true;
    std::int64_t cost_ppm = kPpm;
    bool cost_blank = false;
    int confidential_from = kCdaMonths;  // from this month on it is in CONFID, not in the block
    int dated_month = -1;                // DT_CONFID_APLIC filled in this month
    int quantity_blank_month = -1;       // QT_POS_FINAL left empty in this month
};

struct Holder {
    const ClassHistory* c = nullptr;
    std::vector<Line> lines;
    // Holds quotas of a FIDC-NP class; without one, its I.2.i (if any) is split over its FIDC
    // quotas too.
    bool holds_np = false;
};

// A CDA holder outside the FIDC universe (the full-size CDA's other classes).
struct OtherHolder {
    std::string type;  // TP_FUNDO_CLASSE
    std::string cnpj;  // masked
    std::string name;
    std::int64_t nav = 0;        // cents, CDA month 0
    std::int64_t drift_ppm = 0;  // the NAV's change a month
    std::uint64_t index = 0;     // its stream
};

struct Issuer {
    std::string name;
    std::string cnpj;  // masked
    std::string ticker;
};

std::string Masked(const std::string& digits) {
    return sdk::FormatCnpj(digits);
}

std::string TickerStem(std::string_view brand) {
    std::string stem;
    for (char ch : brand) {
        if (ch >= 'A' && ch <= 'Z' && stem.size() < 4) {
            stem.push_back(ch);
        }
    }
    while (stem.size() < 4) {
        stem.push_back('X');
    }
    return stem;
}

class CdaBuilder {
public:
    CdaBuilder(const Universe& universe, const History& history, UniverseSize size)
        : universe_(universe),
          history_(history),
          rng_(Prng::ForStream(history.seed, kCdaStream, 0)),
          first_(std::max(0, -history.IndexOf(kFirstCdaMonth))) {
        for (const Fund& fund : universe.funds) {
            used_roots_.insert(fund.cnpj.substr(0, 8));
            for (const FundClass& c : fund.classes) {
                used_roots_.insert(c.cnpj.substr(0, 8));
            }
        }
        BuildIssuers();
        ChooseTargets();
        BuildHolders();
        if (size == UniverseSize::kFull) {
            BuildOthers();
        }
    }

    void Render(const std::function<void(CdaMonth&&)>& sink) {
        std::map<const Line*, std::int64_t> previous;  // quantity held the month before
        for (int k = first_; k < kCdaMonths; ++k) {
            sink(RenderMonth(k, previous));
        }
    }

private:
    std::string NewCnpj(Prng& rng) {
        for (;;) {
            char root[16];
            std::snprintf(root, sizeof root, "%08lld",
                          static_cast<long long>(rng.Between(1'000'000, 99'999'999)));
            if (used_roots_.insert(root).second) {
                return sdk::CnpjWithCheckDigits(std::string(root) + "0001");
            }
        }
    }

    void BuildIssuers() {
        static constexpr std::array<std::string_view, 10> kSectors{"Energia S.A.",
                                                                   "Logística S.A.",
                                                                   "Saneamento S.A.",
                                                                   "Alimentos S.A.",
                                                                   "Transmissora de Energia S.A.",
                                                                   "Concessões Rodoviárias S.A.",
                                                                   "Agroindustrial S.A.",
                                                                   "Varejo S.A.",
                                                                   "Telecomunicações S.A.",
                                                                   "Papel e Celulose S.A."};
        const auto brands = Brands();
        for (std::size_t i = 0; i < 24; ++i) {
            const std::string_view brand = brands[(i * 7 + 3) % brands.size()];
            companies_.push_back({TitleCase(brand) + " " + std::string(kSectors[i % kSectors.size()]),
                                  Masked(NewCnpj(rng_)), TickerStem(brand)});
        }
        for (const auto* list : {&universe_.administrators, &universe_.custodians}) {
            for (const Institution& institution : *list) {
                if (institution.name.starts_with("Banco") &&
                    std::none_of(banks_.begin(), banks_.end(),
                                 [&](const Issuer& bank) { return bank.name == institution.name; })) {
                    banks_.push_back({institution.name, Masked(institution.document), ""});
                }
            }
        }
        for (std::string_view name :
             {"Banco Ipê Roxo S.A.", "Banco Serra Dourada S.A.", "Banco Maré Alta S.A."}) {
            banks_.push_back({std::string(name), Masked(NewCnpj(rng_)), ""});
        }
    }

    // FIDC classes reporting in every CDA month can be invested in.
    void ChooseTargets() {
        for (const ClassHistory& c : history_.classes) {
            if (c.fund->type == FundType::kFicFidc || c.series.empty()) {
                continue;
            }
            bool steady = true;
            for (int k = first_; k < kCdaMonths && steady; ++k) {
                steady = c.months[static_cast<std::size_t>(HistoryMonth(k))].reports;
            }
            if (steady) {
                targets_.push_back(&c);
            }
        }
    }

    // The series a holder buys: the first senior (or single) series of a FIC's target, the
    // subordinated one for a FIDC holder.
    std::optional<std::size_t> SeriesToBuy(const ClassHistory& target, bool subordinated) const {
        for (std::size_t i = 0; i < target.series.size(); ++i) {
            const Seniority rank = target.series[i].seniority;
            const bool fits = subordinated ? rank == Seniority::kSubordinated
                                           : rank == Seniority::kSenior || rank == Seniority::kNone;
            bool held = fits;
            for (int k = first_; k < kCdaMonths && held; ++k) {
                held = target.months[static_cast<std::size_t>(HistoryMonth(k))].series[i].exists;
            }
            if (held) {
                return i;
            }
        }
        return std::nullopt;
    }

    // A position in another class's quotas, a FIDC-NP's when `np` (else a FIDC's), never twice the
    // same class for one holder; nullopt when no such class can be found.
    std::optional<Line> TryFundLine(const ClassHistory& holder, Prng& rng, bool subordinated, bool np,
                                    std::set<const ClassHistory*>& held) {
        for (int attempt = 0; attempt < 400; ++attempt) {
            const ClassHistory* target = targets_[rng.Below(targets_.size())];
            if (target == &holder || (target->fund->type == FundType::kFidcNp) != np ||
                !held.insert(target).second) {
                continue;
            }
            const std::optional<std::size_t> series = SeriesToBuy(*target, subordinated);
            if (!series) {
                held.erase(target);
                continue;
            }
            Line line;
            line.block = 2;
            line.source = np ? Source::kFidcNpQuotas : Source::kFidcQuotas;
            line.aplic = "Cotas de Fundos";
            line.ativo = "Cota de FIDC";
            line.negoc = "Para negociação";
            line.fund = target;
            line.series = *series;
            line.whole_units = false;
            line.weight = rng.Between(500, 1500);
            line.cost_ppm = rng.Between(850'000, 1'000'000);
            const Subclass* subclass = target->series[*series].subclass;
            line.fields = {Masked(target->fund_class->cnpj),
                           subclass ? subclass->name : target->fund_class->name,
                           subclass ? std::to_string(subclass->id) : ""};
            return line;
        }
        return std::nullopt;
    }

    // A position in a FIDC class's quotas.
    Line FundLine(const ClassHistory& holder, Prng& rng, bool subordinated,
                  std::set<const ClassHistory*>& held) {
        if (std::optional<Line> line = TryFundLine(holder, rng, subordinated, false, held)) {
            return *std::move(line);
        }
        throw std::logic_error("no FIDC to invest in");
    }

    Line BondLine(Prng& rng, bool repo) {
        struct Kind {
            std::string_view code, isin, selic;
            std::int64_t price;  // reais at 2026-02
            int day, month;      // maturities fall on these days
        };
        static constexpr std::array<Kind, 4> kKinds{{{"LFT", "BRSTNCLF1", "210100", 17'650, 1, 3},
                                                     {"LTN", "BRSTNCLTN", "100000", 840, 1, 1},
                                                     {"NTN-B", "BRSTNCNTB", "760199", 4'480, 15, 5},
                                                     {"NTN-F", "BRSTNCNTF", "950199", 980, 1, 1}}};
        const Kind& kind = kKinds[repo ? 0 : rng.Weighted({500, 250, 200, 50})];
        const int year = static_cast<int>(rng.Between(2027, 2035));
        Line line;
        line.block = 1;
        line.source = repo ? Source::kRepos : Source::kPublicBonds;
        line.aplic = repo ? "Operações Compromissadas" : "Títulos Públicos";
        line.ativo = "Título público federal";
        line.negoc = rng.Chance(700) ? "Para negociação" : "Mantido até o vencimento";
        line.base_price = Share(kind.price * kE8, rng.Between(980'000, 1'020'000));
        line.weight = rng.Between(500, 1500);
        line.cost_ppm = rng.Between(950'000, 1'000'000);
        // One draw per statement: the order of a call's arguments is unspecified in C++.
        const char check_digit = static_cast<char>('0' + rng.Below(10));
        const char letter = static_cast<char>('A' + rng.Below(26));
        char isin[16];
        std::snprintf(isin, sizeof isin, "%.9s%c%c%c", kind.isin.data(), static_cast<char>('0' + year % 10),
                      letter, check_digit);
        const sdk::Date maturity{year, kind.month, kind.day};
        const sdk::Date issue{year - static_cast<int>(rng.Between(2, 6)), kind.month, kind.day};
        line.fields = {std::string(kind.code), isin, std::string(kind.selic), issue.ToString(),
                       maturity.ToString()};
        return line;
    }

    Line DebentureLine(Prng& rng) {
        const Issuer& issuer = rng.Pick(companies_);
        const int series = static_cast<int>(rng.Between(11, 39));
        Line line;
        line.block = 4;
        line.source = Source::kDebentures;
        line.aplic = "Debêntures";
        line.ativo = "Debênture simples";
        line.negoc = rng.Chance(600) ? "Para negociação" : "Mantido até o vencimento";
        line.base_price = Share(1'000 * kE8, rng.Between(950'000, 1'080'000));
        line.weight = rng.Between(500, 1500);
        line.cost_ppm = rng.Between(930'000, 1'000'000);
        const std::string code = issuer.ticker + std::to_string(series);
        const sdk::Date start{static_cast<int>(rng.Between(2021, 2025)), static_cast<int>(rng.Between(1, 12)),
                              15};
        const sdk::Date end{start.year + static_cast<int>(rng.Between(3, 10)), start.month, 15};
        // One draw per statement: the operands of + are evaluated in an unspecified order.
        const char check_digit = static_cast<char>('0' + rng.Below(10));
        const char letter = static_cast<char>('A' + rng.Below(26));
        line.fields = {code, issuer.name + " - " + std::to_string(series % 10 + 1) + "ª emissão",
                       "BR" + issuer.ticker + "DBS0" + letter + check_digit, start.ToString(),
                       end.ToString()};
        return line;
    }

    Line DepositLine(Prng& rng) {
        const Issuer& bank = rng.Pick(banks_);
        Line line;
        line.block = 5;
        line.source = Source::kBankDeposits;
        line.aplic = "Depósitos a prazo e outros títulos de IF";
        line.ativo = rng.Chance(800) ? "CDB" : "Letra Financeira";
        line.negoc = "Mantido até o vencimento";
        line.base_price = Share(1'000 * kE8, rng.Between(1'000'000, 1'150'000));
        line.weight = rng.Between(500, 1500);
        const sdk::Date maturity = NextWeekday(RandomDate(rng, {2026, 10, 1}, {2029, 12, 28}));
        const std::string rate = Decimal(rng.Between(9'800, 11'500), 2);  // percent of the CDI
        line.fields = {bank.cnpj,
                       bank.name,
                       maturity.ToString(),
                       "S",
                       "DI1",
                       "DI",
                       rate,
                       "",
                       "",
                       "S",
                       "Fitch Ratings",
                       sdk::Date{2025, static_cast<int>(rng.Between(1, 12)), 10}.ToString(),
                       rng.Chance(700) ? "AAA(bra)" : "AA+(bra)"};
        return line;
    }

    Line CreditLine(Prng& rng) {
        const Issuer& issuer = rng.Pick(companies_);
        Line line;
        line.block = 6;
        line.source = Source::kOtherFixedIncome;
        line.aplic = "Títulos de Crédito Privado";
        line.ativo = rng.Chance(500) ? "CCB" : rng.Chance(500) ? "Nota Comercial" : "CPR";
        line.negoc = "Mantido até o vencimento";
        line.base_price = 1'000 * kE8;
        line.weight = rng.Between(500, 1500);
        const sdk::Date maturity = NextWeekday(RandomDate(rng, {2026, 12, 1}, {2030, 12, 20}));
        line.fields = {"PJ",
                       issuer.cnpj,
                       issuer.name,
                       maturity.ToString(),
                       "S",
                       "DI1",
                       "DI",
                       "100.00",
                       Decimal(rng.Between(150, 450), 2),
                       "",
                       "S",
                       rng.Chance(400) ? "S" : "N",
                       ""};
        return line;
    }

    Line OtherLine(Prng& rng) {
        const Issuer& issuer = rng.Pick(companies_);
        Line line;
        line.block = 8;
        line.source = Source::kOther;
        line.aplic = "Outras Aplicações";
        line.ativo = "Outros";
        line.negoc = "Para negociação";
        line.base_price = kE8;
        line.weight = rng.Between(500, 1500);
        static constexpr std::array<std::string_view, 3> kDescriptions{
            "Valores a receber de cessão de direitos creditórios", "Dividendos e juros a receber",
            "Ajustes de liquidação a receber"};
        line.fields = {std::string(rng.Pick(kDescriptions)), "PJ", issuer.cnpj, issuer.name};
        return line;
    }

    void BuildHolders() {
        for (const ClassHistory& c : history_.classes) {
            bool reports = false;
            for (int k = first_; k < kCdaMonths; ++k) {
                reports = reports || c.months[static_cast<std::size_t>(HistoryMonth(k))].reports;
            }
            if (!reports || (c.fund->type != FundType::kFicFidc && !c.profile.holds_securities)) {
                continue;
            }
            Holder holder;
            holder.c = &c;
            std::set<const ClassHistory*>& held = invested_[&c];
            // Streams per holder: 2 x class id for its positions, 2 x id + 1 for their events.
            Prng rng =
                Prng::ForStream(history_.seed, kCdaStream, static_cast<std::uint64_t>(c.fund_class->id) * 2);
            if (c.fund->type == FundType::kFicFidc) {
                const auto count = rng.Between(2, 8);
                for (std::int64_t i = 0; i < count; ++i) {
                    // A FIC-FIDC with FIDC-NP quotas (I.2.i) holds them in its first fund.
                    std::optional<Line> np;
                    if (i == 0 && c.profile.fidc_np_quotas_ppm > 0) {
                        np = TryFundLine(c, rng, false, true, held);
                    }
                    holder.holds_np = holder.holds_np || np.has_value();
                    holder.lines.push_back(np ? *std::move(np) : FundLine(c, rng, false, held));
                }
                holder.lines.push_back(BondLine(rng, false));
                holder.lines.push_back(BondLine(rng, true));
            } else {
                const bool big = c.profile.big_portfolio;
                holder.lines.push_back(FundLine(c, rng, true, held));
                if (rng.Chance(500)) {
                    holder.lines.push_back(FundLine(c, rng, true, held));
                }
                const auto grow = [&](int base, int per_month, const auto& make) {
                    const int total =
                        big ? base + per_month * (kCdaMonths - 1) : static_cast<int>(rng.Between(1, 3));
                    for (int i = 0; i < total; ++i) {
                        Line line = make(rng);
                        // The large portfolio grows month after month.
                        line.first = big && i >= base ? (i - base) / per_month + 1 : 0;
                        holder.lines.push_back(std::move(line));
                    }
                };
                grow(20, 12, [this](Prng& r) { return BondLine(r, false); });
                holder.lines.push_back(BondLine(rng, true));
                grow(30, 12, [this](Prng& r) { return DepositLine(r); });
                grow(20, 10, [this](Prng& r) { return DebentureLine(r); });
                holder.lines.push_back(CreditLine(rng));
                holder.lines.push_back(OtherLine(rng));
            }
            for (Line& line : holder.lines) {
                line.cost_blank = rng.Chance(50);
            }
            holders_.push_back(std::move(holder));
        }
        std::stable_sort(holders_.begin(), holders_.end(), [](const Holder& a, const Holder& b) {
            return a.c->fund_class->cnpj < b.c->fund_class->cnpj;
        });
        PlanEvents();
    }

    // The holders outside the universe (kFull): drawn once here; their positions are drawn again
    // each month from the holder's own stream, so a month needs no state from the one before.
    void BuildOthers() {
        struct Kind {
            std::string_view type;
            std::size_t count;
        };
        static constexpr std::array<Kind, 3> kKinds{{{"CLASSES - FIF", kOtherFifHolders},
                                                     {"CLASSES - FIP", kOtherFipHolders},
                                                     {"FI", kOtherFiHolders}}};
        static constexpr std::array<std::string_view, 6> kStrategies{
            "RENDA FIXA", "RENDA FIXA REFERENCIADO DI", "MULTIMERCADO", "CRÉDITO PRIVADO", "AÇÕES",
            "PREVIDÊNCIA"};
        Prng rng = Prng::ForStream(history_.seed, kCdaOtherStream, 0);
        const auto brands = Brands();
        for (const Kind& kind : kKinds) {
            for (std::size_t i = 0; i < kind.count; ++i) {
                OtherHolder holder;
                holder.type = std::string(kind.type);
                holder.cnpj = Masked(NewCnpj(rng));
                const std::string brand(rng.Pick(brands));
                const std::string series = i % 7 == 0 ? "" : " " + std::to_string(i % 7 + 1);
                holder.name = kind.type == "CLASSES - FIP"
                                  ? brand + series + " FUNDO DE INVESTIMENTO EM PARTICIPAÇÕES MULTIESTRATÉGIA"
                              : kind.type == "FI"
                                  ? brand + " FUNDO DE INVESTIMENTO " + std::string(rng.Pick(kStrategies))
                                  : brand + " " + std::string(rng.Pick(kStrategies)) + series +
                                        " FUNDO DE INVESTIMENTO FINANCEIRO RESPONSABILIDADE LIMITADA";
                // R$ 1 million to R$ 10 billion, spread over orders of magnitude.
                std::int64_t nav = rng.Between(100'000, 999'999);
                for (std::size_t p = rng.Weighted({300, 350, 250, 100}); p > 0; --p) {
                    nav *= 10;
                }
                holder.nav = nav * 1000 + rng.Between(0, 999);  // cents
                holder.drift_ppm = rng.Between(-15'000, 25'000);
                holder.index = others_.size() + 1;
                others_.push_back(std::move(holder));
            }
        }
    }

    // An outside holder's positions, the same every month: 1 to 6, or 6 to 30 for two in five.
    std::vector<Line> OtherLines(const OtherHolder& holder) {
        Prng rng = Prng::ForStream(history_.seed, kCdaOtherStream, holder.index);
        std::int64_t count = rng.Between(1, 6);
        if (rng.Chance(400)) {
            count += rng.Between(5, 24);
        }
        std::vector<Line> lines;
        for (std::int64_t i = 0; i < count; ++i) {
            switch (rng.Weighted({300, 150, 150, 100, 200, 100})) {
                case 0:
                    lines.push_back(BondLine(rng, rng.Chance(300)));
                    break;
                case 1:
                    lines.push_back(DepositLine(rng));
                    break;
                case 2:
                    lines.push_back(DebentureLine(rng));
                    break;
                case 3:
                    lines.push_back(CreditLine(rng));
                    break;
                case 4: {
                    // Quotas of another outside fund.
                    const OtherHolder& target = others_[static_cast<std::size_t>(rng.Below(others_.size()))];
                    Line line;
                    line.block = 2;
                    line.source = Source::kFidcQuotas;
                    line.aplic = "Cotas de Fundos";
                    line.ativo = "Cota de Fundo";
                    line.negoc = "Para negociação";
                    line.whole_units = false;
                    line.weight = rng.Between(500, 1500);
                    line.cost_ppm = rng.Between(850'000, 1'000'000);
                    line.base_price = Share(1'000 * kE8, rng.Between(1'050'000, 1'400'000));
                    line.fields = {target.cnpj, target.name, ""};
                    lines.push_back(std::move(line));
                    break;
                }
                default:
                    lines.push_back(OtherLine(rng));
                    break;
            }
            Line& line = lines.back();
            // Now and then bought after the first month; never the first line, so that every month
            // has a position to put the NAV in.
            const int from = rng.Chance(100) ? static_cast<int>(rng.Between(1, kCdaMonths - 1)) : 0;
            line.first = i == 0 ? 0 : from;
            line.cost_blank = rng.Chance(50);
        }
        return lines;
    }

    // The quantity of each line in CDA month k: 95 % of the month's NAV split by weight.
    std::vector<std::int64_t> OtherQuantities(const OtherHolder& holder, const std::vector<Line>& lines,
                                              int k) const {
        std::vector<std::int64_t> quantities(lines.size(), 0);
        if (k < first_) {
            return quantities;
        }
        std::vector<std::int64_t> weights;
        for (const Line& line : lines) {
            weights.push_back(line.first <= k ? line.weight : 0);
        }
        const std::vector<std::int64_t> amounts = Allocate(Share(OtherNav(holder, k), 950'000), weights);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (amounts[i] <= 0) {
                continue;
            }
            std::int64_t quantity = MulDiv(amounts[i], kE8 * kE8 / 100, Price(lines[i], k));
            if (lines[i].whole_units) {
                quantity = MulDiv(quantity, 1, kE8) * kE8;
            }
            quantities[i] = std::max<std::int64_t>(quantity, 0);
        }
        return quantities;
    }

    std::int64_t OtherNav(const OtherHolder& holder, int k) const {
        return Share(holder.nav, kPpm + holder.drift_ppm * k);
    }

    void RenderOthers(int k, const std::string& date, std::vector<CsvTable>& blocks, CsvTable& pl,
                      CdaMonth& out) {
        for (const OtherHolder& holder : others_) {
            const std::vector<Line> lines = OtherLines(holder);
            const std::vector<std::int64_t> now = OtherQuantities(holder, lines, k);
            const std::vector<std::int64_t> before = OtherQuantities(holder, lines, k - 1);
            pl.AddRow({holder.type, holder.cnpj, holder.name, date, Cents(OtherNav(holder, k))});
            for (std::size_t i = 0; i < lines.size(); ++i) {
                const Line& line = lines[i];
                if (now[i] <= 0) {
                    continue;
                }
                const std::int64_t price = Price(line, k);
                const std::int64_t change = now[i] - before[i];
                const std::int64_t bought = std::max<std::int64_t>(change, 0);
                const std::int64_t sold = std::max<std::int64_t>(-change, 0);
                const std::int64_t value = ValueInCents(now[i], price);
                std::vector<std::string> row{holder.type,
                                             holder.cnpj,
                                             holder.name,
                                             date,
                                             line.aplic,
                                             line.ativo,
                                             "N",
                                             line.negoc,
                                             Decimal(sold, 8),
                                             Cents(ValueInCents(sold, price)),
                                             Decimal(bought, 8),
                                             Cents(ValueInCents(bought, price)),
                                             Decimal(now[i], 8),
                                             Cents(value),
                                             line.cost_blank ? "" : Cents(Share(value, line.cost_ppm)),
                                             ""};
                row.insert(row.end(), line.fields.begin(), line.fields.end());
                blocks[static_cast<std::size_t>(line.block - 1)].AddRow(row);
                ++out.positions;
            }
        }
    }

    bool ReportsThroughout(const Holder& holder) const {
        for (int k = first_; k < kCdaMonths; ++k) {
            if (!holder.c->months[static_cast<std::size_t>(HistoryMonth(k))].reports) {
                return false;
            }
        }
        return true;
    }

    // Entries and exits among the FIC-FIDCs' funds, the confidential position, the outside fund,
    // and the odd empty or dated fields.
    void PlanEvents() {
        bool confidential = false;
        bool outside = false;
        bool forced = false;
        for (Holder& holder : holders_) {
            Prng rng = Prng::ForStream(history_.seed, kCdaStream,
                                       static_cast<std::uint64_t>(holder.c->fund_class->id) * 2 + 1);
            if (holder.c->fund->type != FundType::kFicFidc) {
                continue;
            }
            std::vector<std::size_t> funds;
            for (std::size_t i = 0; i < holder.lines.size(); ++i) {
                if (holder.lines[i].block == 2) {
                    funds.push_back(i);
                }
            }
            const bool steady = ReportsThroughout(holder);
            // Every FIC with three funds or more over the six months: one more fund bought,
            // one sold out (the first such FIC surely; the others now and then).
            if (steady && funds.size() >= 3 && (!forced || rng.Chance(500))) {
                forced = true;
                Line added = FundLine(*holder.c, rng, false, invested_[holder.c]);
                added.first = static_cast<int>(rng.Between(1, 4));
                holder.lines.push_back(std::move(added));
                Line& leaving = holder.lines[funds[1]];
                leaving.last = static_cast<int>(rng.Between(1, 3));
            }
            if (steady && !confidential && funds.size() >= 3) {
                confidential = true;
                holder.lines[funds[2]].confidential_from =
                    MonthsBetween(kFirstCdaMonth, kFirstConfidentialMonth);
                continue;
            }
            if (steady && !outside) {
                outside = true;
                Line line = FundLine(*holder.c, rng, false, invested_[holder.c]);
                line.fund = nullptr;
                const std::string cnpj = NewCnpj(rng);
                line.fields = {Masked(cnpj),
                               "TERRA FIRME RECEBÍVEIS MULTISSETORIAL FIDC RESPONSABILIDADE LIMITADA", ""};
                line.base_price = Share(1'000 * kE8, rng.Between(1'050'000, 1'400'000));
                holder.lines.push_back(std::move(line));
            }
        }
        for (Holder& holder : holders_) {
            if (!holder.c->profile.big_portfolio) {
                continue;
            }
            for (Line& line : holder.lines) {
                if (line.block == 4) {
                    line.dated_month = 4;  // 2026-07: a position whose confidentiality lapsed
                    line.first = 0;
                    break;
                }
            }
            for (Line& line : holder.lines) {
                if (line.block == 8) {
                    line.quantity_blank_month = kCdaMonths - 1;
                    break;
                }
            }
        }
    }

    std::int64_t Price(const Line& line, int k) const {
        const int m = HistoryMonth(k);
        if (line.fund) {
            return line.fund->months[static_cast<std::size_t>(m)].series[line.series].value;
        }
        std::int64_t price = line.base_price;
        const bool accrues = line.block != 2 && line.block != 8;
        for (sdk::Month month = kFirstCdaMonth; accrues && month <= history_.MonthAt(m);
             month = month.Next()) {
            price = MulDiv(price, kE8 + MonthlyCdi(month), kE8);
        }
        if (line.block == 2) {  // a fund outside the universe: its own steady accrual
            for (int i = 0; i <= k; ++i) {
                price = MulDiv(price, kE8 + 1'150'000, kE8);
            }
        }
        return price;
    }

    CdaMonth RenderMonth(int k, std::map<const Line*, std::int64_t>& previous) {
        CdaMonth out;
        out.month = history_.MonthAt(HistoryMonth(k));
        const std::string date = MonthEnd(out.month).ToString();
        std::vector<CsvTable> blocks;
        std::vector<std::vector<std::string_view>> headers;
        for (int block = 1; block <= 8; ++block) {
            headers.push_back(CdaColumns("BLC_" + std::to_string(block)));
        }
        for (const auto& header : headers) {
            blocks.emplace_back(header);
        }
        const std::vector<std::string_view> pl_header = CdaColumns("PL");
        const std::vector<std::string_view> confid_header = CdaColumns("CONFID");
        const std::vector<std::string_view> fie_header = CdaColumns("fie");
        CsvTable pl(pl_header);
        CsvTable confid(confid_header);
        CsvTable fie(fie_header);
        std::map<const Line*, std::int64_t> held;

        for (const Holder& holder : holders_) {
            const ClassHistory& c = *holder.c;
            const int m = HistoryMonth(k);
            if (!c.months[static_cast<std::size_t>(m)].reports) {
                continue;
            }
            const std::int64_t net_assets = c.NetAssets(m);
            const BalanceSheet sheet = ComputeBalanceSheet(history_, c, m, net_assets);
            const std::vector<std::string> keys{std::string(kCdaClassType), Masked(c.fund_class->cnpj),
                                                c.fund_class->name, date};
            pl.AddRow({keys[0], keys[1], keys[2], keys[3], Cents(net_assets)});

            // Each source's amount is split over the positions it funds this month; a position
            // about to be sold out keeps 40 % of its weight in its last month.
            std::map<Source, std::vector<const Line*>> by_source;
            for (const Line& line : holder.lines) {
                if (line.first <= k && k <= line.last) {
                    by_source[line.source].push_back(&line);
                }
            }
            for (const auto& [source, lines] : by_source) {
                std::vector<std::int64_t> weights;
                for (const Line* line : lines) {
                    const bool leaving = line->last < kCdaMonths - 1 && line->last == k;
                    weights.push_back(leaving ? Share(line->weight, 400'000) : line->weight);
                }
                std::int64_t amount = SourceAmount(sheet, source);
                if (source == Source::kFidcQuotas && !holder.holds_np) {
                    amount += SourceAmount(sheet, Source::kFidcNpQuotas);
                }
                const std::vector<std::int64_t> amounts = Allocate(amount, weights);
                for (std::size_t i = 0; i < lines.size(); ++i) {
                    const Line& line = *lines[i];
                    if (amounts[i] <= 0) {
                        continue;
                    }
                    const std::int64_t price = Price(line, k);
                    std::int64_t quantity = MulDiv(amounts[i], kE8 * kE8 / 100, price);
                    if (line.whole_units) {
                        quantity = MulDiv(quantity, 1, kE8) * kE8;  // bonds and CDBs: whole units
                    }
                    if (quantity <= 0) {
                        continue;  // too small a holder for one unit
                    }
                    held[&line] = quantity;
                    const auto before = previous.find(&line);
                    const std::int64_t change = quantity - (before == previous.end() ? 0 : before->second);
                    const std::int64_t bought = std::max<std::int64_t>(change, 0);
                    const std::int64_t sold = std::max<std::int64_t>(-change, 0);
                    const std::int64_t value = ValueInCents(quantity, price);
                    const std::int64_t cost = Share(value, line.cost_ppm);
                    if (k >= line.confidential_from) {
                        confid.AddRow(
                            {keys[0], keys[1], keys[2], keys[3], line.aplic, Cents(ValueInCents(sold, price)),
                             Cents(ValueInCents(bought, price)), Cents(value), Cents(cost),
                             MonthEnd(history_.MonthAt(HistoryMonth(kCdaMonths - 1) + 4)).ToString()});
                        continue;
                    }
                    std::vector<std::string> row{
                        keys[0],
                        keys[1],
                        keys[2],
                        keys[3],
                        line.aplic,
                        line.ativo,
                        "N",
                        line.negoc,
                        Decimal(sold, 8),
                        Cents(ValueInCents(sold, price)),
                        Decimal(bought, 8),
                        Cents(ValueInCents(bought, price)),
                        line.quantity_blank_month == k ? "" : Decimal(quantity, 8),
                        Cents(value),
                        line.cost_blank ? "" : Cents(cost),
                        line.dated_month == k ? MonthEnd(history_.MonthAt(HistoryMonth(k) - 1)).ToString()
                                              : ""};
                    row.insert(row.end(), line.fields.begin(), line.fields.end());
                    blocks[static_cast<std::size_t>(line.block - 1)].AddRow(row);
                    ++out.positions;
                }
            }
        }
        previous = std::move(held);
        RenderOthers(k, date, blocks, pl, out);

        const std::string yyyymm = Compact(out.month);
        for (int block = 1; block <= 8; ++block) {
            out.members.push_back({"cda_fi_BLC_" + std::to_string(block) + "_" + yyyymm + ".csv",
                                   blocks[static_cast<std::size_t>(block - 1)].ToLatin1()});
        }
        if (!(out.month < kFirstConfidentialMonth)) {
            out.members.push_back({"cda_fi_CONFID_" + yyyymm + ".csv", confid.ToLatin1()});
        }
        out.members.push_back({"cda_fi_PL_" + yyyymm + ".csv", pl.ToLatin1()});
        out.members.push_back({"cda_fie_" + yyyymm + ".csv", fie.ToLatin1()});
        return out;
    }

    // The history's month index of CDA month k.
    int HistoryMonth(int k) const { return history_.IndexOf(kFirstCdaMonth) + k; }

    const Universe& universe_;
    const History& history_;
    Prng rng_;
    int first_;  // the first CDA month the history covers
    std::set<std::string> used_roots_;
    std::vector<Issuer> companies_;
    std::vector<Issuer> banks_;
    std::vector<const ClassHistory*> targets_;
    std::vector<Holder> holders_;
    std::map<const ClassHistory*, std::set<const ClassHistory*>> invested_;
    std::vector<OtherHolder> others_;
};

}  // namespace

std::string CdaZipName(const sdk::Month& month) {
    return "cda_fi_" + Compact(month) + ".zip";
}

std::vector<CdaMonth> RenderCda(const Universe& universe, const History& history, UniverseSize size) {
    std::vector<CdaMonth> months;
    RenderCda(universe, history, size, [&](CdaMonth&& month) { months.push_back(std::move(month)); });
    return months;
}

void RenderCda(const Universe& universe, const History& history, UniverseSize size,
               const std::function<void(CdaMonth&&)>& sink) {
    CdaBuilder(universe, history, size).Render(sink);
}

}  // namespace lastro::funds::sample
