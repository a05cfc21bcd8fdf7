#include "sample/registry_writer.hpp"

#include "sample/kit.hpp"

#include <lastro/sdk/text.hpp>

#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace lastro::funds::sample {
namespace {

void AddFundRow(const Universe& universe, const Fund& fund, CsvTable& table) {
    const Institution& administrator = universe.administrators.at(fund.administrator);
    const Institution* manager = fund.manager ? &universe.managers.at(*fund.manager) : nullptr;
    table.AddRow({
        IntegerField(fund.id),
        fund.cnpj,
        IntegerField(fund.cvm_code),
        DateField(fund.registered),
        DateField(fund.constituted),
        std::string(FundTypeCode(fund.type)),
        fund.name,
        DateField(fund.cancelled),
        std::string(SituationLabel(fund.situation)),
        DateField(fund.situation_since),
        DateField(fund.adapted_rcvm175),
        DateField(fund.fiscal_year_start),
        DateField(fund.fiscal_year_end),
        CentsField(fund.net_assets_cents),
        DateField(fund.net_assets_date),
        administrator.director,
        administrator.document,
        administrator.name,
        manager ? std::string(PersonTypeCode(manager->person_type)) : std::string(),
        manager ? manager->document : std::string(),
        manager ? manager->name : std::string(),
    });
}

// The document and name of an optional institution, or two empty fields.
std::pair<std::string, std::string> Party(const std::vector<Institution>& list,
                                          const std::optional<std::size_t>& index) {
    if (!index) {
        return {};
    }
    const Institution& institution = list.at(*index);
    return {institution.document, institution.name};
}

void AddClassRow(const Universe& universe, const Fund& fund, const FundClass& c, CsvTable& table) {
    auto [auditor_cnpj, auditor] = Party(universe.auditors, c.auditor);
    auto [custodian_cnpj, custodian] = Party(universe.custodians, c.custodian);
    auto [controller_cnpj, controller] = Party(universe.controllers, c.controller);
    table.AddRow({
        IntegerField(fund.id),
        IntegerField(c.id),
        c.cnpj,
        IntegerField(c.cvm_code),
        DateField(c.registered),
        DateField(c.constituted),
        DateField(c.started),
        c.class_type,
        c.name,
        std::string(SituationLabel(c.situation)),
        DateField(c.situation_since),
        c.classification,
        c.performance_index,
        FlagField(c.fund_of_funds),
        c.anbima_classification,
        FlagField(c.long_term_taxation),
        FlagField(c.investment_entity),
        FlagField(c.foreign_up_to_100_percent),
        FlagField(c.esg),
        std::string(CondominiumLabel(c.condominium)),
        FlagField(c.exclusive),
        std::string(TargetInvestorLabel(c.target_investor)),
        CentsField(c.net_assets_cents),
        DateField(c.net_assets_date),
        std::move(auditor_cnpj),
        std::move(auditor),
        std::move(custodian_cnpj),
        std::move(custodian),
        std::move(controller_cnpj),
        std::move(controller),
    });
}

void AddSubclassRow(const FundClass& c, const Subclass& s, CsvTable& table) {
    table.AddRow({
        IntegerField(c.id),
        IntegerField(s.id),
        IntegerField(s.cvm_code),
        DateField(s.constituted),
        DateField(s.started),
        s.name,
        std::string(SituationLabel(s.situation)),
        DateField(s.situation_since),
        std::string(CondominiumLabel(s.condominium)),
        FlagField(s.exclusive),
        std::string(TargetInvestorLabel(s.target_investor)),
        FlagField(s.pension),
        FlagField(s.exclusive_non_resident),
        FlagField(s.exclusive_complementary_pension),
    });
}

// One row of registro_fundo.csv as AddFundRow writes it, numbered in writing order.
struct FundRow {
    std::size_t line = 0;
    const Fund* fund = nullptr;
};

// How the funds plugin picks the current row of a CNPJ: not cancelled, then the later
// registration, then the later line.
auto CurrentRank(const FundRow& row) {
    return std::make_tuple(!row.fund->cancelled.has_value(), row.fund->registered, row.line);
}

SampleFund Merge(const Universe& universe, const std::string& cnpj, const std::vector<FundRow>& rows) {
    const FundRow* current = &rows.front();
    const FundRow* oldest = &rows.front();
    for (const FundRow& row : rows) {
        if (CurrentRank(*current) < CurrentRank(row)) {
            current = &row;
        }
        if (row.fund->registered < oldest->fund->registered) {
            oldest = &row;
        }
    }
    const Fund& live = *current->fund;
    const Institution& administrator = universe.administrators.at(live.administrator);
    const Institution* manager = live.manager ? &universe.managers.at(*live.manager) : nullptr;
    SampleFund fund;
    fund.cnpj = cnpj;
    fund.fund_type = std::string(FundTypeCode(live.type));
    fund.name = oldest->fund->name;
    fund.registered = oldest->fund->registered;
    fund.adapted = live.adapted_rcvm175;
    fund.cancelled = live.cancelled;
    fund.administrator_cnpj = administrator.document;
    fund.administrator = administrator.name;
    if (manager) {
        fund.manager_person_type = std::string(PersonTypeCode(manager->person_type));
        fund.manager_document = manager->document;
        fund.manager = manager->name;
    }
    return fund;
}

}  // namespace

std::vector<SampleFund> RegistryFunds(const Universe& universe) {
    // The rows in RenderRegistry's order: each fund, then the superseded registrations sharing its id.
    std::map<std::string, std::vector<FundRow>> by_cnpj;
    std::size_t line = 0;
    for (const Fund& fund : universe.funds) {
        by_cnpj[sdk::DigitsOnly(fund.cnpj)].push_back({++line, &fund});
        for (const Fund& old : universe.superseded_registrations) {
            if (old.id == fund.id) {
                by_cnpj[sdk::DigitsOnly(old.cnpj)].push_back({++line, &old});
            }
        }
    }
    std::vector<SampleFund> funds;
    funds.reserve(by_cnpj.size());
    for (const auto& [cnpj, rows] : by_cnpj) {
        funds.push_back(Merge(universe, cnpj, rows));
    }
    return funds;
}

RegistryFiles RenderRegistry(const Universe& universe) {
    CsvTable funds(kFundColumns);
    CsvTable classes(kClassColumns);
    CsvTable subclasses(kSubclassColumns);
    for (const Fund& fund : universe.funds) {
        AddFundRow(universe, fund, funds);
        for (const Fund& old : universe.superseded_registrations) {
            if (old.id == fund.id) {
                AddFundRow(universe, old, funds);
            }
        }
        for (const FundClass& c : fund.classes) {
            AddClassRow(universe, fund, c, classes);
            for (const Subclass& s : c.subclasses) {
                AddSubclassRow(c, s, subclasses);
            }
        }
    }
    return {funds.ToLatin1(), classes.ToLatin1(), subclasses.ToLatin1()};
}

}  // namespace lastro::funds::sample
