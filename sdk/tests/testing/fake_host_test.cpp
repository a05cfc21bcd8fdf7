// The test kit's fakes of what the host offers: releases and services.
#include <lastro/sdk/testing/fake_host.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string_view>

namespace lastro::sdk::testing {
namespace {

using ::testing::HasSubstr;

TEST(FakeHostTest, AnswersTheReleasesSetAndNothingElse) {
    FakeHost host;
    EXPECT_FALSE(host.LatestRelease("demo.files"));
    host.SetRelease(Release{"demo.files", "2026-08", "2026-08-31", "2026-09-01T03:00:00Z"});
    host.SetRelease("demo.other", "other-1");
    ASSERT_TRUE(host.LatestRelease("demo.files"));
    EXPECT_EQ(host.LatestRelease("demo.files")->label, "2026-08");
    EXPECT_EQ(host.LatestRelease("demo.files")->as_of, "2026-08-31");
    EXPECT_EQ(host.LatestRelease("demo.other")->label, "other-1");
    EXPECT_FALSE(host.LatestRelease("demo.other")->as_of);

    host.SetRelease("demo.files", "2026-09");
    EXPECT_EQ(host.LatestRelease("demo.files")->label, "2026-09");
    host.ClearRelease("demo.files");
    EXPECT_FALSE(host.LatestRelease("demo.files"));
    EXPECT_FALSE(host.LatestRelease("demo.unknown"));
}

class Counter : public Service {
public:
    static constexpr std::string_view kServiceName = "demo.counter";
    static constexpr std::string_view kServiceIdentity = "00000000000000aa";
    virtual int Count() const { return 3; }
};

TEST(FakeServicesTest, HandsOutWhatWasAddedUnderItsNameAndIdentity) {
    FakeServices services;
    services.Add<Counter>(std::make_shared<const Counter>());
    EXPECT_EQ(services.Get<Counter>().Count(), 3);
}

TEST(FakeServicesTest, RefusesAMissingServiceOrAnotherIdentity) {
    FakeServices services;
    try {
        services.Get<Counter>();
        FAIL() << "expected ServiceError";
    } catch (const ServiceError& e) {
        EXPECT_THAT(e.what(),
                    HasSubstr("service 'demo.counter' is not offered to this test (offered: none)"));
    }
    services.AddService("demo.counter", "00000000000000bb", std::make_shared<const Counter>());
    try {
        services.Get<Counter>();
        FAIL() << "expected ServiceError";
    } catch (const ServiceError& e) {
        EXPECT_THAT(
            e.what(),
            HasSubstr("identity 00000000000000bb, but the caller was built against 00000000000000aa"));
    }
}

}  // namespace
}  // namespace lastro::sdk::testing
