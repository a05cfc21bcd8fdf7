#include "core/transport/request_framer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lastro::transport {
namespace {

std::vector<WireRequest> Drain(RequestFramer& framer) {
    std::vector<WireRequest> out;
    while (auto wire = framer.Next()) {
        out.push_back(std::move(*wire));
    }
    return out;
}

TEST(RequestFramer, FramesPipelinedRequestsSplitAnywhere) {
    const std::string a = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    const std::string b =
        "GET /b HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
    const std::string c = "GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    const std::string all = a + b + c + "GET /never HTTP/1.1\r\nHost: x\r\n\r\n";
    for (std::size_t chunk : {1u, 2u, 3u, 7u, 64u, 4096u}) {
        SCOPED_TRACE(chunk);
        RequestFramer framer(16384);
        std::vector<std::string> paths;
        for (std::size_t at = 0; at < all.size(); at += chunk) {
            framer.Append(std::string_view(all).substr(at, chunk));
            for (WireRequest& wire : Drain(framer)) {
                ASSERT_FALSE(wire.problem) << wire.problem->second;
                paths.push_back(wire.request.resource);
            }
        }
        EXPECT_EQ(paths, (std::vector<std::string>{"/a", "/b", "/c"})) << "nothing after Connection: close";
        EXPECT_TRUE(framer.Stopped());
        EXPECT_EQ(framer.Buffered(), 0u);
    }
}

TEST(RequestFramer, WaitsForABodyWithoutReadingItsHeadAgain) {
    RequestFramer framer(16384);
    framer.Append(
        "GET /b HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\n{");
    EXPECT_FALSE(framer.Next());
    EXPECT_TRUE(framer.AwaitingBody());
    EXPECT_TRUE(framer.Partial());
    framer.Append("}{}");
    auto wire = framer.Next();
    ASSERT_TRUE(wire);
    EXPECT_EQ(wire->body_bytes, 4u);
    EXPECT_FALSE(framer.Partial());
}

TEST(RequestFramer, HoldsNoMoreThanOneRequestsWorthOfInput) {
    RequestFramer framer(1000);
    framer.Append(std::string(999, 'a'));
    EXPECT_FALSE(framer.Next());
    framer.Append(std::string(10, 'a'));
    auto wire = framer.Next();
    ASSERT_TRUE(wire);
    ASSERT_TRUE(wire->problem);
    EXPECT_EQ(wire->problem->first, 413);
    EXPECT_TRUE(framer.Stopped());
    framer.Append(std::string(100000, 'a'));
    EXPECT_EQ(framer.Buffered(), 0u) << "input after the framer stopped is dropped";
}

TEST(RequestFramer, ACrlfFloodIsRefusedAtOnce) {
    RequestFramer framer(16384);
    std::size_t appended = 0;
    std::optional<WireRequest> refused;
    while (!refused && appended < 1000) {
        framer.Append("\r\n");
        appended += 2;
        refused = framer.Next();
    }
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->problem->first, 400);
    EXPECT_EQ(appended, 2 * (kMaxEmptyLinesBeforeRequest + 1));
}

TEST(RequestFramer, ARequestThatTimedOutNamesItsPath) {
    RequestFramer framer(16384);
    framer.Append("GET /v1/fundos?q=x HTTP/1.1\r\nHost");
    EXPECT_FALSE(framer.Next());
    WireRequest late = framer.TimedOut();
    ASSERT_TRUE(late.problem);
    EXPECT_EQ(late.problem->first, 408);
    EXPECT_EQ(late.request.resource, "/v1/fundos");
    EXPECT_FALSE(late.keep_alive);
    EXPECT_TRUE(framer.Stopped());

    RequestFramer garbled(16384);
    garbled.Append("\x16\x03\x01");
    EXPECT_EQ(garbled.TimedOut().request.resource, "") << "no path to name";
}

}  // namespace
}  // namespace lastro::transport
