// The services the funds plugin offers to the plugins that require it (sdk/services.hpp,
// the host's docs/plugins.md, "Services"). A dependent includes this header, never the funds model: the
// data comes back as the plain structs below. Every method runs inside the caller's
// transaction on the database the caller passes, and reads only; a missing value is
// std::nullopt, never 0.
//
// Any change to this file changes kFundsServicesIdentity (generated from it at build time), so a
// dependent built against another version of it is refused at start-up.
#pragma once

#include <lastro/funds/fidc_fields.hpp>
#include <lastro/funds/services_identity.hpp>
#include <lastro/sdk/services.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
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

// One quota series of a report (tables X_1, X_2, X_3 and X_6), as normalized at ingest.
struct BOOST_SYMBOL_VISIBLE FidcSeriesFact {
    std::string label;       // TAB_X_CLASSE_SERIE as published
    std::string series_key;  // identity of the series within its class, stable across months
    std::string seniority;   // "senior", "mezzanine", "subordinated" or "unknown" (parsed from the label)
    std::optional<std::int64_t> investor_count;      // X_1 TAB_X_NR_COTST
    std::optional<double> quota_count;               // X_2 TAB_X_QT_COTA
    std::optional<double> quota_value;               // X_2 TAB_X_VL_COTA
    std::optional<double> profitability_pct;         // X_3 TAB_X_VL_RENTAB_MES, percent
    std::optional<double> expected_performance_pct;  // X_6 TAB_X_PR_DESEMP_ESPERADO, percent
    std::optional<double> real_performance_pct;      // X_6 TAB_X_PR_DESEMP_REAL, percent
};

// One row of table X_4 (docs/api/fidc-metrics.md#amortization-reading).
struct BOOST_SYMBOL_VISIBLE FidcOperationFact {
    std::string series_key;
    std::string kind;  // "subscription", "redemption", "pending_redemption", "amortization" or "other"
    std::optional<std::string> reading;  // "as_published", "swapped" or "unverified"
    std::optional<double> value_brl;     // the BRL total under `reading`; null when unverified
};

// One segment of table II at its most detailed level (sub-items, never their totals).
struct BOOST_SYMBOL_VISIBLE FidcSegmentFact {
    std::string code;  // "A", "C1", ... as docs/datasets/inf_mensal_fidc.md lists them
    std::string name;
    std::optional<double> value;
};

// Tables V (credit rights with substantial acquisition of risks) and VI (without): the ten
// exclusive maturity bands of what is to mature and of what is overdue, as published.
struct BOOST_SYMBOL_VISIBLE FidcMaturityBands {
    std::array<std::optional<double>, 10> to_mature_with_risk;
    std::array<std::optional<double>, 10> delinquent_with_risk;
    std::array<std::optional<double>, 10> to_mature_without_risk;
    std::array<std::optional<double>, 10> delinquent_without_risk;
};

// A monthly report with everything the industry aggregates read: the fact above, the asked
// fields of the one-row tables, and the long tables.
struct BOOST_SYMBOL_VISIBLE FidcReportDetail {
    FidcMonthlyFact fact;
    // The fields of the one-row tables (fidc_fields.hpp) the caller asked for, parallel to them:
    // the number as published; null when the report left the field empty, has no such table, or
    // published something other than a plain decimal (docs/datasets/inf_mensal_fidc.md,
    // "Numbers"). Never 0 for a missing value.
    std::vector<std::optional<double>> fields;
    std::vector<std::optional<double>> largest_debtors;  // tab_VIII VALOR in SEQUENCIAL order
    std::vector<FidcSegmentFact> segments;               // table II sub-items, in table order
    FidcMaturityBands bands;
    std::vector<FidcSeriesFact> series;         // in label order
    std::vector<FidcOperationFact> operations;  // in file order
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
    // The same reports with their details, FidcReportDetail::fields holding the values of the
    // `fields` asked, in that order; slower (it reads and parses the JSON documents). Ask only
    // for the fields you read: each costs a number parsed per report.
    virtual void ForEachReportDetail(odb::database& db, const std::string& month,
                                     std::span<const FidcField> fields,
                                     const std::function<void(const FidcReportDetail&)>& visit) const = 0;
};

// A fund of the FIDC family (FIDC, FIDC-NP, FIC-FIDC) or a class of one, as CVM's RCVM 175
// registry (cvm.registro_fundo_classe) has it today.
struct BOOST_SYMBOL_VISIBLE FidcRegistryVehicle {
    std::string kind;                     // "fund" or "class"
    std::string cnpj;                     // of the fund, or the class's own; 14 digits
    std::string fund_cnpj;                // of the fund (== cnpj for a fund)
    std::string fund_id;                  // persistent
    std::optional<std::string> class_id;  // persistent; only for a class
    std::optional<std::string> name;
    std::optional<std::string> fund_type;      // registro_fundo.Tipo_Fundo: FIDC, FIDC-NP or FIC-FIDC
    std::optional<std::string> status;         // Situacao (the class's own for a class)
    std::optional<std::string> registered_at;  // Data_Registro, "YYYY-MM-DD"
    // When the registration ended: the fund's Data_Cancelamento, or for a cancelled class the
    // start of that situation; null while it is active.
    std::optional<std::string> cancelled_at;
    std::optional<std::string> adapted_rcvm175_at;  // the fund's Data_Adaptacao_RCVM175
    std::optional<std::string> manager;             // the fund's Gestor today
    std::optional<std::string> manager_document;    // CPF_CNPJ_Gestor (a CPF when a person)
    std::optional<std::string> administrator;
    std::optional<std::string> administrator_cnpj;
    std::int64_t fund_classes_with_cnpj = 0;  // classes of the fund that have a CNPJ of their own
    // ANBIMA type and focus (anbima.subclasses) of the class's subclasses, else of the fund's;
    // null when ANBIMA lists none, or "mixed" (never one picked) when they disagree.
    std::optional<std::string> anbima_type;
    std::optional<std::string> anbima_focus;
};

// The FIDC family of the registry, for plugins that need who should report and who manages.
class BOOST_SYMBOL_VISIBLE FidcRegistry : public sdk::Service {
public:
    static constexpr std::string_view kServiceName = "funds.fidc_registry";
    static constexpr std::string_view kServiceIdentity = LASTRO_FUNDS_SERVICES_IDENTITY;

    // Calls `visit` once per fund of the FIDC family and once per class of such a fund, funds
    // first, each in CNPJ order.
    virtual void ForEachVehicle(odb::database& db,
                                const std::function<void(const FidcRegistryVehicle&)>& visit) const = 0;
};

}  // namespace lastro::funds
