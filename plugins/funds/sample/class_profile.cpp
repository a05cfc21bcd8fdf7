#include "sample/class_profile.hpp"

#include "sample/kit.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::funds::sample {

Book BookOf(const Fund& fund) {
    if (fund.type == FundType::kFicFidc) {
        return Book::kFundOfFunds;
    }
    const std::string& theme = fund.theme;
    const auto has = [&theme](std::initializer_list<std::string_view> words) {
        for (std::string_view word : words) {
            if (theme.find(word) != std::string::npos) {
                return true;
            }
        }
        return false;
    };
    if (has({"Precatórios"})) {
        return Book::kCourtOrders;
    }
    if (has({"Judiciais"})) {
        return Book::kLawsuits;
    }
    if (has({"Recuperação", "Inadimplidos"})) {
        return Book::kDistressed;
    }
    if (has({"Consignado"})) {
        return Book::kPayroll;
    }
    if (has({"Pessoal", "Consumidor"})) {
        return Book::kPersonal;
    }
    if (has({"Imobiliário"})) {
        return Book::kRealEstate;
    }
    if (has({"Corporativo", "Empresarial", "Estruturado"})) {
        return Book::kCorporate;
    }
    if (has({"Rural", "Agronegócio"})) {
        return Book::kAgribusiness;
    }
    if (has({"Veicular"})) {
        return Book::kVehicles;
    }
    if (has({"Educacional"})) {
        return Book::kEducation;
    }
    if (has({"Cartão"})) {
        return Book::kCards;
    }
    if (has({"Fomento"})) {
        return Book::kFactoring;
    }
    if (has({"Comerciais", "Duplicatas", "Fornecedores", "Antecipação"})) {
        return Book::kTrade;
    }
    if (has({"Saúde", "Energia", "Infraestrutura"})) {
        return Book::kServices;
    }
    return Book::kMultisector;
}

std::int64_t Jitter(Prng& rng, std::int64_t value, std::int64_t spread_ppm) {
    return Share(value, kPpm + rng.Between(-spread_ppm, spread_ppm));
}

namespace {

// The segment leaves of tab_II, in column order (balance_sheet.hpp names them).
enum Leaf : std::size_t {
    kIndustrial,
    kRealEstateSegment,
    kCommerce,
    kRetail,
    kLeasing,
    kServicesLeaf,
    kPublicServices,
    kEducationLeaf,
    kEntertainment,
    kAgro,
    kPersonalCredit,
    kPayrollCredit,
    kCorporateCredit,
    kMiddleMarket,
    kVehiclesLeaf,
    kCommercialRealEstate,
    kResidentialRealEstate,
    kOtherFinancial,
    kCreditCards,
    kFactoringPersonal,
    kFactoringCorporate,
    kCourtOrdersLeaf,
    kTaxCredits,
    kRoyalties,
    kOtherPublic,
    kLawsuitsLeaf,
    kIntellectualProperty,
};

std::string MaskedCpf(Prng& rng) {
    for (;;) {
        std::string nine;
        for (int i = 0; i < 9; ++i) {
            nine.push_back(static_cast<char>('0' + rng.Below(10)));
        }
        if (const std::optional<std::string> digits = CpfOf(std::move(nine))) {
            return digits->substr(0, 3) + "." + digits->substr(3, 3) + "." + digits->substr(6, 3) + "-" +
                   digits->substr(9, 2);
        }
    }
}

std::string MaskedCnpj(Prng& rng) {
    char root[16];
    std::snprintf(root, sizeof root, "%08lld", static_cast<long long>(rng.Between(1'000'000, 99'999'999)));
    return sdk::FormatCnpj(sdk::CnpjWithCheckDigits(std::string(root) + "0001"));
}

// Where the receivables of each book sit in tab_II: one or two dominant leaves, a few minor.

void DrawSegments(Book book, const Fund& fund, Prng& rng, std::array<std::int64_t, 27>& weights) {
    const auto put = [&](Leaf leaf, std::int64_t low, std::int64_t high) {
        weights[leaf] += rng.Between(low, high);
    };
    switch (book) {
        case Book::kPayroll:
            put(kPayrollCredit, 800, 1000);
            if (rng.Chance(300))
                put(kPersonalCredit, 10, 150);
            break;
        case Book::kPersonal:
            put(kPersonalCredit, 600, 900);
            put(kRetail, 0, 250);
            break;
        case Book::kRealEstate:
            put(kResidentialRealEstate, 500, 900);
            put(kCommercialRealEstate, 0, 300);
            if (rng.Chance(300))
                put(kRealEstateSegment, 20, 150);
            break;
        case Book::kCorporate:
            put(kCorporateCredit, 400, 800);
            put(kMiddleMarket, 0, 300);
            if (rng.Chance(400))
                put(kIndustrial, 20, 200);
            break;
        case Book::kAgribusiness:
            put(kAgro, 700, 1000);
            if (rng.Chance(400))
                put(kIndustrial, 20, 200);
            break;
        case Book::kVehicles:
            put(kVehiclesLeaf, 800, 1000);
            if (rng.Chance(300))
                put(kPersonalCredit, 10, 100);
            break;
        case Book::kEducation:
            put(kEducationLeaf, 800, 1000);
            break;
        case Book::kTrade:
            put(kCommerce, 500, 900);
            put(kIndustrial, 0, 300);
            if (rng.Chance(400))
                put(kRetail, 20, 200);
            break;
        case Book::kCards:
            put(kCreditCards, 700, 1000);
            put(kRetail, 0, 200);
            break;
        case Book::kFactoring:
            put(kFactoringCorporate, 600, 900);
            put(kFactoringPersonal, 0, 200);
            break;
        case Book::kServices:
            if (fund.theme.find("Saúde") != std::string::npos) {
                put(kServicesLeaf, 700, 1000);
            } else {
                put(kPublicServices, 600, 1000);
                put(kServicesLeaf, 0, 200);
            }
            break;
        case Book::kMultisector:
            put(kIndustrial, 100, 300);
            put(kCommerce, 100, 300);
            put(kServicesLeaf, 50, 200);
            put(kCorporateCredit, 50, 200);
            if (rng.Chance(500))
                put(kAgro, 20, 150);
            if (rng.Chance(300))
                put(kLeasing, 10, 80);
            break;
        case Book::kCourtOrders:
            put(kCourtOrdersLeaf, 800, 1000);
            if (rng.Chance(400))
                put(kTaxCredits, 10, 150);
            break;
        case Book::kLawsuits:
            put(kLawsuitsLeaf, 700, 1000);
            if (rng.Chance(300))
                put(kCourtOrdersLeaf, 20, 200);
            if (rng.Chance(100))
                put(kIntellectualProperty, 10, 80);
            break;
        case Book::kDistressed:
            put(kOtherFinancial, 400, 800);
            put(kPersonalCredit, 50, 300);
            if (rng.Chance(400))
                put(kCorporateCredit, 20, 200);
            break;
        case Book::kFundOfFunds:
            break;
    }
    if (book != Book::kFundOfFunds && rng.Chance(80)) {
        put(static_cast<Leaf>(rng.Below(27)), 5, 40);  // a stray minor segment
    }
    if (book == Book::kCourtOrders && rng.Chance(100)) {
        put(kRoyalties, 5, 40);
    }
    if (book == Book::kCourtOrders && rng.Chance(150)) {
        put(kOtherPublic, 5, 60);
    }
    if (book == Book::kServices && rng.Chance(100)) {
        put(kEntertainment, 5, 60);
    }
}

}  // namespace

