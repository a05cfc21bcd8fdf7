#include "core/transport/connection.hpp"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <thread>
#include <utility>

namespace lastro::transport {
namespace {

constexpr int kMaxIovecs = 64;
// One read off the socket per readiness: epoll (level-triggered) reports the rest, so one
// connection that sends a lot cannot hold its loop's other connections.
constexpr std::size_t kReadBytes = 16384;

// Adds what is left to send of `answer` to `iov`; false once `iov` is full.
bool Gather(const WireAnswer& answer, iovec* iov, int& count) {
    std::size_t skip = answer.sent;
    for (std::string_view piece :
         {std::string_view(answer.head), std::string_view(answer.body), answer.shared_body}) {
        if (skip >= piece.size()) {
            skip -= piece.size();
            continue;
        }
        if (count == kMaxIovecs) {
            return false;
        }
        iov[count].iov_base = const_cast<char*>(piece.data() + skip);
        iov[count].iov_len = piece.size() - skip;
        ++count;
        skip = 0;
    }
    return true;
}

ssize_t SendPieces(int fd, iovec* iov, int count) {
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = static_cast<std::size_t>(count);
    return ::sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace

Connection::Connection(int fd, std::string client_address, const ConnectionLimits& limits, int epoll_fd,
                       std::weak_ptr<ConnectionLoop> loop, RequestDispatcher& dispatcher,
                       std::shared_ptr<std::atomic<std::size_t>> loop_unsent)
    : fd_(fd),
      client_address_(std::move(client_address)),
      limits_(limits),
      epoll_fd_(epoll_fd),
      loop_(std::move(loop)),
      dispatcher_(dispatcher),
      loop_unsent_(std::move(loop_unsent)),
      framer_(limits.max_request_bytes) {
    partial_since_ = last_progress_ = last_activity_ = Clock::now();
}

Connection::~Connection() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

bool Connection::Watch() {
    epoll_event event{};
    event.events = interest_ = EPOLLIN | EPOLLRDHUP;
    event.data.ptr = this;
    return ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd_, &event) == 0;
}

void Connection::OnEvents(std::uint32_t events) {
    if (fd_ < 0) {
        return;  // closed earlier in the same round of events
    }
    TakeHand();
    if (events & EPOLLERR) {
        Close();  // reset: nothing more reaches the client
        return;
    }
    if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP)) && !client_done_) {
        Read();
    }
    if (fd_ >= 0 && !out_.empty() && (events & (EPOLLOUT | EPOLLHUP))) {
        Flush();
    }
    if (fd_ >= 0 && (events & EPOLLHUP) && out_.empty() && !in_flight_) {
        Close();  // both directions are shut: nothing can be read or sent
        return;
    }
    Settle();
}

// What every loop entry ends with: the end sent when all is answered, the next request
// dispatched, epoll told what to watch, lost answers reported, and the hand opened if it may be.
void Connection::Settle() {
    FinishIfDone();
    Pump();
    UpdateInterest();
    ReportLost();
    OpenHand();
}

void Connection::Read() {
    char buffer[kReadBytes];
    ssize_t got;
    do {
        got = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
    } while (got < 0 && errno == EINTR);
    if (got > 0) {
        last_activity_ = Clock::now();
        if (taking_) {
            Take(buffer, static_cast<std::size_t>(got));
        } else {
            // Read and dropped: closing later never meets unread input (no reset), within bounds.
            dropped_ += static_cast<std::size_t>(got);
            if (dropped_ > kMaxDroppedBytes) {
                Close();
            }
        }
    } else if (got == 0) {
        // The client ended its side. It may still read: what was taken is answered, then the
        // connection ends; a request it left half-sent is dropped.
        client_done_ = true;
        StopTaking();
        if (fin_sent_) {
            Close();
        }
    } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
        Close();
    }
}

void Connection::Take(const char* bytes, std::size_t size) {
    if (!framer_.Partial()) {
        partial_since_ = Clock::now();
    }
    framer_.Append(std::string_view(bytes, size));
    while (std::optional<WireRequest> wire = framer_.Next()) {
        if (Owed() >= kMaxOwedAnswers) {
            // The client sends faster than it reads: this request and the rest are not taken
            // (neither answered nor charged); what was taken is answered, then the end.
            StopTaking();
            break;
        }
        const bool last = wire->problem || !wire->keep_alive;
        pending_.push_back(std::move(*wire));
        partial_since_ = Clock::now();
        if (last) {
            StopTaking();
            break;
        }
    }
}

