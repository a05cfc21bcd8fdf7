#include "core/http/wire_request.hpp"

#include <gtest/gtest.h>

#include <string>

namespace lastro::http {
namespace {

struct Read {
    HeadStatus status;
    WireRequest wire;
    std::size_t consumed;
};

Read ReadHead(const std::string& bytes, std::size_t limit = 16384) {
    Read r{};
    r.status = ReadRequestHead(bytes, limit, &r.wire, &r.consumed);
    return r;
}

int ProblemOf(const std::string& bytes, std::size_t limit = 16384) {
    Read r = ReadHead(bytes, limit);
    EXPECT_EQ(r.status, HeadStatus::kComplete) << bytes;
    return r.wire.problem ? r.wire.problem->first : 0;
}

TEST(WireRequest, ReadsARequestHeadAndItsQuery) {
    const std::string head =
        "\r\nGET /v1/fundos?q=a%20b&limit=2&flag&limit=9 HTTP/1.1\r\nHost: x\r\n"
        "authorization:  Bearer k \r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n";
    Read r = ReadHead(head + "{}GET");
    ASSERT_EQ(r.status, HeadStatus::kComplete);
    ASSERT_FALSE(r.wire.problem) << r.wire.problem->second;
    EXPECT_EQ(r.consumed, head.size());
    EXPECT_EQ(r.wire.request.method, "GET");
    EXPECT_EQ(r.wire.request.resource, "/v1/fundos");
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(r.wire.request.query, (Pairs{{"q", "a%20b"}, {"limit", "2"}, {"flag", ""}}))
        << "a repeated parameter keeps its first occurrence";
    EXPECT_EQ(r.wire.request.authorization, "Bearer k");
    EXPECT_EQ(r.wire.request.content_type, "application/json");
    EXPECT_EQ(r.wire.body_bytes, 2u);
    EXPECT_TRUE(r.wire.request.has_body);
    EXPECT_EQ(r.wire.request.size_bytes, head.size() - 2 + 2);
    EXPECT_TRUE(r.wire.keep_alive);
    EXPECT_FALSE(r.wire.http10);
}

TEST(WireRequest, WaitsForTheWholeHead) {
    EXPECT_EQ(ReadHead("GET / HTTP/1.1\r\nHost: x\r\n").status, HeadStatus::kIncomplete);
    EXPECT_EQ(ReadHead("GET / HT").status, HeadStatus::kIncomplete);
    EXPECT_EQ(ReadHead("").status, HeadStatus::kIncomplete);
}

TEST(WireRequest, ConnectionAndVersionDecideKeepAlive) {
    EXPECT_FALSE(
        ReadHead("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Close\r\n\r\n").wire.keep_alive);
    Read old = ReadHead("GET / HTTP/1.0\r\n\r\n");
    EXPECT_FALSE(old.wire.problem);
    EXPECT_TRUE(old.wire.http10);
    EXPECT_FALSE(old.wire.keep_alive);
}

TEST(WireRequest, RefusesWhatItCannotFrame) {
    const std::string line = "GET /v1/fundos HTTP/1.1\r\nHost: x\r\n";
    EXPECT_EQ(ProblemOf(line + "Content-Length: -1\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + "Content-Length: +1\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + "Content-Length: 1 2\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + "Content-Length: 12345678901234567890123\r\n\r\n"), 413);
    EXPECT_EQ(ProblemOf(line + "Content-Length: 18446744073709551616\r\n\r\n"), 413);
    EXPECT_EQ(ProblemOf(line + "Content-Length: 16384\r\n\r\n"), 413);
    EXPECT_EQ(ProblemOf(line + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n"), 400);
    EXPECT_EQ(ProblemOf("GET / HTTP/1.1\r\n\r\n"), 400) << "HTTP/1.1 without Host";
    EXPECT_EQ(ProblemOf(line + "Host: y\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + "Authorization: a\r\nAuthorization: b\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf("GET / HTTP/2.0\r\nHost: x\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf("GET  / HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf("GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf("G(T / HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + "X-A : b\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + " folded\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + "X-A: b\x01\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf("GET / HTTP/1.1\nHost: x\n\n"), 400) << "a bare LF";
    EXPECT_EQ(ProblemOf("GET / HTTP/1.1\r\nHost: x\rX\r\n\r\n"), 400) << "a bare CR";
}

TEST(WireRequest, TooLargeHeadsAreRefusedOnceTheyPassTheLimit) {
    std::string head = "GET /v1/fundos?limit=1";
    while (head.size() < 2000) {
        head += "&limit=1";
    }
    Read r = ReadHead(head, 1000);
    ASSERT_EQ(r.status, HeadStatus::kComplete);
    ASSERT_TRUE(r.wire.problem);
    EXPECT_EQ(r.wire.problem->first, 413);
    EXPECT_EQ(r.wire.request.resource, "/v1/fundos") << "the path, for the answer's instance";
    EXPECT_FALSE(r.wire.keep_alive);
    EXPECT_EQ(ReadHead(head + " HTTP/1.1\r\nHost: x\r\n\r\n", 1000).wire.problem->first, 413)
        << "repeated parameters count at their size on the wire";
    EXPECT_EQ(ReadHead(std::string(500, 'a'), 1000).status, HeadStatus::kIncomplete);
}

}  // namespace
}  // namespace lastro::http
