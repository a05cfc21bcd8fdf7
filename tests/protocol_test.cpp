// The success envelope and the problem records (contract 2.2, 2.3, 7), and what the server
// does with requests that are not plain GETs: other methods, bodies, oversized requests.
#include "api_fixture.hpp"
#include "raw_connection.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/json.hpp>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

namespace lastro::e2e {
namespace {

TEST_P(ApiTest, FundosAnswersWithTheEnvelope) {
    const std::string key = D().RoomyKey();
    HttpResponse r = D().Get("/v1/fundos", key);
    ASSERT_TRUE(IsEnvelope(r));
    const boost::json::object body = AsObject(r.Json());
    ASSERT_TRUE(At(body, "data").is_array());
    const boost::json::array& data = At(body, "data").get_array();
    const boost::json::object& meta = AsObject(At(body, "meta"));

    const boost::json::array& sources = At(meta, "sources").as_array();
    ASSERT_FALSE(sources.empty()) << r.body;
    EXPECT_EQ(Str(AsObject(sources.front()), "provider"), "cvm");

    const boost::json::object& pagination = AsObject(At(meta, "pagination"));
    ASSERT_TRUE(At(pagination, "limit").is_int64()) << r.body;
    EXPECT_EQ(At(pagination, "limit").get_int64(), 25) << "the default page size";
    ASSERT_TRUE(At(pagination, "has_more").is_bool()) << r.body;
    const boost::json::value& next = At(pagination, "next_cursor");
    if (At(pagination, "has_more").get_bool()) {
        EXPECT_EQ(data.size(), 25u);
        EXPECT_TRUE(next.is_string() && !next.get_string().empty()) << r.body;
    } else {
        EXPECT_TRUE(next.is_null()) << r.body;
    }
    EXPECT_EQ(data.size(), D().AllItems("/v1/fundos").size() < 25 ? D().AllItems("/v1/fundos").size() : 25u);

    const boost::json::object& universe = AsObject(At(meta, "universe_filter"));
    EXPECT_EQ(Str(universe, "fund_type"), "FIDC");
    EXPECT_TRUE(HasBillingHeaders(r));
}

TEST_P(ApiTest, InvalidParametersAre422NamingTheParameter) {
    const std::string key = D().RoomyKey();
    struct Case {
        std::string target;
        std::string instance;
        std::string parameter;
    };
    const std::vector<Case> cases = {
        {"/v1/fundos?limit=0", "/v1/fundos", "limit"},
        {"/v1/fundos?limit=101", "/v1/fundos", "limit"},
        {"/v1/fundos?limit=abc", "/v1/fundos", "limit"},
        {"/v1/fundos?limit=1.5", "/v1/fundos", "limit"},
        {"/v1/fundos?q=" + std::string(101, 'a'), "/v1/fundos", "q"},
        {"/v1/fundos?status=" + std::string(101, 'a'), "/v1/fundos", "status"},
        {"/v1/fundos?manager=" + std::string(101, 'a'), "/v1/fundos", "manager"},
        {"/v1/fundos?administrator=" + std::string(101, 'a'), "/v1/fundos", "administrator"},
        {"/v1/fundos?cnpj=11222333000182", "/v1/fundos", "cnpj"},  // check digits are 81
        {"/v1/fundos?cnpj=" + UrlEncode("11.222.333/0001-82"), "/v1/fundos", "cnpj"},
        {"/v1/fundos?cnpj=1122233300018", "/v1/fundos", "cnpj"},
        {"/v1/fundos?cnpj=abc", "/v1/fundos", "cnpj"},
        {"/v1/fundos?foo=1", "/v1/fundos", "foo"},
        {"/v1/fundos?q=credito&foo=1", "/v1/fundos", "foo"},
        {"/v1/fundos/not-a-uuid/classes", "/v1/fundos/not-a-uuid/classes", "fund_id"},
        {"/v1/resolve?cvm_code=abc", "/v1/resolve", "cvm_code"},
        {"/v1/resolve?cnpj=11222333000182", "/v1/resolve", "cnpj"},
    };
    std::int64_t remaining = -1;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.target);
        HttpResponse r = D().Get(c.target, key);
        EXPECT_TRUE(IsProblem(r, 422, kBaseUrl, c.instance, c.parameter));
        EXPECT_TRUE(HasBillingHeaders(r));
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0) << "422 is refunded";
        if (remaining < 0) {
            remaining = r.IntHeader("X-Credits-Remaining").value_or(-2);
        }
        EXPECT_EQ(r.IntHeader("X-Credits-Remaining"), remaining) << "nothing was charged";
    }
    EXPECT_EQ(remaining, 1000000);
}

