// The typed clients of clients/ (docs/clients.md), each run by its own test.sh against this real
// lastrod with the sample data: the checked-in generated code must be what the served
// /openapi.json generates (else "run ./dev clients"), its types must check, and its tests call
// every operation once. The clients speak HTTP only, so SQLite alone.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/process.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <string>

namespace lastro::e2e {
namespace {

void RunClientTests(Deployment& d, const std::string& client) {
    TempDir dir("lastro-client-");
    const HttpResponse spec = d.Get("/openapi.json");
    ASSERT_EQ(spec.status, 200) << spec.Describe();
    CommandOptions options;
    options.env = {"LASTRO_BASE_URL=http://127.0.0.1:" + std::to_string(d.Server().Port()),
                   "LASTRO_API_KEY=" + d.RoomyKey(),
                   "LASTRO_OPENAPI=" + dir.Write("openapi.json", spec.body).string()};
    // A first run may install the client's pinned dependencies (npm ci).
    options.timeout = std::chrono::minutes(10);
    const CommandResult r = RunCommand(
        {"/bin/bash", std::string(LASTRO_SOURCE_DIR) + "/clients/" + client + "/test.sh"}, options);
    EXPECT_EQ(r.exit_code, 0) << r.Describe() << "\n--- stdout ---\n" << r.out;
}

TEST_P(ApiTest, TypeScriptClientCallsEveryOperation) {
    if (GetParam() != Backend::kSqlite) {
        GTEST_SKIP() << "the client speaks HTTP: one database is enough";
    }
    RunClientTests(D(), "typescript");
}

TEST_P(ApiTest, PythonClientCallsEveryOperation) {
    if (GetParam() != Backend::kSqlite) {
        GTEST_SKIP() << "the client speaks HTTP: one database is enough";
    }
    RunClientTests(D(), "python");
}

}  // namespace
}  // namespace lastro::e2e
