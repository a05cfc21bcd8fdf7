// GET /metrics (docs/operations.md): a lastrod with metrics.listen set answers Prometheus' text
// format on that address, and its counters follow the calls it answered.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/http_client.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>

namespace lastro::e2e {
namespace {

namespace fs = std::filesystem;

TEST_P(ApiTest, MetricsCountAnswersCreditsAndDataOnTheirOwnAddress) {
    // A lastrod of its own with metrics on; on SQLite (one lastrod per database) the fixture's
    // steps aside meanwhile.
    const auto aside = D().SetServerAsideOnSqlite();
    const fs::path config = D().WriteConfig("metrics.yaml", D().Dir() / "metrics-access.log",
                                            "metrics:\n  listen: 127.0.0.1:0\n");
    std::unique_ptr<Lastrod> server = Lastrod::Start(config);
    HttpClient metrics(MetricsPort(*server));

    // An ingest that fails (a file that is not the dataset's) and a sync whose origin refuses
    // the connection leave no release: the metrics count them all the same.
    const fs::path wrong = D().Dir() / "registro_fundo_classe.zip";
    std::ofstream(wrong, std::ios::trunc) << "not a zip";
    ASSERT_NE(D().Lastro({"ingest", kRegistryDataset, wrong.string()}).exit_code, 0);
    const fs::path unreachable = D().WriteConfig(
        "metrics-sync.yaml", D().Dir() / "metrics-sync-access.log",
        "sync:\n  origins: {\"https://dados.cvm.gov.br\": \"http://127.0.0.1:1\"}\n  attempts: 1\n");
    CommandOptions sync_env;
    sync_env.env = {"LASTRO_CONFIG=" + unreachable.string()};
    ASSERT_EQ(RunCommand({BinaryPath("lastro").string(), "sync", kRegistryDataset}, sync_env).exit_code, 1);

    const std::string key = D().RoomyKey();
    HttpClient api(server->Port());
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(api.Get("/v1/fundos?limit=1", key).status, 200);
    }
    ASSERT_EQ(api.Get("/v1/fundos?limit=0", key).status, 422);  // refunded
    ASSERT_EQ(api.Get("/health").status, 200);
    ASSERT_EQ(api.Get("/v1/nada/de/nada", key).status, 404);

    const HttpResponse scraped = metrics.Get("/metrics");
    ASSERT_EQ(scraped.status, 200) << scraped.Describe();
    EXPECT_NE(scraped.Header("Content-Type").value_or("").find("text/plain"), std::string::npos);
    const std::map<std::string, double> s = MetricSamples(scraped.body);
    const auto at = [&](const std::string& name) {
        auto it = s.find(name);
        return it == s.end() ? -1.0 : it->second;
    };
    EXPECT_EQ(at(R"(lastro_http_requests_total{operation="funds.search",status="200"})"), 3) << scraped.body;
    EXPECT_EQ(at(R"(lastro_http_requests_total{operation="funds.search",status="422"})"), 1);
    EXPECT_EQ(at(R"(lastro_http_requests_total{operation="health",status="200"})"), 1);
    EXPECT_EQ(at(R"(lastro_http_requests_total{operation="unmatched",status="404"})"), 1)
        << "a path that no operation serves never becomes a label";
    EXPECT_EQ(at(R"(lastro_http_request_duration_seconds_count{operation="funds.search"})"), 4);
    EXPECT_EQ(at(R"(lastro_credits_charged_total{operation="funds.search"})"), 3);
    EXPECT_EQ(at(R"(lastro_credits_refunded_total{operation="funds.search"})"), 1);
    EXPECT_GE(at("lastro_ledger_batch_calls_count"), 1);
    EXPECT_GE(at("lastro_ledger_commit_duration_seconds_count"), 1);
    // The data's freshness, from the release catalog the sample's ingest filled.
    EXPECT_EQ(at("lastro_database_up"), 1);
    EXPECT_GE(at(std::string(R"(lastro_dataset_releases_total{dataset=")") + kRegistryDataset + "\"}"), 1);
    EXPECT_GT(at(std::string(R"(lastro_dataset_last_ingest_timestamp_seconds{dataset=")") + kRegistryDataset +
                 "\"}"),
              1.7e9);
    EXPECT_GE(at(std::string(R"(lastro_ingest_failures_total{dataset=")") + kRegistryDataset + "\"}"), 1)
        << scraped.body;
    EXPECT_GT(at(std::string(R"(lastro_dataset_last_ingest_failure_timestamp_seconds{dataset=")") +
                 kRegistryDataset + "\"}"),
              1.7e9);
    EXPECT_GE(
        at(std::string(R"(lastro_sync_files_total{dataset=")") + kRegistryDataset + R"(",outcome="failed"})"),
        1);
    // Nothing of it on the API's own address.
    EXPECT_EQ(api.Get("/metrics").status, 404);

    EXPECT_EQ(server->Terminate(std::chrono::seconds(15)), 0) << server->Process().Output();
}

TEST_P(ApiTest, AMetricsAddressThatCannotBeBoundStopsTheStartNamingIt) {
    const auto aside = D().SetServerAsideOnSqlite();
    const fs::path config = D().WriteConfig("bad-metrics.yaml", D().Dir() / "bad-metrics-access.log",
                                            "metrics:\n  listen: 192.0.2.1:9464\n");
    try {
        Lastrod::Start(config);
        FAIL() << "lastrod started with a metrics address it cannot bind";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("lastrod: metrics.listen 192.0.2.1:9464: cannot listen"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace lastro::e2e
