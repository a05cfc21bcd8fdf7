// What a hostile client found around lastrod's own HTTP framing (issue 51), each case replayed
// on the wire of a real lastrod with raw sockets: what one connection may hold in bytes, a
// flood of empty lines, answers that never reach their client (and are not charged), the
// billing headers of refusals, blank and Unicode filters.
#include "api_fixture.hpp"
#include "raw_connection.hpp"

#include <lastro/sdk/testing/ledger.hpp>

#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace lastro::e2e {
namespace {

constexpr const char* kBundle = "/docs/swagger-ui-bundle.js";  // 1.7 MB, served without a key

std::string Get(const std::string& target, const std::string& key = "") {
    std::string request = "GET " + target + " HTTP/1.1\r\nHost: lastro\r\n";
    if (!key.empty()) {
        request += "Authorization: Bearer " + key + "\r\n";
    }
    return request + "\r\n";
}

// `count` requests for `target`, pipelined into one write.
std::string Pipelined(int count, const std::string& target, const std::string& key = "") {
    std::string requests;
    for (int i = 0; i < count; ++i) {
        requests += Get(target, key);
    }
    return requests;
}

// CPU time of process `pid` (user and system), in seconds.
double CpuSeconds(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    std::string field;
    long ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {
        if (i == 14 || i == 15) {
            ticks += std::stol(field);
        }
    }
    return static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Reads every answer until the server ends the connection; each is whole (framed by its
// Content-Length) or not counted.
std::vector<RawConnection::Answer> ReadAll(RawConnection& connection) {
    std::vector<RawConnection::Answer> answers;
    while (auto answer = connection.Read()) {
        answers.push_back(std::move(*answer));
    }
    return answers;
}

std::int64_t ChargedIn(const std::vector<RawConnection::Answer>& answers) {
    std::int64_t charged = 0;
    for (const auto& answer : answers) {
        charged += std::stoll(answer.Header("X-Credits-Charged").value_or("0"));
    }
    return charged;
}

// The key's month once its ledger has settled: every reservation settled and, when
// `charged` is given, its charged credits equal to it (charges taken back land a batch after
// the answer), waiting at most about ten seconds.
KeyUsage SettledUsage(const Deployment& d, std::int64_t key_id, std::optional<std::int64_t> charged,
                      std::time_t started) {
    KeyUsage usage;
    for (int i = 0; i < 50; ++i) {
        usage = ReadKeyUsage(d, key_id, UtcMonth(started));
        if (usage.reserved == 0 && (!charged || usage.charged == *charged)) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return usage;
}

// Item 1: what one connection holds was bounded by count (32 answers), not by bytes: 32
// pipelined requests for the 1.7 MB bundle held 53 MB, and eight never-reading connections
// took lastrod from 60 to 492 MB. Now a connection starts a request only once less than 1 MiB
// waits for its client, and the bundle is one shared body.
TEST_P(ApiTest, ConnectionsThatNeverReadHoldLittleWhateverTheyAskFor) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer keeps freed memory in quarantine: resident memory says nothing here";
#endif
    const pid_t pid = D().Server().Process().Pid();
    const std::string key = D().RoomyKey();
    ASSERT_EQ(D().Get(kBundle).status, 200);
    ASSERT_EQ(D().Get("/v1/fundos?limit=100", key).status, 200);
    const std::int64_t before = ResidentKb(pid);
    ASSERT_GT(before, 0);
    const std::string documents = Pipelined(32, kBundle);
    const std::string billed = Pipelined(32, "/v1/fundos?limit=100", key);
    std::vector<std::unique_ptr<RawConnection>> connections;
    for (int i = 0; i < 8; ++i) {
        auto connection = std::make_unique<RawConnection>(D().Http().Port(), 4096);
        ASSERT_TRUE(connection->Connected());
        connection->SendTimeout(2);
        ASSERT_TRUE(connection->Write(i % 2 == 0 ? documents : billed));
        connections.push_back(std::move(connection));
    }
    std::int64_t peak = ResidentKb(pid);
    for (int i = 0; i < 20; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        peak = std::max(peak, ResidentKb(pid));
    }
    std::cout << "[ growth   ] " << (peak - before) << " kB with 8 connections of 32 unread answers each\n";
    EXPECT_LT(peak - before, 24 * 1024) << "kB held for connections that never read";
    HttpResponse health = D().Get("/health");
    EXPECT_EQ(health.status, 200) << health.Describe();
}

// Item 2: empty lines before a request line were skipped without bound, outside the size
// limit, and rescanned on every read (a core pinned by one connection; 100 KB of them and a
// request answered 200). Now more than four are refused at once, and the server lives on.
TEST_P(ApiTest, AFloodOfEmptyLinesIsRefusedAtOnce) {
    const pid_t pid = D().Server().Process().Pid();
    std::string lines;
    while (lines.size() < 100 * 1024) {
        lines += "\r\n";
    }
    {
        RawConnection connection(D().Http().Port());
        ASSERT_TRUE(connection.Write(lines + Get("/health")));
        auto answer = connection.Read();
        ASSERT_TRUE(answer);
        EXPECT_EQ(answer->StatusLine(), "HTTP/1.1 400 Bad Request");
        EXPECT_NE(answer->body.find("empty lines"), std::string::npos) << answer->body;
        EXPECT_TRUE(connection.ClosedByServer());
    }
    // Eight connections flood for two seconds, reconnecting whenever the server ends one,
    // while /health is asked once every 100 ms.
    const double cpu_before = CpuSeconds(pid);
    std::atomic<bool> stop{false};
    std::atomic<int> refused{0};
    std::vector<std::thread> flooders;
    for (int i = 0; i < 8; ++i) {
        flooders.emplace_back([&] {
            std::string crlf;
            while (crlf.size() < 16 * 1024) {
                crlf += "\r\n";
            }
            while (!stop) {
                RawConnection connection(D().Http().Port());
                connection.SendTimeout(1);
                if (!connection.Write(crlf)) {
                    continue;
                }
                if (auto answer = connection.Read();
                    answer && answer->StatusLine().find(" 400 ") != std::string::npos) {
                    ++refused;
                }
                while (!stop && connection.Write(crlf)) {  // what it sends after is dropped, then cut off
                }
            }
        });
    }
    int health_ok = 0, health_asked = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (std::chrono::steady_clock::now() < until) {
        ++health_asked;
        health_ok += D().Get("/health").status == 200 ? 1 : 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    stop = true;
    for (std::thread& t : flooders) {
        t.join();
    }
    std::cout << "[ flood    ] " << refused << " flooding connections refused; lastrod used "
              << (CpuSeconds(pid) - cpu_before) << " s of CPU in 2 s\n";
    EXPECT_GT(refused.load(), 0);
    EXPECT_EQ(health_ok, health_asked) << "/health answers during the flood";
}

// Item 3: answers charged and thrown away. A client that asks for large documents and 20
// billed pages, then half-closes, reads every answer; credits are charged for exactly the
// billed answers it received whole.
TEST_P(ApiTest, AHalfClosedClientReceivesEveryAnswerItIsChargedFor) {
    const std::time_t started = std::time(nullptr);
    const CreatedKey key = D().CreateKeyWithId({1000000, 100000, "", ""});
    RawConnection connection(D().Http().Port());
    ASSERT_TRUE(connection.Connected());
    ASSERT_TRUE(connection.Write(Pipelined(3, kBundle) + Pipelined(20, "/v1/fundos?limit=100", key.secret)));
    connection.HalfClose();
    const std::vector<RawConnection::Answer> answers = ReadAll(connection);
    ASSERT_EQ(answers.size(), 23u) << "every answer, whole";
    EXPECT_EQ(answers[0].body, D().Get(kBundle).body);
    EXPECT_EQ(ChargedIn(answers), 20);
    const KeyUsage usage = SettledUsage(D(), key.id, 20, started);
    EXPECT_EQ(usage.charged, 20) << "charged as the answers received whole said";
    EXPECT_EQ(usage.ledger_charged, usage.charged);
}

// Item 3, past the owed limit: three large documents and 30 billed pages pipelined, all read.
// lastrod used to shut its reading side at the 33rd request and close the socket with the
// charged answers unsent (0 of 29 arrived, 29 charged). Now it takes 32, answers them all
// whole, and the 33rd is neither read, answered nor charged.
TEST_P(ApiTest, PastTheOwedLimitWhatIsTakenIsAnsweredWholeAndTheRestIsNotCharged) {
    const std::time_t started = std::time(nullptr);
    const CreatedKey key = D().CreateKeyWithId({1000000, 100000, "", ""});
    RawConnection connection(D().Http().Port(), 4096);
    ASSERT_TRUE(connection.Write(Pipelined(3, kBundle) + Pipelined(30, "/v1/fundos?limit=100", key.secret)));
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // then reads, at its own pace
    const std::vector<RawConnection::Answer> answers = ReadAll(connection);
    EXPECT_EQ(answers.size(), 32u);
    for (const auto& answer : answers) {
        EXPECT_EQ(answer.StatusLine(), "HTTP/1.1 200 OK");
    }
    const std::int64_t received = ChargedIn(answers);
    EXPECT_EQ(received, 29);
    const KeyUsage usage = SettledUsage(D(), key.id, received, started);
    EXPECT_EQ(usage.charged, received) << "charged exactly the answers received whole";
    EXPECT_EQ(usage.ledger_charged, usage.charged);
}

// Counts a key's ledger entries once the answers it never received are taken back: charged
// credits, and refunded entries of answers that had succeeded (taken back).
struct TakenBack {
    std::size_t calls = 0;
    std::int64_t charged = 0;
    std::int64_t taken_back = 0;
};
TakenBack ReadTakenBack(const Deployment& d, std::int64_t key_id, std::time_t started,
                        std::optional<std::int64_t> expected_charged) {
    TakenBack seen;
    for (int i = 0; i < 50; ++i) {
        const std::vector<LedgerEntry> entries = ReadLedger(d, UtcMonth(started), key_id);
        seen = {entries.size(), 0, 0};
        for (const LedgerEntry& e : entries) {
            seen.charged += e.state == "charged" ? e.price : 0;
            seen.taken_back += e.state == "refunded" && e.status == 200 ? 1 : 0;
        }
        if (seen.taken_back > 0 && (!expected_charged || seen.charged == *expected_charged)) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return seen;
}

// Items 3 and 4 on a server with short timeouts and a small kernel send buffer
// (server.socket_send_buffer_bytes), so that answers wait in lastrod rather than in the kernel:
// a request that stalls on a /v1 path gets its 408 with the billing headers; a client that
// stops reading is ended after the keep-alive timeout, and one that resets at once; what
// either never got whole is refunded.
TEST_P(ApiTest, TimeoutsAnswerWithTheV1HeadersAndRefundWhatWasNotSent) {
    std::optional<Deployment::ServerAside> aside(D().SetServerAsideOnSqlite());
    std::string text = D().ConfigText(D().Dir() / "hostile-access.log", D().Instance() + "-hostile");
    text.insert(
        text.find("server:\n") + 8,
        "  keepalive_timeout_ms: 1000\n  header_timeout_ms: 1000\n  socket_send_buffer_bytes: 65536\n");
    const std::filesystem::path config = D().Dir() / "hostile.yaml";
    std::ofstream(config) << text;
    std::unique_ptr<Lastrod> server = Lastrod::Start(config);

    RawConnection stalled(server->Port());
    ASSERT_TRUE(stalled.Write("GET /v1/fundos?limit=1 HTTP/1.1\r\nHost: lastro\r\n"));
    auto timeout = stalled.Read();
    ASSERT_TRUE(timeout);
    EXPECT_EQ(timeout->StatusLine(), "HTTP/1.1 408 Request Timeout");
    EXPECT_TRUE(timeout->HasHeader("Content-Type: application/problem+json")) << timeout->head;
    for (const char* header :
         {"X-Request-Id", "X-Credits-Cost", "X-Credits-Charged", "X-Credits-Remaining", "X-Credits-Limit",
          "X-Credits-Reset", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}) {
        EXPECT_TRUE(timeout->Header(header)) << header << " on a /v1 408\n" << timeout->head;
    }
    EXPECT_EQ(timeout->Header("X-Credits-Charged").value_or(""), "0");
    EXPECT_NE(timeout->body.find("\"instance\":\"/v1/fundos\""), std::string::npos) << timeout->body;
    EXPECT_TRUE(stalled.ClosedByServer());

    RawConnection other(server->Port());
    ASSERT_TRUE(other.Write("GET /heal"));
    auto plain = other.Read();
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->StatusLine(), "HTTP/1.1 408 Request Timeout");
    EXPECT_TRUE(plain->Header("X-Request-Id"));
    EXPECT_FALSE(plain->Header("X-Credits-Charged")) << "not a /v1 path";

    // A client that reads nothing: once it has not read for the keep-alive timeout, the
    // connection ends, and every answer not handed whole to the kernel is refunded. Those the
    // kernel took still reach the client (the connection ends with a FIN after them), so the
    // charge is exactly what it can read.
    const std::time_t started = std::time(nullptr);
    const CreatedKey key = D().CreateKeyWithId({1000000, 100000, "", ""});
    std::int64_t received = 0;
    {
        RawConnection deaf(server->Port(), 4096);
        ASSERT_TRUE(deaf.Write(Pipelined(30, "/v1/fundos?limit=100", key.secret)));
        std::this_thread::sleep_for(std::chrono::milliseconds(3000));  // past the timeout
        received = ChargedIn(ReadAll(deaf));
    }
    const TakenBack deaf = ReadTakenBack(D(), key.id, started, received);
    std::cout << "[ deaf     ] " << deaf.calls << " calls started, " << received
              << " answers received whole, " << deaf.charged << " charged, " << deaf.taken_back
              << " taken back\n";
    EXPECT_LT(deaf.calls, 30u) << "no request starts while 1 MiB waits for the client";
    EXPECT_GT(deaf.taken_back, 0);
    EXPECT_EQ(deaf.charged, received) << "charged exactly the answers the client could read whole";
    const KeyUsage usage = SettledUsage(D(), key.id, deaf.charged, started);
    EXPECT_EQ(usage.charged, deaf.charged);
    EXPECT_EQ(usage.ledger_charged, deaf.charged);

    // A client that stops reading and resets: what lastrod had not handed whole to the kernel
    // is refunded (the ledger entry goes from charged to refunded, its status kept). What the
    // kernel took whole and the reset threw away stays charged: lastrod cannot see it.
    const CreatedKey reset_key = D().CreateKeyWithId({1000000, 100000, "", ""});
    std::int64_t read_whole = 0;
    {
        RawConnection connection(server->Port(), 4096);
        ASSERT_TRUE(connection.Write(Pipelined(30, "/v1/fundos?limit=100", reset_key.secret)));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));  // lastrod fills what it may
        if (auto first = connection.Read()) {
            read_whole += std::stoll(first->Header("X-Credits-Charged").value_or("0"));
        }
        connection.Abort();
    }
    const TakenBack reset = ReadTakenBack(D(), reset_key.id, started, std::nullopt);
    std::cout << "[ reset    ] " << reset.calls << " calls started, " << reset.charged << " charged, "
              << reset.taken_back << " taken back\n";
    EXPECT_LT(reset.calls, 30u) << "no request starts while 1 MiB waits for the client";
    EXPECT_GT(reset.taken_back, 0) << "answers that never reached the kernel whole are refunded";
    EXPECT_GE(reset.charged, read_whole);
    const KeyUsage reset_usage = SettledUsage(D(), reset_key.id, reset.charged, started);
    EXPECT_EQ(reset_usage.charged, reset.charged);
    EXPECT_EQ(reset_usage.ledger_charged, reset.charged);
}

// Item 5: any method but GET on an operation's path is 405 before anything runs, and its
// headers used to report zeros for a valid key (a client that backs off on 0 stopped). Now they
// are the key's own, and it costs nothing.
TEST_P(ApiTest, OtherMethodsOnV1ReportTheKeysOwnFigures) {
    const std::string key = D().CreateKey({777777, 4321, "", ""});
    RawConnection connection(D().Http().Port());
    for (const std::string method : {"HEAD", "POST", "DELETE"}) {
        SCOPED_TRACE(method);
        std::string request =
            method + " /v1/fundos?limit=1 HTTP/1.1\r\nHost: lastro\r\nAuthorization: Bearer " + key + "\r\n";
        request +=
            method == "POST" ? "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}" : "\r\n";
        ASSERT_TRUE(connection.Write(request));
        auto answer = connection.Read(method == "HEAD");
        ASSERT_TRUE(answer);
        EXPECT_EQ(answer->StatusLine(), "HTTP/1.1 405 Method Not Allowed");
        EXPECT_EQ(answer->Header("X-Credits-Limit").value_or(""), "777777") << answer->head;
        EXPECT_EQ(answer->Header("X-RateLimit-Limit").value_or(""), "4321") << answer->head;
        EXPECT_NE(answer->Header("X-Credits-Remaining").value_or("0"), "0") << answer->head;
        EXPECT_EQ(answer->Header("X-Credits-Cost").value_or(""), "0");
        EXPECT_EQ(answer->Header("X-Credits-Charged").value_or(""), "0");
    }
    RawConnection anonymous(D().Http().Port());
    ASSERT_TRUE(anonymous.Write("HEAD /v1/fundos HTTP/1.1\r\nHost: lastro\r\n\r\n"));
    auto unknown = anonymous.Read(true);
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->Header("X-Credits-Limit").value_or(""), "0") << "no key: no account to describe";
}

// Item 6: a filter made only of blanks used to become no filter, and the unfiltered rows were
// charged. Now it is 422, like an empty one, and refunded.
TEST_P(ApiTest, AFilterOfBlanksIsRefusedNotWidened) {
    const std::string key = D().RoomyKey();
    for (const std::string target :
         {"/v1/fundos?status=%20", "/v1/fundos?manager=%20%20", "/v1/fundos?q=%20", "/v1/fundos?q=%09",
          "/v1/fundos?administrator=%C2%A0", "/v1/fundos?q=%E2%80%8B", "/v1/screening?manager=%20"}) {
        SCOPED_TRACE(target);
        HttpResponse r = D().Get(target, key);
        EXPECT_EQ(r.status, 422) << r.Describe();
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0);
        const boost::json::object body = AsObject(r.Json());
        EXPECT_NE(Str(body, "detail").find("must not be"), std::string::npos) << r.body;
    }
}

