// What a FIDC-family class invests in and how its balance sheet is shaped: the constants drawn
// once per class (book of receivables, securities, delinquency profile, maturities, segments,
// assignors) that the monthly history and the balance sheet build on.
#pragma once

#include "sample/kit.hpp"
#include "sample/universe.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lastro::funds::sample {

// What kind of receivables a class buys: drives its segments in tab_II, its maturities and
// its typical delinquency.
enum class Book {
    kPayroll,       // crédito consignado
    kPersonal,      // crédito pessoal, consumidor
    kRealEstate,    // crédito imobiliário
    kCorporate,     // crédito corporativo, empresarial, estruturado
    kAgribusiness,  // agronegócio, crédito rural
    kVehicles,      // crédito veicular
    kEducation,     // crédito educacional
    kTrade,         // duplicatas, recebíveis comerciais, fornecedores, antecipação
    kCards,         // recebíveis de cartão
    kFactoring,     // fomento mercantil
    kServices,      // saúde, energia solar, infraestrutura
    kMultisector,   // multissetorial
    kCourtOrders,   // precatórios
    kLawsuits,      // créditos judiciais
    kDistressed,    // recuperação de crédito, créditos inadimplidos
    kFundOfFunds,   // FIC-FIDC: holds FIDC quotas, no receivables
};
Book BookOf(const Fund& fund);

// Securities in I.2.c..I.2.j: the order of ClassProfile::securities_ppm and of the balance sheet.
enum Security : std::size_t {
    kSecDebentures,        // I.2.c.1
    kSecCri,               // I.2.c.2
    kSecCommercialPaper,   // I.2.c.3
    kSecFinancialBills,    // I.2.c.4
    kSecIcvm555Quotas,     // I.2.c.5 (ICVM 555)
    kSecFifQuotas,         // I.2.c.5 (FIF, RCVM 175)
    kSecOtherSecurities,   // I.2.c.6
    kSecPublicBonds,       // I.2.d
    kSecBankDeposits,      // I.2.e (CDB)
    kSecRepos,             // I.2.f
    kSecOtherFixedIncome,  // I.2.g
    kSecFidcQuotas,        // I.2.h
    kSecFidcNpQuotas,      // I.2.i
    kSecFutures,           // I.2.j
    kSecurityCount,
};

// Per-class constants of the balance sheet, drawn once.
struct ClassProfile {
    Book book = Book::kMultisector;
    std::int64_t liabilities_ppm = 0;    // of net assets
    std::int64_t long_payables_ppm = 0;  // of payables, due after 12 months
    std::int64_t derivatives_ppm = 0;    // of assets (I.3); most classes none
    std::int64_t other_assets_ppm = 0;   // of assets (I.4)
    // Of assets: I.2.c.1..6 (seven columns: c.5 twice), d, e, f, g, h, i, j.
    std::array<std::int64_t, kSecurityCount> securities_ppm{};
    // A FIC-FIDC's share of its FIDC quotas held in FIDC-NP classes (I.2.i); the rest is I.2.h.
    std::int64_t fidc_np_quotas_ppm = 0;
    std::int64_t without_risk_ppm = 0;    // of receivables: bought without substantial risk (I.2.b)
    bool without_risk_blank = false;      // I.2.b and tab_VI left empty
    std::int64_t provision_ppm = 0;       // provision (PDD) per unit of delinquent receivables
    std::int64_t overdue_parcel_ppm = 0;  // of delinquent: overdue parcels of running credits
    std::int64_t running_multiple = 0;    // running balance per overdue parcel (whole units)
    std::array<std::int64_t, 7> other_categories_ppm{};           // of to-mature: I.2.a.4 .. I.2.a.10
    std::array<std::int64_t, 10> maturity_weights{};              // to-mature bands, up to 30 days first
    std::array<std::int64_t, 10> overdue_weights{};               // delinquent bands, 1-30 days first
    std::int64_t prepaid_ppm = 0;                                 // of receivables, paid early per month
    std::array<std::int64_t, 27> segment_weights{};               // tab_II leaves (see balance_sheet.hpp)
    std::vector<std::pair<std::string, std::int64_t>> assignors;  // masked CPF/CNPJ, hundredths of %
    bool reports_risk_ratings = false;                            // tab_X SCR columns filled
    bool holds_securities = false;                                // one of the FIDCs with a CDA portfolio
    bool big_portfolio = false;  // the CDA holder with more than 230 positions
    bool average_blank = false;  // never fills TAB_IV_B_VL_PL_MEDIO
    // Files its Amortizações rows with the columns reversed: the amount per quota in
    // TAB_X_VL_TOTAL, the BRL total in TAB_X_QT_COTA (as some administrators do).
    bool amortizations_swapped = false;
    // Files a tab_X_4 row for every series and operation each month, 0.00 when none happened
    // (as the filers of repeated series labels do in CVM's files).
    bool lists_every_operation = false;
};

// `holds_securities`: one of the FIDCs with a CDA portfolio; `big`: the one with hundreds of
// positions.
ClassProfile DrawProfile(const Fund& fund, bool holds_securities, bool big, Prng& rng);

// `value` moved by a uniform share in [-spread, +spread] (parts per million).
std::int64_t Jitter(Prng& rng, std::int64_t value, std::int64_t spread_ppm);

}  // namespace lastro::funds::sample
