// `lastro sync` (docs/sync.md) against a stand-in origin on loopback (tests/sync_origin.py)
// that serves the sample's files in their real formats and misbehaves on purpose: it never
// touches the public internet.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/process.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace lastro::e2e {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRegistryPath = "/dados/FI/CAD/DADOS/registro_fundo_classe.zip";

// The stand-in origin, started on a port the kernel picks; `Script` says how it answers.
class Origin {
public:
    explicit Origin(const fs::path& dir) : script_(dir / "origin-script.json"), log_(dir / "origin.log") {
        Script(boost::json::object{});
        std::ofstream(log_, std::ios::trunc).flush();
        process_ =
            ChildProcess::Start({"/usr/bin/python3", std::string(LASTRO_SOURCE_DIR) + "/tests/sync_origin.py",
                                 script_.string(), log_.string()});
        const auto line = process_->WaitForLine([](std::string_view l) { return l.rfind("PORT ", 0) == 0; },
                                                std::chrono::seconds(20));
        if (!line) {
            throw std::runtime_error("the origin did not start:\n" + process_->Output());
        }
        port_ = line->substr(5);
    }
    ~Origin() { process_->Kill(); }

    void Script(const boost::json::object& answers) const {
        std::ofstream(script_, std::ios::trunc) << boost::json::serialize(answers);
    }
    std::string Url() const { return "http://127.0.0.1:" + port_; }
    // The requests it received, one "<path> <If-None-Match>" line each.
    std::string Log() const { return ReadFile(log_); }

private:
    fs::path script_, log_;
    std::string port_;
    std::unique_ptr<ChildProcess> process_;
};

class SyncTest : public BackendTest<SyncTest> {
public:
    static constexpr const char* kLabel = "sync";
    static DeploymentOptions Options() { return HostOptions(); }

protected:
    // `lastro sync ARGS` with the CVM origin replaced by the stand-in, short waits.
    CommandResult Sync(const Origin& origin, const std::vector<std::string>& args, int timeout_s = 10) {
        const fs::path config = D().WriteConfig(
            "sync.yaml", D().Dir() / "sync-access.log",
            "sync:\n  origins: {\"https://dados.cvm.gov.br\": \"" + origin.Url() +
                "\"}\n  attempts: 3\n  backoff_ms: 10\n  timeout_s: " + std::to_string(timeout_s) + "\n");
        std::vector<std::string> argv{BinaryPath("lastro").string(), "sync"};
        argv.insert(argv.end(), args.begin(), args.end());
        CommandOptions options;
        options.env = {"LASTRO_CONFIG=" + config.string()};
        return RunCommand(argv, options);
    }

    std::string Release(const std::string& key) {
        const boost::json::value body = D().Get("/v1/fundos?limit=1", key).Json();
        return boost::json::serialize(body.at("meta").at("data_release"));
    }

    boost::json::object File(const std::string& etag) {
        return {{"file", (D().SampleDir() / "registro_fundo_classe.zip").string()}, {"etag", etag}};
    }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, SyncTest, ::testing::Values(Backend::kSqlite), BackendParamName);

TEST_P(SyncTest, FetchesRetriesThenAsksConditionallyAndIngestsOnlyWhatChanged) {
    fs::remove_all(D().Dir() / "var" / "sync");
    Origin origin(D().Dir());
    // A 503 with Retry-After first: retried, then the file.
    origin.Script(
        {{kRegistryPath, boost::json::array{{{"status", 503}, {"retry_after", 1}}, File("\"v1\"")}}});
    const CommandResult first = Sync(origin, {"cvm.registro_fundo_classe"});
    ASSERT_EQ(first.exit_code, 0) << first.Describe();
    EXPECT_NE(first.err.find("registro_fundo_classe.zip: fetched ("), std::string::npos) << first.err;
    EXPECT_NE(first.err.find("2 attempts)"), std::string::npos) << first.err;
    EXPECT_NE(first.err.find("cvm.registro_fundo_classe: release registro-"), std::string::npos) << first.err;
    EXPECT_NE(first.err.find("sync: 1 fetched, 0 unchanged, 0 not published, 0 failed"), std::string::npos);

    // Again: a conditional request, 304, nothing ingested.
    const CommandResult second = Sync(origin, {"cvm.registro_fundo_classe"});
    ASSERT_EQ(second.exit_code, 0) << second.Describe();
    EXPECT_NE(second.err.find("registro_fundo_classe.zip: unchanged (304)"), std::string::npos) << second.err;
    EXPECT_EQ(second.err.find("release registro-"), std::string::npos) << second.err;
    EXPECT_NE(origin.Log().find(std::string(kRegistryPath) + " \"v1\""), std::string::npos) << origin.Log();

    // A new ETag but the same bytes (an origin that ignores validators): nothing ingested.
    origin.Script({{kRegistryPath, boost::json::array{File("\"v2\"")}}});
    const CommandResult third = Sync(origin, {"cvm.registro_fundo_classe"});
    ASSERT_EQ(third.exit_code, 0) << third.Describe();
    EXPECT_NE(third.err.find("unchanged (same bytes)"), std::string::npos) << third.err;
    EXPECT_EQ(third.err.find("release registro-"), std::string::npos) << third.err;
}

