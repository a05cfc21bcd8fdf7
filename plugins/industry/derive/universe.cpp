#include "derive/universe.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/serving/money.hpp>
#include <lastro/sdk/text.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace lastro::industry {
namespace {

// The last day of `month`, "YYYY-MM-DD".
std::string MonthEnd(const std::string& month) {
    const auto m = sdk::Month::Parse(month);
    if (!m) {
        return month + "-31";
    }
    return sdk::Date{m->year, m->month, sdk::DaysInMonth(m->year, m->month)}.ToString();
}

// RCVM 175 took effect on 2023-10-02: a fund registered since then was born under it.
constexpr const char* kRcvm175Start = "2023-10-02";

std::string DigitsOf(const std::string& text) {
    std::string digits;
    for (const char c : text) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits += c;
        }
    }
    return digits;
}

std::string ManagerKey(const std::optional<std::string>& document, const std::optional<std::string>& name) {
    if (document) {
        const std::string digits = DigitsOf(*document);
        if (digits.size() == 11 || digits.size() == 14) {
            return digits;
        }
    }
    return "name:" + sdk::FoldForSearch(*name);
}

}  // namespace

void RegistryIndex::Add(const funds::FidcRegistryVehicle& vehicle) {
    if (vehicle.kind == "fund") {
        funds.emplace(vehicle.cnpj, vehicle);
    } else {
        classes.emplace(vehicle.cnpj, vehicle);
        class_cnpjs_of_fund[vehicle.fund_cnpj].push_back(vehicle.cnpj);
    }
}

const funds::FidcRegistryVehicle* RegistryIndex::Find(const std::string& cnpj) const {
    if (const auto c = classes.find(cnpj); c != classes.end()) {
        return &c->second;
    }
    if (const auto f = funds.find(cnpj); f != funds.end()) {
        return &f->second;
    }
    return nullptr;
}

bool NameSaysFic(const std::string& name) {
    // Words of the folded name: "fic", or the phrases of a fund of quotas.
    const std::string folded = " " + sdk::FoldForSearch(name) + " ";
    std::string spaced;
    for (const char c : folded) {
        spaced += std::isalnum(static_cast<unsigned char>(c)) ? c : ' ';
    }
    for (const char* phrase : {" fic ", " em cotas de ", " investimento em cotas ", " fic fidc "}) {
        if (spaced.find(phrase) != std::string::npos) {
            return true;
        }
    }
    return false;
}

std::optional<std::string> FicFidcReason(const Report& report, const funds::FidcRegistryVehicle* registered) {
    if (registered && registered->fund_type) {
        std::string type;
        for (const char c : *registered->fund_type) {
            if (std::isalpha(static_cast<unsigned char>(c))) {
                type += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            }
        }
        if (type == "FICFIDC") {
            return "registry_type";
        }
    }
    if ((registered && registered->name && NameSaysFic(*registered->name)) ||
        (report.fact.name && NameSaysFic(*report.fact.name))) {
        return "name";
    }
    const std::optional<double> assets = Published(report, funds::FidcField::TAB_I_VL_ATIVO);
    const std::optional<double> quotas = Published(report, funds::FidcField::TAB_I2H_VL_COTA_FIDC);
    const std::optional<double> np_quotas = Published(report, funds::FidcField::TAB_I2I_VL_COTA_FIDC_NP);
    if (assets && *assets > 0 && (quotas || np_quotas)) {
        const double held = quotas.value_or(0) + np_quotas.value_or(0);
        if (held >= kFicQuotaShare * *assets) {
            return "fidc_quotas_share";
        }
    }
    return std::nullopt;
}

