// One connection loop alone (connection_loop.hpp), over a real socket pair: requests are handed
// over one at a time, answers come back from another thread (as billed ones come from the
// ledger writer's) or inline, that thread writes them itself when the loop waits for nothing
// else, and what cannot reach the client any more is reported undelivered.
// The wire suites (tests/protocol_test.cpp, tests/hostile_client_test.cpp) cover the rest on a
// real lastrod.
#include "core/transport/connection_loop.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace lastro::transport {
namespace {

using namespace std::chrono_literals;

// Records what it is handed; answers each request when told, from the test's thread.
class HeldDispatcher final : public RequestDispatcher {
public:
    void Dispatch(const std::shared_ptr<Connection>& connection, WireRequest& request) override {
        std::lock_guard lock(mutex_);
        held_.push_back({connection, request.request.resource});
        changed_.notify_all();
    }
    // Waits for the `n`th request handed over (1-based) and returns its path.
    std::string WaitFor(std::size_t n) {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, 5s, [&] { return handed_ + held_.size() >= n; });
        return handed_ + held_.size() >= n ? held_.back().path : "";
    }
    std::size_t Handed() {
        std::lock_guard lock(mutex_);
        return handed_ + held_.size();
    }
    // Answers the oldest request held, through its loop, from this thread.
    void AnswerOldest(const std::string& body, std::function<void()> undelivered = {}) {
        Held held;
        {
            std::lock_guard lock(mutex_);
            held = held_.front();
            held_.pop_front();
            ++handed_;
        }
        OutgoingResponse out;
        out.body = body;
        out.undelivered = std::move(undelivered);
        WireAnswer answer = ToWire(false, true, false, std::move(out));
        auto loop = held.connection->Loop().lock();
        ASSERT_TRUE(loop);
        loop->Deliver(held.connection, std::move(answer), [this] { ++left_; });
    }
    int Left() const { return left_; }
    // Waits until the loop has opened its hand on the oldest request held's connection.
    bool WaitForOpenHand(std::chrono::milliseconds wait = 5s) {
        std::shared_ptr<Connection> connection;
        {
            std::lock_guard lock(mutex_);
            if (held_.empty()) {
                return false;
            }
            connection = held_.front().connection;
        }
        const auto until = std::chrono::steady_clock::now() + wait;
        while (!connection->HandOpen() && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(1ms);
        }
        return connection->HandOpen();
    }

private:
    struct Held {
        std::shared_ptr<Connection> connection;
        std::string path;
    };
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Held> held_;
    std::size_t handed_ = 0;
    std::atomic<int> left_ = 0;
};

// Reads what arrives on `fd` within `wait`.
std::string ReadFor(int fd, std::chrono::milliseconds wait) {
    std::string got;
    const auto until = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < until) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 20) <= 0) {
            continue;
        }
        char buffer[4096];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n <= 0) {
            break;
        }
        got.append(buffer, static_cast<std::size_t>(n));
    }
    return got;
}

struct ConnectionLoopTest : ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
        loop = std::make_shared<ConnectionLoop>(ConnectionLimits{}, 0, dispatcher);
        loop->Start("loop-test");
        loop->Adopt(fds[0], "local");  // the loop owns (and closes) this end
    }
    void TearDown() override {
        loop->Stop();
        ::close(fds[1]);
    }
    void Send(const std::string& bytes) {
        ASSERT_EQ(::send(fds[1], bytes.data(), bytes.size(), 0), bytes.size());
    }

    int fds[2] = {-1, -1};
    HeldDispatcher dispatcher;
    std::shared_ptr<ConnectionLoop> loop;
};

TEST_F(ConnectionLoopTest, PipelinedRequestsAreHandedOverOneAtATimeAndAnsweredInOrder) {
    Send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(dispatcher.WaitFor(1), "/one");
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(dispatcher.Handed(), 1u) << "the second waits for the first one's answer";

    dispatcher.AnswerOldest("first");  // from this thread, as the ledger writer's answers come
    EXPECT_EQ(dispatcher.WaitFor(2), "/two");
    dispatcher.AnswerOldest("second");

    const std::string wire = ReadFor(fds[1], 300ms);
    const auto first = wire.find("\r\n\r\nfirst");
    const auto second = wire.find("\r\n\r\nsecond");
    ASSERT_NE(first, std::string::npos) << wire;
    ASSERT_NE(second, std::string::npos) << wire;
    EXPECT_LT(first, second);
    EXPECT_EQ(loop->Unsent(), 0u);
    EXPECT_EQ(dispatcher.Left(), 2);
}

TEST_F(ConnectionLoopTest, AnAnswerDeliveredAfterTheLoopStoppedIsReportedUndelivered) {
    Send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n");
    ASSERT_EQ(dispatcher.WaitFor(1), "/late");
    loop->Stop();  // closes the connection with its request in flight

    bool undelivered = false;
    dispatcher.AnswerOldest("too late", [&] { undelivered = true; });
    EXPECT_TRUE(undelivered) << "the charge of an answer that never left is taken back";
    EXPECT_EQ(dispatcher.Left(), 1) << "the request still leaves the server's count";
    EXPECT_EQ(ReadFor(fds[1], 100ms), "") << "the client sees its connection end, no answer";
}

