#include "src/resolve.hpp"
#include "class_data_fixture.hpp"
#include "registry_fixture.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace lastro::funds::testing {
namespace {

using ::testing::HasSubstr;

class ResolveTest : public RegistryTest {
protected:
    sdk::Result Resolve(const std::string& name, const std::string& value) {
        sdk::Params params;
        params.Set(name, value);
        return Call(&HandleResolve, Db(), params);
    }
};

TEST_F(ResolveTest, CnpjOfASingleClassFundIsUnique) {
    const sdk::Result result = Resolve("cnpj", "12345678000195");
    const auto& data = result.data.as_object();
    EXPECT_EQ(data.at("query"), (boost::json::object{{"cnpj", "12345678000195"}}));
    EXPECT_EQ(data.at("resolution").as_string(), "unique");
    EXPECT_EQ(data.at("identity_status").as_string(), "persistent_registry");
    const auto& funds = data.at("funds").as_array();
    ASSERT_EQ(funds.size(), 1u);
    EXPECT_EQ(funds[0].at("fund_id").as_string(), FundIdFor("1001"));
    EXPECT_EQ(funds[0].at("cvm_code").as_int64(), 5001);
    EXPECT_EQ(funds[0].at("fund_type").as_string(), "FIDC");
    EXPECT_EQ(funds[0].at("valid_from").as_string(), "2020-01-10");
    EXPECT_TRUE(funds[0].at("valid_to").is_null());
    EXPECT_EQ(funds[0].at("matched_as").as_string(), "fund_cnpj");
    EXPECT_EQ(funds[0].at("class_ids"), (boost::json::array{ClassIdFor("2001"), ClassIdFor("2002")}));
    const auto& classes = data.at("classes").as_array();
    ASSERT_EQ(classes.size(), 1u);
    EXPECT_EQ(classes[0].at("class_id").as_string(), ClassIdFor("2001"));
    EXPECT_EQ(classes[0].at("fund_id").as_string(), FundIdFor("1001"));
    EXPECT_EQ(classes[0].at("class_type").as_string(), "Classes de Cotas de Fundos FIDC");
    EXPECT_EQ(classes[0].at("valid_from").as_string(), "2023-11-01");
    EXPECT_TRUE(classes[0].at("valid_to").is_null());
    EXPECT_EQ(classes[0].at("matched_as").as_string(), "class_cnpj");

    EXPECT_EQ(result.meta.row_count, 2u);
    EXPECT_EQ(result.meta.extra.at("identity_status").as_string(), "persistent_registry");
    EXPECT_EQ(result.meta.data_release, "registro-2026-08-17");
}

TEST_F(ResolveTest, ACnpjSharedByEntitiesOfTwoFundsIsMultiple) {
    // Fund 1006 has this CNPJ, and so has class 2006 of fund 1004.
    const sdk::Result result = Resolve("cnpj", "66666666000191");
    const auto& data = result.data.as_object();
    EXPECT_EQ(data.at("resolution").as_string(), "multiple");
    ASSERT_EQ(data.at("funds").as_array().size(), 1u);
    EXPECT_EQ(data.at("funds").as_array()[0].at("fund_id").as_string(), FundIdFor("1006"));
    EXPECT_EQ(data.at("funds").as_array()[0].at("class_ids"), boost::json::array());  // it has none
    ASSERT_EQ(data.at("classes").as_array().size(), 1u);
    EXPECT_EQ(data.at("classes").as_array()[0].at("fund_id").as_string(), FundIdFor("1004"));
    EXPECT_EQ(result.meta.row_count, 2u);
}

TEST_F(ResolveTest, ResolveIsNotRestrictedToTheFidcUniverse) {
    const sdk::Result result = Resolve("cnpj", "55555555000191");
    EXPECT_EQ(result.data.at("funds").as_array()[0].at("fund_type").as_string(), "FI");
}

TEST_F(ResolveTest, CancelledEntitiesCarryValidTo) {
    const sdk::Result data_result = Resolve("cnpj", "44444444000191");
    const auto& data = data_result.data;
    EXPECT_EQ(data.at("funds").as_array()[0].at("valid_to").as_string(), "2022-08-31");
    EXPECT_EQ(data.at("classes").as_array()[0].at("valid_to").as_string(), "2022-08-31");
}

TEST_F(ResolveTest, CvmCodeOfAFundOrAClass) {
    const sdk::Result fund_result = Resolve("cvm_code", "5001");
    const auto& fund = fund_result.data;
    EXPECT_EQ(fund.at("resolution").as_string(), "unique");
    EXPECT_EQ(fund.at("funds").as_array()[0].at("matched_as").as_string(), "fund_cvm_code");
    EXPECT_TRUE(fund.at("classes").as_array().empty());

    const sdk::Result fund_class_result = Resolve("cvm_code", "6002");
    const auto& fund_class = fund_class_result.data;
    EXPECT_EQ(fund_class.at("resolution").as_string(), "unique");
    EXPECT_TRUE(fund_class.at("funds").as_array().empty());
    EXPECT_EQ(fund_class.at("classes").as_array()[0].at("class_id").as_string(), ClassIdFor("2002"));
    EXPECT_EQ(fund_class.at("classes").as_array()[0].at("matched_as").as_string(), "class_cvm_code");
}

TEST_F(ResolveTest, CvmCodeOfASubclassReturnsItsClass) {
    const sdk::Result data_result = Resolve("cvm_code", "7001");
    const auto& data = data_result.data;
    EXPECT_EQ(data.at("resolution").as_string(), "unique");
    ASSERT_EQ(data.at("classes").as_array().size(), 1u);
    EXPECT_EQ(data.at("classes").as_array()[0].at("class_id").as_string(), ClassIdFor("2001"));
    EXPECT_EQ(data.at("classes").as_array()[0].at("matched_as").as_string(), "subclass_cvm_code");
    EXPECT_EQ(data.at("query"), (boost::json::object{{"cvm_code", "7001"}}));
}

TEST_F(ResolveTest, NothingFoundIsNotFoundNamingTheLocator) {
    try {
        Resolve("cnpj", "99999999000191");
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_THAT(problem.what(), HasSubstr("99999999000191"));
        EXPECT_EQ(problem.Parameter(), "cnpj");
    }
    EXPECT_THROW(Resolve("cvm_code", "123456"), sdk::NotFound);
}

TEST_F(ResolveTest, AnUnknownAnbimaCodeIsNotFound) {
    try {
        Resolve("anbima_code", "ABC123");
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_THAT(problem.what(), HasSubstr("ABC123"));
        EXPECT_EQ(problem.Parameter(), "anbima_code");
    }
}

TEST_F(ResolveTest, ExactlyOneLocatorIsRequired) {
    sdk::Params none;
    EXPECT_THROW(Call(&HandleResolve, Db(), none), sdk::BadRequest);
    sdk::Params two;
    two.Set("cnpj", std::string("12345678000195"));
    two.Set("cvm_code", std::string("5001"));
    try {
        Call(&HandleResolve, Db(), two);
        FAIL() << "expected BadRequest";
    } catch (const sdk::BadRequest& problem) {
        EXPECT_STREQ(problem.what(), "give exactly one of cnpj, cvm_code, anbima_code");
    }
}

TEST_F(ResolveTest, ANonNumericCvmCodeIsAnInvalidParameter) {
    for (const char* code : {"12a", "-5", "", "99999999999999999999"}) {
        try {
            Resolve("cvm_code", code);
            ADD_FAILURE() << "expected InvalidParameter for '" << code << "'";
        } catch (const sdk::InvalidParameter& problem) {
            EXPECT_EQ(problem.Parameter(), "cvm_code");
        }
    }
}

// anbima_code (dataset anbima.subclasses): the subclass is answered by its class.

class ResolveAnbimaCodeTest : public ClassDataTest {
protected:
    void SetUp() override {
        ClassDataTest::SetUp();
        Persist(Anbima("C-2010", kSeniorClassCnpj, kMultiFundCnpj));
        Persist(Anbima("c-2012", kNoCnpjFundCnpj, kNoCnpjFundCnpj));
        Persist(Anbima("C-MULTI", kMultiFundCnpj, kMultiFundCnpj));
        Persist(Anbima("C-GONE", kOutsideCnpj, kOutsideCnpj));
    }
    sdk::Result Resolve(const std::string& code) { return Run(&HandleResolve, {{"anbima_code", code}}); }
};

TEST_F(ResolveAnbimaCodeTest, TheClassWithTheSubclasssClassCnpj) {
    const sdk::Result result = Resolve("C-2010");
    const auto& data = result.data.as_object();
    EXPECT_EQ(data.at("query"), (boost::json::object{{"anbima_code", "C-2010"}}));
    EXPECT_EQ(data.at("resolution").as_string(), "unique");
    EXPECT_TRUE(data.at("funds").as_array().empty());
    const auto& classes = data.at("classes").as_array();
    ASSERT_EQ(classes.size(), 1u);
    EXPECT_EQ(classes[0].at("class_id").as_string(), ClassIdFor("2010"));
    EXPECT_EQ(classes[0].at("fund_id").as_string(), FundIdFor("1010"));
    EXPECT_EQ(classes[0].at("cnpj").as_string(), kSeniorClassCnpj);
    EXPECT_EQ(classes[0].at("matched_as").as_string(), "anbima_code");
    EXPECT_EQ(result.meta.row_count, 1u);
    ExpectManifestShape("funds.resolve", result.data);
}

TEST_F(ResolveAnbimaCodeTest, AFundCnpjStandsForTheFundsOnlyClass) {
    const sdk::Result result = Resolve("c-2012");
    const auto& classes = result.data.at("classes").as_array();
    ASSERT_EQ(classes.size(), 1u);
    EXPECT_EQ(classes[0].at("class_id").as_string(), ClassIdFor("2012"));
    EXPECT_TRUE(classes[0].at("cnpj").is_null());
    // Codes are matched exactly as ANBIMA writes them.
    EXPECT_THROW(Resolve("C-2012"), sdk::NotFound);
}

TEST_F(ResolveAnbimaCodeTest, ACodeWhoseClassIsNotInTheRegistryIsNotFound) {
    // A several-class fund's CNPJ names no class; an unknown CNPJ names nothing.
    for (const char* code : {"C-MULTI", "C-GONE"}) {
        try {
            Resolve(code);
            ADD_FAILURE() << "expected NotFound for " << code;
        } catch (const sdk::NotFound& problem) {
            EXPECT_THAT(problem.what(), HasSubstr(code));
            EXPECT_THAT(problem.what(), HasSubstr("not a class of the registry"));
            EXPECT_EQ(problem.Parameter(), "anbima_code");
        }
    }
}

}  // namespace
}  // namespace lastro::funds::testing
