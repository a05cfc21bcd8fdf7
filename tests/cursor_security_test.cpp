// Cursors against forgery and free riding (docs/api.md "Pagination", docs/billing.md): the
// signing secret is a file only the service user reads; a cursor issued in the future (which
// only the secret's holder can make) or to another key is refused with 400 naming the cursor;
// included pages never ask for more rows than the page that paid, and never outlast its window.
// Cursors are made here as docs/api.md describes them (base64url JSON, HMAC-SHA256 under the
// secret, truncated to 16 bytes), with the secret read from the deployment's file: what an
// attacker who could read the secret would do.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/temp_dir.hpp>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <sys/stat.h>
#include <algorithm>
#include <ctime>
#include <filesystem>

namespace lastro::e2e {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

std::string Base64Url(const std::string& bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n =
        EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                        reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    while (!out.empty() && out.back() == '=') {
        out.pop_back();
    }
    std::replace(out.begin(), out.end(), '+', '-');
    std::replace(out.begin(), out.end(), '/', '_');
    return out;
}

std::string FromBase64Url(std::string text) {
    std::replace(text.begin(), text.end(), '-', '+');
    std::replace(text.begin(), text.end(), '_', '/');
    const std::size_t padding = (4 - text.size() % 4) % 4;
    text.append(padding, '=');
    std::string out(text.size() / 4 * 3, '\0');
    const int n =
        EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                        reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    out.resize(static_cast<std::size_t>(std::max(0, n)) - padding);
    return out;
}

// The payload of a cursor the server issued.
json::object Payload(const std::string& cursor) {
    return json::parse(FromBase64Url(cursor.substr(0, cursor.find('.')))).as_object();
}

// A cursor with `payload`, signed with the first secret of the deployment's file.
std::string Forge(const Deployment& d, const json::object& payload) {
    const std::string text = ReadFile(d.Dir() / "var" / "cursor.key");
    const std::string secret = text.substr(0, text.find('\n'));
    const std::string body = Base64Url(json::serialize(payload));
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
         reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &size);
    return body + "." + Base64Url(std::string(reinterpret_cast<char*>(mac), 16));
}

json::object Pagination(const HttpResponse& r) {
    const json::value body = r.Json();
    return AsObject(At(AsObject(At(AsObject(body), "meta")), "pagination"));
}

std::string NextCursor(const HttpResponse& r) {
    const json::object pagination = Pagination(r);
    const json::value& next = At(pagination, "next_cursor");
    return next.is_string() ? std::string(next.as_string()) : std::string();
}

TEST_P(ApiTest, CursorSecretIsAFileOnlyTheServiceUserReads) {
    const fs::path file = D().Dir() / "var" / "cursor.key";
    struct stat st{};
    ASSERT_EQ(::stat(file.c_str(), &st), 0) << file;
    EXPECT_EQ(st.st_mode & 07777, 0600u) << file;
    const std::string text = ReadFile(file);
    EXPECT_EQ(text.size(), 65u) << "one secret of 64 hexadecimal digits and a newline";
    // The secret signs what lastrod answers: a cursor forged with it and a present issue time
    // is served, so the refusals below are for what they say.
    const CreatedKey key = D().CreateKeyWithId({1000, 1000, "", ""});
    HttpResponse first = D().Get("/v1/fundos?limit=2", key.secret);
    ASSERT_TRUE(IsEnvelope(first));
    json::object payload = Payload(NextCursor(first));
    payload["t"] = static_cast<std::int64_t>(std::time(nullptr));
    EXPECT_TRUE(
        IsEnvelope(D().Get("/v1/fundos?limit=2&cursor=" + UrlEncode(Forge(D(), payload)), key.secret)));
}

TEST_P(ApiTest, CursorIssuedInTheFutureIs400AndRefunded) {
    const CreatedKey key = D().CreateKeyWithId({1000, 1000, "", ""});
    HttpResponse first = D().Get("/v1/fundos?limit=2", key.secret);
    ASSERT_TRUE(IsEnvelope(first));
    json::object payload = Payload(NextCursor(first));
    EXPECT_EQ(At(payload, "k").as_int64(), key.id);
    // Ten years ahead: with the old rule every page of such a cursor was free for ten years.
    payload["t"] = static_cast<std::int64_t>(std::time(nullptr)) + 10 * 365 * 86400;
    HttpResponse r = D().Get("/v1/fundos?limit=2&cursor=" + UrlEncode(Forge(D(), payload)), key.secret);
    EXPECT_TRUE(IsProblem(r, 400, kBaseUrl, "/v1/fundos", "cursor"));
    EXPECT_NE(r.body.find("future"), std::string::npos) << r.body;
    EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0) << r.Describe();
}

TEST_P(ApiTest, CursorOfAnotherKeyIs400AndRefunded) {
    const std::string a = D().CreateKey({1000, 1000, "", ""});
    const std::string b = D().CreateKey({1000, 1000, "", ""});
    HttpResponse first = D().Get("/v1/fundos?limit=2", a);
    ASSERT_TRUE(IsEnvelope(first));
    const std::string cursor = NextCursor(first);
    ASSERT_FALSE(cursor.empty()) << first.body;
    HttpResponse r = D().Get("/v1/fundos?limit=2&cursor=" + UrlEncode(cursor), b);
    EXPECT_TRUE(IsProblem(r, 400, kBaseUrl, "/v1/fundos", "cursor"));
    EXPECT_NE(r.body.find("another API key"), std::string::npos) << r.body;
    EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0) << r.Describe();
    // Its own key goes on paging.
    EXPECT_TRUE(IsEnvelope(D().Get("/v1/fundos?limit=2&cursor=" + UrlEncode(cursor), a)));
}

