// A plugin that builds on funds (plugins/funds/tests/client_plugin, "fundsclient"): it requires
// funds, finds registry entries through the funds.locator service, and keeps a dataset derived
// from cvm.inf_mensal_fidc through the funds.fidc_monthly_facts service, rebuilt by the host in
// the transaction of each FIDC ingest for exactly the months it carried (docs/plugins.md).
#include "funds_fixture.hpp"

#include <lastro/funds/testing/cvm_files.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <sstream>
#include <thread>

namespace lastro::funds::e2e {
namespace {

namespace fs = std::filesystem;

class PluginsOnPluginsTest : public BackendTest<PluginsOnPluginsTest> {
public:
    static constexpr const char* kLabel = "fundsclient";
    // fundsclient beside the build's plugins; it writes no sample, so it shares funds'.
    static DeploymentOptions Options() {
        return {.plugin_dirs = {LASTRO_PLUGIN_DIR, LASTRO_FUNDSCLIENT_DIR},
                .sample_plugin_dirs = {LASTRO_PLUGIN_DIR}};
    }
};

boost::json::object DataOf(const HttpResponse& r) {
    return boost::json::parse(r.body).as_object().at("data").as_object();
}

TEST_P(PluginsOnPluginsTest, TheDerivedTotalsAgreeWithTheFilesForEveryMonth) {
    const SampleFidcReports files(D().SampleDir());
    const std::string key = D().RoomyKey();
    ASSERT_FALSE(files.Months().empty());
    for (const std::string& month : files.Months()) {
        SCOPED_TRACE(month);
        std::int64_t reports = 0, nav_missing = 0;
        std::optional<double> nav_total;
        for (const std::string& cnpj : files.Cnpjs()) {
            const auto row = files.Row("IV", cnpj, month);
            if (!row) {
                continue;
            }
            ++reports;
            if (const auto nav = Number(*row, "TAB_IV_A_VL_PL")) {
                nav_total = nav_total.value_or(0.0) + *nav;
            } else {
                ++nav_missing;
            }
        }
        const HttpResponse r = D().Get("/v1/test/fundsclient/totals?month=" + month, key);
        ASSERT_EQ(r.status, 200) << r.Describe();
        const boost::json::object data = DataOf(r);
        EXPECT_EQ(data.at("reports").as_int64(), reports) << r.Describe();
        EXPECT_EQ(data.at("nav_missing").as_int64(), nav_missing) << r.Describe();
        if (nav_total) {
            const double served = data.at("nav_total_brl").to_number<double>();
            EXPECT_LE(std::fabs(served - *nav_total), 0.005 + std::fabs(*nav_total) * 1e-12) << r.Describe();
        } else {
            EXPECT_TRUE(data.at("nav_total_brl").is_null()) << r.Describe();
        }
    }
    // A month no file carries has no totals: 404, never zeros.
    EXPECT_EQ(D().Get("/v1/test/fundsclient/totals?month=1999-01", key).status, 404);
}

TEST_P(PluginsOnPluginsTest, TheLocatorServiceFindsWhatResolveFinds) {
    const std::string key = D().RoomyKey();
    const auto funds = D().AllItems("/v1/fundos", "", 100);
    ASSERT_FALSE(funds.empty());
    int checked = 0;
    for (const auto& fund : funds) {
        const std::string cnpj(fund.at("cnpj").as_string());
        const HttpResponse resolved = D().Get("/v1/resolve?cnpj=" + cnpj, key);
        const HttpResponse located = D().Get("/v1/test/fundsclient/locate?cnpj=" + cnpj, key);
        ASSERT_EQ(resolved.status, 200) << resolved.Describe();
        ASSERT_EQ(located.status, 200) << located.Describe();
        const boost::json::object resolve_data = DataOf(resolved);
        const boost::json::object locate_data = DataOf(located);
        boost::json::array fund_ids, class_ids;
        for (const auto& f : resolve_data.at("funds").as_array()) {
            fund_ids.push_back(f.as_object().at("fund_id"));
        }
        for (const auto& c : resolve_data.at("classes").as_array()) {
            class_ids.push_back(c.as_object().at("class_id"));
        }
        EXPECT_EQ(locate_data.at("fund_ids").as_array(), fund_ids) << cnpj;
        EXPECT_EQ(locate_data.at("class_ids").as_array(), class_ids) << cnpj;
        if (++checked == 20) {
            break;
        }
    }
    EXPECT_EQ(D().Get("/v1/test/fundsclient/locate?cnpj=11222333000181", key).status, 404);
}

TEST_P(PluginsOnPluginsTest, ARepublishedMonthRebuildsExactlyThatMonthInTheSameIngest) {
    const std::vector<std::string> zips = D().SampleFiles("inf_mensal_fidc_", ".zip");
    const std::string last = zips.back();  // inf_mensal_fidc_YYYYMM.zip
    const std::string month = last.substr(16, 4) + "-" + last.substr(20, 2);
    const CommandResult ingest =
        D().Lastro({"ingest", "cvm.inf_mensal_fidc", (D().SampleDir() / last).string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    EXPECT_NE(ingest.err.find("cvm.inf_mensal_fidc: release " + month), std::string::npos)
        << ingest.Describe();
    // The source's summary, its notices (the sample's repeated series labels), then the derived
    // dataset's summary.
    const std::size_t source = ingest.err.find("; periods: " + month + "\n");
    EXPECT_NE(source, std::string::npos) << ingest.Describe();
    EXPECT_NE(ingest.err.find(
                  "\nfundsclient.monthly_totals: derived from cvm.inf_mensal_fidc, release " + month, source),
              std::string::npos)
        << ingest.Describe();
    EXPECT_NE(ingest.err.find("0 removed, 0 rejected; periods: " + month + "\n"), std::string::npos)
        << ingest.Describe();

    // The derived dataset cannot be ingested from files; `lastro derive` rebuilds it whole.
    const CommandResult refused = D().Lastro({"ingest", "fundsclient.monthly_totals", last});
    EXPECT_NE(refused.exit_code, 0);
    EXPECT_NE(
        refused.err.find("lastro: dataset 'fundsclient.monthly_totals' is derived from cvm.inf_mensal_fidc: "
                         "it is rebuilt when its source is ingested"),
        std::string::npos)
        << refused.Describe();
    const CommandResult derived = D().Lastro({"derive", "fundsclient.monthly_totals"});
    ASSERT_EQ(derived.exit_code, 0) << derived.Describe();
    EXPECT_NE(derived.err.find("fundsclient.monthly_totals: derived from cvm.inf_mensal_fidc"),
              std::string::npos)
        << derived.Describe();
    const std::string first_month = *SampleFidcReports(D().SampleDir()).Months().begin();
    EXPECT_NE(derived.err.find("periods: " + first_month + ", "), std::string::npos) << derived.Describe();
}

TEST_P(PluginsOnPluginsTest, AFailedDerivationUndoesTheSourceIngestWithIt) {
    const std::string key = D().RoomyKey();
    const fs::path original = D().SampleDir() / D().SampleFiles("inf_mensal_fidc_", ".zip").back();
    const std::string name = original.filename().string();
    const std::string month = name.substr(16, 4) + "-" + name.substr(20, 2);
    const std::string target = "/v1/test/fundsclient/totals?month=" + month;
    const auto totals = [&] {
        const HttpResponse r = D().Get(target, key);
        EXPECT_EQ(r.status, 200) << r.Describe();
        return DataOf(r);
    };
    const boost::json::object before = totals();

    // The month republished with one filer's net worth a million higher: a filer with one line
    // in table IV, so that the duplicate rule keeps it.
    auto [members, cnpj] = RaiseOneNetWorth(original, 1000000.0, [](double) { return true; });
    ASSERT_FALSE(cnpj.empty()) << "no single-line filer with a net worth in " << original;
    const fs::path republished = D().Dir() / "republished-fail" / name;
    fs::create_directories(republished.parent_path());
    {
        sdk::ZipWriter zip(republished);
        for (auto& [member, bytes] : members) {
            zip.Add(member, bytes, std::time(nullptr));
        }
        zip.Close();
    }

    // The derivation fails: nothing of the ingest stays, the source's new numbers included.
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // a rebuild would move derived_at
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + D().ConfigFile().string(), "LASTRO_FUNDSCLIENT_FAIL_MONTH=" + month};
    const CommandResult failed = RunCommand(
        {BinaryPath("lastro").string(), "ingest", "cvm.inf_mensal_fidc", republished.string()}, options);
    EXPECT_NE(failed.exit_code, 0) << failed.Describe();
    EXPECT_NE(
        failed.err.find("lastro: deriving fundsclient.monthly_totals from cvm.inf_mensal_fidc failed, so "
                        "nothing was ingested: asked to fail on " +
                        month),
        std::string::npos)
        << failed.Describe();
    EXPECT_EQ(totals(), before);
    // Rebuilt from the source as it stands, the totals are the same: the source was not changed.
    const CommandResult derived = D().Lastro({"derive", "fundsclient.monthly_totals"});
    ASSERT_EQ(derived.exit_code, 0) << derived.Describe();
    const boost::json::object rebuilt = totals();
    EXPECT_EQ(rebuilt.at("nav_total_brl"), before.at("nav_total_brl"));
    EXPECT_EQ(rebuilt.at("reports"), before.at("reports"));

    // Without the failure the same file does change the totals; then the sample's own file again.
    const CommandResult ingested = D().Lastro({"ingest", "cvm.inf_mensal_fidc", republished.string()});
    ASSERT_EQ(ingested.exit_code, 0) << ingested.Describe();
    const double moved =
        totals().at("nav_total_brl").to_number<double>() - before.at("nav_total_brl").to_number<double>();
    EXPECT_NEAR(moved, 1000000.0, 0.01);
    const CommandResult restored = D().Lastro({"ingest", "cvm.inf_mensal_fidc", original.string()});
    ASSERT_EQ(restored.exit_code, 0) << restored.Describe();
    EXPECT_EQ(totals().at("nav_total_brl"), before.at("nav_total_brl"));
}

TEST_P(PluginsOnPluginsTest, LastroPluginsShowsRequirementsServicesAndDerivedDatasets) {
    const CommandResult listed = D().Lastro({"plugins"});
    ASSERT_EQ(listed.exit_code, 0) << listed.Describe();
    EXPECT_LT(listed.out.find("funds 1.0.0"), listed.out.find("fundsclient 1.0.0")) << listed.out;
    EXPECT_NE(listed.out.find("  requires  funds                  ^1.0.0"), std::string::npos) << listed.out;
    EXPECT_NE(listed.out.find("  service   funds.locator"), std::string::npos) << listed.out;
    EXPECT_NE(listed.out.find("  service   funds.fidc_monthly_facts"), std::string::npos) << listed.out;
    EXPECT_NE(listed.out.find("(derived from cvm.inf_mensal_fidc)"), std::string::npos) << listed.out;
}

INSTANTIATE_TEST_SUITE_P(Sqlite, PluginsOnPluginsTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, PluginsOnPluginsTest, ::testing::Values(Backend::kPostgres),
                         BackendParamName);

}  // namespace
}  // namespace lastro::funds::e2e
