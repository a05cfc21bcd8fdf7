// The monthly allowance starts afresh at 00:00 UTC on the 1st (docs/billing.md), tested with a
// lastrod whose billing clock starts just before midnight at the end of a month
// (LASTRO_TEST_CLOCK, core/billing/wall_clock.hpp; libfaketime's LD_PRELOAD hangs lastrod's
// threads at start, so the clock is lastrod's own); its monotonic clocks stay real.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/ledger.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace lastro::e2e {
namespace {

namespace fs = std::filesystem;

class MonthRolloverTest : public BackendTest<MonthRolloverTest> {
public:
    static constexpr const char* kLabel = "rollover";
    static DeploymentOptions Options() { return HostOptions(); }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, MonthRolloverTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, MonthRolloverTest, ::testing::Values(Backend::kPostgres),
                         BackendParamName);

TEST_P(MonthRolloverTest, TheAllowanceStartsAfreshWhenTheMonthTurns) {
    const CreatedKey key = D().CreateKeyWithId({3, 1000, "", ""});
    const auto aside = D().SetServerAsideOnSqlite();
    const fs::path config = D().WriteConfig("rollover.yaml", D().Dir() / "rollover-access.log");
    // Seconds before the end of 2026-12, once lastrod is up: the year turns too.
    std::unique_ptr<Lastrod> server = Lastrod::Start(config, {"LASTRO_TEST_CLOCK=2026-12-31T23:59:48Z"});
    ASSERT_NE(server->Process().Output().find("LASTRO_TEST_CLOCK: billing's wall clock started at "
                                              "2026-12-31T23:59:48Z"),
              std::string::npos)
        << server->Process().Output();
    HttpClient api(server->Port());

    // December: three calls spend the allowance; the fourth is refused, uncharged.
    for (int i = 0; i < 3; ++i) {
        const HttpResponse r = api.Get("/v1/fundos?limit=1", key.secret);
        ASSERT_EQ(r.status, 200) << r.Describe();
        EXPECT_EQ(r.IntHeader("X-Credits-Reset"), 1798761600) << "2027-01-01T00:00:00Z\n" << r.Describe();
    }
    const HttpResponse spent = api.Get("/v1/fundos?limit=1", key.secret);
    ASSERT_EQ(spent.status, 429) << spent.Describe();
    EXPECT_NE(spent.body.find("Insufficient monthly credits"), std::string::npos) << spent.Describe();
    EXPECT_EQ(spent.IntHeader("X-Credits-Remaining"), 0) << spent.Describe();

    // Until the fake clock passes midnight (bounded), calls stay refused; the
    // first call of January is served against a whole new allowance.
    HttpResponse january = spent;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (january.status == 429 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        january = api.Get("/v1/fundos?limit=1", key.secret);
    }
    ASSERT_EQ(january.status, 200) << january.Describe();
    EXPECT_EQ(january.IntHeader("X-Credits-Charged"), 1) << january.Describe();
    EXPECT_EQ(january.IntHeader("X-Credits-Remaining"), 2) << january.Describe();
    EXPECT_EQ(january.IntHeader("X-Credits-Reset"), 1801440000) << "2027-02-01T00:00:00Z\n"
                                                                << january.Describe();
    EXPECT_EQ(server->Terminate(std::chrono::seconds(15)), 0) << server->Process().Output();

    // The ledger keeps each month apart: three charged in December, one in January.
    const KeyUsage december = ReadKeyUsage(D(), key.id, "2026-12");
    EXPECT_EQ(december.charged, 3);
    EXPECT_EQ(december.ledger_charged, 3);
    EXPECT_EQ(december.reserved, 0);
    const KeyUsage next = ReadKeyUsage(D(), key.id, "2027-01");
    EXPECT_EQ(next.charged, 1);
    EXPECT_EQ(next.ledger_charged, 1);
    EXPECT_EQ(next.reserved, 0);
}

}  // namespace
}  // namespace lastro::e2e