// Item 7: `q` is compared in one normal form (NFC), then as the search folds it: "É" typed as
// E + a combining accent finds what "É" finds, and a cursor of q=credito pages q=CREDITO on.
TEST_P(ApiTest, SearchTextIsNormalizedBeforeSearchAndCursor) {
    const std::string key = D().RoomyKey();
    auto ids = [](const HttpResponse& r) {
        std::set<std::string> out;
        const boost::json::value page = r.Json();
        for (const auto& item : page.at("data").as_array()) {
            out.insert(Str(AsObject(item), "fund_id"));
        }
        return out;
    };
    HttpResponse composed = D().Get("/v1/fundos?q=CR%C3%89DITO&limit=100", key);
    HttpResponse decomposed = D().Get("/v1/fundos?q=CRE%CC%81DITO&limit=100", key);
    ASSERT_EQ(composed.status, 200) << composed.Describe();
    ASSERT_EQ(decomposed.status, 200) << decomposed.Describe();
    ASSERT_FALSE(ids(composed).empty()) << "the sample has funds of credit";
    EXPECT_EQ(ids(decomposed), ids(composed));

    HttpResponse first = D().Get("/v1/fundos?q=credito&limit=1", key);
    ASSERT_EQ(first.status, 200) << first.Describe();
    const boost::json::value page = first.Json();
    const boost::json::object& pagination = page.at("meta").at("pagination").as_object();
    ASSERT_TRUE(pagination.at("next_cursor").is_string()) << first.body;
    const std::string cursor(pagination.at("next_cursor").as_string());
    for (const std::string q : {"CREDITO", "Cr%C3%A9dito", "CRE%CC%81DITO", "%20credito%20"}) {
        HttpResponse next = D().Get("/v1/fundos?q=" + q + "&limit=1&cursor=" + cursor, key);
        EXPECT_EQ(next.status, 200) << q << ": the same search takes the same cursor\n" << next.Describe();
    }
    HttpResponse other = D().Get("/v1/fundos?q=imobiliario&limit=1&cursor=" + cursor, key);
    EXPECT_EQ(other.status, 400) << "another search does not";
}

}  // namespace
}  // namespace lastro::e2e