void Connection::StopTaking() {
    taking_ = false;
    finish_ = true;
    framer_.Stop();
}

// Dispatches the requests waiting their turn while the connection lets them go. An answer may
// come back inline (Answer, from the dispatcher's call): it finds Pump on the stack and leaves
// the next request to this loop.
void Connection::Pump() {
    if (pumping_ || !CanDispatch()) {
        return;
    }
    pumping_ = true;
    auto self = shared_from_this();  // the dispatcher may close the connection
    while (CanDispatch()) {
        WireRequest next = std::move(pending_.front());
        pending_.pop_front();
        in_flight_ = true;
        dispatcher_.Dispatch(self, next);
    }
    pumping_ = false;
}

void Connection::Answer(WireAnswer answer) {
    TakeHand();
    in_flight_ = false;
    if (fd_ < 0) {
        if (answer.undelivered) {
            lost_.push_back(std::move(answer.undelivered));
        }
        ReportLost();
        return;
    }
    if (out_.empty()) {
        last_progress_ = Clock::now();  // the client's reading is timed from here
    }
    const std::size_t unsent = answer.Size() - answer.sent;  // WriteThrough may have sent some
    unsent_ += unsent;
    *loop_unsent_ += unsent;
    out_.push_back(std::move(answer));
    Flush();
    Settle();
}

// Writes what the socket takes now, in one sendmsg of the queued answers' pieces.
void Connection::Flush() {
    while (fd_ >= 0 && !out_.empty()) {
        iovec iov[kMaxIovecs];
        int count = 0;
        for (const WireAnswer& answer : out_) {
            if (!Gather(answer, iov, count)) {
                break;
            }
        }
        const ssize_t sent = SendPieces(fd_, iov, count);
        if (sent > 0) {
            Sent(static_cast<std::size_t>(sent));
            last_progress_ = Clock::now();
        } else if (sent < 0 && errno == EINTR) {
            continue;
        } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;  // epoll says when the client has read (EPOLLOUT, UpdateInterest)
        } else {
            Close();  // the client is gone: nothing more can reach it
            return;
        }
    }
}

// The kernel took `bytes` more: answers taken whole leave the queue, delivered.
void Connection::Sent(std::size_t bytes) {
    unsent_ -= bytes;
    *loop_unsent_ -= bytes;
    while (bytes > 0) {
        WireAnswer& front = out_.front();
        const std::size_t take = std::min(bytes, front.Size() - front.sent);
        front.sent += take;
        bytes -= take;
        if (front.sent == front.Size()) {
            out_.pop_front();
        }
    }
    if (out_.empty()) {
        last_activity_ = Clock::now();  // the keep-alive timeout counts from the last answer
    }
}

void Connection::FinishIfDone() {
    if (fd_ < 0 || Owed() > 0 || !finish_ || fin_sent_) {
        return;
    }
    if (client_done_) {
        Close();  // both sides have said everything
        return;
    }
    // The client reads the end of the stream after the last answer. Until it closes, what it
    // still sends is read and dropped: a socket closed on unread input would reset the answers
    // the client has not read yet.
    ::shutdown(fd_, SHUT_WR);
    fin_sent_ = true;
    fin_at_ = Clock::now();
}

void Connection::Tick(Clock::time_point now) {
    if (fd_ < 0) {
        return;
    }
    TakeHand();
    const auto request_timeout = framer_.AwaitingBody() ? limits_.body_timeout : limits_.header_timeout;
    if (taking_ && framer_.Partial() && now - partial_since_ > request_timeout) {
        // Answered 408 in its turn, after what was taken before it; nothing more is taken.
        pending_.push_back(framer_.TimedOut());
        StopTaking();
    } else if (!out_.empty() && now - last_progress_ > limits_.keepalive_timeout) {
        Close();  // the client has not read for a whole keep-alive timeout
    } else if (fin_sent_ && now - fin_at_ > limits_.keepalive_timeout) {
        Close();  // the client keeps its side open (and perhaps sends) past the timeout
    } else if (taking_ && Owed() == 0 && !framer_.Partial() &&
               now - last_activity_ > limits_.keepalive_timeout) {
        StopTaking();  // idle for a whole keep-alive timeout: ended (FinishIfDone)
    }
    Settle();
}