TEST_P(SyncTest, AMisbehavingOriginChangesNothingAndIsNamed) {
    const std::string key = D().RoomyKey();
    const std::string release = Release(key);
    Origin origin(D().Dir());
    const fs::path zip = D().SampleDir() / "registro_fundo_classe.zip";
    struct Case {
        boost::json::object answer;
        std::string says;
    };
    const std::vector<Case> cases = {
        {{{"truncate", true}, {"file", zip.string()}}, "after 3 attempts"},
        {{{"html", true}}, "the answer is an HTML page (text/html), not the file after 3 attempts"},
        {{{"status", 500}}, "HTTP 500 after 3 attempts"},
        {{{"sleep", 3}, {"file", zip.string()}}, "timed out"},  // libcurl: "Operation timed out after ..."
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(boost::json::serialize(c.answer));
        origin.Script({{kRegistryPath, boost::json::array{c.answer}}});
        fs::remove_all(D().Dir() / "var" / "sync");
        const CommandResult r = Sync(origin, {"cvm.registro_fundo_classe"}, 1);
        EXPECT_EQ(r.exit_code, 1) << r.Describe();
        EXPECT_NE(r.err.find("lastro: cvm.registro_fundo_classe: https://dados.cvm.gov.br" +
                             std::string(kRegistryPath) + " (from " + origin.Url()),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("release registro-"), std::string::npos) << "nothing ingested\n" << r.err;
        EXPECT_FALSE(fs::exists(D().Dir() / "var" / "sync" / "cvm.registro_fundo_classe" /
                                "registro_fundo_classe.zip"))
            << "no partial file kept";
    }
    EXPECT_EQ(Release(key), release);

    // A zip, but not the dataset's: the ingest refuses it whole, and the next run tries again.
    const fs::path other = D().SampleDir() / D().SampleFiles("cda_fi_", ".zip").front();
    origin.Script({{kRegistryPath, boost::json::array{{{"file", other.string()}, {"etag", "\"x\""}}}}});
    fs::remove_all(D().Dir() / "var" / "sync");
    const CommandResult refused = Sync(origin, {"cvm.registro_fundo_classe"});
    EXPECT_EQ(refused.exit_code, 1) << refused.Describe();
    EXPECT_NE(
        refused.err.find("lastro: cvm.registro_fundo_classe: ingest failed, nothing of it was written: "),
        std::string::npos)
        << refused.err;
    EXPECT_EQ(Release(key), release);
    const CommandResult again = Sync(origin, {"cvm.registro_fundo_classe"});
    EXPECT_NE(again.err.find("registro_fundo_classe.zip: fetched ("), std::string::npos)
        << "not remembered as synced\n"
        << again.err;

    // Never published (404 on every attempt): said, and not a failure of the run.
    origin.Script({});
    const CommandResult missing = Sync(origin, {"cvm.registro_fundo_classe"});
    EXPECT_EQ(missing.exit_code, 0) << missing.Describe();
    EXPECT_NE(missing.err.find("registro_fundo_classe.zip: not published (404, 3 attempts)"),
              std::string::npos)
        << missing.err;
}

TEST_P(SyncTest, DatasetsThatCannotBeSyncedAreRefusedBeforeAnyFetch) {
    Origin origin(D().Dir());
    const CommandResult unknown = Sync(origin, {"cvm.nada"});
    EXPECT_EQ(unknown.exit_code, 1);
    EXPECT_NE(unknown.err.find("lastro: cvm.nada: no loaded plugin declares this dataset"), std::string::npos)
        << unknown.err;
    const CommandResult manual = Sync(origin, {"anbima.subclasses"});
    EXPECT_EQ(manual.exit_code, 1);
    EXPECT_NE(manual.err.find("lastro: anbima.subclasses: its manifest declares no sync:"), std::string::npos)
        << manual.err;
    EXPECT_EQ(origin.Log(), "") << "nothing was fetched";
}

