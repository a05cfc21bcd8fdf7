#include "sample/universe.hpp"

#include "sample/kit.hpp"
#include "sample/streams.hpp"
#include "sample/vocabulary.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace lastro::funds::sample {

std::string_view FundTypeCode(FundType type) {
    switch (type) {
        case FundType::kFidc:
            return "FIDC";
        case FundType::kFidcNp:
            return "FIDC-NP";
        case FundType::kFicFidc:
            return "FIC-FIDC";
        case FundType::kFi:
            return "FI";
        case FundType::kFii:
            return "FII";
        case FundType::kFip:
            return "FIP";
        case FundType::kFiagro:
            return "FIAGRO";
    }
    return "FIDC";
}

std::string_view SituationLabel(Situation situation) {
    switch (situation) {
        case Situation::kNormal:
            return "Em Funcionamento Normal";
        case Situation::kCancelled:
            return "Cancelado";
        case Situation::kLiquidation:
            return "Em Liquidação";
        case Situation::kPreOperational:
            return "Fase Pré-Operacional";
    }
    return "Em Funcionamento Normal";
}

std::string_view CondominiumLabel(Condominium condominium) {
    return condominium == Condominium::kOpen ? "Aberto" : "Fechado";
}

std::string_view TargetInvestorLabel(TargetInvestor target) {
    switch (target) {
        case TargetInvestor::kProfessional:
            return "Profissional";
        case TargetInvestor::kQualified:
            return "Qualificado";
        case TargetInvestor::kGeneral:
            return "Geral";
    }
    return "Geral";
}

std::string_view PersonTypeCode(PersonType type) {
    return type == PersonType::kNaturalPerson ? "PF" : "PJ";
}

bool IsFidcFamily(FundType type) {
    return type == FundType::kFidc || type == FundType::kFidcNp || type == FundType::kFicFidc;
}

std::optional<std::string> CpfOf(std::string nine_digits) {
    std::string digits = std::move(nine_digits);
    if (digits.find_first_not_of(digits[0]) == std::string::npos) {
        return std::nullopt;
    }
    for (int length = 9; length <= 10; ++length) {
        int sum = 0;
        for (int i = 0; i < length; ++i) {
            sum += (digits[static_cast<std::size_t>(i)] - '0') * (length + 1 - i);
        }
        const int remainder = sum % 11;
        digits.push_back(static_cast<char>('0' + (remainder < 2 ? 0 : 11 - remainder)));
    }
    return digits;
}

std::size_t Universe::ClassCount() const {
    std::size_t count = 0;
    for (const Fund& fund : funds) {
        count += fund.classes.size();
    }
    return count;
}

std::size_t Universe::SubclassCount() const {
    std::size_t count = 0;
    for (const Fund& fund : funds) {
        for (const FundClass& fund_class : fund.classes) {
            count += fund_class.subclasses.size();
        }
    }
    return count;
}

