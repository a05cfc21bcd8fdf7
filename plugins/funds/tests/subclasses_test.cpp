#include "src/subclasses.hpp"
#include "class_data_fixture.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace lastro::funds::testing {
namespace {

using ::testing::ElementsAre;

class ClassSubclassesTest : public ClassDataTest {
protected:
    sdk::Result Subclasses(const std::string& registry_class_id) {
        return Run(&HandleClassSubclasses, {{"class_id", ClassIdFor(registry_class_id)}});
    }

    static std::vector<std::string> Codes(const sdk::Result& result) {
        std::vector<std::string> codes;
        for (const auto& item : result.data.as_array()) {
            codes.emplace_back(item.at("anbima_code").as_string());
        }
        return codes;
    }
};

TEST_F(ClassSubclassesTest, EveryFieldOfTheClassesAnbimaRowsByAnbimaCode) {
    AnbimaSubclass senior = Anbima("C0002", kSeniorClassCnpj, kMultiFundCnpj);
    senior.cvm_code = "123456";
    senior.name = "FIDC MULTI SÊNIOR";
    senior.status = "Ativo";
    senior.activity_started_at = "2021-03-01";
    senior.first_subscription_at = "2021-03-15";
    senior.category = "FIDC";
    senior.type = "Fomento Mercantil";
    senior.focus = "Sênior";
    senior.investor_type = "Qualificado";
    senior.investor_characteristic = "Sem restrição";
    senior.opening_share = "Sim";
    senior.adapted_to_rcvm_175 = "Sim";
    senior.minimum_initial_subscription = 25000.5;
    senior.redemption_payment_days = 30;
    Persist(senior);
    Persist(Anbima("C0001", kSeniorClassCnpj, kMultiFundCnpj));
    Persist(Anbima("C0003", kJuniorClassCnpj, kMultiFundCnpj));  // the sibling class
    Persist(Anbima("C0004", kMultiFundCnpj, kMultiFundCnpj));    // the fund's CNPJ: not an only class

    const sdk::Result result = Subclasses("2010");
    ExpectManifestShape("funds.class_subclasses", result.data);
    EXPECT_THAT(Codes(result), ElementsAre("C0001", "C0002"));

    const auto& item = result.data.as_array()[1].as_object();
    EXPECT_EQ(item.size(), 19u);
    EXPECT_EQ(item.at("subclass_id").as_string(), senior.subclass_id);
    EXPECT_EQ(item.at("class_id").as_string(), ClassIdFor("2010"));
    EXPECT_EQ(item.at("anbima_code").as_string(), "C0002");
    EXPECT_EQ(item.at("cvm_code").as_string(), "123456");
    EXPECT_EQ(item.at("name").as_string(), "FIDC MULTI SÊNIOR");
    EXPECT_EQ(item.at("status").as_string(), "Ativo");
    EXPECT_EQ(item.at("activity_started_at").as_string(), "2021-03-01");
    EXPECT_EQ(item.at("first_subscription_at").as_string(), "2021-03-15");
    EXPECT_EQ(item.at("class_cnpj").as_string(), kSeniorClassCnpj);
    EXPECT_EQ(item.at("fund_cnpj").as_string(), kMultiFundCnpj);
    EXPECT_EQ(item.at("category").as_string(), "FIDC");
    EXPECT_EQ(item.at("type").as_string(), "Fomento Mercantil");
    EXPECT_EQ(item.at("focus").as_string(), "Sênior");
    EXPECT_EQ(item.at("investor_type").as_string(), "Qualificado");
    EXPECT_EQ(item.at("investor_characteristic").as_string(), "Sem restrição");
    EXPECT_EQ(item.at("opening_share").as_string(), "Sim");
    EXPECT_EQ(item.at("adapted_to_rcvm_175").as_string(), "Sim");
    EXPECT_DOUBLE_EQ(item.at("minimum_initial_subscription_brl").as_double(), 25000.5);
    EXPECT_EQ(item.at("redemption_payment_days").as_int64(), 30);

    const auto& bare = result.data.as_array()[0].as_object();
    for (const char* field :
         {"cvm_code", "name", "status", "activity_started_at", "first_subscription_at", "category", "type",
          "focus", "investor_type", "investor_characteristic", "opening_share", "adapted_to_rcvm_175",
          "minimum_initial_subscription_brl", "redemption_payment_days"}) {
        EXPECT_TRUE(bare.at(field).is_null()) << field;
    }

    EXPECT_EQ(result.meta.data_release, "release-of-anbima.subclasses");
    ASSERT_EQ(result.meta.sources.size(), 2u);
    EXPECT_EQ(result.meta.sources[0].provider, "anbima");
    EXPECT_EQ(result.meta.sources[0].dataset, "subclasses");
    ExpectSourcesForEveryField("funds.class_subclasses", item, result.meta);
}

TEST_F(ClassSubclassesTest, AnOnlyClassOwnsTheRowsFiledUnderItsFundCnpj) {
    Persist(Anbima("A1", kNoCnpjFundCnpj, kNoCnpjFundCnpj));
    EXPECT_THAT(Codes(Subclasses("2012")), ElementsAre("A1"));

    // Fund 1013's only class has a CNPJ of its own and still owns the fund's rows.
    Persist(Anbima("T2", kTwinClassCnpj, kTwinFundCnpj));
    Persist(Anbima("T1", kTwinFundCnpj, kTwinFundCnpj));
    EXPECT_THAT(Codes(Subclasses("2013")), ElementsAre("T1", "T2"));
}

TEST_F(ClassSubclassesTest, AClassOfASeveralClassFundDoesNotTakeTheFundsRows) {
    // Class 2001 has its fund's CNPJ as its own; class 2002 does not.
    Persist(Anbima("F1", "12345678000195", "12345678000195"));
    EXPECT_THAT(Codes(Subclasses("2001")), ElementsAre("F1"));
    EXPECT_TRUE(Subclasses("2002").data.as_array().empty());
}

TEST_F(ClassSubclassesTest, UnknownClassIsNotFound) {
    EXPECT_THROW(Subclasses("9999"), sdk::NotFound);
}

}  // namespace
}  // namespace lastro::funds::testing
