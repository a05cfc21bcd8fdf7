// The services the funds plugin offers to the plugins that require it (sdk/services.hpp,
// the host's docs/plugins.md, "Services"). A dependent includes this header, never the funds model: the
// data comes back as the plain structs below. Every method runs inside the caller's
// transaction on the database the caller passes, and reads only; a missing value is
// std::nullopt, never 0.
//
// Any change to this file changes kFundsServicesIdentity (generated from it at build time), so a
// dependent built against another version of it is refused at start-up.
#pragma once

#include <lastro/funds/services_identity.hpp>
#include <lastro/sdk/services.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

// A fund of CVM's registry (registro_fundo) that a locator matched.
struct BOOST_SYMBOL_VISIBLE LocatedFund {
    std::string fund_id;  // persistent (UUIDv5 of CVM's registry id)
    std::string cnpj;     // 14 digits
    std::optional<std::int64_t> cvm_code;
    std::optional<std::string> name;
    std::optional<std::string> status;
    std::optional<std::string> fund_type;   // FIDC, FIDC-NP, FIC-FIDC, FI...
    std::optional<std::string> valid_from;  // Data_Registro, "YYYY-MM-DD"
    std::optional<std::string> valid_to;    // Data_Cancelamento
    std::string matched_as;                 // "fund_cnpj" or "fund_cvm_code"
    std::vector<std::string> class_ids;     // every class of the fund, in registry order
};

// A class of CVM's registry (registro_classe) that a locator matched.
struct BOOST_SYMBOL_VISIBLE LocatedClass {
    std::string class_id;  // persistent
    std::string fund_id;
    std::optional<std::string> cnpj;  // the class's own CNPJ, 14 digits, when it has one
    std::optional<std::int64_t> cvm_code;
    std::optional<std::string> name;
    std::optional<std::string> status;
    std::optional<std::string> class_type;
    std::optional<std::string> valid_from;  // Data_Registro
    std::optional<std::string> valid_to;    // when cancelled: the start of that situation
    std::string matched_as;  // "class_cnpj", "class_cvm_code", "subclass_cvm_code" or "anbima_code"
};

struct BOOST_SYMBOL_VISIBLE Located {
    std::vector<LocatedFund> funds;     // newest registration first
    std::vector<LocatedClass> classes;  // newest registration first, each class once

    bool Empty() const { return funds.empty() && classes.empty(); }
};

// From the identifiers other datasets carry (CNPJ, CVM code) to the persistent fund and class
// ids of the registry: the same matching as GET /v1/resolve (docs/api/registry.md), over the
// whole registry.
class BOOST_SYMBOL_VISIBLE FundLocator : public sdk::Service {
public:
    static constexpr std::string_view kServiceName = "funds.locator";
    static constexpr std::string_view kServiceIdentity = LASTRO_FUNDS_SERVICES_IDENTITY;

    // Funds and classes whose CNPJ is `cnpj` (14 digits, as sdk::ParseCnpj gives it).
    virtual Located ByCnpj(odb::database& db, const std::string& cnpj) const = 0;
    // Funds, classes, and the classes of subclasses, whose CVM code is `code`.
    virtual Located ByCvmCode(odb::database& db, std::int64_t code) const = 0;
};

// One FIDC monthly report (cvm.inf_mensal_fidc) of one filer and month, as normalized at
// ingest (docs/datasets/inf_mensal_fidc.md: the duplicate rule applied, numbers typed, derived
// figures as docs/api/fidc-metrics.md defines them). BRL unless stated.
struct BOOST_SYMBOL_VISIBLE FidcMonthlyFact {
    std::string cnpj;                       // of the filer (a class after RCVM 175, else the fund), 14 digits
    std::string month;                      // "YYYY-MM"
    std::string reference_date;             // DT_COMPTC, "YYYY-MM-DD"
    std::optional<std::string> filer_type;  // TP_FUNDO_CLASSE: "Classe" or "Fundo"; null in the old layout
    std::optional<std::string> name;
    std::optional<std::string> administrator_cnpj;
    std::optional<std::string> administrator;
    std::optional<std::string> condominium;  // "ABERTO" or "FECHADO" as filed
    std::optional<double> assets_total;      // TAB_I_VL_ATIVO
    std::optional<double> nav;               // TAB_IV_A_VL_PL
    std::optional<double> nav_average;       // TAB_IV_B_VL_PL_MEDIO
    std::optional<double> liabilities;       // TAB_III_VL_PASSIVO
    std::optional<double> segments_total;    // TAB_II_VL_CARTEIRA
    std::optional<double> receivables_net;
    std::optional<double> receivables_gross;
    std::optional<double> pdd;
    std::optional<double> delinquent_total;
    std::optional<double> delinquency_ratio;  // fraction
    std::optional<double> senior_nav;
    std::optional<double> mezzanine_nav;
    std::optional<double> subordinated_nav;
    std::optional<double> series_nav_total;
    std::optional<std::int64_t> investor_count;
    std::optional<std::string> primary_segment_code;
    std::int64_t duplicates_dropped = 0;  // rows of this report the duplicate rule dropped
};

// A reader of the normalized FIDC monthly facts, month by month.
class BOOST_SYMBOL_VISIBLE FidcMonthlyFacts : public sdk::Service {
public:
    static constexpr std::string_view kServiceName = "funds.fidc_monthly_facts";
    static constexpr std::string_view kServiceIdentity = LASTRO_FUNDS_SERVICES_IDENTITY;

    // Every month that has at least one report, ascending ("YYYY-MM").
    virtual std::vector<std::string> Months(odb::database& db) const = 0;
    // Calls `visit` once per report of `month`, in CNPJ order; none when the month has none.
    virtual void ForEachReport(odb::database& db, const std::string& month,
                               const std::function<void(const FidcMonthlyFact&)>& visit) const = 0;
};

}  // namespace lastro::funds
