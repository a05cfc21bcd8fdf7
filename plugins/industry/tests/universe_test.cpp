// The universe rules (docs/universe.md) and the sanity filters (docs/quality.md) on reports built
// here, as the funds services hand them over.
#include "derive/universe.hpp"
#include "derive/indicators.hpp"
#include "derive/quality.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace lastro::industry {
namespace {

funds::FidcReportDetail Detail(const std::string& cnpj, std::optional<double> nav,
                               const std::string& name = "FIDC X") {
    funds::FidcReportDetail r;
    r.fact.cnpj = cnpj;
    r.fact.month = "2026-08";
    r.fact.name = name;
    r.fact.nav = nav;
    r.fact.filer_type = "Classe";
    return r;
}

// A field of the one-row tables, as the funds service hands over the fields asked for.
void Publish(funds::FidcReportDetail& detail, funds::FidcField field, double value) {
    detail.fields.resize(kReportFields.size());
    const auto at = std::find(kReportFields.begin(), kReportFields.end(), field);
    ASSERT_NE(at, kReportFields.end()) << funds::ColumnName(field);
    detail.fields[static_cast<std::size_t>(at - kReportFields.begin())] = value;
}

// The report as the derivation reads it from the funds service.
Report R(const std::string& cnpj, std::optional<double> nav, const std::string& name = "FIDC X") {
    return ReadReport(Detail(cnpj, nav, name));
}

funds::FidcRegistryVehicle Registered(const std::string& kind, const std::string& cnpj,
                                      const std::string& fund_cnpj) {
    funds::FidcRegistryVehicle v;
    v.kind = kind;
    v.cnpj = cnpj;
    v.fund_cnpj = fund_cnpj;
    v.fund_id = "f-" + fund_cnpj;
    v.fund_type = "FIDC";
    v.name = "FIDC " + cnpj;
    v.manager = "Gestora Registro";
    v.manager_document = "11111111000111";
    v.adapted_rcvm175_at = "2025-01-10";
    return v;
}

TEST(Universe, AFundReportIsDroppedWhenItsClassesReportTheSameMonth) {
    RegistryIndex registry;
    registry.Add(Registered("fund", "10000000000100", "10000000000100"));
    registry.Add(Registered("class", "20000000000100", "10000000000100"));
    registry.Add(Registered("fund", "30000000000100", "30000000000100"));
    const std::vector<Report> reports = {R("10000000000100", 10.0), R("20000000000100", 7.0),
                                         R("30000000000100", 5.0)};
    const MonthUniverse universe = BuildUniverse("2026-08", reports, registry);
    ASSERT_EQ(universe.vehicles.size(), 2u);
    EXPECT_EQ(universe.vehicles[0].cnpj, "20000000000100");
    EXPECT_EQ(universe.vehicles[0].kind, "class");
    EXPECT_EQ(universe.vehicles[1].cnpj, "30000000000100");
    EXPECT_EQ(universe.vehicles[1].kind, "fund");
    EXPECT_EQ(universe.dropped_fund_rows, std::vector<std::string>{"10000000000100"});
}

TEST(Universe, AFundReportStaysWhenNoneOfItsClassesReports) {
    RegistryIndex registry;
    registry.Add(Registered("fund", "10000000000100", "10000000000100"));
    registry.Add(Registered("class", "20000000000100", "10000000000100"));
    const std::vector<Report> reports = {R("10000000000100", 10.0)};
    const MonthUniverse universe = BuildUniverse("2026-08", reports, registry);
    ASSERT_EQ(universe.vehicles.size(), 1u);
    EXPECT_TRUE(universe.dropped_fund_rows.empty());
}

TEST(Universe, FicFidcByRegistryTypeNameOrQuotaShare) {
    funds::FidcRegistryVehicle fic = Registered("fund", "1", "1");
    fic.fund_type = "FIC-FIDC";
    EXPECT_EQ(FicFidcReason(R("1", 1.0), &fic), "registry_type");
    EXPECT_EQ(FicFidcReason(R("2", 1.0, "ALFA FIC FIDC MULTISSETORIAL"), nullptr), "name");
    EXPECT_EQ(FicFidcReason(R("2", 1.0, "Fundo de Investimento em Cotas de FIDC Beta"), nullptr), "name");
    EXPECT_EQ(FicFidcReason(R("2", 1.0, "FICUS FIDC"), nullptr), std::nullopt) << "a word, not a prefix";
    funds::FidcReportDetail holder = Detail("3", 100.0, "GAMA FIDC");
    Publish(holder, funds::FidcField::TAB_I_VL_ATIVO, 100.00);
    Publish(holder, funds::FidcField::TAB_I2H_VL_COTA_FIDC, 60.00);
    Publish(holder, funds::FidcField::TAB_I2I_VL_COTA_FIDC_NP, 7.00);
    EXPECT_EQ(FicFidcReason(ReadReport(holder), nullptr), "fidc_quotas_share");
    Publish(holder, funds::FidcField::TAB_I2I_VL_COTA_FIDC_NP, 6.99);
    EXPECT_EQ(FicFidcReason(ReadReport(holder), nullptr), std::nullopt)
        << "66.99% of the assets is below the rule";
}

TEST(Universe, ManagersAreAttributedAsOfTheMonth) {
    RegistryIndex registry;
    funds::FidcRegistryVehicle fund = Registered("fund", "10000000000100", "10000000000100");
    registry.Add(fund);
    registry.spells["10000000000100"] = {
        Spell{"Gestora Antiga", "22222222000122", "2015-01-01", "2024-05-31"},
        Spell{"Gestora Registro", "11111111000111", "2024-06-01", "2025-01-09"},
    };
    const auto* registered = registry.Find("10000000000100");
    const Attribution old = AttributeManager(registry, "10000000000100", registered, "2024-05");
    EXPECT_EQ(old.name, "Gestora Antiga");
    EXPECT_EQ(old.source, "cad_fi_hist");
    EXPECT_EQ(old.key, "22222222000122");
    EXPECT_EQ(AttributeManager(registry, "10000000000100", registered, "2024-06").name, "Gestora Registro");
    // Between the last spell and the adaptation (2025-01-10): not known; after it, the registry.
    const Attribution after = AttributeManager(registry, "10000000000100", registered, "2025-01");
    EXPECT_EQ(after.source, "registry");
    EXPECT_EQ(after.name, "Gestora Registro");
    // A fund with no history and an adaptation after the month: unknown, not today's manager.
    RegistryIndex bare;
    bare.Add(fund);
    const Attribution unknown =
        AttributeManager(bare, "10000000000100", bare.Find("10000000000100"), "2024-03");
    EXPECT_EQ(unknown.source, "unknown");
    EXPECT_FALSE(unknown.key.has_value());
}

TEST(Quality, SpikesNegativeNetWorthOutlierOperationsAndSharesAreSetAsideWithWarnings) {
    RegistryIndex registry;
    std::vector<Report> reports = {R("1", 5e10), R("2", -3.0), R("3", 2e8), R("4", 1e8)};
    reports[2].operations.push_back({"senior", "subscription", "as_published", 1e9});
    reports[2].operations.push_back({"senior", "redemption", "as_published", 1e6});
    funds::FidcReportDetail shares = Detail("4", 1e8);
    Publish(shares, funds::FidcField::TAB_I2A12_PR_CEDENTE_1, 140.00);
    reports[3] = ReadReport(shares);
    MonthUniverse universe = BuildUniverse("2026-08", reports, registry);
    const NavByCnpj previous{{"1", 1e9}, {"3", 2e8}};
    const NavByCnpj next{{"1", 1.1e9}};
    const boost::json::array warnings = ApplySanityFilters(universe, previous, next);
    ASSERT_EQ(warnings.size(), 4u);
    EXPECT_EQ(warnings[0].at("rule").as_string(), "nav_spike");
    EXPECT_EQ(warnings[1].at("rule").as_string(), "negative_nav");
    EXPECT_EQ(warnings[2].at("rule").as_string(), "operation_outlier");
    EXPECT_EQ(warnings[2].at("value").as_double(), 1e9);
    EXPECT_EQ(warnings[3].at("rule").as_string(), "share_over_100");
    EXPECT_TRUE(universe.vehicles[0].report_set_aside);
    EXPECT_TRUE(universe.vehicles[1].report_set_aside);
    EXPECT_FALSE(universe.vehicles[2].report_set_aside);
    EXPECT_TRUE(universe.vehicles[2].operation_set_aside[0]);
    EXPECT_FALSE(universe.vehicles[2].operation_set_aside[1]);
    EXPECT_EQ(NetFlow(universe.vehicles[2]), -1e6) << "the outlier subscription is left out";
    EXPECT_TRUE(universe.vehicles[3].cedentes_set_aside);

    // The totals leave the set-aside reports out.
    const auto items = ComputeIndicators(universe, true, {}, false);
    const boost::json::object& resumo = items.at("resumo");
    EXPECT_EQ(resumo.at("vehicles").as_int64(), 2);
    EXPECT_EQ(resumo.at("vehicles_set_aside").as_int64(), 2);
    EXPECT_EQ(resumo.at("nav_brl").as_double(), 3e8);
    EXPECT_EQ(items.at("fluxos").at("operations_set_aside").as_int64(), 1);
}

TEST(Quality, ASpikeNeedsBothNeighbours) {
    RegistryIndex registry;
    const std::vector<Report> reports = {R("1", 5e10)};
    MonthUniverse universe = BuildUniverse("2026-08", reports, registry);
    EXPECT_TRUE(ApplySanityFilters(universe, {{"1", 1e9}}, {}).empty()) << "no month after: not judged";
}

TEST(Indicators, TotalsWithAndWithoutFicFidcAndNetOfQuotasHeld) {
    RegistryIndex registry;
    funds::FidcReportDetail fic = Detail("1", 100.0, "ALFA FIC FIDC");
    Publish(fic, funds::FidcField::TAB_I2H_VL_COTA_FIDC, 90.00);
    const std::vector<Report> reports = {ReadReport(fic), R("2", 300.0), R("3", std::nullopt)};
    const MonthUniverse universe = BuildUniverse("2026-08", reports, registry);
    const auto with = ComputeIndicators(universe, true, {}, false);
    const auto without = ComputeIndicators(universe, false, {}, false);
    EXPECT_EQ(with.at("resumo").at("nav_brl").as_double(), 400.0);
    EXPECT_EQ(with.at("resumo").at("nav_missing").as_int64(), 1);
    EXPECT_EQ(without.at("resumo").at("nav_brl").as_double(), 300.0);
    for (const auto* items : {&with, &without}) {
        const boost::json::object& resumo = items->at("resumo");
        EXPECT_EQ(resumo.at("nav_all_vehicles_brl").as_double(), 400.0);
        EXPECT_EQ(resumo.at("nav_ex_fic_fidc_brl").as_double(), 300.0);
        EXPECT_EQ(resumo.at("fidc_quotas_held_brl").as_double(), 90.0);
        EXPECT_EQ(resumo.at("nav_net_of_fidc_quotas_brl").as_double(), 310.0);
        EXPECT_EQ(resumo.at("units").at("nav_brl").as_string(), "BRL");
    }
    EXPECT_EQ(without.at("resumo").at("fic_fidc_vehicles").as_int64(), 0);
    EXPECT_EQ(with.at("anbima").at("types").as_array().size(), 2u) << "FIC-FIDC apart from N/D";
}

TEST(Indicators, EveryIndicatorHasAnItemWithItsMonthAndUnits) {
    RegistryIndex registry;
    const std::vector<Report> reports = {R("1", 1.0)};
    const MonthUniverse universe = BuildUniverse("2026-08", reports, registry);
    const auto items = ComputeIndicators(universe, true, {}, false);
    ASSERT_EQ(items.size(), kIndicators.size());
    for (const std::string_view indicator : kIndicators) {
        const boost::json::object& item = items.at(std::string(indicator));
        EXPECT_EQ(item.at("month").as_string(), "2026-08") << indicator;
        EXPECT_TRUE(item.at("units").is_object()) << indicator;
        EXPECT_FALSE(item.at("units").as_object().empty()) << indicator;
    }
}

TEST(Indicators, SameStoreChangeAndEntriesAndExits) {
    RegistryIndex registry;
    const std::vector<Report> reports = {R("1", 110.0), R("2", 50.0)};
    const MonthUniverse universe = BuildUniverse("2026-08", reports, registry);
    const PreviousMonth previous{{"1", {100.0, false, false}}, {"3", {40.0, false, false}}};
    const auto items = ComputeIndicators(universe, true, previous, true);
    EXPECT_NEAR(items.at("resumo").at("nav_same_store_change_ratio").as_double(), 0.10, 1e-12);
    EXPECT_NEAR(items.at("resumo").at("nav_change_ratio").as_double(), 160.0 / 140.0 - 1, 1e-12);
    EXPECT_EQ(items.at("fluxos").at("entries").as_int64(), 1);
    EXPECT_EQ(items.at("fluxos").at("exits").as_int64(), 1);
    EXPECT_EQ(items.at("fluxos").at("exits_previous_nav_brl").as_double(), 40.0);
    // Without a month before there is nothing to compare: null, never 0.
    const auto first = ComputeIndicators(universe, true, {}, false);
    EXPECT_TRUE(first.at("fluxos").at("entries").is_null());
    EXPECT_TRUE(first.at("resumo").at("nav_change_ratio").is_null());
}

}  // namespace
}  // namespace lastro::industry
