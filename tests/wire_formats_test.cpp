// What every /v1 operation offers on the wire besides its JSON (issue 50, docs/api.md "On the
// wire"): gzip when asked, an ETag on every answer and a free 304 when If-None-Match names it,
// and CSV (format=csv or Accept: text/csv) with meta in headers and the next page in a Link.
// On both databases, against the shared server of the host tests (ApiTest).
#include "api_fixture.hpp"

#include <lastro/sdk/testing/process.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <zlib.h>
#include <boost/json.hpp>

#include <string>
#include <vector>

namespace lastro::e2e {
namespace {

HttpResponse GetWith(Deployment& d, const std::string& target, const std::string& key,
                     const std::vector<std::string>& headers) {
    HttpRequest request;
    request.target = target;
    request.headers = headers;
    request.headers.push_back("Authorization: Bearer " + key);
    return d.Http().Send(request);
}

// GNU gzip's own decoder (not the zlib the server compresses with), which checks the member's
// CRC-32 and length; "(not gzip)" when it refuses.
std::string Gunzip(const std::string& member) {
    TempDir dir("lastro-gzip-");
    const CommandResult r = RunCommand({"/usr/bin/gzip", "-dc", dir.Write("answer.gz", member).string()});
    return r.exit_code == 0 ? r.out : "(not gzip)";
}

// An envelope without what belongs to one call (request_id, the signed cursor).
boost::json::value WithoutCallParts(const std::string& body) {
    boost::json::value v = boost::json::parse(body);
    boost::json::object& meta = v.as_object().at("meta").as_object();
    meta.erase("request_id");
    if (auto* pagination = meta.if_contains("pagination")) {
        pagination->as_object().erase("next_cursor");
    }
    return v;
}

// Python's csv module reads `csv` and checks it holds the rows of the JSON answer `json`.
::testing::AssertionResult CsvHoldsTheJsonRows(const std::string& json, const std::string& csv,
                                               const std::string& rows_field = "") {
    TempDir dir("lastro-wire-");
    std::vector<std::string> argv{
        "/usr/bin/python3", std::string(LASTRO_SOURCE_DIR) + "/tests/wire/compare_csv.py",
        dir.Write("answer.json", json).string(), dir.Write("answer.csv", csv).string()};
    if (!rows_field.empty())
        argv.push_back(rows_field);
    const CommandResult r = RunCommand(argv);
    if (r.exit_code != 0)
        return ::testing::AssertionFailure() << r.Describe() << "\n" << r.out;
    return ::testing::AssertionSuccess();
}

std::string AnyClassId(Deployment& d, const std::string& key) {
    const boost::json::value funds = d.Get("/v1/fundos?limit=50", key).Json();
    for (const auto& fund : funds.at("data").as_array()) {
        for (const auto& c : fund.at("classes").as_array()) {
            return std::string(c.at("class_id").as_string());
        }
    }
    return "";
}

TEST_P(ApiTest, GzipIsAskedForAndInflatesToTheSameJson) {
    const std::string key = D().RoomyKey();
    for (const std::string target : {"/v1/industria?indicador=resumo&months=120", "/v1/fundos?limit=50"}) {
        const HttpResponse plain = D().Get(target, key);
        ASSERT_EQ(plain.status, 200) << plain.Describe();
        EXPECT_FALSE(plain.Has("Content-Encoding")) << "identity when not asked";
        EXPECT_EQ(plain.Header("Vary"), "Accept, Accept-Encoding");
        const HttpResponse gzip = GetWith(D(), target, key, {"Accept-Encoding: br;q=1.0, gzip;q=0.8"});
        ASSERT_EQ(gzip.status, 200) << gzip.Describe();
        EXPECT_EQ(gzip.Header("Content-Encoding"), "gzip") << target;
        EXPECT_EQ(gzip.Header("Vary"), "Accept, Accept-Encoding");
        EXPECT_LT(gzip.body.size(), plain.body.size() / 3) << target;
        const std::string inflated = Gunzip(gzip.body);
        ASSERT_NE(inflated, "(not gzip)") << target;
        EXPECT_EQ(WithoutCallParts(inflated), WithoutCallParts(plain.body)) << target;
        EXPECT_NE(gzip.Header("ETag"), plain.Header("ETag")) << "one strong tag per representation";
        EXPECT_TRUE(CreditsAre(gzip, 1, 1, *gzip.IntHeader("X-Credits-Remaining"))) << "billed like JSON";

        const HttpResponse refused = GetWith(D(), target, key, {"Accept-Encoding: gzip;q=0, deflate"});
        EXPECT_FALSE(refused.Has("Content-Encoding")) << "q=0 refuses gzip: " << refused.Describe();
        EXPECT_EQ(WithoutCallParts(refused.body), WithoutCallParts(plain.body));
    }
}

TEST_P(ApiTest, IfNoneMatchNamingTheETagIsAFree304WithTheCreditHeaders) {
    const std::string key = D().CreateKey({100, 1000, "", ""});
    const std::string target = "/v1/fundos?limit=5";
    AvoidMinuteBoundary();  // the calls below share one per-minute window
    const HttpResponse first = D().Get(target, key);
    ASSERT_EQ(first.status, 200) << first.Describe();
    const std::string etag = first.Header("ETag").value_or("(none)");
    EXPECT_TRUE(etag.size() == 18 && etag.front() == '"' && etag.back() == '"') << etag;
    EXPECT_EQ(first.Header("Cache-Control"), "private, no-cache");
    // The newest release's ingest, as an HTTP date: "Mon, 30 Nov 2026 07:46:43 GMT".
    const std::string modified = first.Header("Last-Modified").value_or("(none)");
    EXPECT_TRUE(modified.size() == 29 && modified.substr(25) == " GMT" && modified[3] == ',') << modified;
    EXPECT_TRUE(CreditsAre(first, 1, 1, 99));
    EXPECT_EQ(D().Get(target, key).Header("ETag"), etag) << "the same data, the same tag";
    EXPECT_NE(D().Get("/v1/fundos?limit=6", key).Header("ETag"), etag) << "another request, another tag";

    for (const std::string& condition : {etag, "W/" + etag, "\"x\", " + etag, std::string("*")}) {
        const HttpResponse again = GetWith(D(), target, key, {"If-None-Match: " + condition});
        EXPECT_EQ(again.status, 304) << condition << ": " << again.Describe();
        EXPECT_TRUE(again.body.empty());
        EXPECT_FALSE(again.Has("Content-Type"));
        EXPECT_EQ(again.Header("ETag"), etag);
        EXPECT_EQ(again.Header("Last-Modified"), modified);
        EXPECT_TRUE(again.Has("X-Request-Id"));
        EXPECT_TRUE(CreditsAre(again, 1, 0, 97)) << "free: refunded, " << again.Describe();
        EXPECT_EQ(again.IntHeader("X-Credits-Limit"), 100);
        EXPECT_EQ(again.IntHeader("X-RateLimit-Limit"), 1000);
    }
    const HttpResponse changed = GetWith(D(), target, key, {"If-None-Match: \"0000000000000000\""});
    EXPECT_EQ(changed.status, 200) << changed.Describe();
    EXPECT_TRUE(CreditsAre(changed, 1, 1, 96));
    const HttpResponse other_form = GetWith(D(), target, key, {"If-None-Match: " + etag, "Accept: text/csv"});
    EXPECT_EQ(other_form.status, 200) << "the CSV has a tag of its own: " << other_form.Describe();
    const HttpResponse csv_again = GetWith(
        D(), target, key, {"If-None-Match: " + other_form.Header("ETag").value_or(""), "Accept: text/csv"});
    EXPECT_EQ(csv_again.status, 304) << csv_again.Describe();

    // The 304s still count in the key's minute, like every admitted call.
    const HttpResponse last = D().Get(target, key);
    EXPECT_EQ(last.IntHeader("X-RateLimit-Remaining"), *first.IntHeader("X-RateLimit-Remaining") - 10)
        << last.Describe();
}

TEST_P(ApiTest, CsvHoldsTheSameRowsAsTheJsonAndMetaMovesToHeaders) {
    const std::string key = D().RoomyKey();
    const std::string class_id = AnyClassId(D(), key);
    ASSERT_FALSE(class_id.empty());
    struct Case {
        std::string target;
        std::string rows_field;
    };
    for (const Case& c :
         {Case{"/v1/fundos?limit=20", ""}, Case{"/v1/industria?indicador=resumo&months=24", "items"},
          Case{"/v1/industria/gestoras/ranking?limit=5", "items"},
          Case{"/v1/classes/" + class_id + "/cotas", ""}}) {
        const HttpResponse json = D().Get(c.target, key);
        ASSERT_EQ(json.status, 200) << json.Describe();
        const std::string separator = c.target.find('?') == std::string::npos ? "?" : "&";
        const HttpResponse csv = D().Get(c.target + separator + "format=csv", key);
        ASSERT_EQ(csv.status, 200) << csv.Describe();
        EXPECT_EQ(csv.Header("Content-Type"), "text/csv; charset=utf-8; header=present");
        EXPECT_TRUE(CsvHoldsTheJsonRows(json.body, csv.body, c.rows_field)) << c.target;
        const boost::json::value data = json.Json().at("data");
        const std::size_t rows =
            c.rows_field.empty() ? data.as_array().size() : data.at(c.rows_field).as_array().size();
        EXPECT_EQ(csv.IntHeader("X-Row-Count"), static_cast<std::int64_t>(rows)) << c.target;
        EXPECT_EQ(csv.Header("X-Data-Release"),
                  std::string(json.Json().at("meta").at("data_release").as_string()));
        EXPECT_EQ(csv.IntHeader("X-Credits-Charged"), json.IntHeader("X-Credits-Cost"))
            << "charged as JSON is";

        const HttpResponse negotiated =
            GetWith(D(), c.target, key, {"Accept: text/csv, application/json;q=0.5"});
        EXPECT_EQ(negotiated.body, csv.body) << "Accept: text/csv chooses it too";
        EXPECT_EQ(negotiated.Header("ETag"), csv.Header("ETag"));
        const HttpResponse both =
            GetWith(D(), c.target + separator + "format=csv", key, {"Accept-Encoding: gzip"});
        if (csv.body.size() >= 1024) {
            EXPECT_EQ(both.Header("Content-Encoding"), "gzip") << c.target;
            EXPECT_EQ(Gunzip(both.body), csv.body) << c.target;
        }
    }
}

TEST_P(ApiTest, CsvPagesFollowTheLinkToTheEndAndErrorsStayProblems) {
    const std::string key = D().RoomyKey();
    // A search the sample answers in one page of 100 and in several of 3.
    std::string query;
    HttpResponse whole;
    std::size_t total = 0;
    for (const char* word : {"agro", "credito", "multiestrategia", "imobiliario", "fundo"}) {
        whole = D().Get(std::string("/v1/fundos?limit=100&q=") + word, key);
        ASSERT_EQ(whole.status, 200) << whole.Describe();
        total = whole.Json().at("data").as_array().size();
        if (whole.Json().at("meta").at("pagination").at("has_more") == false && total > 6) {
            query = std::string("q=") + word;
            break;
        }
    }
    ASSERT_FALSE(query.empty()) << "no search of the sample gives between 7 and 100 funds";

    // Pages of 3 as CSV, each fetched from the previous page's Link, then glued: one table.
    std::string target = "/v1/fundos?" + query + "&limit=3&format=csv";
    std::string glued;
    std::size_t pages = 0;
    while (!target.empty() && pages < 100) {
        const HttpResponse page = D().Get(target, key);
        ASSERT_EQ(page.status, 200) << page.Describe();
        const std::size_t header_end = page.body.find("\r\n") + 2;
        glued += pages == 0 ? page.body : page.body.substr(header_end);
        ++pages;
        target.clear();
        if (auto link = page.Header("Link")) {
            const std::string prefix = std::string("<") + kBaseUrl;
            ASSERT_EQ(link->rfind(prefix, 0), 0u) << *link;
            ASSERT_EQ(link->substr(link->size() - 13), ">; rel=\"next\"") << *link;
            target = link->substr(prefix.size(), link->size() - prefix.size() - 13);
            EXPECT_NE(target.find("format=csv"), std::string::npos) << *link;
        }
    }
    EXPECT_EQ(pages, (total + 2) / 3);
    // The pages' union is the one big page (the header is the same on every page of these rows).
    EXPECT_TRUE(CsvHoldsTheJsonRows(whole.body, glued));

    // Problems stay problem+json whatever format was asked.
    const HttpResponse snapshot_csv =
        D().Get("/v1/classes/" + AnyClassId(D(), key) + "/snapshot?format=csv", key);
    EXPECT_EQ(snapshot_csv.status, 422) << snapshot_csv.Describe();
    EXPECT_EQ(snapshot_csv.Header("Content-Type"), "application/problem+json");
    EXPECT_EQ(snapshot_csv.Json().at("parameter"), "format");
    EXPECT_EQ(snapshot_csv.IntHeader("X-Credits-Charged"), 0) << "a 422: refunded";
    const HttpResponse xml = D().Get("/v1/fundos?format=xml", key);
    EXPECT_TRUE(IsProblem(xml, 422, kBaseUrl, "/v1/fundos", "format"));
    const std::string missing = "/v1/fundos/" + RandomUuid() + "/classes";
    const HttpResponse not_found = GetWith(D(), missing + "?format=csv", key, {"Accept-Encoding: gzip"});
    EXPECT_TRUE(IsProblem(not_found, 404, kBaseUrl, missing, "fund_id"));
    // Accept is a preference: an operation with no rows answers JSON.
    const HttpResponse snapshot =
        GetWith(D(), "/v1/classes/" + AnyClassId(D(), key) + "/snapshot", key, {"Accept: text/csv"});
    EXPECT_TRUE(IsEnvelope(snapshot)) << snapshot.Describe();
}

}  // namespace
}  // namespace lastro::e2e
