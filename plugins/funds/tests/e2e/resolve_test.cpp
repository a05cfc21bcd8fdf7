// GET /v1/resolve (contract 2.5, 4.1) and GET /v1/fundos/{fund_id}/classes.
#include "funds_fixture.hpp"

#include <cctype>

namespace lastro::funds::e2e {
namespace {

std::set<std::string> ClassIdsOf(const boost::json::object& fund_item) {
    std::set<std::string> ids;
    for (const auto& c : At(fund_item, "classes").as_array()) {
        ids.insert(Str(AsObject(c), "class_id"));
    }
    return ids;
}

bool IsDateOrNull(const boost::json::value& v) {
    return v.is_null() || (v.is_string() && IsIsoDate(v.get_string()));
}

::testing::AssertionResult IsResolvedFund(const boost::json::object& f) {
    const bool ok = f.contains("fund_id") && f.at("fund_id").is_string() &&
                    IsUuid(f.at("fund_id").get_string()) && f.contains("cvm_code") &&
                    f.at("cvm_code").is_int64() && f.contains("cnpj") && f.at("cnpj").is_string() &&
                    IsCnpjDigits(f.at("cnpj").get_string()) && f.contains("name") &&
                    f.at("name").is_string() && f.contains("status") && f.at("status").is_string() &&
                    f.contains("fund_type") && f.at("fund_type").is_string() && f.contains("valid_from") &&
                    f.at("valid_from").is_string() && IsIsoDate(f.at("valid_from").get_string()) &&
                    f.contains("valid_to") && IsDateOrNull(f.at("valid_to")) && f.contains("matched_as") &&
                    f.at("matched_as").is_string() && f.contains("class_ids") && f.at("class_ids").is_array();
    if (!ok) {
        return ::testing::AssertionFailure()
               << "not a resolved fund of contract 2.5: " << boost::json::serialize(f);
    }
    for (const auto& id : f.at("class_ids").get_array()) {
        if (!id.is_string() || !IsUuid(id.get_string())) {
            return ::testing::AssertionFailure()
                   << "class_ids holds a non-UUID: " << boost::json::serialize(f);
        }
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult IsResolvedClass(const boost::json::object& c) {
    const bool ok =
        c.contains("class_id") && c.at("class_id").is_string() && IsUuid(c.at("class_id").get_string()) &&
        c.contains("fund_id") && c.at("fund_id").is_string() && IsUuid(c.at("fund_id").get_string()) &&
        c.contains("cvm_code") && c.at("cvm_code").is_int64() && c.contains("cnpj") &&
        c.at("cnpj").is_string() && c.contains("name") && c.at("name").is_string() && c.contains("status") &&
        c.at("status").is_string() && c.contains("class_type") && c.at("class_type").is_string() &&
        c.contains("valid_from") && c.at("valid_from").is_string() &&
        IsIsoDate(c.at("valid_from").get_string()) && c.contains("valid_to") &&
        IsDateOrNull(c.at("valid_to")) && c.contains("matched_as") && c.at("matched_as").is_string();
    if (!ok) {
        return ::testing::AssertionFailure()
               << "not a resolved class of contract 2.5: " << boost::json::serialize(c);
    }
    return ::testing::AssertionSuccess();
}

const boost::json::object* FundById(const boost::json::object& data, const std::string& fund_id) {
    for (const auto& f : At(data, "funds").as_array()) {
        if (Str(AsObject(f), "fund_id") == fund_id) {
            return &f.get_object();
        }
    }
    return nullptr;
}

TEST_P(ApiTest, ResolveByCnpjFindsTheFundAndItsClasses) {
    const boost::json::object fund = FundWithClasses();
    const std::string fund_id = Str(fund, "fund_id");
    const std::string cnpj = Str(fund, "cnpj");
    const std::string key = D().RoomyKey();

    HttpResponse r = D().Get("/v1/resolve?cnpj=" + cnpj, key);
    ASSERT_TRUE(IsEnvelope(r));
    EXPECT_TRUE(CreditsAre(r, 1, 1, 1000000 - 1));
    const boost::json::object body = AsObject(r.Json());
    const boost::json::object& meta = AsObject(At(body, "meta"));
    EXPECT_EQ(Str(meta, "identity_status"), "persistent_registry");
    const boost::json::object& data = AsObject(At(body, "data"));
    EXPECT_EQ(At(data, "query"), (boost::json::object{{"cnpj", cnpj}})) << r.body;
    EXPECT_EQ(Str(data, "identity_status"), "persistent_registry");
    EXPECT_FALSE(Str(data, "resolution").empty());
    ASSERT_TRUE(At(data, "funds").is_array() && At(data, "classes").is_array()) << r.body;
    for (const auto& f : At(data, "funds").as_array()) {
        EXPECT_TRUE(IsResolvedFund(AsObject(f)));
    }
    for (const auto& c : At(data, "classes").as_array()) {
        EXPECT_TRUE(IsResolvedClass(AsObject(c)));
    }

    const boost::json::object* found = FundById(data, fund_id);
    ASSERT_NE(found, nullptr) << r.body;
    EXPECT_EQ(Str(*found, "cnpj"), cnpj);
    EXPECT_EQ(At(*found, "cvm_code"), At(fund, "cvm_code"));
    std::set<std::string> class_ids;
    for (const auto& id : At(*found, "class_ids").as_array()) {
        class_ids.insert(std::string(id.as_string()));
    }
    EXPECT_EQ(class_ids, ClassIdsOf(fund)) << "class_ids lists every class of the fund";

    std::set<std::string> involved;
    for (const auto& f : At(data, "funds").as_array()) {
        involved.insert(Str(AsObject(f), "fund_id"));
    }
    for (const auto& c : At(data, "classes").as_array()) {
        involved.insert(Str(AsObject(c), "fund_id"));
    }
    if (involved.size() > 1) {
        EXPECT_EQ(Str(data, "resolution"), "multiple") << "contract 2.5: never pick one silently";
    }

    HttpResponse punctuated = D().Get("/v1/resolve?cnpj=" + UrlEncode(PunctuatedCnpj(cnpj)), key);
    ASSERT_TRUE(IsEnvelope(punctuated));
    EXPECT_NE(FundById(AsObject(At(AsObject(punctuated.Json()), "data")), fund_id), nullptr)
        << punctuated.body;
}

TEST_P(ApiTest, ResolveByCvmCodeFindsTheFund) {
    const boost::json::object fund = FundWithClasses();
    const std::string key = D().RoomyKey();
    const std::string code = std::to_string(At(fund, "cvm_code").as_int64());
    HttpResponse r = D().Get("/v1/resolve?cvm_code=" + code, key);
    ASSERT_TRUE(IsEnvelope(r));
    const boost::json::object body = AsObject(r.Json());
    const boost::json::object& data = AsObject(At(body, "data"));
    EXPECT_EQ(At(data, "query"), (boost::json::object{{"cvm_code", code}})) << r.body;
    EXPECT_NE(FundById(data, Str(fund, "fund_id")), nullptr) << r.body;
}

TEST_P(ApiTest, ResolveNeedsExactlyOneLocator) {
    const std::string key = D().CreateKey({10, 100, "", ""});
    const std::string cnpj = Str(FundWithClasses(), "cnpj");
    for (const std::string& query :
         std::vector<std::string>{"", "?cnpj=" + cnpj + "&cvm_code=123", "?cvm_code=1&anbima_code=X"}) {
        SCOPED_TRACE(query);
        HttpResponse r = D().Get("/v1/resolve" + query, key);
        EXPECT_TRUE(IsProblem(r, 400, kBaseUrl, "/v1/resolve", std::nullopt));
        EXPECT_TRUE(HasBillingHeaders(r));
        EXPECT_TRUE(CreditsAre(r, 1, 0, 10));
    }
}

TEST_P(ApiTest, ResolveOfAnUnknownCnpjIs404AndCharged) {
    const auto all = D().AllItems("/v1/fundos");
    std::string cnpj;
    for (int base = 987654; base < 987700 && cnpj.empty(); ++base) {
        const std::string candidate = CnpjWithCheckDigits(std::to_string(base) + "000199");
        bool used = false;
        for (const auto& item : all) {
            used = used || Str(item, "cnpj") == candidate;
        }
        if (!used) {
            cnpj = candidate;
        }
    }
    ASSERT_FALSE(cnpj.empty());
    const std::string key = D().CreateKey({10, 100, "", ""});
    HttpResponse r = D().Get("/v1/resolve?cnpj=" + cnpj, key);
    EXPECT_TRUE(IsProblem(r, 404, kBaseUrl, "/v1/resolve", "cnpj"));
    EXPECT_TRUE(CreditsAre(r, 1, 1, 9));

    HttpResponse code = D().Get("/v1/resolve?cvm_code=999999999", key);
    EXPECT_TRUE(IsProblem(code, 404, kBaseUrl, "/v1/resolve", "cvm_code"));
    EXPECT_TRUE(CreditsAre(code, 1, 1, 8));
}

// docs/plugins.md quotes from here: e2e-test
TEST_P(ApiTest, ResolveRejectsANonNumericCvmCode) {
    const std::string key = D().CreateKey({10, 100, "", ""});
    for (const std::string code : {"abc", "12a", "-5", "1.0"}) {
        SCOPED_TRACE(code);
        HttpResponse r = D().Get("/v1/resolve?cvm_code=" + code, key);
        EXPECT_TRUE(IsProblem(r, 422, kBaseUrl, "/v1/resolve", "cvm_code"));
        EXPECT_TRUE(CreditsAre(r, 1, 0, 10));
    }
}
// docs/plugins.md quotes up to here

TEST_P(ApiTest, ClassesOfAFundAreItsClasses) {
    const boost::json::object fund = FundWithClasses();
    const std::string fund_id = Str(fund, "fund_id");
    const std::string key = D().RoomyKey();
    HttpResponse r = D().Get("/v1/fundos/" + fund_id + "/classes", key);
    ASSERT_TRUE(IsEnvelope(r));
    const boost::json::object body = AsObject(r.Json());
    ASSERT_TRUE(At(body, "data").is_array());
    std::set<std::string> ids;
    for (const auto& c : At(body, "data").as_array()) {
        const boost::json::object& o = AsObject(c);
        EXPECT_TRUE(IsUuid(Str(o, "class_id")));
        EXPECT_EQ(Str(o, "fund_id"), fund_id);
        ids.insert(Str(o, "class_id"));
    }
    EXPECT_EQ(ids, ClassIdsOf(fund));
    EXPECT_FALSE(At(AsObject(At(body, "meta")), "sources").as_array().empty());

    std::string upper = fund_id;
    for (char& ch : upper) {
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    }
    HttpResponse shouted = D().Get("/v1/fundos/" + upper + "/classes", key);
    EXPECT_TRUE(IsEnvelope(shouted)) << "a UUID is case-insensitive";

    const std::string missing = "/v1/fundos/" + RandomUuid() + "/classes";
    HttpResponse unknown = D().Get(missing, key);
    EXPECT_TRUE(IsProblem(unknown, 404, kBaseUrl, missing, "fund_id"));
    EXPECT_EQ(unknown.IntHeader("X-Credits-Charged"), 1) << unknown.Describe();
}

}  // namespace
}  // namespace lastro::funds::e2e