TEST_P(ApiTest, UnknownPathsAre404WithoutCharge) {
    const std::string key = D().CreateKey({5000, 100, "", ""});
    std::int64_t calls = 0;
    for (const char* path : {"/v1/nada", "/v1/fundos/x/y/z", "/v1"}) {
        SCOPED_TRACE(path);
        HttpResponse r = D().Get(path, key);
        ++calls;
        EXPECT_TRUE(IsProblem(r, 404, kBaseUrl, path, std::nullopt));
        EXPECT_TRUE(HasBillingHeaders(r));
        EXPECT_EQ(r.IntHeader("X-Credits-Cost"), 0);
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0);
        // The key's own figures, not an anonymous caller's zeros; the call counts in its minute.
        EXPECT_EQ(r.IntHeader("X-Credits-Limit"), 5000);
        EXPECT_EQ(r.IntHeader("X-Credits-Remaining"), 5000);
        EXPECT_EQ(r.IntHeader("X-RateLimit-Limit"), 100);
        EXPECT_LE(r.IntHeader("X-RateLimit-Remaining").value_or(-1), 100 - calls);
    }
    HttpResponse anonymous = D().Get("/v1/nada");
    EXPECT_TRUE(IsProblem(anonymous, 404, kBaseUrl, "/v1/nada", std::nullopt));
    EXPECT_EQ(anonymous.IntHeader("X-Credits-Charged"), 0);
    EXPECT_EQ(anonymous.IntHeader("X-Credits-Limit"), 0);
    HttpResponse wrong_key = D().Get("/v1/nada", "not-a-key");
    EXPECT_TRUE(IsProblem(wrong_key, 404, kBaseUrl, "/v1/nada", std::nullopt));
    EXPECT_EQ(wrong_key.IntHeader("X-Credits-Limit"), 0);
    HttpResponse outside = D().Get("/nada");
    EXPECT_TRUE(IsProblem(outside, 404, kBaseUrl, "/nada", std::nullopt));
}

// One canonical path before anything looks at it (issue 20): an encoded /v1 is /v1 for billing
// as for routing, and an encoded slash never reaches a route.
TEST_P(ApiTest, EncodedPathsAreBilledAsTheirDecodedPathAndEncodedSlashesAreRefused) {
    const std::string key = D().RoomyKey();
    for (const char* path : {"/%761/fundos?limit=1", "/%76%31/fundos?limit=1", "/v1/%66undos?limit=1"}) {
        SCOPED_TRACE(path);
        HttpResponse r = D().Get(path, key);
        EXPECT_EQ(r.status, 200) << r.Describe();
        EXPECT_TRUE(HasBillingHeaders(r)) << "every /v1 answer carries the credit and rate headers";
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 1);
    }
    HttpResponse unknown = D().Get("/%76%31/classes/" + RandomUuid() + "/snapshot", key);
    EXPECT_EQ(unknown.status, 404) << unknown.Describe();
    EXPECT_TRUE(HasBillingHeaders(unknown));
    for (const char* path : {"/v1%2Ffundos", "/v1%2ffundos", "/v1/fundos%2F", "/%76%31%2Ffundos"}) {
        SCOPED_TRACE(path);
        HttpResponse r = D().Get(path, key);
        EXPECT_TRUE(IsProblem(r, 400, kBaseUrl, path, std::nullopt)) << r.Describe();
        EXPECT_NE(r.body.find("encoded '/' (%2F)"), std::string::npos) << r.body;
        EXPECT_TRUE(HasBillingHeaders(r));
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0);
    }
}