// A class and month whose asset portfolio (included pages) has at least three positions: found
// through the API, the month being one the screening answers for.
std::string PortfolioWithPages(Deployment& d, const std::string& key) {
    HttpResponse screening = d.Get("/v1/screening?fund_type=FIDC&limit=100", key);
    if (screening.status != 200) {
        return "";
    }
    const json::value body = screening.Json();
    for (const json::value& row : AsObject(body).at("data").as_array()) {
        const std::string base = "/v1/classes/" + Str(row.as_object(), "class_id") +
                                 "/carteira/ativos?month=" + Str(row.as_object(), "month");
        HttpResponse probe = d.Get(base + "&limit=2", key);
        if (probe.status == 200 && At(Pagination(probe), "has_more").as_bool()) {
            return base;
        }
    }
    return "";
}

TEST_P(ApiTest, IncludedPagesNeverAskForMoreThanThePageThatPaid) {
    const std::string base = PortfolioWithPages(D(), D().RoomyKey());
    ASSERT_FALSE(base.empty()) << "no class of the sample has an asset portfolio of three positions";
    const std::string key = D().CreateKey({1000, 1000, "", ""});

    HttpResponse first = D().Get(base + "&limit=1", key);
    ASSERT_TRUE(IsEnvelope(first));
    EXPECT_TRUE(CreditsAre(first, 1, 1, 999));
    const std::string cursor = NextCursor(first);
    ASSERT_FALSE(cursor.empty()) << first.body;

    // The same page size is included, and hands on the paying page's time and limit.
    HttpResponse included = D().Get(base + "&limit=1&cursor=" + UrlEncode(cursor), key);
    ASSERT_TRUE(IsEnvelope(included));
    EXPECT_TRUE(CreditsAre(included, 0, 0, 999));
    const std::string next = NextCursor(included);
    ASSERT_FALSE(next.empty()) << included.body;
    EXPECT_EQ(At(Payload(next), "t"), At(Payload(cursor), "t")) << "the window runs from the page that paid";
    EXPECT_EQ(At(Payload(next), "l"), json::value(1));

    // A larger page is not included: it is charged like a first page, and pays for its own size.
    HttpResponse larger = D().Get(base + "&limit=500&cursor=" + UrlEncode(cursor), key);
    ASSERT_TRUE(IsEnvelope(larger));
    EXPECT_TRUE(CreditsAre(larger, 1, 1, 998));
    // The included page's cursor does not unlock it either.
    HttpResponse larger_again = D().Get(base + "&limit=500&cursor=" + UrlEncode(next), key);
    ASSERT_TRUE(IsEnvelope(larger_again));
    EXPECT_TRUE(CreditsAre(larger_again, 1, 1, 997));

    // A cursor whose paying page is older than the window (made with the secret, as only its
    // holder could) is charged.
    json::object old = Payload(cursor);
    old["t"] = static_cast<std::int64_t>(std::time(nullptr)) - 16 * 60;
    HttpResponse late = D().Get(base + "&limit=1&cursor=" + UrlEncode(Forge(D(), old)), key);
    ASSERT_TRUE(IsEnvelope(late));
    EXPECT_TRUE(CreditsAre(late, 1, 1, 996));
}

// An install of a version that kept the secret in the database (core_setting "cursor_secret"),
// made here with sqlite3: lastrod's first start moves it into the file and deletes it from the
// database, and the cursors it signed keep working.
TEST_P(ApiTest, ASecretLeftInTheDatabaseMovesToItsFileAndItsCursorsKeepWorking) {
    if (D().GetBackend() != Backend::kSqlite) {
        GTEST_SKIP() << "the move is the same code on PostgreSQL; here sqlite3 plays the older version";
    }
    constexpr const char* kSqlite3 =
        "/usr/bin/sqlite3";  // the build root's (packaging/buildroot/packages.txt)
    const std::string key = D().CreateKey({1000, 1000, "", ""});
    HttpResponse first = D().Get("/v1/fundos?limit=2", key);
    ASSERT_TRUE(IsEnvelope(first));
    const std::string cursor = NextCursor(first);
    ASSERT_FALSE(cursor.empty()) << first.body;
    const fs::path file = D().Dir() / "var" / "cursor.key";
    const std::string database = (D().Dir() / "lastro.db").string();
    const std::string text = ReadFile(file);
    {
        const auto aside = D().SetServerAsideOnSqlite();
        const CommandResult put =
            RunCommand({kSqlite3, database,
                        "INSERT INTO core_setting(name, value) VALUES('cursor_secret', '" +
                            text.substr(0, text.find('\n')) + "')"});
        ASSERT_EQ(put.exit_code, 0) << put.Describe();
        fs::remove(file);
    }  // lastrod starts again here
    EXPECT_TRUE(IsEnvelope(D().Get("/v1/fundos?limit=2&cursor=" + UrlEncode(cursor), key)));
    EXPECT_EQ(ReadFile(file), text);
    const CommandResult left =
        RunCommand({kSqlite3, database, "SELECT count(*) FROM core_setting WHERE name = 'cursor_secret'"});
    EXPECT_EQ(left.out, "0\n") << left.Describe();
}

}  // namespace
}  // namespace lastro::e2e
