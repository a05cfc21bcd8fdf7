// Unknown keys and failed authentications (docs/billing.md, "Failed authentications"): a key the
// key table refused is remembered, so asking again does not read the table (counted by
// lastro_auth_key_lookups_total on GET /metrics); after auth.failed_auth_limit failures from one
// address within auth.failed_auth_window_s, that address's calls are 429 with Retry-After and
// never read the key table, except with a key the instance has seen valid.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace lastro::e2e {
namespace {

namespace fs = std::filesystem;

// A well-formed key no one created: "lst_" and 48 random hexadecimal digits.
std::string MadeUpKey() {
    static std::mt19937_64 random{std::random_device{}()};
    static const char* kHex = "0123456789abcdef";
    std::string key = "lst_";
    for (int i = 0; i < 48; ++i) {
        key.push_back(kHex[random() % 16]);
    }
    return key;
}

TEST_P(ApiTest, UnknownKeysAreRememberedAndFailuresPerAddressAre429) {
    // A lastrod of its own (its address gets throttled for the rest of the window), with
    // metrics; on SQLite the fixture's steps aside meanwhile.
    const auto aside = D().SetServerAsideOnSqlite();
    std::string text = D().ConfigText(D().Dir() / "authlimit-access.log", D().Instance() + "-authlimit");
    const std::string auth = "auth:\n";
    const std::size_t at = text.find(auth);
    ASSERT_NE(at, std::string::npos) << text;
    text.insert(at + auth.size(), "  failed_auth_limit: 6\n  failed_auth_window_s: 3600\n");
    text += "metrics:\n  listen: 127.0.0.1:0\n";
    const fs::path config = D().Dir() / "authlimit.yaml";
    WriteFile(config, text);
    std::unique_ptr<Lastrod> server = Lastrod::Start(config);
    HttpClient metrics(MetricsPort(*server));
    HttpClient api(server->Port());
    const auto scrape = [&](const std::string& name) {
        const HttpResponse r = metrics.Get("/metrics");
        const auto s = MetricSamples(r.body);
        auto it = s.find(name);
        return it == s.end() ? -1.0 : it->second;
    };
    const std::string kLookups = "lastro_auth_key_lookups_total";

    const std::string valid = D().CreateKey({1000, 1000, "", ""});
    const std::string never_seen = D().CreateKey({1000, 1000, "", ""});
    ASSERT_TRUE(IsEnvelope(api.Get("/v1/fundos?limit=1", valid)));
    EXPECT_EQ(scrape(kLookups), 1);

    // One unknown key five times: the key table is read once.
    const std::string unknown = MadeUpKey();
    for (int i = 0; i < 5; ++i) {
        EXPECT_TRUE(IsProblem(api.Get("/v1/fundos", unknown), 401, kBaseUrl, "/v1/fundos", std::nullopt));
    }
    EXPECT_EQ(scrape(kLookups), 2) << "an unknown key was looked up again within its time-to-live";
    // The sixth failure: no key at all.
    EXPECT_TRUE(IsProblem(api.Get("/v1/fundos"), 401, kBaseUrl, "/v1/fundos", std::nullopt));

    // Now the address is throttled: unknown keys, no key and a valid key this instance has not
    // seen are answered 429 without reading the key table.
    for (const std::optional<std::string>& key :
         {std::optional<std::string>(unknown), std::optional<std::string>(MadeUpKey()),
          std::optional<std::string>(), std::optional<std::string>(never_seen)}) {
        const HttpResponse r = api.Get("/v1/fundos?limit=1", key);
        EXPECT_TRUE(IsProblem(r, 429, kBaseUrl, "/v1/fundos", std::nullopt));
        EXPECT_NE(r.body.find("failed authentications"), std::string::npos) << r.body;
        const std::int64_t retry = std::stoll(r.Header("Retry-After").value_or("0"));
        EXPECT_GE(retry, 1) << r.Describe();
        EXPECT_LE(retry, 3600) << r.Describe();
        EXPECT_TRUE(HasBillingHeaders(r));
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0) << r.Describe();
    }
    EXPECT_EQ(scrape(kLookups), 2) << "a throttled address reached the key table";
    // A key seen valid from it is still served.
    const HttpResponse served = api.Get("/v1/fundos?limit=1", valid);
    EXPECT_TRUE(IsEnvelope(served));
    EXPECT_TRUE(CreditsAre(served, 1, 1, 998));

    EXPECT_EQ(scrape(R"(lastro_auth_refused_total{reason="invalid"})"), 5);
    EXPECT_EQ(scrape(R"(lastro_auth_refused_total{reason="missing"})"), 1);
    EXPECT_EQ(scrape(R"(lastro_auth_refused_total{reason="throttled"})"), 4);
    ASSERT_TRUE(server->Terminate(std::chrono::seconds(15)));
}

}  // namespace
}  // namespace lastro::e2e
