#include "sample/anbima_writer.hpp"

#include "sample/kit.hpp"
#include "sample/monthly_history.hpp"
#include "sample/streams.hpp"

#include <optional>
#include <vector>

namespace lastro::funds::sample {
namespace {

std::string_view Status(Situation situation) {
    switch (situation) {
        case Situation::kNormal:
            return "Ativo";
        case Situation::kCancelled:
            return "Encerrado";
        case Situation::kLiquidation:
            return "Em Liquidação";
        case Situation::kPreOperational:
            return "Em Constituição";
    }
    return "Ativo";
}

// ANBIMA's FIDC type, from the registry's classification when there is one, else the theme.
std::string_view Type(const Fund& fund, const FundClass& c) {
    if (!c.anbima_classification.empty()) {
        return c.anbima_classification;
    }
    switch (BookOf(fund)) {
        case Book::kAgribusiness:
            return "FIDC Agro, Indústria e Comércio";
        case Book::kPayroll:
        case Book::kPersonal:
        case Book::kRealEstate:
        case Book::kVehicles:
        case Book::kCards:
            return "FIDC Financeiro";
        case Book::kTrade:
        case Book::kFactoring:
            return "FIDC Fomento Mercantil";
        default:
            return "FIDC Outros";
    }
}

std::string_view Focus(const Fund& fund) {
    switch (BookOf(fund)) {
        case Book::kPayroll:
            return "Crédito Consignado";
        case Book::kPersonal:
            return "Crédito Pessoal";
        case Book::kRealEstate:
            return "Crédito Imobiliário";
        case Book::kCorporate:
            return "Crédito Corporativo";
        case Book::kAgribusiness:
            return "Agronegócio";
        case Book::kVehicles:
            return "Financiamento de Veículos";
        case Book::kEducation:
            return "Crédito Educacional";
        case Book::kTrade:
            return "Recebíveis Comerciais";
        case Book::kCards:
            return "Cartão de Crédito";
        case Book::kFactoring:
            return "Fomento Mercantil";
        case Book::kServices:
            return "Infraestrutura e Serviços";
        case Book::kMultisector:
        case Book::kFundOfFunds:
            return "Multicarteira";
        case Book::kCourtOrders:
            return "Setor Público";
        case Book::kLawsuits:
            return "Ações Judiciais";
        case Book::kDistressed:
            return "Recuperação de Crédito";
    }
    return "Multicarteira";
}

std::int64_t MinimumSubscription(TargetInvestor investor, Prng& rng) {
    switch (investor) {
        case TargetInvestor::kGeneral:
            return rng.Pick(std::array<std::int64_t, 3>{1'000, 5'000, 10'000});
        case TargetInvestor::kQualified:
            return rng.Pick(std::array<std::int64_t, 3>{25'000, 50'000, 100'000});
        case TargetInvestor::kProfessional:
            return rng.Pick(std::array<std::int64_t, 3>{500'000, 1'000'000, 5'000'000});
    }
    return 1'000;
}

struct Entry {
    const Fund* fund;
    const FundClass* fund_class;
    const Subclass* subclass;  // null for a class listed without registry subclasses
};

}  // namespace

AnbimaFile RenderAnbimaSubclasses(const Universe& universe, UniverseSize size) {
    std::vector<Entry> entries;
    std::vector<Entry> plain;  // single-class FIDCs without subclasses, in operation
    for (const Fund& fund : universe.funds) {
        if (!IsFidcFamily(fund.type)) {
            continue;
        }
        for (const FundClass& c : fund.classes) {
            bool ranked = false;
            for (const Subclass& s : c.subclasses) {
                if (s.seniority != Seniority::kNone) {
                    entries.push_back({&fund, &c, &s});
                    ranked = true;
                }
            }
            if (!ranked && fund.type == FundType::kFidc && fund.classes.size() == 1 &&
                c.situation == Situation::kNormal) {
                plain.push_back({&fund, &c, nullptr});
            }
        }
    }
    Prng plan = Prng::ForStream(universe.seed, kAnbimaStream, 0);
    if (size == UniverseSize::kFull) {
        entries.insert(entries.end(), plain.begin(), plain.end());
        plain.clear();
    }
    for (std::size_t k = 0; k < 20 && !plain.empty(); ++k) {
        const std::size_t at = static_cast<std::size_t>(plan.Below(plain.size()));
        entries.push_back(plain[at]);
        plain.erase(plain.begin() + static_cast<std::ptrdiff_t>(at));
    }

    CsvTable table(kAnbimaColumns);
    std::int64_t code = plan.Between(100'000, 300'000);
    for (const Entry& e : entries) {
        const Fund& fund = *e.fund;
        const FundClass& c = *e.fund_class;
        const std::uint64_t index = e.subclass ? static_cast<std::uint64_t>(e.subclass->id) * 2 + 1
                                               : static_cast<std::uint64_t>(c.id) * 2;
        Prng rng = Prng::ForStream(universe.seed, kAnbimaStream, index);
        code += rng.Between(1, 400);
        const Situation situation = e.subclass ? e.subclass->situation : c.situation;
        const std::optional<sdk::Date> started = e.subclass ? e.subclass->started : c.started;
        const TargetInvestor investor = e.subclass ? e.subclass->target_investor : c.target_investor;
        const bool exclusive = e.subclass ? e.subclass->exclusive : c.exclusive;
        const bool open = c.condominium == Condominium::kOpen;

        std::optional<sdk::Date> first_subscription;
        if (started && rng.Chance(900)) {
            first_subscription =
                Earlier(NextWeekday(AddDays(*started, rng.Between(0, 10))), AddDays(kReferenceDate, -1));
        }
        std::string characteristic = exclusive         ? "Exclusivo"
                                     : rng.Chance(200) ? "Reservado"
                                                       : "Sem restrição";
        if (rng.Chance(30)) {
            characteristic.clear();
        }
        const bool adapted = fund.adapted_rcvm175.has_value() || !(fund.constituted < kRcvm175InForce);
        std::optional<std::int64_t> minimum;
        if (rng.Chance(880)) {
            minimum = MinimumSubscription(investor, rng) * 100;
        }
        std::string redemption_days;
        if (open && rng.Chance(920)) {
            redemption_days = std::to_string(rng.Between(1, 30));
        }
        table.AddRow(
            {std::to_string(code), c.cnpj, fund.cnpj, e.subclass ? std::to_string(e.subclass->cvm_code) : "",
             e.subclass ? e.subclass->name : c.name, std::string(Status(situation)), DateField(started),
             DateField(first_subscription), "FIDC", std::string(Type(fund, c)),
             rng.Chance(950) ? std::string(Focus(fund)) : "", std::string(TargetInvestorLabel(investor)),
             characteristic, rng.Chance(800) ? "Fechamento" : "Abertura", adapted ? "S" : "N",
             Decimal(minimum, 2), redemption_days});
    }
    return {table.Utf8(), table.RowCount()};
}

}  // namespace lastro::funds::sample