namespace {

// Exact counts per type, shuffled by the seed: FIDC is the majority and enough other types
// exist for a FIDC-universe filter to matter.
constexpr std::array<std::pair<FundType, std::size_t>, 7> kTypeQuota{{
    {FundType::kFidc, 165},
    {FundType::kFidcNp, 24},
    {FundType::kFicFidc, 21},
    {FundType::kFi, 36},
    {FundType::kFii, 27},
    {FundType::kFip, 15},
    {FundType::kFiagro, 12},
}};

constexpr sdk::Date kFirstConstitution{2005, 1, 3};
constexpr sdk::Date kFirstFiagro{2021, 8, 2};  // the FIAGRO regime dates from 2021
constexpr sdk::Date kAdaptationDeadline{2025, 6, 30};
constexpr std::string_view kLimitedLiability = " RESPONSABILIDADE LIMITADA";

// The full-size universe multiplies every type's count: about 3,000 FIDC-family classes report
// each month, as in CVM's real files.
constexpr std::size_t kFullSizeFactor = 16;

sdk::Date LastDate() {
    return AddDays(kReferenceDate, -1);
}

sdk::Date Capped(const sdk::Date& date) {
    return Earlier(date, LastDate());
}

std::string Padded(std::int64_t value, int width) {
    char text[32];
    std::snprintf(text, sizeof text, "%0*lld", width, static_cast<long long>(value));
    return text;
}

std::string Roman(int n) {
    static constexpr std::array<std::string_view, 11> kRoman{"",   "I",   "II",   "III", "IV", "V",
                                                             "VI", "VII", "VIII", "IX",  "X"};
    return n < static_cast<int>(kRoman.size()) ? std::string(kRoman[static_cast<std::size_t>(n)])
                                               : std::to_string(n);
}

bool EndsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string WithoutSuffix(std::string_view text, std::string_view suffix) {
    return std::string(EndsWith(text, suffix) ? text.substr(0, text.size() - suffix.size()) : text);
}

bool StartsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

bool ContainsAny(std::string_view text, std::initializer_list<std::string_view> words) {
    for (std::string_view word : words) {
        if (text.find(word) != std::string_view::npos) {
            return true;
        }
    }
    return false;
}

std::optional<bool> DrawFlag(Prng& rng, unsigned yes, unsigned no, unsigned blank) {
    switch (rng.Weighted({yes, no, blank})) {
        case 0:
            return true;
        case 1:
            return false;
        default:
            return std::nullopt;
    }
}

// Reais drawn within a power of ten picked by weight, so sizes spread over orders of magnitude.
std::int64_t DrawCents(Prng& rng, int first_power, std::initializer_list<unsigned> power_weights) {
    std::int64_t low = 1;
    for (int i = first_power + static_cast<int>(rng.Weighted(power_weights)); i > 0; --i) {
        low *= 10;
    }
    // One draw per statement: the operands of + are evaluated in an unspecified order.
    const std::int64_t units = rng.Between(low, low * 10 - 1);
    return units * 100 + rng.Between(0, 99);
}

class Builder {
public:
    Builder(std::uint64_t seed, UniverseSize size)
        : seed_(seed), factor_(size == UniverseSize::kFull ? kFullSizeFactor : 1) {
        universe_.seed = seed;
    }

    Universe Build() {
        BuildInstitutions();
        BuildFunds();
        AssignIds();
        AddSupersededRegistration();
        return std::move(universe_);
    }

private:
    std::string NewCnpj(Prng& rng) {
        for (;;) {
            const std::string root = Padded(rng.Between(0, 99'999'999), 8);
            if (root.find_first_not_of(root[0]) == std::string::npos || !cnpj_roots_.insert(root).second) {
                continue;
            }
            return sdk::CnpjWithCheckDigits(root + "0001");
        }
    }

    static std::string NewCpf(Prng& rng) {
        for (;;) {
            if (std::optional<std::string> cpf = CpfOf(Padded(rng.Between(0, 999'999'999), 9))) {
                return *cpf;
            }
        }
    }

    void BuildInstitutions() {
        Prng rng = Prng::ForStream(seed_, kInstitutionStream);
        for (const ManagerSeed& seed : Managers()) {
            std::string document =
                seed.person_type == PersonType::kNaturalPerson ? NewCpf(rng) : NewCnpj(rng);
            universe_.managers.push_back({std::move(document), std::string(seed.name), seed.person_type, ""});
            manager_weights_.push_back(seed.weight);
        }
        for (const AdministratorSeed& seed : Administrators()) {
            universe_.administrators.push_back(
                {NewCnpj(rng), std::string(seed.name), PersonType::kLegalEntity, std::string(seed.director)});
            administrator_weights_.push_back(seed.weight);
        }
        const auto add_all = [&](std::span<const std::string_view> names, std::vector<Institution>& out) {
            for (std::string_view name : names) {
                out.push_back({DocumentOf(name, rng), std::string(name), PersonType::kLegalEntity, ""});
            }
        };
        add_all(Auditors(), universe_.auditors);
        add_all(Custodians(), universe_.custodians);
        add_all(Controllers(), universe_.controllers);
    }

    // An institution named twice (an administrator that is also a custodian) keeps one CNPJ.
    std::string DocumentOf(std::string_view name, Prng& rng) {
        for (const auto* list : {&universe_.administrators, &universe_.custodians, &universe_.auditors}) {
            for (const Institution& institution : *list) {
                if (institution.name == name) {
                    return institution.document;
                }
            }
        }
        return NewCnpj(rng);
    }

