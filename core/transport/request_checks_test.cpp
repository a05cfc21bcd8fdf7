// The transport's checks alone (request_checks.hpp): what each refuses, in its order, and the
// path it hands on decoded.
#include "core/transport/request_checks.hpp"

#include <gtest/gtest.h>

namespace lastro::transport {
namespace {

IncomingRequest Get(std::string resource) {
    IncomingRequest r;
    r.method = "GET";
    r.resource = std::move(resource);
    r.size_bytes = 100;
    return r;
}

TEST(RequestChecks, HandsOnTheDecodedPathAndWhetherItIsUnderV1) {
    RequestChecks checks(1000);
    CheckedRequest ok = checks.Check(Get("/%761/fundos"));
    EXPECT_FALSE(ok.refusal);
    EXPECT_EQ(ok.path.value(), "/v1/fundos");
    EXPECT_TRUE(ok.is_v1);
    EXPECT_FALSE(checks.Check(Get("/health")).is_v1);
    EXPECT_FALSE(checks.Check(Get("/v10/x")).is_v1);
}

TEST(RequestChecks, RefusesEachThingItChecks) {
    RequestChecks checks(1000);
    IncomingRequest framed = Get("/v1/x");
    framed.wire_problem = {{400, "a header field is not 'Name: value'"}};
    EXPECT_EQ(checks.Check(framed).refusal->detail, "a header field is not 'Name: value'");

    IncomingRequest large = Get("/v1/fundos");
    large.size_bytes = 1001;
    const CheckedRequest too_large = checks.Check(large);
    EXPECT_EQ(too_large.refusal->status, 413);
    EXPECT_TRUE(too_large.is_v1) << "a /v1 refusal still carries the billing headers";

    EXPECT_EQ(checks.Check(Get("/v1/%ff")).refusal->status, 400);
    EXPECT_EQ(checks.Check(Get("/v1/%zz")).refusal->status, 400);
    const CheckedRequest slash = checks.Check(Get("/v1%2Ffundos"));
    ASSERT_TRUE(slash.refusal);
    EXPECT_EQ(slash.refusal->status, 400);
    EXPECT_NE(slash.refusal->detail.find("%2F"), std::string::npos);

    IncomingRequest text = Get("/v1/fundos");
    text.has_body = true;
    text.content_type = "text/plain";
    const CheckedRequest unsupported = checks.Check(text);
    ASSERT_TRUE(unsupported.refusal);
    EXPECT_EQ(unsupported.refusal->status, 415);
    EXPECT_EQ(unsupported.refusal->media_type.value_or(""), "application/json") << "contract 7";
    IncomingRequest json = text;
    json.content_type = "application/json; charset=utf-8";
    EXPECT_FALSE(checks.Check(json).refusal);
}

TEST(RequestChecks, WhileDrainingEveryRequestIsRefused503WithRetryAfter) {
    RequestChecks checks(1000);
    checks.BeginDraining();
    const CheckedRequest r = checks.Check(Get("/v1/fundos"));
    ASSERT_TRUE(r.refusal);
    EXPECT_EQ(r.refusal->status, 503);
    ASSERT_EQ(r.refusal->headers.size(), 1u);
    EXPECT_EQ(r.refusal->headers[0].first, "Retry-After");
    // A framing problem is still told as it is: the connection ends after it either way.
    IncomingRequest framed = Get("/v1/x");
    framed.wire_problem = {{408, "the request did not arrive in time"}};
    EXPECT_EQ(checks.Check(framed).refusal->status, 408);
}

}  // namespace
}  // namespace lastro::transport