// SGS answers at most 10 years of a daily series a request (406 beyond): a dataset whose URL
// has {FROM} and {TO} is fetched in windows, each file kept under its own name.
class SyncWindowTest : public BackendTest<SyncWindowTest> {
public:
    static constexpr const char* kLabel = "sync-window";
    static DeploymentOptions Options() {
        return {.plugin_dirs = {LASTRO_PLUGIN_DIR, LASTRO_WINDOW_PLUGIN_DIR},
                .sample_plugin_dirs = {LASTRO_PLUGIN_DIR}};
    }

protected:
    CommandResult Sync(const Origin& origin) {
        const fs::path config =
            D().WriteConfig("sync-window.yaml", D().Dir() / "sync-window-access.log",
                            "sync:\n  origins: {\"https://api.bcb.gov.br\": \"" + origin.Url() +
                                "\"}\n  attempts: 2\n  backoff_ms: 10\n  timeout_s: 10\n");
        CommandOptions options;
        options.env = {"LASTRO_CONFIG=" + config.string()};
        return RunCommand({BinaryPath("lastro").string(), "sync", "good.things"}, options);
    }

    // A window's answer in SGS' shape, one observation.
    boost::json::object Observations(const std::string& name, const std::string& date,
                                     const std::string& value) {
        const fs::path file = D().Dir() / name;
        std::ofstream(file, std::ios::trunc)
            << "[{\"data\":\"" << date << "\",\"valor\":\"" << value << "\"}]";
        return {{"file", file.string()}};
    }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, SyncWindowTest, ::testing::Values(Backend::kSqlite), BackendParamName);