    void BuildFunds() {
        Prng plan = Prng::ForStream(seed_, kPlanStream);
        std::vector<FundType> types;
        for (const auto& [type, count] : kTypeQuota) {
            types.insert(types.end(), count * factor_, type);
        }
        for (std::size_t i = types.size(); i > 1; --i) {
            std::swap(types[i - 1], types[static_cast<std::size_t>(plan.Below(i))]);
        }
        // One FIDC name carries a literal double quote: CVM's files are unquoted and such
        // names break RFC-4180 readers.
        std::vector<std::size_t> fidc_positions;
        for (std::size_t i = 0; i < types.size(); ++i) {
            if (types[i] == FundType::kFidc) {
                fidc_positions.push_back(i);
            }
        }
        quoted_fund_ = plan.Pick(fidc_positions);

        for (std::size_t i = 0; i < types.size(); ++i) {
            Prng rng = Prng::ForStream(seed_, kFundStream, i);
            universe_.funds.push_back(DrawFund(types[i], i == quoted_fund_, rng));
        }
        std::stable_sort(universe_.funds.begin(), universe_.funds.end(), [](const Fund& a, const Fund& b) {
            return std::tie(a.registered, a.cnpj) < std::tie(b.registered, b.cnpj);
        });
    }

    Fund DrawFund(FundType type, bool quoted, Prng& rng) {
        Fund fund;
        fund.type = type;
        fund.cnpj = NewCnpj(rng);
        static constexpr std::array<Situation, 4> kSituations{
            Situation::kNormal, Situation::kCancelled, Situation::kLiquidation, Situation::kPreOperational};
        fund.situation = kSituations[rng.Weighted({780, 130, 40, 50})];
        const std::optional<sdk::Date> operating_since = DrawTimeline(fund, rng);
        const bool has_classes = !(fund.constituted < kRcvm175InForce) || fund.adapted_rcvm175.has_value();

        const auto themes = Themes(type);
        std::vector<unsigned> theme_weights;
        for (const Theme& theme : themes) {
            theme_weights.push_back(theme.weight);
        }
        fund.theme = std::string(themes[rng.Weighted(theme_weights)].label);
        fund.name = DrawName(fund, has_classes, quoted, rng);

        fund.administrator = rng.Weighted(administrator_weights_);
        if (fund.situation != Situation::kCancelled || rng.Chance(750)) {
            fund.manager = rng.Weighted(manager_weights_);
        }
        if (fund.situation != Situation::kCancelled) {
            DrawFiscalYear(fund, rng);
        }
        if (!has_classes) {
            return fund;
        }

        std::size_t class_count = 1;
        if (fund.situation == Situation::kNormal && IsFidcFamily(type)) {
            class_count += rng.Weighted({950, 30, 20});
        } else if (fund.situation == Situation::kNormal && type == FundType::kFi) {
            class_count += rng.Weighted({880, 80, 40});
        }
        std::optional<sdk::Date> net_assets_date;
        if (fund.situation == Situation::kNormal) {
            net_assets_date = rng.Chance(900) ? LastWeekdayOfMonth(2026, 9) : LastWeekdayOfMonth(2026, 8);
        } else if (fund.situation == Situation::kLiquidation) {
            net_assets_date = LastWeekdayOfMonth(2026, static_cast<int>(rng.Between(3, 9)));
        }
        for (std::size_t i = 0; i < class_count; ++i) {
            fund.classes.push_back(DrawClass(fund, i, class_count, operating_since, net_assets_date, rng));
            const FundClass& added = fund.classes.back();
            if (added.net_assets_cents) {
                fund.net_assets_cents = fund.net_assets_cents.value_or(0) + *added.net_assets_cents;
                fund.net_assets_date = added.net_assets_date;
            }
        }
        return fund;
    }