// Level-triggered: input while the client has not ended its side (whatever is done with it);
// output only while an answer waits for the client to read.
void Connection::UpdateInterest() {
    if (fd_ < 0) {
        return;
    }
    const std::uint32_t wanted = (client_done_ ? 0u : static_cast<std::uint32_t>(EPOLLIN | EPOLLRDHUP)) |
                                 (out_.empty() ? 0u : static_cast<std::uint32_t>(EPOLLOUT));
    if (wanted == interest_) {
        return;
    }
    epoll_event event{};
    event.events = wanted;
    event.data.ptr = this;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd_, &event) == 0) {
        interest_ = wanted;
    } else {
        Close();
    }
}

void Connection::Close() {
    if (fd_ < 0) {
        return;
    }
    TakeHand();  // never closed under a write: the descriptor's number may be reused at once
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd_, nullptr);
    ::close(fd_);
    fd_ = -1;
    taking_ = false;
    framer_.Stop();
    pending_.clear();  // never started: neither answered nor charged
    for (WireAnswer& answer : out_) {
        if (answer.undelivered) {
            lost_.push_back(std::move(answer.undelivered));
        }
    }
    out_.clear();
    *loop_unsent_ -= unsent_;
    unsent_ = 0;
    ReportLost();
}

bool Connection::WriteThrough(WireAnswer& answer) {
    Hand open = Hand::kOpen;
    if (!hand_.compare_exchange_strong(open, Hand::kWriting, std::memory_order_acquire)) {
        return false;  // the loop holds the connection: it takes the answer
    }
    for (;;) {
        iovec iov[kMaxIovecs];
        int count = 0;
        Gather(answer, iov, count);
        const ssize_t sent = SendPieces(fd_, iov, count);
        if (sent > 0) {
            answer.sent += static_cast<std::size_t>(sent);
            if (answer.sent == answer.Size()) {
                written_at_ = Clock::now();
                hand_.store(Hand::kWritten, std::memory_order_release);
                return true;
            }
        } else if (!(sent < 0 && errno == EINTR)) {
            break;  // the client reads slower, or is gone: the loop waits for it, or ends it
        }
    }
    hand_.store(Hand::kLoop, std::memory_order_release);
    return false;
}

// Waits out a WriteThrough under way (a nonblocking sendmsg: microseconds), then takes the
// answer it wrote as if the loop had: the request is answered and the keep-alive counts from it.
void Connection::TakeHand() {
    Hand hand = hand_.load(std::memory_order_acquire);
    for (int spins = 0; hand != Hand::kLoop; ++spins) {
        if (hand == Hand::kWritten) {
            hand_.store(Hand::kLoop, std::memory_order_relaxed);
            in_flight_ = false;
            last_activity_ = written_at_;
            return;
        }
        if (hand == Hand::kOpen &&
            hand_.compare_exchange_weak(hand, Hand::kLoop, std::memory_order_acquire)) {
            return;
        }
        if (hand == Hand::kWriting) {
            if (spins > 64) {
                std::this_thread::yield();  // the writing thread was preempted
            }
            hand = hand_.load(std::memory_order_acquire);
        }
    }
}

// Only the request in flight is left: its answer may be written by the thread that makes it.
// Not while Pump is on the stack (the dispatcher is still answering), nor when the answer
// would have to be followed by anything the loop does (a request waiting, the connection's end).
void Connection::OpenHand() {
    if (fd_ >= 0 && in_flight_ && !pumping_ && out_.empty() && pending_.empty() && !finish_) {
        hand_.store(Hand::kOpen, std::memory_order_release);
    }
}

// Tells billing of answers that will never reach the kernel whole.
void Connection::ReportLost() {
    std::vector<std::function<void()>> lost;
    lost.swap(lost_);
    for (auto& undelivered : lost) {
        try {
            undelivered();
        } catch (...) {
            // Out of memory while queueing the refund: the stale-reservation rule cannot help a
            // charged entry, so the charge stays; nothing else can be done here.
        }
    }
}

}  // namespace lastro::transport
