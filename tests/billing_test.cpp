// Authentication (contract 5) and credits (contract 3, 7, 8): what is reserved, charged and
// refunded, the eight billing headers, the monthly allowance and the per-minute limit.
#include "api_fixture.hpp"

#include <chrono>
#include <ctime>
#include <sstream>
#include <thread>

namespace lastro::e2e {
namespace {

// The id `lastro keys list` shows for the key named `name`.
std::optional<std::string> KeyIdByName(const std::string& listing, const std::string& name) {
    std::istringstream lines(listing);
    std::string line;
    for (int i = 0; i < 100000 && std::getline(lines, line); ++i) {
        std::istringstream fields(line);
        std::string id, key_name;
        fields >> id >> key_name;
        if (key_name == name && !id.empty() && id.find_first_not_of("0123456789") == std::string::npos) {
            return id;
        }
    }
    return std::nullopt;
}

// The headers that do not depend on the call's outcome, for a known key.
void ExpectAccountHeaders(const HttpResponse& r, std::int64_t credit_limit, std::int64_t rate_limit) {
    ASSERT_TRUE(HasBillingHeaders(r));
    const std::int64_t now = std::time(nullptr);
    EXPECT_EQ(r.IntHeader("X-Credits-Limit"), credit_limit) << r.Describe();
    EXPECT_EQ(r.IntHeader("X-RateLimit-Limit"), rate_limit) << r.Describe();
    const std::int64_t credit_reset = r.IntHeader("X-Credits-Reset").value_or(0);
    EXPECT_TRUE(credit_reset == NextMonthStartUtc(now) || credit_reset == NextMonthStartUtc(now - 5))
        << "X-Credits-Reset is the start of the next calendar month (UTC)\n"
        << r.Describe();
    const std::int64_t rate_reset = r.IntHeader("X-RateLimit-Reset").value_or(0);
    EXPECT_EQ(rate_reset % 60, 0) << r.Describe();
    EXPECT_GT(rate_reset, now - 5) << r.Describe();
    EXPECT_LE(rate_reset, now + 60) << r.Describe();
}

TEST_P(ApiTest, MissingOrInvalidKeysAre401AndReserveNothing) {
    const std::string good = D().CreateKey({100, 100, "", ""});
    std::string altered = good;
    altered.back() = altered.back() == '0' ? '1' : '0';
    const std::vector<std::vector<std::string>> header_sets = {
        {},
        {"Authorization: Basic x"},
        {"Authorization: Bearer wrong"},
        {"Authorization: Bearer " + altered},
        {"Authorization: Bearer"},
        {"Authorization: " + good},
    };
    for (const auto& headers : header_sets) {
        SCOPED_TRACE(headers.empty() ? "(no Authorization)" : headers.front());
        HttpRequest request;
        request.target = "/v1/fundos";
        request.headers = headers;
        HttpResponse r = D().Http().Send(request);
        EXPECT_TRUE(IsProblem(r, 401, kBaseUrl, "/v1/fundos", std::nullopt));
        EXPECT_TRUE(HasBillingHeaders(r));
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0) << r.Describe();
        EXPECT_EQ(r.IntHeader("X-Credits-Cost"), 0) << r.Describe();
    }
    // None of that touched the real key's credits.
    HttpResponse ok = D().Get("/v1/fundos?limit=1", good);
    EXPECT_TRUE(IsEnvelope(ok));
    EXPECT_TRUE(CreditsAre(ok, 1, 1, 99));
}

TEST_P(ApiTest, RevokedKeyIs401) {
    const std::string name = "revoke-me-" + BackendName(GetParam());
    const std::string key = D().CreateKey({100, 100, "", name});
    EXPECT_TRUE(IsEnvelope(D().Get("/v1/fundos?limit=1", key)));

    CommandResult listing = D().Lastro({"keys", "list"});
    ASSERT_EQ(listing.exit_code, 0) << listing.Describe();
    EXPECT_EQ(listing.out.find(key), std::string::npos) << "keys list never shows a key";
    auto id = KeyIdByName(listing.out, name);
    ASSERT_TRUE(id) << listing.out;
    CommandResult revoked = D().Lastro({"keys", "revoke", *id});
    ASSERT_EQ(revoked.exit_code, 0) << revoked.Describe();

    // lastrod trusts what it read about a key for kKeyCacheMs: the revocation takes effect
    // within that, and then for good.
    HttpResponse r = D().Get("/v1/fundos?limit=1", key);
    const auto revoked_at = std::chrono::steady_clock::now();
    while (r.status != 401 &&
           std::chrono::steady_clock::now() - revoked_at < std::chrono::milliseconds(kKeyCacheMs * 5)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        r = D().Get("/v1/fundos?limit=1", key);
    }
    EXPECT_TRUE(IsProblem(r, 401, kBaseUrl, "/v1/fundos", std::nullopt));
    EXPECT_TRUE(HasBillingHeaders(r));
    EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0) << r.Describe();
    EXPECT_EQ(r.IntHeader("X-Credits-Cost"), 0) << r.Describe();