    // Fills the registry dates and returns the day the fund started operating (none while
    // pre-operational). Constitution precedes registration at CVM by days to weeks.
    static std::optional<sdk::Date> DrawTimeline(Fund& fund, Prng& rng) {
        const sdk::Date first = fund.type == FundType::kFiagro ? kFirstFiagro : kFirstConstitution;
        switch (fund.situation) {
            case Situation::kPreOperational:
                fund.constituted = RandomDate(rng, {2026, 3, 2}, {2026, 9, 30});
                break;
            case Situation::kCancelled:
                fund.constituted = RandomDate(rng, first, {2022, 12, 30});
                break;
            case Situation::kLiquidation:
                fund.constituted = RecentSkewedDate(rng, first, {2024, 6, 28});
                break;
            case Situation::kNormal:
                fund.constituted = RecentSkewedDate(rng, first, {2026, 6, 30});
                break;
        }
        fund.constituted = NextWeekday(fund.constituted);
        fund.registered = Capped(NextWeekday(AddDays(fund.constituted, rng.Between(5, 90))));
        if (fund.situation == Situation::kPreOperational) {
            fund.situation_since = fund.registered;
            return std::nullopt;
        }
        const sdk::Date operating_since = Capped(NextWeekday(AddDays(fund.registered, rng.Between(0, 45))));
        const bool born_before_175 = fund.constituted < kRcvm175InForce;
        const sdk::Date earliest_adaptation = Later(kRcvm175InForce, AddDays(fund.registered, 1));

        switch (fund.situation) {
            case Situation::kNormal:
                fund.situation_since = operating_since;
                if (born_before_175) {
                    fund.adapted_rcvm175 =
                        NextWeekday(RandomDate(rng, earliest_adaptation, kAdaptationDeadline));
                }
                break;
            case Situation::kCancelled: {
                const sdk::Date cancelled = RandomDate(
                    rng, Later(AddDays(operating_since, 365), {2008, 1, 2}), AddDays(LastDate(), -10));
                fund.cancelled = cancelled;
                fund.situation_since = cancelled;
                // Funds cancelled after RCVM 175 came into force may have adapted first.
                if (AddDays(kRcvm175InForce, 30) < cancelled && rng.Chance(500)) {
                    fund.adapted_rcvm175 = RandomDate(rng, earliest_adaptation,
                                                      Earlier(AddDays(cancelled, -1), kAdaptationDeadline));
                }
                break;
            }
            case Situation::kLiquidation: {
                if (born_before_175 && rng.Chance(700)) {
                    fund.adapted_rcvm175 =
                        NextWeekday(RandomDate(rng, earliest_adaptation, kAdaptationDeadline));
                }
                sdk::Date from = Later(AddDays(operating_since, 365), {2025, 1, 2});
                if (fund.adapted_rcvm175) {
                    from = Later(from, AddDays(*fund.adapted_rcvm175, 1));
                }
                fund.situation_since = RandomDate(rng, from, AddDays(LastDate(), -10));
                break;
            }
            case Situation::kPreOperational:
                break;
        }
        return operating_since;
    }

    std::string DrawName(const Fund& fund, bool rcvm175, bool quoted, Prng& rng) {
        const auto patterns = NamePatterns(fund.type);
        std::vector<std::string_view> eligible;
        // Names adapted to RCVM 175 mostly gained "RESPONSABILIDADE LIMITADA"; older ones cannot.
        const bool want_175 = rcvm175 && rng.Chance(650);
        for (const NamePattern& pattern : patterns) {
            if (pattern.rcvm175 == want_175) {
                eligible.push_back(pattern.text);
            }
        }
        const std::string_view pattern = quoted ? std::string_view("FIDC \"{B}\" {T}") : rng.Pick(eligible);
        const std::string brand(rng.Pick(Brands()));
        const std::string theme = UpperCase(fund.theme);
        std::string name;
        for (int n = 1;; ++n) {
            name = ExpandPattern(pattern, n == 1 ? brand : brand + " " + Roman(n), theme);
            if (names_.insert(name).second) {
                break;
            }
        }
        // A few registrations are in mixed case: searches must not depend on case.
        return !quoted && rng.Chance(80) ? TitleCase(name) : name;
    }

    static void DrawFiscalYear(Fund& fund, Prng& rng) {
        static constexpr std::array<int, 5> kEndMonths{12, 6, 3, 9, 4};
        const int end_month = kEndMonths[rng.Weighted({700, 120, 60, 60, 60})];
        const sdk::Date& today = kReferenceDate;
        const int end_year = today.month <= end_month ? today.year : today.year + 1;
        fund.fiscal_year_end = LastDayOfMonth(end_year, end_month);
        fund.fiscal_year_start = AddDays(LastDayOfMonth(end_year - 1, end_month), 1);
    }

