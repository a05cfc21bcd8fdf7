#include "src/classes.hpp"
#include "class_data_fixture.hpp"
#include "src/plugin.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/registrations.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <set>

namespace lastro::funds::testing {
namespace {

using ::testing::HasSubstr;

class ClassesTest : public RegistryTest {
protected:
    sdk::Result Classes(const std::string& fund_id) {
        sdk::Params params;
        params.Set("fund_id", fund_id);
        return Call(&HandleClasses, Db(), params);
    }
};

TEST_F(ClassesTest, ListsEveryRegistryFieldOfTheClassesAndTheirSubclasses) {
    const sdk::Result result = Classes(FundIdFor("1001"));
    const auto& classes = result.data.as_array();
    ASSERT_EQ(classes.size(), 2u);
    const auto& senior = classes[0].as_object();
    EXPECT_EQ(senior.size(), 32u);  // 30 registry columns (2 as ids) + class_id, fund_id, subclasses
    EXPECT_EQ(senior.at("class_id").as_string(), ClassIdFor("2001"));
    EXPECT_EQ(senior.at("fund_id").as_string(), FundIdFor("1001"));
    EXPECT_EQ(senior.at("cvm_registry_id").as_int64(), 2001);
    EXPECT_EQ(senior.at("cnpj").as_string(), "12345678000195");
    EXPECT_EQ(senior.at("cvm_code").as_int64(), 6001);
    EXPECT_EQ(senior.at("name").as_string(), "CLASSE ÚNICA SÊNIOR ALFA");
    EXPECT_EQ(senior.at("class_type").as_string(), "Classes de Cotas de Fundos FIDC");
    EXPECT_EQ(senior.at("status_since").as_string(), "2023-11-01");
    EXPECT_EQ(senior.at("started_at").as_string(), "2020-02-01");
    EXPECT_EQ(senior.at("condominium_type").as_string(), "Fechado");
    EXPECT_DOUBLE_EQ(senior.at("registered_patrimony_brl").as_double(), 15000000.25);
    EXPECT_EQ(senior.at("registered_patrimony_at").as_string(), "2024-06-30");
    EXPECT_EQ(senior.at("auditor").as_string(), "AUDITORIA ÉPSILON");
    EXPECT_EQ(senior.at("custodian_cnpj").as_string(), "12121212000106");
    EXPECT_TRUE(senior.at("controller").is_null());
    EXPECT_TRUE(senior.at("esg").is_null());

    const auto& subclasses = senior.at("subclasses").as_array();
    ASSERT_EQ(subclasses.size(), 2u);
    const auto& first = subclasses[0].as_object();
    EXPECT_EQ(first.size(), 15u);
    EXPECT_EQ(first.at("cvm_registry_id").as_string(), "SUB001");
    EXPECT_EQ(first.at("cvm_code").as_int64(), 7001);
    EXPECT_EQ(first.at("name").as_string(), "SUBCLASSE SÊNIOR 1");
    EXPECT_EQ(first.at("constituted_at").as_string(), "2020-01-05");
    EXPECT_EQ(first.at("pension").as_string(), "N");
    EXPECT_TRUE(first.at("exclusive_non_resident").is_null());

    const auto& mezanino = classes[1].as_object();
    EXPECT_EQ(mezanino.at("class_id").as_string(), ClassIdFor("2002"));
    EXPECT_TRUE(mezanino.at("registered_patrimony_brl").is_null());
    EXPECT_TRUE(mezanino.at("subclasses").as_array().empty());

    EXPECT_EQ(result.meta.data_release, "registro-2026-08-17");
    EXPECT_EQ(DeclaredSources("funds.classes").at("cnpj"), "registro_classe.CNPJ_Classe");
    ExpectSourcesForEveryField("funds.classes", result.data.as_array()[0].as_object(), result.meta);
}

TEST_F(ClassesTest, AFundWithoutClassesHasAnEmptyList) {
    EXPECT_TRUE(Classes(FundIdFor("1006")).data.as_array().empty());
}

// The classes are read only with their fund: classes whose fund row is gone answer as an unknown
// fund, not as a list.
TEST_F(ClassesTest, ClassesWhoseFundIsGoneAreNotFound) {
    {
        odb::transaction t(Db().begin());
        Db().erase<Fund>(FundIdFor("1001"));
        t.commit();
    }
    EXPECT_THROW(Classes(FundIdFor("1001")), sdk::NotFound);
}

TEST_F(ClassesTest, AnUnknownFundIsNotFound) {
    try {
        Classes("2b9c1d52-0000-5000-8000-000000000000");
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_THAT(problem.what(), HasSubstr("2b9c1d52-0000-5000-8000-000000000000"));
        EXPECT_EQ(problem.Parameter(), "fund_id");
    }
}

// What Register() records agrees with manifest.yaml, as the host checks it at start-up (the test
// kit's registration check), and is exactly the plugin's operations, datasets and services.
// docs/plugins.md quotes from here: registrations
TEST(FundsPluginTest, RegistersTheManifestOperationsAndDatasets) {
    FundsPlugin plugin;
    sdk::testing::RecordingRegistrar registrar;
    plugin.Register(registrar);
    EXPECT_TRUE(sdk::testing::RegistrationsMatch(
        registrar, sdk::testing::ReadManifestDeclarations(std::string(LASTRO_SOURCE_DIR) +
                                                          "/plugins/funds/manifest.yaml")));
    EXPECT_EQ(registrar.Operations(),
              (std::set<std::string>{
                  "funds.search", "funds.resolve", "funds.classes", "funds.class_documents",
                  "funds.class_subclasses", "funds.class_portfolio_assets", "funds.class_portfolio_funds",
                  "funds.class_quotas", "funds.class_quota_operations", "funds.class_delinquency_bands",
                  "funds.class_snapshot", "funds.screening"}));
    EXPECT_EQ(registrar.Datasets(),
              (std::set<std::string>{"cvm.registro_fundo_classe", "cvm.inf_mensal_fidc", "cvm.cda_fi",
                                     "cvm.eventual_fi", "anbima.subclasses"}));
    // carteira/fundos answers, stored at each ingest of the datasets they read.
    EXPECT_EQ(registrar.DerivedDatasets(), (std::set<std::string>{"funds.portfolio_fund_answers"}));
    EXPECT_EQ(registrar.ServiceNames(),
              (std::set<std::string>{"funds.locator", "funds.fidc_monthly_facts", "funds.fidc_registry"}));
    EXPECT_EQ(registrar.SampleWriters().size(), 1u);
}
// docs/plugins.md quotes up to here

}  // namespace
}  // namespace lastro::funds::testing