Attribution AttributeManager(const RegistryIndex& registry, const std::string& fund_cnpj,
                             const funds::FidcRegistryVehicle* registered, const std::string& month) {
    const std::string end = MonthEnd(month);
    Attribution out;
    out.source = "unknown";
    // 1. A dated spell of the legacy history that covers the month's last day; the latest
    //    started when spells overlap.
    if (const auto spells = registry.spells.find(fund_cnpj); spells != registry.spells.end()) {
        const Spell* best = nullptr;
        for (const Spell& spell : spells->second) {
            if (!spell.manager || !spell.started_at || *spell.started_at > end) {
                continue;
            }
            if (spell.ended_at && *spell.ended_at < end) {
                continue;
            }
            if (!best || *spell.started_at > *best->started_at) {
                best = &spell;
            }
        }
        if (best) {
            out.key = ManagerKey(best->document, best->manager);
            out.name = best->manager;
            out.document = best->document;
            out.source = "cad_fi_hist";
            return out;
        }
    }
    // 2. The registry's manager, from the fund's adaptation to RCVM 175 on (or its registration,
    //    when it was born under RCVM 175): CVM publishes no dated manager history after that.
    if (registered && registered->manager) {
        std::optional<std::string> since = registered->adapted_rcvm175_at;
        if (!since && registered->registered_at && *registered->registered_at >= kRcvm175Start) {
            since = registered->registered_at;
        }
        if (since && *since <= end) {
            out.key = ManagerKey(registered->manager_document, registered->manager);
            out.name = registered->manager;
            out.document = registered->manager_document;
            out.source = "registry";
        }
    }
    return out;
}

MonthUniverse BuildUniverse(const std::string& month, const std::vector<Report>& reports,
                            const RegistryIndex& registry) {
    MonthUniverse universe;
    universe.month = month;
    std::set<std::string> reporters;
    for (const Report& report : reports) {
        reporters.insert(report.fact.cnpj);
    }
    for (const Report& report : reports) {
        const std::string& cnpj = report.fact.cnpj;
        const funds::FidcRegistryVehicle* registered = registry.Find(cnpj);
        // A fund's own report is dropped when classes of it with their own CNPJ report too.
        if (registered && registered->kind == "fund") {
            const auto classes = registry.class_cnpjs_of_fund.find(cnpj);
            if (classes != registry.class_cnpjs_of_fund.end() &&
                std::any_of(classes->second.begin(), classes->second.end(),
                            [&](const std::string& c) { return c != cnpj && reporters.count(c); })) {
                universe.dropped_fund_rows.push_back(cnpj);
                continue;
            }
        }
        Vehicle v;
        v.report = &report;
        v.cnpj = cnpj;
        v.kind = registered ? registered->kind : "unregistered";
        v.fund_cnpj = registered ? std::optional<std::string>(registered->fund_cnpj) : std::nullopt;
        v.name = report.fact.name ? report.fact.name : (registered ? registered->name : std::nullopt);
        v.fic_fidc_reason = FicFidcReason(report, registered);
        v.fic_fidc = v.fic_fidc_reason.has_value();
        v.manager = AttributeManager(registry, v.fund_cnpj.value_or(cnpj), registered, month);
        v.administrator = report.fact.administrator ? report.fact.administrator
                                                    : (registered ? registered->administrator : std::nullopt);
        v.administrator_cnpj = report.fact.administrator_cnpj
                                   ? report.fact.administrator_cnpj
                                   : (registered ? registered->administrator_cnpj : std::nullopt);
        if (registered) {
            v.anbima_type = registered->anbima_type;
            v.anbima_focus = registered->anbima_focus;
        }
        v.nav = report.fact.nav;
        v.operation_set_aside.assign(report.operations.size(), false);
        universe.vehicles.push_back(std::move(v));
    }
    return universe;
}

std::optional<double> NetFlow(const Vehicle& vehicle) {
    sdk::MoneySum in, out;
    for (std::size_t i = 0; i < vehicle.report->operations.size(); ++i) {
        const funds::FidcOperationFact& op = vehicle.report->operations[i];
        if (vehicle.operation_set_aside[i]) {
            continue;
        }
        if (op.kind == "subscription") {
            in.Add(op.value_brl);
        } else if (op.kind == "redemption" || op.kind == "amortization") {
            out.Add(op.value_brl);
        }
    }
    // No subscription, redemption or amortization filed: none happened (X_4 lists operations).
    if (in.Parts() == 0 && out.Parts() == 0) {
        return 0.0;
    }
    if (!in.Complete() || !out.Complete()) {
        return std::nullopt;  // an unverified amortization or a blank value: not a guess
    }
    return sdk::MoneyDifference(in.Parts() ? in.Total() : std::optional<double>(0.0),
                                out.Parts() ? out.Total() : std::optional<double>(0.0));
}

}  // namespace lastro::industry