    // Keeps a class or subclass name in the case its fund was registered with.
    static std::string LikeFund(const Fund& fund, const std::string& upper) {
        return fund.name == UpperCase(fund.name) ? upper : TitleCase(upper);
    }

    FundClass DrawClass(const Fund& fund, std::size_t index, std::size_t count,
                        const std::optional<sdk::Date>& operating_since,
                        const std::optional<sdk::Date>& net_assets_date, Prng& rng) {
        FundClass c;
        // Classes of funds that adapted to RCVM 175 were registered on adaptation.
        const sdk::Date fund_registry_date = fund.adapted_rcvm175.value_or(fund.registered);
        if (count == 1) {
            c.cnpj = fund.cnpj;  // ~95 % of FIDCs: one class under the fund's own CNPJ
        } else {
            c.cnpj = NewCnpj(rng);
        }
        if (index == 0) {
            c.registered = fund_registry_date;
            c.constituted = fund.constituted;
            c.started = operating_since;
        } else {
            const sdk::Date registered = NextWeekday(AddDays(fund_registry_date, rng.Between(30, 700)));
            c.registered = Later(Earlier(registered, AddDays(LastDate(), -20)), fund_registry_date);
            c.constituted = Later(AddDays(c.registered, -rng.Between(3, 30)), fund.constituted);
            c.started = Capped(NextWeekday(AddDays(c.registered, rng.Between(0, 20))));
        }

        c.situation = fund.situation;
        switch (fund.situation) {
            case Situation::kNormal:
                c.situation_since = Later(c.started.value_or(c.registered), c.registered);
                break;
            case Situation::kCancelled:
            case Situation::kLiquidation:
                c.situation_since = fund.situation_since;
                break;
            case Situation::kPreOperational:
                c.situation_since = c.registered;
                break;
        }

        const std::string upper_fund_name = UpperCase(fund.name);
        if (count == 1) {
            c.name = rng.Chance(750) ? fund.name : LikeFund(fund, "CLASSE ÚNICA DO " + upper_fund_name);
        } else {
            const bool limited = EndsWith(upper_fund_name, kLimitedLiability);
            std::string upper = WithoutSuffix(upper_fund_name, kLimitedLiability) + " - CLASSE ";
            upper.push_back(static_cast<char>('A' + index));
            if (limited) {
                upper += kLimitedLiability;
            }
            c.name = LikeFund(fund, upper);
        }
        DrawClassAttributes(fund, c, rng);
        if (c.situation == Situation::kNormal || c.situation == Situation::kLiquidation) {
            c.net_assets_cents = c.situation == Situation::kLiquidation ? DrawCents(rng, 5, {400, 400, 200})
                                 : IsFidcFamily(fund.type)    ? DrawCents(rng, 6, {200, 400, 300, 100})
                                 : fund.type == FundType::kFi ? DrawCents(rng, 6, {250, 350, 300, 100})
                                                              : DrawCents(rng, 7, {300, 500, 200});
            c.net_assets_date = net_assets_date;
        }
        DrawSubclasses(fund, c, rng);
        return c;
    }