ClassProfile DrawProfile(const Fund& fund, bool holds_securities, bool big, Prng& rng) {
    ClassProfile p;
    p.book = BookOf(fund);
    p.holds_securities = holds_securities;
    p.big_portfolio = big;
    const bool fof = p.book == Book::kFundOfFunds;
    p.liabilities_ppm = rng.Between(2'000, 30'000);
    p.long_payables_ppm = rng.Chance(300) ? rng.Between(50'000, 300'000) : 0;
    p.derivatives_ppm = !fof && rng.Chance(50) ? rng.Between(2'000, 15'000) : 0;
    p.other_assets_ppm = rng.Between(0, 15'000);

    auto& sec = p.securities_ppm;
    if (fof) {
        sec[kSecPublicBonds] = rng.Between(10'000, 50'000);
        sec[kSecRepos] = rng.Chance(500) ? rng.Between(5'000, 30'000) : 0;
    } else if (holds_securities) {
        sec[kSecPublicBonds] = big ? 120'000 : rng.Between(40'000, 100'000);
        sec[kSecBankDeposits] = big ? 100'000 : rng.Between(20'000, 60'000);
        sec[kSecDebentures] = big ? 90'000 : rng.Between(20'000, 60'000);
        sec[kSecOtherFixedIncome] = rng.Between(5'000, 20'000);
        sec[kSecFidcQuotas] = rng.Between(20'000, 60'000);
        sec[kSecRepos] = rng.Between(0, 20'000);
    } else {
        sec[kSecPublicBonds] = rng.Chance(700) ? rng.Between(5'000, 60'000) : 0;
        sec[kSecRepos] = rng.Chance(500) ? rng.Between(5'000, 50'000) : 0;
        sec[kSecBankDeposits] = rng.Chance(150) ? rng.Between(5'000, 30'000) : 0;
        if (rng.Chance(60))
            sec[kSecDebentures] = rng.Between(5'000, 30'000);
        if (rng.Chance(40))
            sec[kSecCri] = rng.Between(5'000, 30'000);
        if (rng.Chance(40))
            sec[kSecIcvm555Quotas] = rng.Between(5'000, 20'000);
        if (rng.Chance(60))
            sec[kSecFifQuotas] = rng.Between(5'000, 30'000);
        if (rng.Chance(40))
            sec[kSecFidcQuotas] = rng.Between(5'000, 40'000);
        if (rng.Chance(20))
            sec[kSecFidcNpQuotas] = rng.Between(5'000, 30'000);
    }

    if (!fof && rng.Chance(120)) {
        p.without_risk_blank = true;
    } else if (!fof && rng.Chance(90)) {
        p.without_risk_ppm = rng.Between(100'000, 600'000);
    }
    p.provision_ppm = rng.Between(300'000, 950'000);
    p.overdue_parcel_ppm = rng.Between(200'000, 700'000);
    p.running_multiple = rng.Between(1, 4);

    auto& other = p.other_categories_ppm;  // I.2.a.4 .. I.2.a.10
    switch (p.book) {
        case Book::kServices:
            other[0] = rng.Between(50'000, 300'000);  // a performar
            break;
        case Book::kDistressed:
            other[1] = rng.Between(100'000, 400'000);  // overdue when assigned
            break;
        case Book::kCourtOrders:
            other[3] = rng.Between(600'000, 950'000);  // public revenues
            other[4] = rng.Between(0, 200'000);        // lawsuits
            break;
        case Book::kLawsuits:
            other[4] = rng.Between(600'000, 950'000);
            break;
        default:
            if (rng.Chance(100))
                other[0] = rng.Between(10'000, 50'000);
            if (rng.Chance(50))
                other[2] = rng.Between(10'000, 30'000);  // assignor in recovery
            if (rng.Chance(30))
                other[5] = rng.Between(5'000, 20'000);  // risk factor
            if (rng.Chance(50))
                other[6] = rng.Between(10'000, 50'000);  // other
            break;
    }

    std::array<std::int64_t, 10> maturity{};
    switch (p.book) {
        case Book::kTrade:
        case Book::kCards:
        case Book::kFactoring:
        case Book::kAgribusiness:
            maturity = {350, 250, 150, 80, 50, 40, 60, 20, 0, 0};
            break;
        case Book::kPayroll:
        case Book::kRealEstate:
            maturity = {30, 30, 30, 30, 30, 30, 150, 220, 180, 270};
            break;
        case Book::kCourtOrders:
        case Book::kLawsuits:
        case Book::kDistressed:
            maturity = {10, 10, 10, 20, 20, 20, 100, 250, 250, 310};
            break;
        default:
            maturity = {100, 90, 80, 80, 70, 70, 200, 180, 80, 50};
            break;
    }
    for (std::size_t i = 0; i < 10; ++i) {
        p.maturity_weights[i] = Jitter(rng, maturity[i], 300'000);
    }
    const std::array<std::int64_t, 10> overdue =
        p.book == Book::kDistressed
            ? std::array<std::int64_t, 10>{100, 90, 80, 80, 80, 80, 150, 140, 100, 100}
            : std::array<std::int64_t, 10>{300, 180, 120, 90, 70, 60, 80, 50, 30, 20};
    for (std::size_t i = 0; i < 10; ++i) {
        p.overdue_weights[i] = Jitter(rng, overdue[i], 250'000);
    }
    p.prepaid_ppm = fof ? 0 : rng.Between(5'000, 30'000);
    DrawSegments(p.book, fund, rng, p.segment_weights);

    if (!fof) {
        std::size_t count = 0;
        switch (p.book) {
            case Book::kPayroll:
            case Book::kVehicles:
            case Book::kCards:
                count = static_cast<std::size_t>(rng.Between(1, 3));
                break;
            case Book::kTrade:
            case Book::kFactoring:
            case Book::kMultisector:
            case Book::kCourtOrders:
                count = static_cast<std::size_t>(rng.Between(5, 9));
                break;
            default:
                count = static_cast<std::size_t>(rng.Between(1, 7));
                break;
        }
        // Court orders are bought from their holders, often natural persons: a CPF.
        std::vector<std::int64_t> weights;
        std::int64_t weight = 1000;
        for (std::size_t i = 0; i < count; ++i) {
            weights.push_back(weight);
            weight = Share(weight, rng.Between(300'000, 900'000)) + 1;
        }
        const std::int64_t covered = count == 9 ? rng.Between(6'000, 9'500) : 10'000;
        const std::vector<std::int64_t> shares = Allocate(covered, weights);
        for (std::size_t i = 0; i < count; ++i) {
            const bool person = p.book == Book::kCourtOrders ? rng.Chance(700) : rng.Chance(15);
            p.assignors.emplace_back(person ? MaskedCpf(rng) : MaskedCnpj(rng), shares[i]);
        }
    }
    p.reports_risk_ratings = !fof && rng.Chance(550);
    if (fof && rng.Chance(400)) {
        p.fidc_np_quotas_ppm = rng.Between(150'000, 450'000);
    }
    return p;
}

}  // namespace lastro::funds::sample