TEST_F(ConnectionLoopTest, AClientThatStopsReadingHoldsItsAnswerUntilItReads) {
    // Fill the client's side so the answer cannot leave whole at once.
    const std::string big(std::size_t{4} << 20, 'x');
    Send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
    ASSERT_EQ(dispatcher.WaitFor(1), "/big");
    dispatcher.AnswerOldest(big);
    std::this_thread::sleep_for(100ms);
    EXPECT_GT(loop->Unsent(), 0u) << "the rest waits in the loop, counted";
    const std::string wire = ReadFor(fds[1], 2000ms);
    EXPECT_NE(wire.find(big), std::string::npos) << "the answer arrives whole once the client reads";
    EXPECT_EQ(loop->Unsent(), 0u);
}

TEST_F(ConnectionLoopTest, ALoneRequestsAnswerIsWrittenByTheThreadThatMadeIt) {
    Send("GET /alone HTTP/1.1\r\nHost: x\r\n\r\n");
    ASSERT_EQ(dispatcher.WaitFor(1), "/alone");
    ASSERT_TRUE(dispatcher.WaitForOpenHand()) << "the loop holds nothing else of the connection";
    dispatcher.AnswerOldest("alone");
    EXPECT_EQ(loop->WrittenThrough(), 1u) << "written by this thread, the loop left asleep";
    EXPECT_EQ(dispatcher.Left(), 1);
    EXPECT_NE(ReadFor(fds[1], 200ms).find("\r\n\r\nalone"), std::string::npos);

    // The loop learns of that answer when it next looks: the next request goes on.
    Send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
    ASSERT_EQ(dispatcher.WaitFor(2), "/next");
    dispatcher.AnswerOldest("next");
    EXPECT_NE(ReadFor(fds[1], 200ms).find("\r\n\r\nnext"), std::string::npos);
    EXPECT_EQ(loop->Unsent(), 0u);
}

TEST_F(ConnectionLoopTest, AnAnswerWithARequestWaitingBehindItIsLeftToTheLoop) {
    Send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n");
    ASSERT_EQ(dispatcher.WaitFor(1), "/one");
    EXPECT_FALSE(dispatcher.WaitForOpenHand(100ms)) << "/two waits behind /one";
    dispatcher.AnswerOldest("first");
    EXPECT_EQ(loop->WrittenThrough(), 0u) << "the loop dispatches /two after it: it writes it";
    ASSERT_EQ(dispatcher.WaitFor(2), "/two");
    dispatcher.AnswerOldest("second");
    const std::string wire = ReadFor(fds[1], 300ms);
    EXPECT_LT(wire.find("\r\n\r\nfirst"), wire.find("\r\n\r\nsecond"));
}

// Answers made the moment their request is dispatched race the loop opening its hand: whichever
// wins, each answer arrives once, whole and in order.
TEST_F(ConnectionLoopTest, AnswersRacingTheLoopArriveWholeAndInOrder) {
    constexpr int kRounds = 2000;
    std::thread answering([&] {
        for (int i = 1; i <= kRounds; ++i) {
            if (dispatcher.WaitFor(static_cast<std::size_t>(i)).empty()) {
                return;
            }
            dispatcher.AnswerOldest("round " + std::to_string(i) + ";");
        }
    });
    std::string wire;
    for (int i = 1; i <= kRounds; ++i) {
        Send("GET /r HTTP/1.1\r\nHost: x\r\n\r\n");
        const std::string want = "round " + std::to_string(i) + ";";
        while (wire.find(want) == std::string::npos) {
            pollfd p{fds[1], POLLIN, 0};
            char buffer[4096];
            const ssize_t n = ::poll(&p, 1, 5000) == 1 ? ::recv(fds[1], buffer, sizeof buffer, 0) : 0;
            if (n <= 0) {
                break;
            }
            wire.append(buffer, static_cast<std::size_t>(n));
        }
        ASSERT_NE(wire.find(want), std::string::npos) << "round " << i;
        wire.erase(0, wire.find(want) + want.size());
    }
    answering.join();
    // The loop counts an answer it wrote right after the client may have read it.
    const auto until = std::chrono::steady_clock::now() + 2s;
    while ((dispatcher.Left() < kRounds || loop->Unsent() > 0) && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(1ms);
    }
    EXPECT_EQ(ReadFor(fds[1], 20ms), "") << "nothing sent twice";
    EXPECT_EQ(wire, "");
    EXPECT_EQ(dispatcher.Left(), kRounds);
    EXPECT_EQ(loop->Unsent(), 0u);
}

}  // namespace
}  // namespace lastro::transport