    void DrawClassAttributes(const Fund& fund, FundClass& c, Prng& rng) {
        const FundType type = fund.type;
        const std::string& theme = fund.theme;
        const bool fidc = IsFidcFamily(type);
        switch (type) {
            case FundType::kFidc:
            case FundType::kFidcNp:
            case FundType::kFicFidc:
                c.class_type = "Classes de Cotas de Fundos FIDC";
                break;
            case FundType::kFi:
                c.class_type = "Classes de Cotas de Fundos FIF";
                break;
            case FundType::kFii:
                c.class_type = "Classes de Cotas de Fundos FII";
                break;
            case FundType::kFip:
                c.class_type = "Classes de Cotas de Fundos FIP";
                break;
            case FundType::kFiagro:
                c.class_type = "Classes de Cotas de Fundos FIAGRO";
                break;
        }

        if (type == FundType::kFi) {
            for (std::string_view classification : {"Renda Fixa", "Multimercado", "Ações", "Cambial"}) {
                if (StartsWith(theme, classification)) {
                    c.classification = std::string(classification);
                }
            }
            c.performance_index = c.classification == "Ações"     ? "Ibovespa"
                                  : c.classification == "Cambial" ? "Dólar"
                                                                  : "CDI";
        } else if (fidc) {
            static constexpr std::array<std::string_view, 3> kIndexes{"CDI", "IPCA", ""};
            c.performance_index = std::string(kIndexes[rng.Weighted({550, 100, 350})]);
        } else if (type == FundType::kFii) {
            c.performance_index = rng.Chance(400) ? "IFIX" : "";
        } else {
            c.performance_index = rng.Chance(300) ? "IPCA" : "";
        }

        c.fund_of_funds = type == FundType::kFicFidc || (type == FundType::kFi && rng.Chance(150));
        c.anbima_classification = DrawAnbimaClassification(type, theme, c.classification, rng);

        if (fidc) {
            c.long_term_taxation = DrawFlag(rng, 400, 500, 100);
        } else if (c.classification == "Renda Fixa" || c.classification == "Multimercado") {
            c.long_term_taxation = DrawFlag(rng, 600, 300, 100);
        } else if (type == FundType::kFi) {
            c.long_term_taxation = DrawFlag(rng, 0, 800, 200);
        }
        c.investment_entity = type == FundType::kFip ? DrawFlag(rng, 900, 100, 0) : DrawFlag(rng, 0, 950, 50);
        c.foreign_up_to_100_percent =
            type == FundType::kFi ? DrawFlag(rng, 30, 970, 0) : DrawFlag(rng, 0, 950, 50);
        c.esg = DrawFlag(rng, 50, 900, 50);

        switch (type) {
            case FundType::kFidc:
            case FundType::kFidcNp:
                c.condominium = rng.Chance(700) ? Condominium::kClosed : Condominium::kOpen;
                break;
            case FundType::kFicFidc:
                c.condominium = rng.Chance(600) ? Condominium::kOpen : Condominium::kClosed;
                break;
            case FundType::kFi:
                c.condominium = rng.Chance(920) ? Condominium::kOpen : Condominium::kClosed;
                break;
            default:
                c.condominium = Condominium::kClosed;
                break;
        }
        const unsigned exclusive_per_mille = fidc                     ? 150
                                             : type == FundType::kFi  ? 100
                                             : type == FundType::kFip ? 200
                                                                      : 0;
        c.exclusive = rng.Chance(exclusive_per_mille);

        static constexpr std::array<TargetInvestor, 3> kTargets{
            TargetInvestor::kProfessional, TargetInvestor::kQualified, TargetInvestor::kGeneral};
        std::size_t target = 0;
        switch (type) {
            case FundType::kFidc:
                target = rng.Weighted({400, 500, 100});
                break;
            case FundType::kFidcNp:
                target = rng.Weighted({800, 200, 0});
                break;
            case FundType::kFicFidc:
                target = rng.Weighted({150, 600, 250});
                break;
            case FundType::kFi:
                target = rng.Weighted({50, 250, 700});
                break;
            case FundType::kFii:
                target = rng.Weighted({50, 200, 750});
                break;
            case FundType::kFip:
                target = rng.Weighted({500, 500, 0});
                break;
            case FundType::kFiagro:
                target = rng.Weighted({0, 400, 600});
                break;
        }
        // Exclusive classes have a single professional investor.
        c.target_investor = c.exclusive ? TargetInvestor::kProfessional : kTargets[target];

        const bool pre_operational = c.situation == Situation::kPreOperational;
        if (!pre_operational || rng.Chance(500)) {
            c.auditor = static_cast<std::size_t>(rng.Below(universe_.auditors.size()));
        }
        const unsigned custodian_per_mille = fidc ? 1000 : type == FundType::kFi ? 800 : 500;
        if (rng.Chance(custodian_per_mille)) {
            c.custodian = static_cast<std::size_t>(rng.Below(universe_.custodians.size()));
        }
        if (rng.Chance(fidc ? 450 : 150)) {
            c.controller = static_cast<std::size_t>(rng.Below(universe_.controllers.size()));
        }
    }