TEST_P(SyncWindowTest, FetchesADailySeriesInTenYearWindowsAndKeepsEachOnce) {
    const fs::path kept = D().Dir() / "var" / "sync" / "good.things";
    fs::remove_all(D().Dir() / "var" / "sync");
    Origin origin(D().Dir());
    const std::string path = "/dados/serie/bcdata.sgs.12/dados?formato=json&dataInicial=";
    const std::string first = path + "03/01/2000&dataFinal=02/01/2010";
    const std::string second = path + "03/01/2010&dataFinal=02/01/2020";
    const std::string open = path + "03/01/2020&dataFinal=*";  // ends today
    // The first window has no observation (SGS: 404), the others one each.
    origin.Script({{second, boost::json::array{Observations("w2.json", "04/01/2010", "0.036")}},
                   {open, boost::json::array{Observations("w3.json", "03/01/2020", "0.017")}}});
    const CommandResult r = Sync(origin);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_NE(r.err.find("dataInicial=03/01/2000&dataFinal=02/01/2010: not published (404, 2 attempts)"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("dataInicial=03/01/2010&dataFinal=02/01/2020: fetched ("), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("good.things: release"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("sync: 2 fetched, 0 unchanged, 1 not published, 0 failed"), std::string::npos)
        << r.err;
    EXPECT_EQ(ReadFile(kept / "dados_20100103_20200102.json"), ReadFile(D().Dir() / "w2.json"));
    EXPECT_EQ(ReadFile(kept / "dados_20200103_open.json"), ReadFile(D().Dir() / "w3.json"));
    // Every window asked, none longer than the origin allows, none asked over a whole range.
    const std::string log = origin.Log();
    EXPECT_NE(log.find(first + " -"), std::string::npos) << log;
    EXPECT_NE(log.find(second + " -"), std::string::npos) << log;
    EXPECT_EQ(log.find("dataInicial=03/01/2000&dataFinal=" + open.substr(open.size() - 1)),
              std::string::npos);

    // Again, the same bytes: nothing ingested. Then the window that ends today grows.
    const CommandResult same = Sync(origin);
    ASSERT_EQ(same.exit_code, 0) << same.Describe();
    EXPECT_NE(same.err.find("sync: 0 fetched, 2 unchanged, 1 not published, 0 failed"), std::string::npos)
        << same.err;
    EXPECT_EQ(same.err.find("good.things: release"), std::string::npos) << same.err;
    origin.Script({{second, boost::json::array{Observations("w2.json", "04/01/2010", "0.036")}},
                   {open, boost::json::array{Observations("w3b.json", "06/01/2020", "0.018")}}});
    const CommandResult grown = Sync(origin);
    ASSERT_EQ(grown.exit_code, 0) << grown.Describe();
    EXPECT_NE(grown.err.find("sync: 1 fetched, 1 unchanged, 1 not published, 0 failed"), std::string::npos)
        << grown.err;
    EXPECT_EQ(ReadFile(kept / "dados_20200103_open.json"), ReadFile(D().Dir() / "w3b.json"));

    // The origin refuses a window (SGS' 406 with its JSON error), or answers a page where JSON
    // was expected: a failure named with what the origin said, and nothing ingested.
    origin.Script({{second, boost::json::array{{{"status", 406},
                                                {"json",
                                                 {{"error",
                                                   "O sistema aceita uma janela de consulta de, no maximo, "
                                                   "10 anos"}}}}}},
                   {open, boost::json::array{{{"html", true}}}}});
    const CommandResult refused = Sync(origin);
    EXPECT_EQ(refused.exit_code, 1) << refused.Describe();
    EXPECT_NE(
        refused.err.find("dataFinal=02/01/2020): HTTP 406 (\"O sistema aceita uma janela de consulta de, no "
                         "maximo, 10 anos\") after 1 attempt"),
        std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find("the answer is an HTML page (text/html), not the file after 2 attempts"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(refused.err.find("good.things: release"), std::string::npos) << refused.err;
    EXPECT_EQ(ReadFile(kept / "dados_20200103_open.json"), ReadFile(D().Dir() / "w3b.json")) << "kept whole";
}

// The series plugin's own declaration (plugins/series/manifest.yaml): the IPCA asked from 1980 in
// 10-year windows, each answered with the real SGS history's months of that window
// (../shared/datasets/real/bcb_sgs), ingested as the files are kept, then served: IBGE's 4.62 %
// for 2023 from the synced months.
TEST_P(SyncWindowTest, TheSeriesPluginsIpcaSyncsItsWholeHistoryWindowByWindow) {
    Origin origin(D().Dir());
    std::ifstream in(fs::path(LASTRO_SOURCE_DIR) /
                     "../shared/datasets/real/bcb_sgs/sgs433_ipca_monthly_1980-2026.json");
    const boost::json::array history =
        boost::json::parse(std::string(std::istreambuf_iterator<char>(in), {})).as_array();
    const std::string path = "/dados/serie/bcdata.sgs.433/dados?formato=json&dataInicial=";
    boost::json::object script;
    std::size_t served = 0;
    for (int start = 1980; start <= 2020; start += 10) {
        boost::json::array months;
        for (const boost::json::value& month : history) {
            const int year = std::stoi(std::string(month.at("data").as_string()).substr(6));
            if (year >= start && year < start + 10) {
                months.push_back(month);
            }
        }
        served += months.size();
        const std::string name = "ipca_" + std::to_string(start) + ".json";
        std::ofstream(D().Dir() / name, std::ios::trunc) << boost::json::serialize(months);
        const std::string window = path + "01/01/" + std::to_string(start) + "&dataFinal=" +
                                   (start == 2020 ? std::string("*") : "31/12/" + std::to_string(start + 9));
        script[window] = boost::json::array{{{"file", (D().Dir() / name).string()}}};
    }
    origin.Script(script);
    const fs::path config =
        D().WriteConfig("sync-ipca.yaml", D().Dir() / "sync-ipca-access.log",
                        "sync:\n  origins: {\"https://api.bcb.gov.br\": \"" + origin.Url() +
                            "\"}\n  attempts: 2\n  backoff_ms: 10\n  timeout_s: 10\n");
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config.string()};
    const CommandResult r = RunCommand({BinaryPath("lastro").string(), "sync", "bcb.sgs.433"}, options);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_NE(r.err.find("sync: 5 fetched, 0 unchanged, 0 not published, 0 failed"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("bcb.sgs.433: release sgs-433-"), std::string::npos) << r.err;
    EXPECT_EQ(served, 557u);

    // lastrod serves what the sync wrote (the sample's invented months replaced by the real ones).
    const std::string key = D().CreateKey({100, 100, "", ""});
    HttpResponse year = D().Get("/v1/macroeconomia/433?frequency=yearly&from_date=2023&to_date=2023", key);
    ASSERT_EQ(year.status, 200) << year.Describe();
    EXPECT_NE(year.body.find("\"value\":4.62111393,"), std::string::npos) << year.body;
    HttpResponse first = D().Get("/v1/macroeconomia/433?limit=1", key);
    EXPECT_NE(first.body.find("\"date\":\"1980-01-01\",\"period\":\"1980-01\",\"value\":6.62,"),
              std::string::npos)
        << first.body;
}

}  // namespace
}  // namespace lastro::e2e
