#include "core/transport/wire_request.hpp"

#include <gtest/gtest.h>

#include <string>

namespace lastro::transport {
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
    EXPECT_EQ(r.wire.request.size_bytes, head.size() + 2) << "the empty line before it counts too";
    EXPECT_TRUE(r.wire.keep_alive);
    EXPECT_FALSE(r.wire.http10);
}

TEST(WireRequest, RepresentationFieldsSentTwiceReadAsOneList) {
    Read r = ReadHead(
        "GET /v1/x HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br;q=0.5\r\naccept-encoding: gzip\r\n"
        "Accept: text/csv\r\nIf-None-Match: \"a\"\r\nIf-None-Match: W/\"b\"\r\n\r\n");
    ASSERT_EQ(r.status, HeadStatus::kComplete);
    ASSERT_FALSE(r.wire.problem) << r.wire.problem->second;
    EXPECT_EQ(r.wire.request.accept_encoding, "br;q=0.5, gzip");
    EXPECT_EQ(r.wire.request.accept, "text/csv");
    EXPECT_EQ(r.wire.request.if_none_match, "\"a\", W/\"b\"");
    EXPECT_FALSE(ReadHead("GET / HTTP/1.1\r\nHost: x\r\n\r\n").wire.request.accept_encoding);
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

// Issue 51, item 2: empty lines before a request line were skipped without bound and outside
// the size limit, and rescanned on every read.
TEST(WireRequest, AFewEmptyLinesBeforeARequestAreIgnoredAndMoreAreRefused) {
    const std::string request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    std::string lines;
    for (std::size_t n = 1; n <= kMaxEmptyLinesBeforeRequest; ++n) {
        lines += "\r\n";
        Read r = ReadHead(lines + request);
        ASSERT_EQ(r.status, HeadStatus::kComplete);
        EXPECT_FALSE(r.wire.problem) << n << " empty lines";
        EXPECT_EQ(r.consumed, lines.size() + request.size());
    }
    lines += "\r\n";
    Read flood = ReadHead(lines);
    ASSERT_EQ(flood.status, HeadStatus::kComplete) << "refused before the request line arrives";
    ASSERT_TRUE(flood.wire.problem);
    EXPECT_EQ(flood.wire.problem->first, 400);
    EXPECT_NE(flood.wire.problem->second.find("empty lines"), std::string::npos)
        << flood.wire.problem->second;
    EXPECT_FALSE(flood.wire.keep_alive);
    std::string many;
    while (many.size() < 100000) {
        many += "\r\n";
    }
    EXPECT_EQ(ProblemOf(many + request), 400) << "100 KB of empty lines, then a request";

    // Within the limit, the empty lines count in the request's size.
    const std::string head = "\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n";
    EXPECT_EQ(ProblemOf(head, head.size() - 1), 413);
    EXPECT_EQ(ProblemOf(head, head.size()), 0);
}

TEST(WireRequest, AContentLengthWithALeadingZeroIsRefused) {
    const std::string line = "GET /v1/fundos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    EXPECT_EQ(ProblemOf(line + "Content-Length: 01\r\n\r\nx"), 400);
    EXPECT_EQ(ProblemOf(line + "Content-Length: 00\r\n\r\n"), 400);
    EXPECT_EQ(ProblemOf(line + "Content-Length: 0000000000000000000002\r\n\r\nxx"), 400);
    Read zero = ReadHead(line + "Content-Length: 0\r\n\r\n");
    EXPECT_FALSE(zero.wire.problem);
    Read two = ReadHead(line + "Content-Length: 2\r\n\r\n{}");
    EXPECT_FALSE(two.wire.problem);
    EXPECT_EQ(two.wire.body_bytes, 2u);
}

// A head that arrives a byte at a time is scanned once: each call resumes where the last
// stopped, and finds the same request as one call on the whole.
TEST(WireRequest, AResumedScanFindsWhatAWholeScanFinds) {
    const std::string head = "GET /v1/fundos?q=a HTTP/1.1\r\nHost: x\r\nX-Long: " + std::string(3000, 'v') +
                             "\r\nAuthorization: Bearer k\r\n\r\n";
    std::size_t scanned = 0;
    std::string buffer;
    std::size_t scans = 0;
    for (std::size_t i = 0; i < head.size(); ++i) {
        buffer += head[i];
        WireRequest wire;
        std::size_t consumed = 0;
        const std::size_t before = scanned;
        const HeadStatus status = ReadRequestHead(buffer, 16384, &wire, &consumed, &scanned);
        if (i + 1 < head.size()) {
            ASSERT_EQ(status, HeadStatus::kIncomplete) << "at byte " << i;
            scans += scanned - std::min(before, scanned);
        } else {
            ASSERT_EQ(status, HeadStatus::kComplete);
            ASSERT_FALSE(wire.problem);
            EXPECT_EQ(consumed, head.size());
            EXPECT_EQ(wire.request.authorization, "Bearer k");
        }
    }
    EXPECT_LE(scans, head.size()) << "no byte is scanned twice (beyond the 3-byte overlap)";
    // A bare LF split from the CR before it is still found.
    std::size_t resumed = 0;
    WireRequest wire;
    std::size_t consumed = 0;
    ASSERT_EQ(ReadRequestHead("GET / HTTP/1.1\r", 16384, &wire, &consumed, &resumed),
              HeadStatus::kIncomplete);
    ASSERT_EQ(ReadRequestHead("GET / HTTP/1.1\rX", 16384, &wire, &consumed, &resumed), HeadStatus::kComplete);
    EXPECT_EQ(wire.problem->first, 400);
}

TEST(WireRequest, APartialRequestLineGivesItsMethodAndPath) {
    IncomingRequest request;
    ReadPartialRequestLine("\r\nGET /v1/fund", request);
    EXPECT_EQ(request.method, "GET");
    EXPECT_EQ(request.resource, "/v1/fund");
    IncomingRequest query;
    ReadPartialRequestLine("GET /v1/fundos?q=abc HT", query);
    EXPECT_EQ(query.resource, "/v1/fundos");
    IncomingRequest none;
    ReadPartialRequestLine("GET", none);
    ReadPartialRequestLine("G(T /x", none);
    ReadPartialRequestLine("GET x", none);
    EXPECT_EQ(none.resource, "");
}

}  // namespace
}  // namespace lastro::transport
