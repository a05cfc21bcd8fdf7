// The universe of one month (docs/universe.md): one reporting vehicle per CNPJ, a fund's own
// report dropped when its classes report, each vehicle marked FIC-FIDC or not by the documented
// rule, and its manager attributed as of the month. Pure functions of the month's reports and
// the registries, so the rules are tested without a database.
#pragma once

#include "derive/report.hpp"

#include <lastro/funds/services.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lastro::industry {

// A manager spell of CVM's legacy registry history (cvm.cad_fi_hist).
struct Spell {
    std::optional<std::string> manager;
    std::optional<std::string> document;  // digits
    std::optional<std::string> started_at;
    std::optional<std::string> ended_at;
};

// The registries, indexed for the universe rules.
struct RegistryIndex {
    std::map<std::string, funds::FidcRegistryVehicle> funds;    // by fund CNPJ
    std::map<std::string, funds::FidcRegistryVehicle> classes;  // by the class's own CNPJ
    std::map<std::string, std::vector<std::string>> class_cnpjs_of_fund;
    std::map<std::string, std::vector<Spell>> spells;  // by fund CNPJ

    void Add(const funds::FidcRegistryVehicle& vehicle);
    // The class of this CNPJ, else the fund; null when the registry does not know it.
    const funds::FidcRegistryVehicle* Find(const std::string& cnpj) const;
};

struct Attribution {
    std::optional<std::string> key;  // NULL: unknown
    std::optional<std::string> name;
    std::optional<std::string> document;
    std::string source;  // "cad_fi_hist", "registry" or "unknown"
};

// One vehicle of the month.
struct Vehicle {
    const Report* report = nullptr;
    std::string cnpj;
    std::string kind;  // "class", "fund" or "unregistered"
    std::optional<std::string> fund_cnpj;
    std::optional<std::string> name;
    bool fic_fidc = false;
    std::optional<std::string> fic_fidc_reason;
    Attribution manager;
    std::optional<std::string> administrator;
    std::optional<std::string> administrator_cnpj;
    std::optional<std::string> anbima_type;
    std::optional<std::string> anbima_focus;
    std::optional<double> nav;
    // Set by the sanity filters (quality.hpp): the whole report, or its operations one by one.
    bool report_set_aside = false;
    std::vector<bool> operation_set_aside;  // parallel to report->operations
    bool cedentes_set_aside = false;
};

struct MonthUniverse {
    std::string month;
    std::vector<Vehicle> vehicles;               // in CNPJ order
    std::vector<std::string> dropped_fund_rows;  // CNPJs of fund reports dropped for their classes'
};

// The FIC-FIDC rule: the registry's type, else the name, else FIDC quotas of at least
// kFicQuotaShare of the assets (TAB_I2H + TAB_I2I over TAB_I_VL_ATIVO). Null when not a FIC-FIDC.
inline constexpr double kFicQuotaShare = 0.67;
std::optional<std::string> FicFidcReason(const Report& report, const funds::FidcRegistryVehicle* registered);
bool NameSaysFic(const std::string& name);

// The manager of a vehicle of fund `fund_cnpj` at the end of `month` (docs/universe.md).
Attribution AttributeManager(const RegistryIndex& registry, const std::string& fund_cnpj,
                             const funds::FidcRegistryVehicle* registered, const std::string& month);

// The universe of `month` from its reports (which must outlive the result).
MonthUniverse BuildUniverse(const std::string& month, const std::vector<Report>& reports,
                            const RegistryIndex& registry);
// The vehicles point into the reports: temporaries would dangle.
MonthUniverse BuildUniverse(const std::string& month, std::vector<Report>&& reports,
                            const RegistryIndex& registry) = delete;

// The net flow of a vehicle (subscriptions - redemptions - amortizations, operations set aside
// excluded); null when it has no operation with a known BRL value.
std::optional<double> NetFlow(const Vehicle& vehicle);

}  // namespace lastro::industry
