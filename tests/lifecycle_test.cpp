// What happens around the requests: re-ingesting while serving (stable ids), a damaged
// archive, a bad configuration, and a graceful stop with its access log.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/ledger.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace lastro::e2e {
namespace {

namespace fs = std::filesystem;

class LifecycleTest : public BackendTest<LifecycleTest> {
public:
    static constexpr const char* kLabel = "lifecycle";
    static DeploymentOptions Options() { return HostOptions(); }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, LifecycleTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, LifecycleTest, ::testing::Values(Backend::kPostgres), BackendParamName);

std::vector<std::string> FundIds(const std::vector<boost::json::object>& items) {
    std::vector<std::string> ids;
    for (const auto& item : items) {
        ids.push_back(Str(item, "fund_id"));
    }
    return ids;
}

// The sample's registry archive (the funds plugin's cvm.registro_fundo_classe).
fs::path RegistryZip(const Deployment& d) {
    return d.SampleDir() / "registro_fundo_classe.zip";
}

// Whether a member of an inf_mensal_fidc zip is table X_2 ("inf_mensal_fidc_tab_X_2_YYYYMM.csv").
bool IsTableX2(const std::string& member) {
    constexpr std::string_view kPrefix = "inf_mensal_fidc_tab_X_2_";
    return member.rfind(kPrefix, 0) == 0 &&
           member.size() == kPrefix.size() + std::string_view("YYYYMM.csv").size();
}

// "12345678000195" from a masked or bare CNPJ.
std::string Digits(const std::string& text) {
    std::string digits;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digits.push_back(c);
        }
    }
    return digits;
}

std::vector<std::string> Lines(const std::string& text) {
    std::vector<std::string> lines;
    std::stringstream in(text);
    std::string line;
    for (int i = 0; i < 1000000 && std::getline(in, line); ++i) {
        if (!line.empty()) {
            lines.push_back(line);
        }
    }
    return lines;
}

// The fields of a line of a CVM CSV file (';'-separated, its '\r' dropped), and back.
std::vector<std::string> CsvFields(std::string line) {
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, ';');) {
        fields.push_back(field);
    }
    return fields;
}

std::string CsvLine(const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        line += (i ? ";" : "") + fields[i];
    }
    return line;
}

// Where `name` is in `header`; header.size() when it is not.
std::size_t ColumnOf(const std::vector<std::string>& header, const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

// A zip at `path` (its folder made) of `members`, dated now: a month as CVM publishes it again.
void WriteZip(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& members) {
    fs::create_directories(path.parent_path());
    sdk::ZipWriter zip(path);
    for (const auto& [name, bytes] : members) {
        zip.Add(name, bytes, std::time(nullptr));
    }
    zip.Close();
}

// meta.data_release of a first page.
std::string DataRelease(Deployment& d, const std::string& key) {
    HttpResponse r = d.Get("/v1/fundos?limit=1", key);
    if (r.status != 200) {
        throw std::runtime_error(r.Describe());
    }
    const boost::json::value body = r.Json();
    const boost::json::value& release = body.at("meta").at("data_release");
    return release.is_string() ? std::string(release.get_string()) : "(null)";
}

TEST_P(LifecycleTest, ReingestWhileServingKeepsIdsStable) {
    const std::vector<boost::json::object> items_before = D().AllItems("/v1/fundos");
    const std::vector<std::string> before = FundIds(items_before);
    ASSERT_FALSE(before.empty());
    const std::string key = D().RoomyKey();

    // The same files again, while the server answers pages.
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + D().ConfigFile().string()};
    auto ingest = ChildProcess::Start(
        {BinaryPath("lastro").string(), "ingest", kRegistryDataset, RegistryZip(D()).string()}, options);
    std::vector<std::string> during;
    std::optional<std::string> cursor;
    for (int page = 0; page < 1000; ++page) {
        HttpResponse r = D().Get("/v1/fundos?limit=7" + (cursor ? "&cursor=" + UrlEncode(*cursor) : ""), key);
        ASSERT_TRUE(IsEnvelope(r)) << "page " << page << " while ingesting";
        const boost::json::object body = AsObject(r.Json());
        for (const auto& item : At(body, "data").as_array()) {
            during.push_back(Str(AsObject(item), "fund_id"));
        }
        const boost::json::object& pagination = AsObject(At(AsObject(At(body, "meta")), "pagination"));
        if (!At(pagination, "has_more").as_bool()) {
            break;
        }
        cursor = std::string(At(pagination, "next_cursor").as_string());
    }
    const auto status = ingest->WaitForExit(std::chrono::seconds(120));
    ASSERT_TRUE(status) << "the ingest did not finish";
    ASSERT_EQ(*status, 0) << ingest->Output();

    EXPECT_EQ(std::set<std::string>(during.begin(), during.end()).size(), during.size()) << "a fund twice";
    EXPECT_EQ(std::set<std::string>(during.begin(), during.end()),
              std::set<std::string>(before.begin(), before.end()));
    const std::vector<boost::json::object> items_after = D().AllItems("/v1/fundos");
    EXPECT_EQ(FundIds(items_after), before) << "the same files give the same fund_ids";
    EXPECT_TRUE(items_after == items_before) << "the same files give the same items, class_ids included";
}