TEST_P(ApiTest, TheBearerSchemeIsCaseInsensitive) {
    const std::string key = D().RoomyKey();
    for (const char* scheme : {"bearer", "BEARER", "bEaReR"}) {
        SCOPED_TRACE(scheme);
        HttpRequest request;
        request.target = "/v1/fundos?limit=1";
        request.headers = {std::string("Authorization: ") + scheme + " " + key};
        HttpResponse r = D().Http().Send(request);
        EXPECT_EQ(r.status, 200) << r.Describe();
    }
    HttpRequest basic;
    basic.target = "/v1/fundos?limit=1";
    basic.headers = {"Authorization: Basic " + key};
    EXPECT_EQ(D().Http().Send(basic).status, 401);
}

TEST_P(ApiTest, AWellWrittenMonthOutOfRangeIsSaidToBeOutOfRange) {
    const std::string key = D().RoomyKey();
    const std::string path = "/v1/classes/" + RandomUuid() + "/snapshot";
    HttpResponse r = D().Get(path + "?month=9999-12", key);
    EXPECT_TRUE(IsProblem(r, 422, kBaseUrl, path, "month")) << r.Describe();
    EXPECT_NE(r.body.find("month 9999-12 is out of range: months run from 1900-01 to 2999-12"),
              std::string::npos)
        << r.body;
    HttpResponse malformed = D().Get("/v1/classes/" + RandomUuid() + "/snapshot?month=2024-13", key);
    EXPECT_NE(malformed.body.find("month must be a month written YYYY-MM"), std::string::npos)
        << malformed.body;
}

TEST_P(ApiTest, OtherMethodsAre405WithAllow) {
    const std::string key = D().RoomyKey();
    for (const char* method : {"POST", "PUT", "DELETE"}) {
        SCOPED_TRACE(method);
        HttpRequest request;
        request.method = method;
        request.target = "/v1/fundos";
        request.headers = {"Authorization: Bearer " + key};
        HttpResponse r = D().Http().Send(request);
        EXPECT_TRUE(IsProblem(r, 405, kBaseUrl, "/v1/fundos", std::nullopt));
        EXPECT_EQ(r.Header("Allow").value_or("(absent)"), "GET") << r.Describe();
        EXPECT_TRUE(HasBillingHeaders(r));
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0);
    }
    HttpRequest post_health;
    post_health.method = "POST";
    post_health.target = "/health";
    HttpResponse r = D().Http().Send(post_health);
    EXPECT_TRUE(IsProblem(r, 405, kBaseUrl, "/health", std::nullopt));
    EXPECT_EQ(r.Header("Allow").value_or("(absent)"), "GET") << r.Describe();
}

TEST_P(ApiTest, BodyOfAnotherMediaTypeIs415) {
    const std::string key = D().RoomyKey();
    HttpRequest request;
    request.target = "/v1/fundos";
    request.headers = {"Authorization: Bearer " + key, "Content-Type: text/plain"};
    request.body = "hello";
    HttpResponse r = D().Http().Send(request);
    ASSERT_EQ(r.status, 415) << r.Describe();
    EXPECT_EQ(r.Header("Content-Type").value_or("(absent)"), "application/json")
        << "contract 7: the 415 body is application/json";
    const boost::json::object body = AsObject(r.Json());
    EXPECT_EQ(Str(body, "type"), std::string(kBaseUrl) + "/problems/http-415");
    EXPECT_EQ(Str(body, "title"), "Unsupported media type");
    EXPECT_EQ(At(body, "status").as_int64(), 415);
    EXPECT_EQ(Str(body, "instance"), "/v1/fundos");
    EXPECT_TRUE(IsUuid(Str(body, "request_id")));
    EXPECT_EQ(r.Header("X-Request-Id").value_or("(absent)"), Str(body, "request_id"));
    EXPECT_TRUE(HasBillingHeaders(r));
    EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0);
}

