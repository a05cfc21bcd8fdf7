// The success envelope and the problem records (contract 2.2, 2.3, 7), and what the server
// does with requests that are not plain GETs: other methods, bodies, oversized requests.
#include "api_fixture.hpp"

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
#include <memory>
#include <optional>
#include <thread>

namespace lastro::e2e {
namespace {

// One TCP connection that writes bytes as given and reads answers off the wire, for what
// libcurl would hide: the status line, the framing, pipelined requests.
class RawConnection {
public:
    // `receive_buffer` (bytes, 0 for the system's default) bounds what the server can send
    // before this side reads.
    explicit RawConnection(std::uint16_t port, int receive_buffer = 0)
        : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
        timeval timeout{10, 0};  // a missing answer fails the test instead of hanging it
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        if (receive_buffer > 0) {
            ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
        }
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    }
    ~RawConnection() { ::close(fd_); }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    bool Connected() const { return connected_; }
    bool Write(const std::string& bytes) {
        return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
    }

    struct Answer {
        std::string head;  // status line and headers, without the blank line
        std::string body;
        std::string StatusLine() const { return head.substr(0, head.find("\r\n")); }
        bool HasHeader(const std::string& line) const {
            return head.find("\r\n" + line + "\r\n") != std::string::npos || head.ends_with("\r\n" + line);
        }
    };
    // The next answer, framed by its Content-Length; nullopt when none arrives in time.
    std::optional<Answer> Read() {
        for (;;) {
            const std::size_t end = buffer_.find("\r\n\r\n");
            if (end != std::string::npos) {
                Answer answer{buffer_.substr(0, end), {}};
                const std::string field = "\r\nContent-Length: ";
                const std::size_t at = answer.head.find(field);
                if (at == std::string::npos) {
                    return std::nullopt;
                }
                const std::size_t length = std::stoul(answer.head.substr(at + field.size()));
                if (buffer_.size() >= end + 4 + length) {
                    answer.body = buffer_.substr(end + 4, length);
                    buffer_.erase(0, end + 4 + length);
                    return answer;
                }
            }
            char chunk[4096];
            const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
            if (got <= 0) {
                return std::nullopt;
            }
            buffer_.append(chunk, static_cast<std::size_t>(got));
        }
    }

    // Whether the server closes the connection (end of stream) before the receive timeout,
    // reading past anything it still sends.
    bool ClosedByServer() {
        char chunk[4096];
        for (;;) {
            const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
            if (got == 0) {
                return true;
            }
            if (got < 0) {
                return false;
            }
        }
    }

private:
    int fd_;
    bool connected_ = false;
    std::string buffer_;
};

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
// for the previous answer: Pistache 0.0.5 answers only the first of requests that arrive
// together (docs/operations.md).
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
// raw bytes (http/pistache_server.cpp). A large one, to a client with a small receive buffer
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

}  // namespace
}  // namespace lastro::e2e