// Answers are cached until an ingest commits (docs/performance.md): a month that CVM republishes
// with a corrected number is answered by the very next call, cached before or not.
TEST_P(LifecycleTest, ARepublishedMonthIsAnsweredByTheNextCall) {
    const std::string key = D().RoomyKey();
    const fs::path original = D().SampleDir() / D().SampleFiles("inf_mensal_fidc_", ".zip").back();
    auto members = ZipMemberBytes(original);
    auto x2 = std::find_if(members.begin(), members.end(), [](const auto& m) { return IsTableX2(m.first); });
    ASSERT_NE(x2, members.end()) << original << " has no table X_2";

    // A series of a class that resolves to one class, with a published quota value.
    std::vector<std::string> lines = Lines(x2->second);
    ASSERT_GT(lines.size(), 1u);
    const std::vector<std::string> header = CsvFields(lines[0]);
    auto column = [&](const std::string& name) { return ColumnOf(header, name); };
    const std::size_t value_at = column("TAB_X_VL_COTA"), label_at = column("TAB_X_CLASSE_SERIE"),
                      date_at = column("DT_COMPTC");
    const std::size_t cnpj_at = std::min(column("CNPJ_FUNDO_CLASSE"), column("CNPJ_FUNDO"));
    ASSERT_LT(std::max({value_at, label_at, date_at, cnpj_at}), header.size()) << lines[0];
    std::size_t line_at = 0;
    std::string class_id, label, month;
    double published = 0;
    for (std::size_t i = 1; i < lines.size() && class_id.empty(); ++i) {
        const std::vector<std::string> fields = CsvFields(lines[i]);
        if (fields.size() != header.size() || fields[value_at].empty()) {
            continue;
        }
        const std::string cnpj = Digits(fields[cnpj_at]);
        HttpResponse r = D().Get("/v1/resolve?cnpj=" + cnpj, key);
        if (r.status != 200) {
            continue;
        }
        std::vector<std::string> ids;
        const boost::json::value resolved = r.Json();
        for (const auto& c : AsObject(At(AsObject(resolved), "data")).at("classes").as_array()) {
            if (c.as_object().at("cnpj") == boost::json::value(cnpj)) {
                ids.emplace_back(c.as_object().at("class_id").as_string());
            }
        }
        if (ids.size() == 1) {
            line_at = i;
            class_id = ids[0];
            label = fields[label_at];
            month = fields[date_at].substr(0, 7);
            published = std::stod(fields[value_at]);
        }
    }
    ASSERT_FALSE(class_id.empty()) << "no X_2 row of " << original << " resolves to one class";

    const std::string target = "/v1/classes/" + class_id + "/cotas?from=" + month + "&to=" + month;
    std::string request_id;  // of the last call
    std::string etag;        // of the last call; sent back as If-None-Match when `conditional`
    bool conditional = false;
    auto quota_value = [&]() -> std::optional<double> {
        HttpRequest request;
        request.target = target;
        request.headers = {"Authorization: Bearer " + key};
        if (conditional) {
            request.headers.push_back("If-None-Match: " + etag);
        }
        HttpResponse r = D().Http().Send(request);
        request_id = r.Header("X-Request-Id").value_or("");
        etag = r.Header("ETag").value_or("");
        EXPECT_EQ(r.status, 200) << target << ": " << r.body;
        if (r.status != 200)
            return std::nullopt;
        const boost::json::value body = r.Json();
        for (const auto& row : At(AsObject(body), "data").as_array()) {
            const auto& o = row.as_object();
            if (o.at("series_label") == boost::json::value(sdk::Latin1ToUtf8(label)) &&
                o.at("quota_value_brl").is_number()) {
                return o.at("quota_value_brl").to_number<double>();
            }
        }
        ADD_FAILURE() << target << " lacks series " << label << ": " << r.body;
        return std::nullopt;
    };
    EXPECT_EQ(quota_value(), published);
    const std::string first_etag = etag;
    EXPECT_EQ(quota_value(), published);  // the same answer again, now from the cache
    const std::string cached_call = request_id;
    EXPECT_EQ(etag, first_etag) << "the same data, the same ETag";

    // CVM republishes the month with one corrected quota value.
    std::vector<std::string> fields = CsvFields(lines[line_at]);
    fields[value_at] = "4321.123456";
    std::string corrected_line = CsvLine(fields);
    const std::size_t starts = x2->second.find(lines[line_at]);
    ASSERT_NE(starts, std::string::npos);
    if (lines[line_at].back() == '\r')
        corrected_line += '\r';
    x2->second.replace(starts, lines[line_at].size(), corrected_line);
    const fs::path republished = D().Dir() / "republished" / original.filename();
    WriteZip(republished, members);
    const CommandResult ingest = D().Lastro({"ingest", "cvm.inf_mensal_fidc", republished.string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    // Asked as "has it changed since first_etag?": it has (a 200, not a 304), and its tag with it.
    conditional = true;
    EXPECT_EQ(quota_value(), 4321.123456) << "the call after the ingest answered the replaced month";
    const std::string call_after_ingest = request_id;
    EXPECT_NE(etag, first_etag) << "a new release, a new ETag";
    {
        HttpRequest again;
        again.target = target;
        again.headers = {"Authorization: Bearer " + key, "If-None-Match: " + etag};
        HttpResponse unchanged = D().Http().Send(again);
        EXPECT_EQ(unchanged.status, 304) << "nothing ingested since: " << unchanged.Describe();
    }
    conditional = false;

    // And back to the sample's own file, so that the deployment serves the sample again.
    const CommandResult restore = D().Lastro({"ingest", "cvm.inf_mensal_fidc", original.string()});
    ASSERT_EQ(restore.exit_code, 0) << restore.Describe();
    EXPECT_EQ(quota_value(), published);

    // The cache took part: the access log says the second call was answered from it, and that
    // the call after the ingest first found the answer of the replaced release there (a billed
    // hit reads no release id; its settlement found the newer one, and it was answered anew).
    const std::vector<std::string> log = Lines(ReadFile(D().AccessLog()));
    auto logged = [&](const std::string& call, const std::string& cache) {
        return std::any_of(log.begin(), log.end(), [&](const std::string& line) {
            return line.find(call) != std::string::npos &&
                   line.find("\"cache\":\"" + cache + "\"") != std::string::npos;
        });
    };
    EXPECT_TRUE(logged(cached_call, "hit"))
        << "call " << cached_call << " was not answered from the response cache";
    EXPECT_TRUE(logged(call_after_ingest, "outdated"))
        << "call " << call_after_ingest << " did not meet the replaced release's answer in the cache";
    // Answered anew, it was settled once: one ledger entry, charged, for its final answer.
    std::vector<LedgerEntry> entries;
    for (const LedgerEntry& e : ReadLedger(D(), UtcMonth(std::time(nullptr)))) {
        if (e.request_id == call_after_ingest) {
            entries.push_back(e);
        }
    }
    ASSERT_EQ(entries.size(), 1u) << call_after_ingest;
    EXPECT_EQ(entries[0].state, "charged");
    EXPECT_EQ(entries[0].status, 200);
}

TEST_P(LifecycleTest, TruncatedArchiveIsRefusedAndChangesNothing) {
    const std::string key = D().RoomyKey();
    const auto before = D().AllItems("/v1/fundos");
    const std::string release = DataRelease(D(), key);

    const std::string zip = ReadFile(RegistryZip(D()));
    ASSERT_GT(zip.size(), 100u);
    const fs::path truncated = D().Dir() / "truncated.zip";
    {
        std::ofstream out(truncated, std::ios::binary | std::ios::trunc);
        out.write(zip.data(), static_cast<std::streamsize>(zip.size() / 2));
    }
    CommandResult r = D().Lastro({"ingest", kRegistryDataset, truncated.string()});
    EXPECT_NE(r.exit_code, 0) << r.Describe();
    EXPECT_FALSE(r.timed_out);
    EXPECT_TRUE(r.out.empty()) << r.Describe();
    std::vector<std::string> errors;
    for (const std::string& line : Lines(r.err)) {
        if (line.rfind("lastro:", 0) == 0) {
            errors.push_back(line);
        }
    }
    ASSERT_EQ(errors.size(), 1u) << "one error line\n" << r.Describe();
    EXPECT_NE(errors.front().find(truncated.filename().string()), std::string::npos)
        << "the message names the file\n"
        << r.Describe();
    EXPECT_EQ(Lines(r.err).back(), errors.front()) << "the error is the last word\n" << r.Describe();

    const auto after = D().AllItems("/v1/fundos");
    EXPECT_EQ(after.size(), before.size());
    EXPECT_EQ(FundIds(after), FundIds(before));
    EXPECT_EQ(DataRelease(D(), key), release);
}

// A lastrod of the deployment's with the response cache off, logging to `access_log` (set the
// deployment's own aside first on SQLite).
std::unique_ptr<Lastrod> StartUncached(Deployment& d, const fs::path& access_log) {
    std::string text = d.ConfigText(access_log, d.Instance() + "-uncached");
    const std::string server = "server:\n";
    const std::size_t at = text.find(server);
    if (at == std::string::npos) {
        throw std::runtime_error("no server section in the configuration:\n" + text);
    }
    text.insert(at + server.size(), "  response_cache_mb: 0\n");
    const fs::path config = d.Dir() / "uncached.yaml";
    WriteFile(config, text);
    return Lastrod::Start(config);
}

// Whether a line of the access log at `path` is of call `request_id` and says "cache": `cache`.
bool Logged(const fs::path& path, const std::string& request_id, const std::string& cache) {
    const std::vector<std::string> log = Lines(ReadFile(path));
    return std::any_of(log.begin(), log.end(), [&](const std::string& line) {
        return line.find(request_id) != std::string::npos &&
               line.find("\"cache\":\"" + cache + "\"") != std::string::npos;
    });
}

// With the response cache off, a call on PostgreSQL takes its meta's release from memory
// (ingest::ReleaseCache) and its settlement checks that no ingest committed since: the call after
// an ingest tells the new release, whichever release the server remembered.
TEST_P(LifecycleTest, TheCallAfterAnIngestTellsItsReleaseWithTheResponseCacheOff) {
    const auto aside = D().SetServerAsideOnSqlite();
    std::unique_ptr<Lastrod> lastrod = StartUncached(D(), D().Dir() / "uncached-access.log");
    HttpClient api(lastrod->Port());
    const std::string key = D().RoomyKey();
    // The fund list's meta tells the registry's release, named after its files' date.
    std::string request_id, etag;
    auto release = [&]() -> std::string {
        const HttpResponse r = api.Get("/v1/fundos?limit=1", key);
        request_id = r.Header("X-Request-Id").value_or("");
        etag = r.Header("ETag").value_or("");
        EXPECT_EQ(r.status, 200) << r.body;
        if (r.status != 200)
            return "";
        const boost::json::value body = r.Json();
        const boost::json::value& label = body.at("meta").at("data_release");
        return label.is_string() ? std::string(label.get_string()) : "(null)";
    };
    const std::string current = release();
    const std::string first_etag = etag;
    EXPECT_EQ(release(), current);  // on PostgreSQL, from memory
    EXPECT_EQ(etag, first_etag);

    // The same registry exported on another day: a new release, named after that day.
    const fs::path redated = D().Dir() / "redated" / RegistryZip(D()).filename();
    fs::create_directories(redated.parent_path());
    {
        sdk::ZipWriter zip(redated);
        for (auto& [name, bytes] : ZipMemberBytes(RegistryZip(D()))) {
            zip.Add(name, bytes, std::time_t{1262433600});  // 2010-01-02 12:00 UTC
        }
        zip.Close();
    }
    CommandResult ingest = D().Lastro({"ingest", kRegistryDataset, redated.string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    const std::string call_after_ingest_release = release();
    const std::string call_after_ingest = request_id;
    EXPECT_EQ(call_after_ingest_release, "registro-2010-01-02") << "was: " << current;
    EXPECT_NE(etag, first_etag) << "without the response cache too, a new release changes the ETag";
    EXPECT_EQ(release(), "registro-2010-01-02");

    // And the sample's file back.
    ingest = D().Lastro({"ingest", kRegistryDataset, RegistryZip(D()).string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    EXPECT_EQ(release(), current);
    EXPECT_EQ(release(), current);

    ASSERT_TRUE(lastrod->Terminate(std::chrono::seconds(10)).has_value());
    if (GetParam() == Backend::kPostgres) {
        // It was answered from the remembered release first; its settlement found the newer one.
        EXPECT_TRUE(Logged(D().Dir() / "uncached-access.log", call_after_ingest, "outdated"))
            << "call " << call_after_ingest << " was not answered anew after its settlement";
    }
}

// What a handler keeps between calls (sdk::Remembered: here the screening's facts of a month,
// among them the generation of its stored rows) is of the call's release: with the response
// cache off, the call after an ingest that republished the month with another net worth for
// its largest class screens that month by the new figure, on SQLite from its snapshot's release
// and on PostgreSQL anew after its settlement found the newer release.
TEST_P(LifecycleTest, DataKeptBetweenCallsFollowsAnIngest) {
    const auto aside = D().SetServerAsideOnSqlite();
    const fs::path access_log = D().Dir() / "kept-access.log";
    std::unique_ptr<Lastrod> lastrod = StartUncached(D(), access_log);
    HttpClient api(lastrod->Port());
    const std::string key = D().RoomyKey();
    const fs::path original = D().SampleDir() / D().SampleFiles("inf_mensal_fidc_", ".zip").back();

    // The month's largest class by net worth.
    std::string request_id;
    auto screen = [&](const std::string& query) {
        const HttpResponse r = api.Get("/v1/screening?" + query, key);
        request_id = r.Header("X-Request-Id").value_or("");
        EXPECT_EQ(r.status, 200) << query << ": " << r.body;
        std::vector<boost::json::object> rows;
        if (r.status == 200) {
            const boost::json::value body = r.Json();
            for (const auto& row : At(AsObject(body), "data").as_array()) {
                rows.push_back(AsObject(row));
            }
        }
        return rows;
    };
    const std::vector<boost::json::object> top = screen("sort=nav_brl&order=desc&limit=1");
    ASSERT_EQ(top.size(), 1u);
    const std::string month = Str(top[0], "month"), cnpj = Str(top[0], "cnpj");
    const std::string class_id = Str(top[0], "class_id");
    const double nav = top[0].at("nav_brl").to_number<double>();
    ASSERT_NE(original.filename().string().find(month.substr(0, 4) + month.substr(5, 2)), std::string::npos)
        << original << " is not of the latest month, " << month;
    const std::string largest = "month=" + month + "&min_nav_brl=" + std::to_string(nav * 0.999);
    auto ids = [](const std::vector<boost::json::object>& rows) {
        std::set<std::string> out;
        for (const auto& row : rows) {
            out.insert(Str(row, "class_id"));
        }
        return out;
    };
    ASSERT_EQ(ids(screen(largest)).count(class_id), 1u);
    ASSERT_EQ(ids(screen(largest)).count(class_id), 1u);  // with the month's facts kept

    // The month republished with that class's net worth (table IV) at 1 BRL.
    auto members = ZipMemberBytes(original);
    auto iv = std::find_if(members.begin(), members.end(),
                           [](const auto& m) { return m.first.rfind("inf_mensal_fidc_tab_IV_", 0) == 0; });
    ASSERT_NE(iv, members.end()) << original << " has no table IV";
    std::vector<std::string> lines = Lines(iv->second);
    ASSERT_GT(lines.size(), 1u);
    const std::vector<std::string> header = CsvFields(lines[0]);
    auto column = [&](const std::string& name) { return ColumnOf(header, name); };
    const std::size_t nav_at = column("TAB_IV_A_VL_PL");
    const std::size_t cnpj_at = std::min(column("CNPJ_FUNDO_CLASSE"), column("CNPJ_FUNDO"));
    ASSERT_LT(std::max(nav_at, cnpj_at), header.size()) << lines[0];
    int changed = 0;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::vector<std::string> fields = CsvFields(lines[i]);
        if (fields.size() != header.size() || Digits(fields[cnpj_at]) != cnpj) {
            continue;
        }
        fields[nav_at] = "1.00";
        std::string line = CsvLine(fields);
        if (lines[i].back() == '\r')
            line += '\r';
        const std::size_t starts = iv->second.find(lines[i]);
        ASSERT_NE(starts, std::string::npos);
        iv->second.replace(starts, lines[i].size(), line);
        ++changed;
    }
    ASSERT_EQ(changed, 1) << "the class " << cnpj << " in " << iv->first;
    const fs::path republished = D().Dir() / "kept-republished" / original.filename();
    WriteZip(republished, members);
    const CommandResult ingest = D().Lastro({"ingest", "cvm.inf_mensal_fidc", republished.string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    EXPECT_EQ(ids(screen(largest)).count(class_id), 0u)
        << "the call after the ingest screened the replaced month";
    const std::string call_after_ingest = request_id;
    const std::vector<boost::json::object> smallest = screen("month=" + month + "&max_nav_brl=2");
    ASSERT_EQ(ids(smallest).count(class_id), 1u);

    // And back to the sample's own file.
    const CommandResult restore = D().Lastro({"ingest", "cvm.inf_mensal_fidc", original.string()});
    ASSERT_EQ(restore.exit_code, 0) << restore.Describe();
    EXPECT_EQ(ids(screen(largest)).count(class_id), 1u);

    ASSERT_TRUE(lastrod->Terminate(std::chrono::seconds(10)).has_value());
    if (GetParam() == Backend::kPostgres) {
        EXPECT_TRUE(Logged(access_log, call_after_ingest, "outdated"))
            << "call " << call_after_ingest << " was not answered anew after its settlement";
    }
}

constexpr const char* kSqlite3 = "/usr/bin/sqlite3";  // the build root's (packaging/buildroot/packages.txt)

// docs/operations.md, "Backup and restore": VACUUM INTO while lastrod serves billed calls gives
// a consistent copy that the same binaries open and read. (sqlite3's .backup never ends under
// such load: the backup API starts over whenever another process writes the source.)
TEST_P(LifecycleTest, AnOnlineSqliteBackupIsConsistentAndUsable) {
    if (D().GetBackend() != Backend::kSqlite) {
        GTEST_SKIP() << "PostgreSQL is backed up with pg_dump (docs/operations.md)";
    }
    const CreatedKey created = D().CreateKeyWithId({1000000, 100000, "", ""});
    const std::string key = created.secret;
    const std::uint16_t port = D().Server().Port();
    std::atomic<bool> stop{false};
    std::atomic<int> answered{0};
    std::atomic<int> failed{0};
    std::thread calls([&stop, &answered, &failed, key, port] {
        try {
            HttpClient http(port);
            while (!stop) {
                ++(http.Get("/v1/fundos?limit=2", key).status == 200 ? answered : failed);
            }
        } catch (const std::exception&) {
            ++failed;
        }
    });
    const auto began = std::chrono::steady_clock::now();
    while (answered < 20 && failed == 0 &&
           std::chrono::steady_clock::now() - began < std::chrono::seconds(30)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const int before = answered.load();
    // Both files: the data and billing's (named as lastro names a data file's billing file).
    const fs::path copy = D().Dir() / "backup.db";
    const fs::path billing_copy = D().Dir() / "backup-billing.db";
    fs::remove(copy);
    fs::remove(billing_copy);
    CommandResult backup;
    CommandResult billing_backup;
    try {
        backup =
            RunCommand({kSqlite3, (D().Dir() / "lastro.db").string(), "VACUUM INTO '" + copy.string() + "'"});
        billing_backup = RunCommand({kSqlite3, (D().Dir() / "lastro-billing.db").string(),
                                     "VACUUM INTO '" + billing_copy.string() + "'"});
    } catch (...) {
        stop = true;
        calls.join();
        throw;
    }
    stop = true;
    calls.join();
    ASSERT_EQ(failed.load(), 0);
    ASSERT_GE(before, 20);
    ASSERT_EQ(backup.exit_code, 0) << backup.Describe();
    ASSERT_EQ(billing_backup.exit_code, 0) << billing_backup.Describe();

    for (const fs::path& file : {copy, billing_copy}) {
        const CommandResult check = RunCommand({kSqlite3, file.string(), "PRAGMA integrity_check"});
        EXPECT_EQ(check.out, "ok\n") << check.Describe();
    }
    // Every call answered before the backup began is in it, settled: nothing half-written.
    const CommandResult settled =
        RunCommand({kSqlite3, billing_copy.string(),
                    "SELECT count(*) FROM billing_ledger WHERE state = 'charged' AND key_id = " +
                        std::to_string(created.id)});
    ASSERT_EQ(settled.exit_code, 0) << settled.Describe();
    EXPECT_GE(std::stoi(settled.out), before) << settled.Describe();
    // The binaries open the copy as they open the original.
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + D().ConfigFile().string(), "LASTRO_DATABASE=sqlite:" + copy.string()};
    const CommandResult usage = RunCommand({BinaryPath("lastro").string(), "keys", "list"}, options);
    EXPECT_EQ(usage.exit_code, 0) << usage.Describe();
    const CommandResult ledger =
        RunCommand({BinaryPath("lastro").string(), "keys", "usage", std::to_string(created.id)}, options);
    EXPECT_EQ(ledger.exit_code, 0) << ledger.Describe();
    EXPECT_NE(ledger.out.find("ledger_entries "), std::string::npos) << ledger.Describe();
}

TEST_P(LifecycleTest, UnknownConfigurationKeyStopsLastrod) {
    const std::string text = D().ConfigText(D().Dir() / "unused.log");
    const std::size_t line = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    const fs::path config = D().WriteConfig("unknown-key.yaml", D().Dir() / "unused.log", "colour: blue\n");
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config.string()};
    options.timeout = std::chrono::seconds(30);
    CommandResult r = RunCommand({BinaryPath("lastrod").string()}, options);
    ASSERT_FALSE(r.timed_out) << "lastrod started with an unknown key\n" << r.Describe();
    EXPECT_NE(r.exit_code, 0) << r.Describe();
    const std::string where = config.string() + ":" + std::to_string(line) + ":1: ";
    EXPECT_NE(r.err.find(where), std::string::npos) << "expected " << where << "\n" << r.Describe();
    EXPECT_NE(r.err.find("colour"), std::string::npos) << r.Describe();
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.Describe();

    // The CLI reads the same file the same way.
    CommandResult cli = RunCommand({BinaryPath("lastro").string(), "keys", "list"}, options);
    EXPECT_NE(cli.exit_code, 0) << cli.Describe();
    EXPECT_NE(cli.err.find(where), std::string::npos) << cli.Describe();
}

TEST_P(LifecycleTest, LastroPluginsListsOperationsAndRefusesAnInvalidManifest) {
    CommandResult ok = D().Lastro({"plugins"});
    EXPECT_EQ(ok.exit_code, 0) << ok.Describe();
    EXPECT_NE(ok.out.find("funds.search"), std::string::npos) << ok.Describe();
    EXPECT_NE(ok.out.find("/v1/fundos"), std::string::npos) << ok.Describe();
    EXPECT_NE(ok.out.find("cvm.registro_fundo_classe"), std::string::npos) << ok.Describe();

    // A second manifest directory holding one manifest with a negative price.
    const fs::path broken_dir = D().Dir() / "broken-manifests";
    fs::create_directories(broken_dir);
    std::ofstream(broken_dir / "broken.yaml")
        << "name: broken\nversion: 1.0.0\nlibrary: libbroken.so\noperations:\n"
           "  - id: broken.op\n    path: /v1/broken\n    price: -3\n    scope: broken\n"
           "    response: {entity: x, shape: array, fields: [{name: a, type: string}]}\n";
    std::string text = D().ConfigText(D().Dir() / "unused.log");
    const std::string dirs = "manifest_dirs: [";
    const auto at = text.find(dirs);
    ASSERT_NE(at, std::string::npos) << text;
    text.insert(at + dirs.size(), "\"" + broken_dir.string() + "\", ");
    const fs::path config = D().Dir() / "broken-plugins.yaml";
    std::ofstream(config) << text;
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config.string()};
    options.timeout = std::chrono::seconds(30);
    CommandResult bad = RunCommand({BinaryPath("lastro").string(), "plugins"}, options);
    EXPECT_NE(bad.exit_code, 0) << bad.Describe();
    EXPECT_NE(bad.err.find((broken_dir / "broken.yaml").string() + ":7:12: operations[0].price"),
              std::string::npos)
        << bad.Describe();
}

// `lastro sample --months N` (docs/cli.md): 1 to 240, anything else one line and exit 1 before
// anything is written; a valid N reaches the writers and the summary names it.
TEST_P(LifecycleTest, SampleMonthsAreCheckedBeforeAnythingIsWritten) {
    const fs::path refused = D().Dir() / "sample-months-refused";
    for (const std::string bad : {"0", "241", "12x", "abc", "1.5"}) {
        const CommandResult r = D().Lastro({"sample", "--out", refused.string(), "--months", bad});
        EXPECT_EQ(r.exit_code, 1) << r.Describe();
        EXPECT_EQ(Lines(r.err).size(), 1u) << r.Describe();
        EXPECT_NE(r.err.find("--months takes a whole number of months from 1 to 240, not '" + bad + "'"),
                  std::string::npos)
            << r.Describe();
        EXPECT_FALSE(fs::exists(refused)) << bad;
    }
    const fs::path out = D().Dir() / "sample-months";
    const CommandResult ok = D().Lastro({"sample", "--out", out.string(), "--months", "2"});
    EXPECT_EQ(ok.exit_code, 0) << ok.Describe();
    EXPECT_NE(ok.err.find("scale sample, seed 20261014, 2 months"), std::string::npos) << ok.Describe();
    fs::remove_all(out);
}

TEST_P(LifecycleTest, SigtermStopsCleanlyAndTheAccessLogHasOneLinePerRequest) {
    // An instance of its own, with its own access log, that this test stops (on SQLite, one
    // lastrod per database: the deployment's steps aside meanwhile).
    std::optional<Deployment::ServerAside> aside(D().SetServerAsideOnSqlite());
    const fs::path log = D().Dir() / "sigterm-access.log";
    const fs::path config = D().WriteConfig("sigterm.yaml", log);
    std::unique_ptr<Lastrod> server = Lastrod::Start(config);
    HttpClient http(server->Port());
    const std::string key = D().CreateKey({100, 100, "", ""});

    struct Sent {
        std::string target;
        bool with_key;
        long status;
        std::string operation;  // empty: null
        std::int64_t charged;
    };
    const std::vector<Sent> plan = {
        {"/health", false, 200, "", 0},
        {"/pricing", false, 200, "", 0},
        {"/v1/fundos?limit=3", true, 200, "funds.search", 1},
        {"/v1/fundos?limit=0", true, 422, "funds.search", 0},
        {"/v1/fundos/" + std::string("00000000-0000-4000-8000-000000000000") + "/classes", true, 404,
         "funds.classes", 1},
        {"/v1/fundos", false, 401, "funds.search", 0},
        {"/v1/nada", true, 404, "", 0},
        {"/v1/schema", true, 200, "schema.read", 1},
    };
    std::vector<std::string> request_ids;
    for (const Sent& s : plan) {
        HttpResponse r = http.Get(s.target, s.with_key ? std::optional(key) : std::nullopt);
        EXPECT_EQ(r.status, s.status) << r.Describe();
        // X-Request-Id, else the request_id of the body (meta or problem).
        std::string id = r.Header("X-Request-Id").value_or("");
        boost::system::error_code ec;
        const boost::json::value body = boost::json::parse(r.body, ec);
        if (id.empty() && !ec && body.is_object()) {
            const boost::json::object& o = body.get_object();
            const boost::json::value* meta = o.if_contains("meta");
            const boost::json::value* from = meta && meta->is_object()
                                                 ? meta->get_object().if_contains("request_id")
                                                 : o.if_contains("request_id");
            if (from && from->is_string()) {
                id = std::string(from->get_string());
            }
        }
        request_ids.push_back(id);
    }

    const auto exit = server->Terminate(std::chrono::seconds(5));
    ASSERT_TRUE(exit) << "lastrod still runs 5 s after SIGTERM\n" << server->Process().Output();
    EXPECT_EQ(*exit, 0) << server->Process().Output();
    EXPECT_EQ(server->Process().Output().find(key), std::string::npos) << "the key is never printed";

    const std::string text = ReadFile(log);
    EXPECT_EQ(text.find(key), std::string::npos) << "the access log never holds a key";
    const std::vector<std::string> lines = Lines(text);
    ASSERT_EQ(lines.size(), plan.size()) << text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        SCOPED_TRACE(plan[i].target);
        boost::system::error_code ec;
        const boost::json::value v = boost::json::parse(lines[i], ec);
        ASSERT_FALSE(ec) << lines[i];
        ASSERT_TRUE(v.is_object()) << lines[i];
        const boost::json::object& o = v.get_object();
        ASSERT_TRUE(o.contains("request_id") && o.at("request_id").is_string()) << lines[i];
        EXPECT_TRUE(IsUuid(o.at("request_id").get_string())) << lines[i];
        if (!request_ids[i].empty()) {
            EXPECT_EQ(std::string(o.at("request_id").get_string()), request_ids[i]);
        }
        ASSERT_TRUE(o.contains("key_id")) << lines[i];
        // Every valid key sent to /v1 is named, an unknown path's included (docs/billing.md).
        EXPECT_EQ(o.at("key_id").is_int64(), plan[i].with_key) << lines[i];
        ASSERT_TRUE(o.contains("operation")) << lines[i];
        if (plan[i].operation.empty()) {
            EXPECT_TRUE(o.at("operation").is_null()) << lines[i];
        } else {
            EXPECT_EQ(o.at("operation"), boost::json::value(plan[i].operation)) << lines[i];
        }
        ASSERT_TRUE(o.contains("status") && o.at("status").is_int64()) << lines[i];
        EXPECT_EQ(o.at("status").get_int64(), plan[i].status) << lines[i];
        ASSERT_TRUE(o.contains("credits_charged") && o.at("credits_charged").is_int64()) << lines[i];
        EXPECT_EQ(o.at("credits_charged").get_int64(), plan[i].charged) << lines[i];
        ASSERT_TRUE(o.contains("us") && o.at("us").is_int64()) << lines[i];
        EXPECT_GE(o.at("us").get_int64(), 0) << lines[i];
    }

    // The fixture's own server serves (untouched on PostgreSQL, started again on SQLite).
    aside.reset();
    EXPECT_EQ(D().Get("/health").status, 200);
}

}  // namespace
}  // namespace lastro::e2e