    CommandResult unknown = D().Lastro({"keys", "revoke", "987654"});
    EXPECT_NE(unknown.exit_code, 0) << unknown.Describe();
}

TEST_P(ApiTest, CreditsAreChargedOrRefundedByOutcome) {
    const std::string key = D().CreateKey({10, 100, "", ""});
    const auto check = [&](const HttpResponse& r, std::int64_t charged, std::int64_t remaining) {
        ExpectAccountHeaders(r, 10, 100);
        EXPECT_TRUE(CreditsAre(r, 1, charged, remaining));
    };

    HttpResponse ok = D().Get("/v1/fundos", key);
    ASSERT_TRUE(IsEnvelope(ok));
    check(ok, 1, 9);

    const std::string missing = "/v1/fundos/" + RandomUuid() + "/classes";
    HttpResponse not_found = D().Get(missing, key);
    EXPECT_TRUE(IsProblem(not_found, 404, kBaseUrl, missing, "fund_id"));
    check(not_found, 1, 8);  // a 404 after reservation stays charged

    HttpResponse invalid = D().Get("/v1/fundos?limit=0", key);
    EXPECT_TRUE(IsProblem(invalid, 422, kBaseUrl, "/v1/fundos", "limit"));
    check(invalid, 0, 8);

    HttpResponse no_locator = D().Get("/v1/resolve", key);
    EXPECT_TRUE(IsProblem(no_locator, 400, kBaseUrl, "/v1/resolve", std::nullopt));
    check(no_locator, 0, 8);

    HttpResponse two_locators = D().Get("/v1/resolve?cnpj=11222333000181&cvm_code=123", key);
    EXPECT_TRUE(IsProblem(two_locators, 400, kBaseUrl, "/v1/resolve", std::nullopt));
    check(two_locators, 0, 8);

    HttpResponse again = D().Get("/v1/fundos?limit=1", key);
    EXPECT_TRUE(IsEnvelope(again));
    check(again, 1, 7);
}

TEST_P(ApiTest, MissingScopeIs403AndRefunded) {
    const std::string key = D().CreateKey({10, 100, "schema", ""});
    HttpResponse r = D().Get("/v1/fundos", key);
    EXPECT_TRUE(IsProblem(r, 403, kBaseUrl, "/v1/fundos", std::nullopt));
    ExpectAccountHeaders(r, 10, 100);
    EXPECT_TRUE(CreditsAre(r, 1, 0, 10));

    HttpResponse schema = D().Get("/v1/schema", key);
    EXPECT_TRUE(IsEnvelope(schema));
    EXPECT_TRUE(CreditsAre(schema, 1, 1, 9));
}

TEST_P(ApiTest, KeysWithoutLimitsGetThePolicyDefaults) {
    const std::string key = D().CreateKey();
    HttpResponse r = D().Get("/v1/fundos?limit=1", key);
    ASSERT_TRUE(IsEnvelope(r));
    ExpectAccountHeaders(r, kMonthlyAllowance, kCallsPerMinute);
    EXPECT_TRUE(CreditsAre(r, 1, 1, kMonthlyAllowance - 1));
    EXPECT_EQ(r.IntHeader("X-RateLimit-Remaining"), kCallsPerMinute - 1) << r.Describe();
}