TEST_P(ApiTest, OversizedRequestsAreRefusedAndTheServerLivesOn) {
    const std::string key = D().RoomyKey();
    HttpRequest big_header;
    big_header.target = "/v1/fundos";
    big_header.headers = {"Authorization: Bearer " + key, "X-Pad: " + std::string(20000, 'a')};
    HttpResponse r = D().Http().Send(big_header);
    EXPECT_GE(r.status, 400) << r.Describe();
    EXPECT_LT(r.status, 500) << r.Describe();
    EXPECT_EQ(r.Header("Content-Type").value_or("(absent)"), "application/problem+json")
        << "contract 2.3: every error is a problem record\n"
        << r.Describe();

    HttpResponse long_target = D().Get("/v1/fundos?q=" + std::string(20000, 'a'), key);
    EXPECT_GE(long_target.status, 400) << long_target.Describe();
    EXPECT_LT(long_target.status, 500) << long_target.Describe();

    HttpResponse health = D().Get("/health");
    EXPECT_EQ(health.status, 200) << health.Describe();
    EXPECT_FALSE(D().Server().Process().Exited()) << D().Server().Process().Output();
    HttpResponse still = D().Get("/v1/fundos?limit=1", key);
    EXPECT_TRUE(IsEnvelope(still));
}

// Billed answers leave from the ledger writer's thread, formatted as raw bytes: they must be
// framed by their Content-Length so that the connection serves the next request, carry the
// billing headers, and an HTTP/1.0 client gets an HTTP/1.0 status line. Each request waits
// for the previous answer here; PipelinedRequestsAreEachAnsweredInOrder sends them together.
TEST_P(ApiTest, AnswersOnOneConnectionAreFramedAndKeepItAlive) {
    const std::string key = D().RoomyKey();
    const std::string cnpj = Str(D().AllItems("/v1/fundos").front(), "cnpj");
    RawConnection connection(D().Http().Port());
    ASSERT_TRUE(connection.Connected());
    const std::string auth = "Authorization: Bearer " + key + "\r\n";
    auto ask = [&connection](const std::string& request) {
        return connection.Write(request) ? connection.Read() : std::nullopt;
    };
    // A billed call, an unbilled one, and a billed 404, one after the other.
    auto first = ask("GET /v1/resolve?cnpj=" + cnpj + " HTTP/1.1\r\nHost: lastro\r\n" + auth + "\r\n");
    auto second = ask("GET /health HTTP/1.1\r\nHost: lastro\r\n\r\n");
    auto third = ask("GET /v1/classes/" + RandomUuid() + " HTTP/1.1\r\nHost: lastro\r\n" + auth + "\r\n");
    ASSERT_TRUE(first && second && third) << "three answers on one connection";
    EXPECT_EQ(first->StatusLine(), "HTTP/1.1 200 OK");
    EXPECT_TRUE(first->HasHeader("Connection: Keep-Alive")) << first->head;
    EXPECT_TRUE(first->HasHeader("Content-Type: application/json")) << first->head;
    EXPECT_NE(first->head.find("\r\nX-Credits-Charged: "), std::string::npos) << first->head;
    EXPECT_NE(first->body.find("\"cnpj\":\"" + cnpj + "\""), std::string::npos) << first->body;
    EXPECT_EQ(second->StatusLine(), "HTTP/1.1 200 OK");
    EXPECT_EQ(second->head.find("X-Credits-Charged"), std::string::npos) << "/health is not billed";
    EXPECT_EQ(third->StatusLine(), "HTTP/1.1 404 Not Found");
    EXPECT_TRUE(third->HasHeader("Content-Type: application/problem+json")) << third->head;

    auto old = ask("GET /health HTTP/1.0\r\n\r\n");
    ASSERT_TRUE(old) << "an answer to HTTP/1.0";
    EXPECT_EQ(old->StatusLine(), "HTTP/1.0 200 OK");
    EXPECT_TRUE(old->HasHeader("Connection: Close")) << old->head;
}