    static std::string DrawAnbimaClassification(FundType type, const std::string& theme,
                                                const std::string& classification, Prng& rng) {
        if (IsFidcFamily(type)) {
            if (!rng.Chance(550)) {
                return "";
            }
            if (ContainsAny(theme, {"Agro", "Rural"})) {
                return "FIDC Agro, Indústria e Comércio";
            }
            if (ContainsAny(theme,
                            {"Consignado", "Pessoal", "Veicular", "Consumidor", "Imobiliário", "Cartão"})) {
                return "FIDC Financeiro";
            }
            if (ContainsAny(theme, {"Duplicatas", "Fomento", "Comerciais", "Antecipação", "Fornecedores"})) {
                return "FIDC Fomento Mercantil";
            }
            return "FIDC Outros";
        }
        if (type == FundType::kFi && rng.Chance(700)) {
            static constexpr std::array<std::string_view, 3> kFixedIncome{
                "Renda Fixa Duração Livre Crédito Livre", "Renda Fixa Duração Baixa Grau de Investimento",
                "Renda Fixa Duração Livre Soberano"};
            static constexpr std::array<std::string_view, 2> kMulti{"Multimercados Livre",
                                                                    "Multimercados Macro"};
            static constexpr std::array<std::string_view, 2> kEquity{"Ações Livre", "Ações Índice Ativo"};
            if (classification == "Renda Fixa") {
                return std::string(rng.Pick(kFixedIncome));
            }
            if (classification == "Multimercado") {
                return std::string(rng.Pick(kMulti));
            }
            if (classification == "Ações") {
                return std::string(rng.Pick(kEquity));
            }
            return "Cambial";
        }
        if (type == FundType::kFii && rng.Chance(500)) {
            static constexpr std::array<std::string_view, 4> kFii{
                "FII Renda Gestão Ativa", "FII Títulos e Valores Mobiliários Gestão Ativa",
                "FII Híbrido Gestão Ativa", "FII Desenvolvimento para Venda Gestão Ativa"};
            return std::string(rng.Pick(kFii));
        }
        return "";
    }

    static void DrawSubclasses(const Fund& fund, FundClass& c, Prng& rng) {
        struct Plan {
            Seniority seniority;
            std::string_view suffix;
            bool later_series;
        };
        std::vector<Plan> plans;
        if (IsFidcFamily(fund.type) && rng.Chance(220)) {
            switch (rng.Weighted({400, 450, 150})) {
                case 0:
                    plans = {{Seniority::kSenior, " SUBCLASSE SÊNIOR", false},
                             {Seniority::kSubordinated, " SUBCLASSE SUBORDINADA", false}};
                    break;
                case 1:
                    plans = {{Seniority::kSenior, " SUBCLASSE SÊNIOR", false},
                             {Seniority::kMezzanine, " SUBCLASSE MEZANINO", false},
                             {Seniority::kSubordinated, " SUBCLASSE SUBORDINADA", false}};
                    break;
                default:
                    plans = {{Seniority::kSenior, " SUBCLASSE SÊNIOR 1ª SÉRIE", false},
                             {Seniority::kSenior, " SUBCLASSE SÊNIOR 2ª SÉRIE", true},
                             {Seniority::kMezzanine, " SUBCLASSE MEZANINO", false},
                             {Seniority::kSubordinated, " SUBCLASSE SUBORDINADA", false}};
                    break;
            }
        } else if (fund.type == FundType::kFi && rng.Chance(80)) {
            plans = {{Seniority::kNone, " SUBCLASSE A", false}, {Seniority::kNone, " SUBCLASSE B", false}};
        }

        const std::string base = WithoutSuffix(UpperCase(c.name), kLimitedLiability);
        for (const Plan& plan : plans) {
            Subclass s;
            s.seniority = plan.seniority;
            s.name = LikeFund(fund, base + std::string(plan.suffix));
            s.constituted = c.constituted;
            s.started = c.started;
            if (plan.later_series) {
                // A second senior series issued months or years after the first.
                const sdk::Date issued = NextWeekday(AddDays(c.registered, rng.Between(60, 700)));
                s.constituted = Later(Earlier(issued, AddDays(LastDate(), -30)), c.constituted);
                if (c.started) {
                    s.started = Capped(NextWeekday(AddDays(s.constituted, rng.Between(1, 15))));
                }
            }
            s.situation = c.situation;
            s.situation_since = Later(c.situation_since, s.constituted);
            s.condominium = c.condominium;
            s.exclusive = c.exclusive;
            // Originators usually keep the subordinated quotas: a professional investor.
            s.target_investor = plan.seniority == Seniority::kSubordinated ? TargetInvestor::kProfessional
                                                                           : c.target_investor;
            s.pension = fund.type == FundType::kFi ? DrawFlag(rng, 300, 700, 0) : DrawFlag(rng, 0, 900, 100);
            s.exclusive_non_resident = DrawFlag(rng, 20, 900, 80);
            s.exclusive_complementary_pension = DrawFlag(rng, 0, 900, 100);
            c.subclasses.push_back(std::move(s));
        }
    }