TEST_P(ApiTest, ExhaustedMonthlyCreditsAre429) {
    const std::string key = D().CreateKey({2, 100, "", ""});
    HttpResponse first = D().Get("/v1/fundos?limit=1", key);
    EXPECT_TRUE(IsEnvelope(first));
    EXPECT_TRUE(CreditsAre(first, 1, 1, 1));
    HttpResponse second = D().Get("/v1/fundos?limit=1", key);
    EXPECT_TRUE(IsEnvelope(second));
    EXPECT_TRUE(CreditsAre(second, 1, 1, 0));

    HttpResponse third = D().Get("/v1/fundos?limit=1", key);
    EXPECT_TRUE(IsProblem(third, 429, kBaseUrl, "/v1/fundos", std::nullopt));
    ExpectAccountHeaders(third, 2, 100);
    EXPECT_EQ(third.IntHeader("X-Credits-Charged"), 0) << third.Describe();
    EXPECT_EQ(third.IntHeader("X-Credits-Remaining"), 0) << third.Describe();

    // Credits are reserved before parameters are judged (contract 3): with none left, an
    // invalid call is refused the same way.
    HttpResponse invalid = D().Get("/v1/fundos?limit=0", key);
    EXPECT_TRUE(IsProblem(invalid, 429, kBaseUrl, "/v1/fundos", std::nullopt));
    EXPECT_EQ(invalid.IntHeader("X-Credits-Remaining"), 0) << invalid.Describe();
}

TEST_P(ApiTest, PerMinuteLimitCountsRefundedCalls) {
    const std::string key = D().CreateKey({100, 3, "", ""});
    AvoidMinuteBoundary();
    HttpResponse first = D().Get("/v1/fundos?limit=0", key);
    EXPECT_TRUE(IsProblem(first, 422, kBaseUrl, "/v1/fundos", "limit"));
    EXPECT_EQ(first.IntHeader("X-RateLimit-Remaining"), 2) << first.Describe();
    HttpResponse second = D().Get("/v1/fundos?limit=0", key);
    EXPECT_TRUE(IsProblem(second, 422, kBaseUrl, "/v1/fundos", "limit"));
    EXPECT_EQ(second.IntHeader("X-RateLimit-Remaining"), 1) << "a refund never lowers the count\n"
                                                            << second.Describe();
    HttpResponse third = D().Get("/v1/fundos?limit=1", key);
    EXPECT_TRUE(IsEnvelope(third));
    EXPECT_EQ(third.IntHeader("X-RateLimit-Remaining"), 0) << third.Describe();

    HttpResponse fourth = D().Get("/v1/fundos?limit=1", key);
    EXPECT_TRUE(IsProblem(fourth, 429, kBaseUrl, "/v1/fundos", std::nullopt));
    ExpectAccountHeaders(fourth, 100, 3);
    EXPECT_EQ(fourth.IntHeader("X-RateLimit-Remaining"), 0) << fourth.Describe();
    EXPECT_EQ(fourth.IntHeader("X-Credits-Charged"), 0) << fourth.Describe();
    EXPECT_EQ(fourth.IntHeader("X-Credits-Remaining"), 99) << "only the 200 was charged\n"
                                                           << fourth.Describe();
    const auto retry = fourth.IntHeader("Retry-After");
    ASSERT_TRUE(retry) << "Retry-After\n" << fourth.Describe();
    EXPECT_GE(*retry, 1);
    EXPECT_LE(*retry, 60);
    if (fourth.status == 429) {
        EXPECT_NE(Str(AsObject(fourth.Json()), "detail").find("per-minute"), std::string::npos)
            << fourth.body;
    }
    for (const HttpResponse* r : {&first, &second, &third, &fourth}) {
        EXPECT_EQ(r->IntHeader("X-RateLimit-Reset"), first.IntHeader("X-RateLimit-Reset")) << "one window";
    }
}

}  // namespace
}  // namespace lastro::e2e