// Billed answers are queued on their connection from the ledger writer's thread, formatted as
// raw bytes (transport/connection.cpp). A large one, to a client with a small receive buffer
// that waits before reading, must still arrive whole and framed, and the answers after it on
// the same connection must follow it.
TEST_P(ApiTest, ALargeAnswerToASlowReaderArrivesWholeAndBeforeTheNext) {
    const std::string key = D().RoomyKey();
    const std::string cnpj = Str(D().AllItems("/v1/fundos").front(), "cnpj");
    RawConnection connection(D().Http().Port(), 4096);
    ASSERT_TRUE(connection.Connected());
    const std::string auth = "Authorization: Bearer " + key + "\r\n";
    ASSERT_TRUE(connection.Write("GET /v1/fundos?limit=100 HTTP/1.1\r\nHost: lastro\r\n" + auth + "\r\n"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the server fills the socket
    auto large = connection.Read();
    ASSERT_TRUE(large) << "the large answer, framed";
    EXPECT_EQ(large->StatusLine(), "HTTP/1.1 200 OK");
    ASSERT_GT(large->body.size(), 32u * 1024) << "large enough not to fit the socket at once";
    auto page = boost::json::parse(large->body);
    EXPECT_EQ(page.at("data").as_array().size(), 100u);

    for (int i = 0; i < 3; ++i) {  // billed and unbilled answers after it, each whole
        ASSERT_TRUE(connection.Write("GET /v1/resolve?cnpj=" + cnpj + " HTTP/1.1\r\nHost: lastro\r\n" + auth +
                                     "\r\n"));
        auto resolved = connection.Read();
        ASSERT_TRUE(resolved) << "answer " << i << " after the large one";
        EXPECT_EQ(resolved->StatusLine(), "HTTP/1.1 200 OK");
        EXPECT_NE(resolved->body.find("\"cnpj\":\"" + cnpj + "\""), std::string::npos) << resolved->body;
        ASSERT_TRUE(connection.Write("GET /health HTTP/1.1\r\nHost: lastro\r\n\r\n"));
        auto health = connection.Read();
        ASSERT_TRUE(health) << "health " << i << " after the large one";
        EXPECT_EQ(health->StatusLine(), "HTTP/1.1 200 OK");
    }
}

// Pistache ends connections itself, as configured (docs/configuration.md): an idle one after
// server.keepalive_timeout_ms, and one whose request head stalls after
// server.header_timeout_ms, with a 408. The connection must really close then, so that a
// client never waits on a socket the server has forgotten.
TEST_P(ApiTest, IdleAndStalledConnectionsAreClosed) {
    std::optional<Deployment::ServerAside> aside(D().SetServerAsideOnSqlite());
    std::string text = D().ConfigText(D().Dir() / "timeouts-access.log", D().Instance() + "-timeouts");
    text.insert(text.find("server:\n") + 8, "  keepalive_timeout_ms: 1000\n  header_timeout_ms: 1000\n");
    const std::filesystem::path config = D().Dir() / "timeouts.yaml";
    std::ofstream(config) << text;
    std::unique_ptr<Lastrod> server = Lastrod::Start(config);
    const std::string key = D().RoomyKey();

    RawConnection idle(server->Port());
    ASSERT_TRUE(idle.Connected());
    ASSERT_TRUE(idle.Write("GET /v1/fundos?limit=1 HTTP/1.1\r\nHost: lastro\r\nAuthorization: Bearer " + key +
                           "\r\n\r\n"));
    auto billed = idle.Read();
    ASSERT_TRUE(billed);
    EXPECT_EQ(billed->StatusLine(), "HTTP/1.1 200 OK");
    EXPECT_TRUE(idle.ClosedByServer()) << "an idle connection is closed after the keep-alive timeout";

    RawConnection stalled(server->Port());
    ASSERT_TRUE(stalled.Connected());
    ASSERT_TRUE(stalled.Write("GET /health HTT"));
    auto timeout = stalled.Read();
    ASSERT_TRUE(timeout);
    EXPECT_EQ(timeout->StatusLine(), "HTTP/1.1 408 Request Timeout");
    EXPECT_TRUE(stalled.ClosedByServer()) << "a stalled request's connection is closed after its 408";
}

// Whatever answers (the wire layer or the pipeline), a malformed request gets a problem record
// without internal text, and a /v1 path keeps its X-Request-Id (issue 20, item 5). Each case
// on a fresh connection: the wire layer closes a connection whose framing it cannot trust.
TEST_P(ApiTest, MalformedRequestsGetProblemsWithoutInternalText) {
    struct Case {
        std::string name;
        std::string request;
        int status;
    };
    const std::string v1 = "GET /v1/fundos?limit=1 HTTP/1.1\r\nHost: lastro\r\n";
    std::string repeated = "GET /v1/fundos?limit=1";
    while (repeated.size() < 56 * 1024) {
        repeated += "&limit=1";
    }
    const std::vector<Case> cases = {
        {"negative Content-Length", v1 + "Content-Length: -1\r\n\r\n", 400},
        {"23-digit Content-Length", v1 + "Content-Length: 12345678901234567890123\r\n\r\n", 413},
        {"Content-Length not a number", v1 + "Content-Length: 12abc\r\n\r\n", 400},
        {"two different Content-Lengths", v1 + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400},
        {"huge chunk size", v1 + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n", 400},
        {"chunked and Content-Length",
         v1 + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n", 400},
        {"HTTP/1.1 without Host", "GET /v1/fundos?limit=1 HTTP/1.1\r\n\r\n", 400},
        {"two Hosts", v1 + "Host: other\r\n\r\n", 400},
        {"repeated parameters past the size limit", repeated + " HTTP/1.1\r\nHost: lastro\r\n\r\n", 413},
        {"unknown version", "GET /v1/fundos HTTP/2.7\r\nHost: lastro\r\n\r\n", 400},
        {"no version", "GET /v1/fundos\r\nHost: lastro\r\n\r\n", 400},
        {"header without a colon", v1 + "Nonsense\r\n\r\n", 400},
        {"space before the colon", v1 + "X-A : b\r\n\r\n", 400},
        {"control byte in the target", "GET /v1/fu\x01ndos HTTP/1.1\r\nHost: lastro\r\n\r\n", 400},
        {"Content-Length with a leading zero",
         v1 + "Content-Type: application/json\r\nContent-Length: 02\r\n\r\n{}", 400},
        {"five empty lines before the request line", "\r\n\r\n\r\n\r\n\r\n" + v1 + "\r\n", 400},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        RawConnection connection(D().Http().Port());
        ASSERT_TRUE(connection.Connected());
        ASSERT_TRUE(connection.Write(c.request));
        auto answer = connection.Read();
        ASSERT_TRUE(answer) << "an answer, framed by its Content-Length";
        EXPECT_EQ(answer->StatusLine().substr(0, 12), "HTTP/1.1 " + std::to_string(c.status)) << answer->head;
        EXPECT_TRUE(answer->HasHeader("Content-Type: application/problem+json")) << answer->head;
        EXPECT_NE(answer->head.find("\r\nX-Request-Id: "), std::string::npos) << answer->head;
        boost::system::error_code ec;
        boost::json::value body = boost::json::parse(answer->body, ec);
        ASSERT_FALSE(ec) << answer->body;
        EXPECT_EQ(body.at("status").as_int64(), c.status) << answer->body;
        for (const char* internal : {"basic_string", "stoull", "stoul", "bad_alloc", "exceeded", "what()"}) {
            EXPECT_EQ(answer->body.find(internal), std::string::npos) << answer->body;
        }
        EXPECT_TRUE(connection.ClosedByServer())
            << "a request whose framing is not trusted ends its connection";
    }
    // A garbled request line: no path to speak of, still a problem record.
    RawConnection garbage(D().Http().Port());
    ASSERT_TRUE(garbage.Write("HELLO\r\n\r\n"));
    auto answer = garbage.Read();
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->StatusLine(), "HTTP/1.1 400 Bad Request");
    EXPECT_TRUE(answer->HasHeader("Content-Type: application/problem+json")) << answer->head;
    EXPECT_TRUE(garbage.ClosedByServer());

    HttpResponse health = D().Get("/health");
    EXPECT_EQ(health.status, 200) << health.Describe();
}

// HEAD is answered like any other method but GET (405 with Allow), and never with a body: a
// body would be read as the start of the next answer on a kept-alive connection.
TEST_P(ApiTest, HeadGets405WithoutABodyAndTheConnectionStaysInStep) {
    const std::string key = D().RoomyKey();
    RawConnection connection(D().Http().Port());
    ASSERT_TRUE(connection.Connected());
    for (const std::string target : {"/health", "/v1/fundos?limit=1"}) {
        SCOPED_TRACE(target);
        ASSERT_TRUE(connection.Write(
            "HEAD " + target + " HTTP/1.1\r\nHost: lastro\r\nAuthorization: Bearer " + key + "\r\n\r\n"));
        auto head = connection.Read(true);
        ASSERT_TRUE(head);
        EXPECT_EQ(head->StatusLine(), "HTTP/1.1 405 Method Not Allowed");
        EXPECT_TRUE(head->HasHeader("Allow: GET")) << head->head;
        EXPECT_NE(head->head.find("\r\nX-Request-Id: "), std::string::npos) << head->head;
        ASSERT_TRUE(connection.Write("GET /health HTTP/1.1\r\nHost: lastro\r\n\r\n"));
        auto next = connection.Read();
        ASSERT_TRUE(next) << "the next answer on the connection";
        EXPECT_EQ(next->StatusLine(), "HTTP/1.1 200 OK") << "no stray body before it";
    }
}

// "Connection: close" (and HTTP/1.0 without keep-alive) ends the connection right after the
// answer, billed or not.
TEST_P(ApiTest, ConnectionCloseClosesRightAfterTheAnswer) {
    const std::string key = D().RoomyKey();
    for (const std::string& request :
         {std::string("GET /health HTTP/1.1\r\nHost: lastro\r\nConnection: close\r\n\r\n"),
          "GET /v1/fundos?limit=1 HTTP/1.1\r\nHost: lastro\r\nConnection: close\r\nAuthorization: Bearer " +
              key + "\r\n\r\n",
          std::string("GET /health HTTP/1.0\r\n\r\n")}) {
        SCOPED_TRACE(request);
        RawConnection connection(D().Http().Port());
        ASSERT_TRUE(connection.Write(request));
        auto answer = connection.Read();
        ASSERT_TRUE(answer);
        EXPECT_EQ(answer->StatusLine().substr(9, 3), "200") << answer->head;
        EXPECT_TRUE(answer->HasHeader("Connection: Close")) << answer->head;
        EXPECT_TRUE(connection.ClosedByServer()) << "closed after the answer, not at the keep-alive timeout";
    }
}

// A client may send its request and half-close (shutdown(SHUT_WR)): HTTP lets it read the
// answer, and a billed call must not be charged without one (issue 20, item 3).
TEST_P(ApiTest, AHalfClosedClientStillGetsItsAnswers) {
    const std::string key = D().RoomyKey();
    const std::string auth = "Authorization: Bearer " + key + "\r\n";
    RawConnection connection(D().Http().Port());
    ASSERT_TRUE(connection.Connected());
    ASSERT_TRUE(connection.Write("GET /v1/fundos?limit=2 HTTP/1.1\r\nHost: lastro\r\n" + auth +
                                 "\r\nGET /health HTTP/1.1\r\nHost: lastro\r\n\r\n"));
    connection.HalfClose();
    auto billed = connection.Read();
    ASSERT_TRUE(billed) << "the billed answer reaches the half-closed client";
    EXPECT_EQ(billed->StatusLine(), "HTTP/1.1 200 OK");
    EXPECT_NE(billed->head.find("\r\nX-Credits-Charged: 1"), std::string::npos) << billed->head;
    EXPECT_EQ(boost::json::parse(billed->body).at("data").as_array().size(), 2u);
    auto health = connection.Read();
    ASSERT_TRUE(health) << "and the pipelined one after it";
    EXPECT_EQ(health->StatusLine(), "HTTP/1.1 200 OK");
    EXPECT_TRUE(connection.ClosedByServer()) << "then the server closes its side";
}

// Requests pipelined into one write are each answered, in order (they used to be dropped
// after the first).
TEST_P(ApiTest, PipelinedRequestsAreEachAnsweredInOrder) {
    const std::string key = D().RoomyKey();
    const std::string auth = "Authorization: Bearer " + key + "\r\n";
    RawConnection connection(D().Http().Port());
    std::string batch;
    for (int i = 0; i < 5; ++i) {
        batch +=
            "GET /v1/fundos?limit=" + std::to_string(i + 1) + " HTTP/1.1\r\nHost: lastro\r\n" + auth + "\r\n";
        batch += "GET /health HTTP/1.1\r\nHost: lastro\r\n\r\n";
    }
    ASSERT_TRUE(connection.Write(batch));
    for (int i = 0; i < 5; ++i) {
        auto billed = connection.Read();
        ASSERT_TRUE(billed) << "billed answer " << i;
        EXPECT_EQ(billed->StatusLine(), "HTTP/1.1 200 OK");
        EXPECT_EQ(boost::json::parse(billed->body).at("meta").at("pagination").at("limit").as_int64(), i + 1);
        auto health = connection.Read();
        ASSERT_TRUE(health) << "health " << i;
        EXPECT_NE(health->body.find("\"status\""), std::string::npos) << health->body;
    }
}

// One connection that sends requests and never reads must not make lastrod hold their answers
// without bound (issue 20, item 2): the server stops taking requests from it once its unsent
// answers reach a bound, so its memory stays flat however much the client sends.
TEST_P(ApiTest, AClientThatNeverReadsCannotGrowTheServersMemory) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer keeps freed memory in quarantine: resident memory says nothing here";
#endif
    const pid_t pid = D().Server().Process().Pid();
    ASSERT_TRUE(D().Get("/pricing").status == 200);
    const std::int64_t before = ResidentKb(pid);
    ASSERT_GT(before, 0);
    {
        RawConnection connection(D().Http().Port(), 4096);
        ASSERT_TRUE(connection.Connected());
        // Each request exactly one read of Pistache's (4096 bytes), so that each becomes an
        // answer whatever the server reads at a time.
        const std::string start = "GET /pricing HTTP/1.1\r\nHost: lastro\r\nX-Pad: ";
        const std::string request = start + std::string(4096 - start.size() - 4, 'p') + "\r\n\r\n";
        ASSERT_EQ(request.size(), 4096u);
        std::size_t sent = 0;
        connection.SendTimeout(2);
        while (sent < 40000 && connection.Write(request)) {
            ++sent;
        }
        // The server works through what it read; the largest resident size it reaches counts.
        std::int64_t peak = ResidentKb(pid);
        for (int i = 0; i < 20; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            peak = std::max(peak, ResidentKb(pid));
        }
        std::cout << "[ growth   ] " << (peak - before) << " kB after " << sent << " requests never read\n";
        EXPECT_LT(peak - before, 16 * 1024) << "kB of growth after " << sent << " requests never read";
    }
    HttpResponse health = D().Get("/health");
    EXPECT_EQ(health.status, 200) << health.Describe();
}

}  // namespace
}  // namespace lastro::e2e
