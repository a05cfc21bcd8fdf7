// The public discovery documents (/health, /pricing; contract 4.1, 8, 9) and the schema
// catalog (/v1/schema; contract 2.14, 4.1).
#include "api_fixture.hpp"

namespace lastro::e2e {
namespace {

const boost::json::object* FindBy(const boost::json::array& items, std::string_view key,
                                  std::string_view value) {
    for (const auto& item : items) {
        const boost::json::object* o = item.if_object();
        if (o && o->contains(key) && o->at(key).is_string() && o->at(key).get_string() == value) {
            return o;
        }
    }
    return nullptr;
}

TEST_P(ApiTest, HealthNeedsNoKeyAndListsThePlugins) {
    HttpResponse r = D().Get("/health");
    ASSERT_EQ(r.status, 200) << r.Describe();
    EXPECT_EQ(r.Header("Content-Type").value_or("(absent)"), "application/json");
    EXPECT_TRUE(IsRequestId(r.Header("X-Request-Id").value_or(""))) << r.Describe();
    const boost::json::object body = AsObject(r.Json());
    EXPECT_EQ(Str(body, "status"), "ok");
    EXPECT_EQ(Str(body, "version"), D().Server().Version()) << "the version lastrod printed at start";
    ASSERT_TRUE(At(body, "uptime_seconds").is_int64()) << r.body;
    EXPECT_GE(At(body, "uptime_seconds").get_int64(), 0);
    ASSERT_TRUE(At(body, "plugins").is_array()) << r.body;
    EXPECT_NE(FindBy(At(body, "plugins").get_array(), "name", "funds"), nullptr) << r.body;
}

TEST_P(ApiTest, PricingPublishesPolicyOperationsHistoryAndLimits) {
    HttpResponse r = D().Get("/pricing");
    ASSERT_EQ(r.status, 200) << r.Describe();
    EXPECT_EQ(r.Header("Content-Type").value_or("(absent)"), "application/json");
    const boost::json::object body = AsObject(r.Json());
    EXPECT_EQ(Str(body, "policy_version"), "2026-11-30-free-not-modified");

    ASSERT_TRUE(At(body, "operations").is_array()) << r.body;
    const boost::json::array& operations = At(body, "operations").get_array();
    struct Expected {
        const char* operation;
        const char* path;
        std::int64_t price;
    };
    for (const Expected& e :
         {Expected{"funds.search", "/v1/fundos", 1}, Expected{"funds.resolve", "/v1/resolve", 1},
          Expected{"funds.classes", "/v1/fundos/{fund_id}/classes", 1},
          Expected{"schema.read", "/v1/schema", 1}}) {
        const boost::json::object* op = FindBy(operations, "operation", e.operation);
        ASSERT_NE(op, nullptr) << e.operation << " is not in /pricing: " << r.body;
        EXPECT_EQ(Str(*op, "path"), e.path) << e.operation;
        ASSERT_TRUE(At(*op, "price").is_int64()) << e.operation;
        EXPECT_EQ(At(*op, "price").get_int64(), e.price) << e.operation;
    }

    ASSERT_TRUE(At(body, "history").is_array()) << r.body;
    const boost::json::array& history = At(body, "history").get_array();
    ASSERT_FALSE(history.empty());
    for (const auto& entry : history) {
        const boost::json::object& h = AsObject(entry);
        EXPECT_TRUE(IsIsoDate(Str(h, "effective_from"))) << boost::json::serialize(h);
    }
    EXPECT_NE(FindBy(history, "version", "2026-10-14-public-catalog"), nullptr) << r.body;
    EXPECT_NE(FindBy(history, "version", "2026-11-28-delivered-answers"), nullptr) << r.body;
    EXPECT_NE(FindBy(history, "version", "2026-11-30-free-not-modified"), nullptr) << r.body;
    // A 304 is free (issue 50).
    const boost::json::object& settlement = AsObject(At(body, "settlement"));
    EXPECT_EQ(At(settlement, "refunded").as_array().front(), boost::json::value(304)) << r.body;
    EXPECT_NE(Str(settlement, "not_modified").find("free"), std::string::npos) << r.body;
    // The rules a client cannot see from the prices alone (issue 51, items 3 and 8).
    EXPECT_NE(Str(AsObject(At(body, "settlement")), "undelivered").find("refunded"), std::string::npos)
        << r.body;
    const boost::json::object& included = AsObject(At(body, "included_pages"));
    EXPECT_EQ(At(included, "window_seconds").as_int64(), 900) << r.body;
    EXPECT_NE(Str(included, "rule").find("same cursor"), std::string::npos) << r.body;

    const boost::json::object& limits = AsObject(At(body, "limits"));
    ASSERT_TRUE(At(limits, "monthly_allowance").is_int64()) << r.body;
    EXPECT_EQ(At(limits, "monthly_allowance").get_int64(), kMonthlyAllowance);
    ASSERT_TRUE(At(limits, "calls_per_minute").is_int64()) << r.body;
    EXPECT_EQ(At(limits, "calls_per_minute").get_int64(), kCallsPerMinute);
    EXPECT_NE(Str(limits, "allowance_period").find("UTC"), std::string::npos) << r.body;
}

TEST_P(ApiTest, SchemaDescribesResourcesEntitiesSourcesAndPlans) {
    const std::string key = D().RoomyKey();
    HttpResponse r = D().Get("/v1/schema", key);
    ASSERT_TRUE(IsEnvelope(r));
    EXPECT_TRUE(CreditsAre(r, 1, 1, 1000000 - 1));
    const boost::json::object body = AsObject(r.Json());
    const boost::json::object& data = AsObject(At(body, "data"));

    ASSERT_TRUE(At(data, "resources").is_array()) << r.body;
    const boost::json::array& resources = At(data, "resources").get_array();
    EXPECT_EQ(At(AsObject(At(body, "meta")), "row_count").as_int64(),
              static_cast<std::int64_t>(resources.size()));
    const boost::json::object* fundos = FindBy(resources, "path", "/v1/fundos");
    ASSERT_NE(fundos, nullptr) << r.body;
    ASSERT_TRUE(At(*fundos, "fields").is_array());
    EXPECT_NE(FindBy(At(*fundos, "fields").get_array(), "name", "fund_id"), nullptr)
        << boost::json::serialize(*fundos);
    EXPECT_NE(FindBy(resources, "path", "/v1/resolve"), nullptr);
    EXPECT_NE(FindBy(resources, "path", "/v1/fundos/{fund_id}/classes"), nullptr);
    EXPECT_NE(FindBy(resources, "path", "/v1/schema"), nullptr);

    ASSERT_TRUE(At(data, "entities").is_array());
    EXPECT_FALSE(At(data, "entities").get_array().empty());
    EXPECT_NE(FindBy(At(data, "entities").get_array(), "name", "fund"), nullptr) << r.body;
    ASSERT_TRUE(At(data, "sources").is_array());
    EXPECT_NE(FindBy(At(data, "sources").get_array(), "dataset", kRegistryDataset), nullptr) << r.body;
    ASSERT_TRUE(At(data, "planned").is_array());
    EXPECT_FALSE(At(data, "planned").get_array().empty());
}

}  // namespace
}  // namespace lastro::e2e