    // Ids and CVM codes grow with registration order, with gaps as in a shared registry.
    void AssignIds() {
        Prng rng = Prng::ForStream(seed_, kIdStream);
        std::int64_t fund_id = rng.Between(1000, 4000);
        std::int64_t class_id = rng.Between(20000, 26000);
        std::int64_t subclass_id = rng.Between(1000, 3000);
        cvm_code_floor_ = rng.Between(30000, 40000);
        std::int64_t cvm_code = cvm_code_floor_;
        const auto next = [&rng](std::int64_t& counter, std::int64_t max_gap) {
            counter += rng.Between(1, max_gap);
            return counter;
        };
        for (Fund& fund : universe_.funds) {
            fund.id = next(fund_id, 250);
            fund.cvm_code = next(cvm_code, 90);
        }
        for (Fund& fund : universe_.funds) {
            for (FundClass& c : fund.classes) {
                c.id = next(class_id, 120);
                c.cvm_code = next(cvm_code, 90);
            }
        }
        for (Fund& fund : universe_.funds) {
            for (FundClass& c : fund.classes) {
                for (Subclass& s : c.subclasses) {
                    s.id = next(subclass_id, 60);
                    s.cvm_code = next(cvm_code, 90);
                }
            }
        }
    }

    // Exactly one live FIDC re-registered when adapting to RCVM 175: its older registration
    // stays in the registry, cancelled, under the same ID_Registro_Fundo.
    void AddSupersededRegistration() {
        std::vector<std::size_t> candidates;
        for (std::size_t i = 0; i < universe_.funds.size(); ++i) {
            const Fund& fund = universe_.funds[i];
            if (fund.type == FundType::kFidc && fund.situation == Situation::kNormal &&
                fund.adapted_rcvm175 && fund.classes.size() == 1 &&
                fund.name.find('"') == std::string::npos) {
                candidates.push_back(i);
            }
        }
        if (candidates.empty()) {
            return;
        }
        Prng rng = Prng::ForStream(seed_, kSupersededStream);
        Fund& live = universe_.funds[rng.Pick(candidates)];
        Fund old = live;
        old.classes.clear();
        old.cvm_code = cvm_code_floor_ - rng.Between(100, 900);  // older than every live code
        old.name = WithoutSuffix(live.name, kLimitedLiability);
        old.name = WithoutSuffix(old.name, TitleCase(kLimitedLiability));
        old.situation = Situation::kCancelled;
        old.cancelled = AddDays(*live.adapted_rcvm175, -1);
        old.situation_since = *old.cancelled;
        old.adapted_rcvm175.reset();
        old.fiscal_year_start.reset();
        old.fiscal_year_end.reset();
        old.net_assets_cents.reset();
        old.net_assets_date.reset();

        live.registered = *live.adapted_rcvm175;
        live.situation_since = live.registered;
        universe_.superseded_registrations.push_back(std::move(old));
    }

    std::uint64_t seed_;
    std::size_t factor_;
    Universe universe_;
    std::vector<unsigned> manager_weights_;
    std::vector<unsigned> administrator_weights_;
    std::set<std::string> cnpj_roots_;
    std::set<std::string> names_;
    std::size_t quoted_fund_ = 0;
    std::int64_t cvm_code_floor_ = 0;
};

}  // namespace

Universe BuildUniverse(std::uint64_t seed, UniverseSize size) {
    return Builder(seed, size).Build();
}

}  // namespace lastro::funds::sample
