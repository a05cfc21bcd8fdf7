#include "core/transport/pistache_server.hpp"

#include "core/request/problem.hpp"
#include "core/request/request_id.hpp"
#include "core/transport/request_framer.hpp"

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/http_headers.h>
#include <pistache/peer.h>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lastro::transport {
namespace {

using namespace Pistache;
using Clock = std::chrono::steady_clock;

// What one connection may hold (docs/operations.md, "Connections"). Requests are taken off a
// connection and answered one after another: the next one starts only once the answer before
// it is on the connection and less than kMaxUnsentBytes of answers wait for the client to read
// them. So what a connection holds is bounded in bytes: that much, plus one answer. Requests
// that wait their turn are bounded in count: beyond kMaxOwedAnswers taken and not yet sent,
// lastrod stops reading the connection, answers what it took and ends it.
constexpr std::size_t kMaxOwedAnswers = 32;
constexpr std::size_t kMaxUnsentBytes = std::size_t{1} << 20;
constexpr int kMaxIovecs = 64;
// What a client may still send once lastrod stopped reading its connection: read and dropped
// (closing on unread input would reset the answers in flight), up to this much; past it the
// connection is cut, whatever it still owes (a flood is not a client waiting for its answers).
constexpr std::size_t kMaxDroppedBytes = std::size_t{256} << 10;

// An answer as it goes on the wire: its head (status line and headers), then its body, its
// own or one shared by every answer that serves it. Billed answers are written from the ledger
// writer's thread, whose time bounds the throughput of billed calls (docs/performance.md), so
// nothing is copied here that sendmsg can take from where it lies.
struct WireAnswer {
    std::string head;
    std::string body;
    std::string_view shared_body;
    std::shared_ptr<const void> shared_owner;
    std::function<void()> undelivered;  // the answer did not reach the kernel whole
    std::size_t sent = 0;

    std::size_t Size() const { return head.size() + body.size() + shared_body.size(); }
};

// Header values are ours (numbers, ids, media types), never a client's text. An answer to HEAD
// has no body, and no Content-Length, which would announce the body a GET has not asked for.
WireAnswer ToWire(bool http10, bool keep_alive, bool head, OutgoingResponse&& out) {
    WireAnswer wire;
    std::string& h = wire.head;
    h.reserve(160 + out.content_type.size() + out.headers.size() * 40);
    h += http10 ? "HTTP/1.0 " : "HTTP/1.1 ";
    h += std::to_string(out.status);
    h += ' ';
    h += Http::codeString(static_cast<Http::Code>(out.status));  // Pistache's reason phrases
    h += "\r\nConnection: ";
    h += keep_alive ? "Keep-Alive" : "Close";
    h += "\r\nContent-Type: ";
    h += out.content_type;
    for (const auto& [name, value] : out.headers) {
        h += "\r\n";
        h += name;
        h += ": ";
        h += value;
    }
    if (head) {
        h += "\r\n\r\n";
    } else {
        h += "\r\nContent-Length: ";
        h += std::to_string(out.Body().size());
        h += "\r\n\r\n";
        wire.body = std::move(out.body);
        wire.shared_body = out.shared_body;
        wire.shared_owner = std::move(out.shared_owner);
    }
    wire.undelivered = std::move(out.undelivered);
    return wire;
}

// The transport's own problem, for what never reaches the pipeline (a request line that
// cannot be read): a minimal body and a request id of its own.
OutgoingResponse TransportProblem(int status, const std::string& detail) {
    OutgoingResponse out;
    out.status = status;
    out.content_type = "application/problem+json";
    out.body = request::MinimalProblemBody(status, detail);
    out.headers.emplace_back("X-Request-Id", request::NewRequestId());
    return out;
}

using Lost = std::vector<std::function<void()>>;

// Told, outside any lock, of answers that will never reach the kernel whole.
void Report(Lost& lost) {
    for (auto& undelivered : lost) {
        try {
            undelivered();
        } catch (...) {
            // Out of memory while queueing the refund: the stale-reservation rule cannot help a
            // charged entry, so the charge stays; nothing else can be done here.
        }
    }
    lost.clear();
}

// One client connection. Pistache's reactor reads the socket and hands us its bytes
// (Handler::onInput); requests are framed here (RequestFramer), never by Pistache's parser,
// and every answer is written here, on a duplicate of the socket's descriptor. The keeper owns
// the connection until it closes, so the socket lives until lastrod has answered what it took,
// whatever Pistache does with its side: a client that half-closes still reads its answers.
// An answer that cannot reach the kernel whole (the client went away, or stopped reading for a
// whole keep-alive timeout) is reported through its `undelivered`, never dropped silently.
class Connection {
public:
    Connection(int fd, std::string client_address, std::size_t max_request_bytes)
        : fd_(fd), client_address_(std::move(client_address)), framer_(max_request_bytes) {
        last_progress_ = partial_since_ = Clock::now();
    }
    ~Connection() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    const std::string& ClientAddress() const { return client_address_; }

    // On the reactor thread: input. `read`: it was taken (else dropped: the connection reads no
    // more requests); `pump`: the caller is to dispatch (Pump) now.
    struct Taken {
        bool read = false;
        bool pump = false;
    };
    Taken Input(std::string_view bytes);
    // The next request to dispatch, or nullopt, which ends the caller's pump.
    std::optional<WireRequest> NextToDispatch();
    // From any thread: the answer to the request dispatched last. Returns true when a pump is
    // to be started (the next request may go now).
    bool Answer(WireAnswer answer);
    // Pistache has closed its descriptor (the client's end of stream, its idle timeout).
    void PistacheGone();
    // Whether part of a request is buffered (Pistache's idle timer must not end it).
    bool Partial() {
        std::lock_guard lock(mutex_);
        return framer_.Partial();
    }

    // The keeper's: the timeouts. Returns true when a pump is to be started (like Ready).
    bool Tick(Clock::time_point now, const config::ServerConfig& config);
    // What the keeper polls the socket for: POLLOUT while answers wait for it, POLLIN while
    // the connection drains what the client still sends before it closes (Pistache gone).
    short Events(int* fd) {
        std::lock_guard lock(mutex_);
        *fd = fd_;
        if (fd_ < 0) {
            return 0;
        }
        return static_cast<short>((out_.empty() ? 0 : POLLOUT) | (lingering_ ? POLLIN : 0));
    }
    // The socket is ready for what Events asked.
    bool Ready(short revents);
    bool Closed() {
        std::lock_guard lock(mutex_);
        return fd_ < 0;
    }
    std::size_t Unsent() {
        std::lock_guard lock(mutex_);
        return unsent_;
    }
    void Close() {
        Lost lost;
        {
            std::lock_guard lock(mutex_);
            CloseLocked();
            lost.swap(lost_);
        }
        Report(lost);
    }

private:
    std::size_t Owed() const { return pending_.size() + (in_flight_ ? 1 : 0) + out_.size(); }
    bool CanDispatchLocked() const {
        return fd_ >= 0 && !in_flight_ && !pending_.empty() && unsent_ < kMaxUnsentBytes;
    }
    bool StartPumpLocked() {
        if (pumping_ || !CanDispatchLocked()) {
            return false;
        }
        pumping_ = true;
        return true;
    }
    void StopReadingLocked() {
        reading_ = false;
        finish_ = true;
        framer_.Stop();
    }
    // Frames `bytes` into requests waiting their turn; true when a pump is to be started.
    bool TakeLocked(std::string_view bytes);
    void FlushLocked();
    void DrainLocked();
    void Sent(std::size_t bytes);
    void FinishIfDoneLocked();
    void CloseLocked();

    std::mutex mutex_;
    int fd_;  // our duplicate of the socket; -1 once closed
    std::string client_address_;
    RequestFramer framer_;
    Clock::time_point partial_since_;  // when the request being read began to arrive
    std::deque<WireRequest> pending_;  // taken, waiting for their turn
    bool in_flight_ = false;           // a request is dispatched and not answered yet
    bool pumping_ = false;             // a thread is dispatching this connection's requests
    bool reading_ = true;              // false: no further request is taken
    bool finish_ = false;              // end the connection once everything taken is sent
    bool fin_sent_ = false;
    Clock::time_point fin_at_;
    bool nudged_ = false;
    bool gone_ = false;           // Pistache no longer reads the socket
    bool lingering_ = false;      // ended, Pistache gone: read to the client's end, then close
    std::deque<WireAnswer> out_;  // answers not yet handed whole to the kernel
    std::size_t unsent_ = 0;      // their bytes not yet sent
    std::size_t dropped_ = 0;     // input dropped since reading stopped
    Clock::time_point last_progress_;
    Lost lost_;  // undelivered answers, reported once the lock is let go
};

Connection::Taken Connection::Input(std::string_view bytes) {
    Lost lost;
    Taken taken;
    {
        std::lock_guard lock(mutex_);
        if (fd_ >= 0 && !reading_) {
            // Read and dropped: closing later never meets unread input (no reset), within bounds.
            dropped_ += bytes.size();
            if (dropped_ > kMaxDroppedBytes) {
                CloseLocked();
                lost.swap(lost_);
            }
        } else if (fd_ >= 0) {
            taken = {true, TakeLocked(bytes)};
        }
    }
    Report(lost);
    return taken;
}

bool Connection::TakeLocked(std::string_view bytes) {
    if (!framer_.Partial()) {
        partial_since_ = Clock::now();
    }
    framer_.Append(bytes);
    while (std::optional<WireRequest> wire = framer_.Next()) {
        if (Owed() >= kMaxOwedAnswers) {
            // The client sends faster than it reads: this request and the rest are not read
            // (neither answered nor charged); what was taken is answered, then the end.
            StopReadingLocked();
            break;
        }
        const bool last = wire->problem || !wire->keep_alive;
        pending_.push_back(std::move(*wire));
        partial_since_ = Clock::now();
        if (last) {
            StopReadingLocked();
            break;
        }
    }
    return StartPumpLocked();
}

std::optional<WireRequest> Connection::NextToDispatch() {
    std::lock_guard lock(mutex_);
    if (!CanDispatchLocked()) {
        pumping_ = false;
        return std::nullopt;
    }
    WireRequest next = std::move(pending_.front());
    pending_.pop_front();
    in_flight_ = true;
    return next;
}

bool Connection::Answer(WireAnswer answer) {
    Lost lost;
    bool pump = false;
    {
        std::lock_guard lock(mutex_);
        in_flight_ = false;
        if (fd_ < 0) {
            if (answer.undelivered) {
                lost.push_back(std::move(answer.undelivered));
            }
        } else {
            if (out_.empty()) {
                last_progress_ = Clock::now();  // the client's reading is timed from here
            }
            unsent_ += answer.Size();
            out_.push_back(std::move(answer));
            FlushLocked();
            FinishIfDoneLocked();
            pump = StartPumpLocked();
        }
        lost.insert(lost.end(), std::make_move_iterator(lost_.begin()), std::make_move_iterator(lost_.end()));
        lost_.clear();
    }
    Report(lost);
    return pump;
}

void Connection::PistacheGone() {
    Lost lost;
    {
        std::lock_guard lock(mutex_);
        gone_ = true;
        reading_ = false;
        framer_.Stop();
        FinishIfDoneLocked();
        lost.swap(lost_);
    }
    Report(lost);
}

bool Connection::Ready(short revents) {
    Lost lost;
    bool pump = false;
    {
        std::lock_guard lock(mutex_);
        if (revents & (POLLOUT | POLLERR | POLLHUP)) {
            FlushLocked();
        }
        if (lingering_ && (revents & (POLLIN | POLLERR | POLLHUP))) {
            DrainLocked();
        }
        FinishIfDoneLocked();
        pump = StartPumpLocked();
        lost.swap(lost_);
    }
    Report(lost);
    return pump;
}

// Writes what the socket takes now, in one sendmsg of the queued answers' pieces.
void Connection::FlushLocked() {
    while (fd_ >= 0 && !out_.empty()) {
        iovec iov[kMaxIovecs];
        int count = 0;
        for (const WireAnswer& answer : out_) {
            std::size_t skip = answer.sent;
            for (std::string_view piece :
                 {std::string_view(answer.head), std::string_view(answer.body), answer.shared_body}) {
                if (skip >= piece.size()) {
                    skip -= piece.size();
                    continue;
                }
                if (count == kMaxIovecs) {
                    break;
                }
                iov[count].iov_base = const_cast<char*>(piece.data() + skip);
                iov[count].iov_len = piece.size() - skip;
                ++count;
                skip = 0;
            }
            if (count == kMaxIovecs) {
                break;
            }
        }
        msghdr message{};
        message.msg_iov = iov;
        message.msg_iovlen = static_cast<std::size_t>(count);
        const ssize_t sent = ::sendmsg(fd_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0) {
            Sent(static_cast<std::size_t>(sent));
            last_progress_ = Clock::now();
        } else if (sent < 0 && errno == EINTR) {
            continue;
        } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        } else {
            CloseLocked();  // the client is gone: nothing more can reach it
            return;
        }
    }
}

// The kernel took `bytes` more: answers taken whole leave the queue, delivered.
void Connection::Sent(std::size_t bytes) {
    unsent_ -= bytes;
    while (bytes > 0) {
        WireAnswer& front = out_.front();
        const std::size_t take = std::min(bytes, front.Size() - front.sent);
        front.sent += take;
        bytes -= take;
        if (front.sent == front.Size()) {
            out_.pop_front();
        }
    }
}

void Connection::FinishIfDoneLocked() {
    if (fd_ < 0 || Owed() > 0 || (!finish_ && !gone_)) {
        return;
    }
    if (!fin_sent_) {
        // The client reads the end of the stream after the last answer. Until it closes, what it
        // still sends is read and dropped (by Pistache, else by DrainLocked): a socket closed on
        // unread input would reset the answers the client has not read yet.
        ::shutdown(fd_, SHUT_WR);
        fin_sent_ = true;
        fin_at_ = Clock::now();
    }
    if (gone_ && !lingering_) {
        lingering_ = true;
        DrainLocked();
    }
}

// Reads and drops what the client sent after Pistache left, up to its end of stream (then the
// connection closes); a bounded amount at a time, so one client cannot hold the keeper.
void Connection::DrainLocked() {
    char sink[4096];
    for (int i = 0; i < 16 && fd_ >= 0; ++i) {
        const ssize_t got = ::recv(fd_, sink, sizeof sink, MSG_DONTWAIT);
        if (got > 0) {
            continue;
        }
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        }
        CloseLocked();  // the end of the stream, or an error: nothing is left to read
    }
}

void Connection::CloseLocked() {
    if (fd_ < 0) {
        return;
    }
    if (!gone_) {
        ::shutdown(fd_, SHUT_RDWR);  // Pistache sees the end of the stream and drops its side
    }
    ::close(fd_);
    fd_ = -1;
    reading_ = false;
    framer_.Stop();
    pending_.clear();  // never started: neither answered nor charged
    for (WireAnswer& answer : out_) {
        if (answer.undelivered) {
            lost_.push_back(std::move(answer.undelivered));
        }
    }
    out_.clear();
    unsent_ = 0;
}

bool Connection::Tick(Clock::time_point now, const config::ServerConfig& config) {
    Lost lost;
    bool pump = false;
    {
        std::lock_guard lock(mutex_);
        if (fd_ < 0) {
            return false;
        }
        const int timeout_ms = framer_.AwaitingBody() ? config.body_timeout_ms : config.header_timeout_ms;
        if (reading_ && framer_.Partial() && now - partial_since_ > std::chrono::milliseconds(timeout_ms)) {
            // Answered 408 in its turn, after what was taken before it; nothing more is read.
            pending_.push_back(framer_.TimedOut());
            reading_ = false;
            finish_ = true;
            pump = StartPumpLocked();
        } else if (!out_.empty() &&
                   now - last_progress_ > std::chrono::milliseconds(config.keepalive_timeout_ms)) {
            CloseLocked();  // the client has not read for a whole keep-alive timeout
        } else if (lingering_ && now - fin_at_ > std::chrono::milliseconds(config.keepalive_timeout_ms)) {
            CloseLocked();  // the client keeps its side open (and perhaps sends) past the timeout
        } else if (fin_sent_ && !gone_ && !nudged_ &&
                   now - fin_at_ > std::chrono::milliseconds(config.keepalive_timeout_ms)) {
            // Answered and ended, but the client keeps its side open: make Pistache drop it.
            ::shutdown(fd_, SHUT_RDWR);
            nudged_ = true;
        }
        lost.swap(lost_);
    }
    Report(lost);
    return pump;
}

// Dispatches a connection's requests to the pipeline, one after another (Connection): on the
// reactor thread that read them, or, when a request may go only once an answer left (a billed
// answer comes from the ledger writer's thread) or the client read (the keeper's), on one of
// this class's threads, so that neither the writer nor the keeper ever runs a request.
class Dispatcher : public std::enable_shared_from_this<Dispatcher> {
public:
    Dispatcher(std::shared_ptr<RequestHandler> service, int threads) : service_(std::move(service)) {
        for (int i = 0; i < std::max(1, threads); ++i) {
            threads_.emplace_back([this] {
                pthread_setname_np(pthread_self(), "http-pipelined");
                Run();
            });
        }
    }
    ~Dispatcher() { Stop(); }

    void Stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (std::thread& thread : threads_) {
            if (thread.joinable()) {
                thread.join();
            }
        }
    }

    // Dispatches on this thread while the connection lets requests go.
    void Pump(const std::shared_ptr<Connection>& connection) {
        while (std::optional<WireRequest> next = connection->NextToDispatch()) {
            Dispatch(connection, *next);
        }
    }
    void PumpLater(std::shared_ptr<Connection> connection) {
        {
            std::lock_guard lock(mutex_);
            if (stopping_) {
                return;  // the connection is closed by the keeper's stop
            }
            queue_.push_back(std::move(connection));
        }
        wake_.notify_one();
    }

private:
    void Run() {
        for (;;) {
            std::shared_ptr<Connection> connection;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
                if (stopping_) {
                    return;
                }
                connection = std::move(queue_.front());
                queue_.pop_front();
            }
            Pump(connection);
        }
    }

    // Everything is caught here; the answer is built whole and handed to the connection once.
    void Dispatch(const std::shared_ptr<Connection>& connection, WireRequest& wire) {
        service_->Enter();
        auto answered = std::make_shared<std::atomic<bool>>(false);
        // The answer's callback outlives no part it names but the connection and the service:
        // the dispatcher is only asked for, so it is never destroyed on one of its own threads.
        RequestHandler::Respond respond = [dispatcher = weak_from_this(), service = service_, connection,
                                           fallback = internal_error_wire_, http10 = wire.http10,
                                           keep_alive = wire.keep_alive, head = wire.request.method == "HEAD",
                                           answered](OutgoingResponse out) {
            if (answered->exchange(true)) {
                return;
            }
            WireAnswer bytes;
            try {
                bytes = ToWire(http10, keep_alive, head, std::move(out));
            } catch (...) {
                bytes = WireAnswer{};
                bytes.shared_body = *fallback;  // out of memory: the answer built at start
                bytes.shared_owner = fallback;
            }
            if (connection->Answer(std::move(bytes))) {
                if (auto pumps = dispatcher.lock()) {
                    pumps->PumpLater(connection);
                }
            }
            service->Leave();
        };
        try {
            if (wire.problem && wire.request.resource.empty()) {
                respond(TransportProblem(wire.problem->first, wire.problem->second));
                return;
            }
            IncomingRequest request = std::move(wire.request);
            request.wire_problem = std::move(wire.problem);
            request.client_address = connection->ClientAddress();
            service_->Handle(request, respond);
        } catch (...) {
            OutgoingResponse out;
            out.status = 500;
            out.content_type = "application/problem+json";
            out.body = internal_error_body_;
            respond(std::move(out));
        }
    }

    std::shared_ptr<RequestHandler> service_;
    // Built once: the paths that send them may be out of memory.
    std::string internal_error_body_ = request::MinimalProblemBody(500, "an internal error occurred");
    std::shared_ptr<const std::string> internal_error_wire_ = [] {
        OutgoingResponse out;
        out.status = 500;
        out.content_type = "application/problem+json";
        out.body = request::MinimalProblemBody(500, "an internal error occurred");
        WireAnswer wire = ToWire(false, false, false, std::move(out));
        return std::make_shared<const std::string>(wire.head + wire.body);
    }();
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::shared_ptr<Connection>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

// One thread for every connection: it owns them until they close, writes what a socket could
// not take at once (poll for POLLOUT), times out requests that stall (408) and clients that
// stop reading, and ends connections whose client keeps its side open after the last answer.
class Keeper {
public:
    Keeper(config::ServerConfig config, std::shared_ptr<Dispatcher> dispatcher)
        : config_(std::move(config)), dispatcher_(std::move(dispatcher)) {
        wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    }
    ~Keeper() {
        Stop();
        if (wake_fd_ >= 0) {
            ::close(wake_fd_);
        }
    }
    void Start() {
        thread_ = std::thread([this] {
            pthread_setname_np(pthread_self(), "http-keeper");
            Run();
        });
    }
    // Closes every connection: what they still owe is reported undelivered.
    void Stop() {
        {
            std::lock_guard lock(mutex_);
            if (stopping_) {
                return;
            }
            stopping_ = true;
        }
        Wake();
        if (thread_.joinable()) {
            thread_.join();
        }
        std::vector<std::shared_ptr<Connection>> connections;
        {
            std::lock_guard lock(mutex_);
            connections.swap(connections_);
        }
        for (const auto& connection : connections) {
            connection->Close();
        }
    }
    void Add(std::shared_ptr<Connection> connection) {
        std::lock_guard lock(mutex_);
        connections_.push_back(std::move(connection));
    }
    void Wake() {
        const std::uint64_t one = 1;
        [[maybe_unused]] auto written = ::write(wake_fd_, &one, sizeof one);
    }
    // Answer bytes the clients have not read yet (a graceful stop waits for them).
    std::size_t Unsent() {
        std::lock_guard lock(mutex_);
        std::size_t unsent = 0;
        for (const auto& connection : connections_) {
            unsent += connection->Unsent();
        }
        return unsent;
    }

private:
    void Run() {
        for (;;) {
            std::vector<std::shared_ptr<Connection>> live;
            {
                std::lock_guard lock(mutex_);
                if (stopping_) {
                    return;
                }
                std::erase_if(connections_, [](const std::shared_ptr<Connection>& c) { return c->Closed(); });
                live = connections_;
            }
            std::vector<pollfd> fds{{wake_fd_, POLLIN, 0}};
            std::vector<Connection*> polled;
            for (const auto& connection : live) {
                int fd = -1;
                if (const short events = connection->Events(&fd); events != 0) {
                    fds.push_back({fd, events, 0});
                    polled.push_back(connection.get());
                }
            }
            ::poll(fds.data(), fds.size(), 100);
            std::uint64_t wakeups;
            [[maybe_unused]] auto read = ::read(wake_fd_, &wakeups, sizeof wakeups);
            const auto now = Clock::now();
            for (std::size_t i = 0, p = 0; i < live.size(); ++i) {
                bool pump = false;
                if (p < polled.size() && polled[p] == live[i].get()) {
                    if (fds[p + 1].revents != 0) {
                        pump = live[i]->Ready(fds[p + 1].revents);
                    }
                    ++p;
                }
                pump = live[i]->Tick(now, config_) || pump;
                if (pump) {
                    dispatcher_->PumpLater(live[i]);
                }
            }
        }
    }

    config::ServerConfig config_;
    std::shared_ptr<Dispatcher> dispatcher_;
    int wake_fd_ = -1;
    std::thread thread_;
    std::mutex mutex_;
    bool stopping_ = false;
    std::vector<std::shared_ptr<Connection>> connections_;
};

// Kept in the Pistache peer's data: when Pistache destroys the peer (it has closed its
// descriptor), the connection learns it. The keeper, not the peer, owns the connection.
struct PeerLink {
    std::shared_ptr<Connection> connection;
    ~PeerLink() {
        if (connection) {
            connection->PistacheGone();
        }
    }
};

constexpr const char* kConnectionKey = "lastro.connection";

class Handler : public Http::Handler {
public:
    HTTP_PROTOTYPE(Handler)

    Handler(std::shared_ptr<Dispatcher> dispatcher, std::shared_ptr<Keeper> keeper,
            std::size_t max_request_bytes, int send_buffer_bytes)
        : dispatcher_(std::move(dispatcher)),
          keeper_(std::move(keeper)),
          max_request_bytes_(max_request_bytes),
          send_buffer_bytes_(send_buffer_bytes) {}

    // Never called: onInput below reads the requests, Pistache's parser never sees them.
    void onRequest(const Http::Request&, Http::ResponseWriter) override {}

    void onConnection(const std::shared_ptr<Tcp::Peer>& peer) override {
        // Pistache's idle check reads the parser's clock (Http::Handler::getParser). The peer
        // is "idle" to it but while a request is partly read, so it only closes a connection
        // silent for the keep-alive timeout; request timeouts are the keeper's (with a problem).
        peer->putData(ParserData, std::make_shared<Http::RequestParser>(0));
        peer->setIdle(true);
        const int fd = ::fcntl(peer->fd(), F_DUPFD_CLOEXEC, 0);
        if (fd < 0) {
            ::shutdown(peer->fd(), SHUT_RDWR);  // out of descriptors: refuse the connection
            return;
        }
        if (send_buffer_bytes_ > 0) {
            ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &send_buffer_bytes_, sizeof send_buffer_bytes_);
        }
        auto link = std::make_shared<PeerLink>();
        link->connection = std::make_shared<Connection>(fd, peer->address().host(), max_request_bytes_);
        keeper_->Add(link->connection);
        peer->putData(kConnectionKey, std::move(link));
    }

    void onInput(const char* buffer, std::size_t size, const std::shared_ptr<Tcp::Peer>& peer) override {
        auto link = std::static_pointer_cast<PeerLink>(peer->tryGetData(kConnectionKey));
        if (!link) {
            return;
        }
        const std::shared_ptr<Connection>& connection = link->connection;
        Connection::Taken taken;
        try {
            taken = connection->Input(std::string_view(buffer, size));
        } catch (...) {
            connection->Close();  // out of memory for this input: drop the connection
            return;
        }
        if (taken.read) {
            getParser(peer)->reset();  // the keep-alive timeout counts from the last bytes read
        }
        const bool pump = taken.pump;
        peer->setIdle(!connection->Partial());
        if (pump) {
            dispatcher_->Pump(connection);
        }
    }

private:
    std::shared_ptr<Dispatcher> dispatcher_;
    std::shared_ptr<Keeper> keeper_;
    std::size_t max_request_bytes_;
    int send_buffer_bytes_;  // server.socket_send_buffer_bytes; 0: the kernel's autotuning
};

}  // namespace

// Pistache's own request timeouts would answer 408 in text/plain: the keeper's come first.
constexpr std::chrono::milliseconds kNeverMs{std::chrono::hours(24 * 365)};

struct PistacheServer::Impl {
    config::ServerConfig config;
    std::shared_ptr<RequestHandler> service;
    std::shared_ptr<Dispatcher> dispatcher;
    std::shared_ptr<Keeper> keeper;
    std::unique_ptr<Http::Endpoint> endpoint;
};

PistacheServer::PistacheServer(const config::ServerConfig& config, std::shared_ptr<RequestHandler> service)
    : impl_(std::make_unique<Impl>()) {
    impl_->config = config;
    impl_->service = std::move(service);
}

PistacheServer::~PistacheServer() {
    Stop();
}

std::uint16_t PistacheServer::Start() {
    Address address(impl_->config.listen_host, Port(impl_->config.listen_port));
    impl_->dispatcher = std::make_shared<Dispatcher>(impl_->service, impl_->config.threads);
    impl_->keeper = std::make_shared<Keeper>(impl_->config, impl_->dispatcher);
    impl_->keeper->Start();
    impl_->endpoint = std::make_unique<Http::Endpoint>(address);
    // Pistache reads and accepts; framing, limits and request timeouts are ours (Handler), and
    // its only timeout left is the idle one (server.keepalive_timeout_ms).
    auto options = Http::Endpoint::options()
                       .threads(impl_->config.threads)
                       .threadsName("http-worker")  // for `top -H`, perf and the load benchmark
                       .flags(Tcp::Options::ReuseAddr)
                       .headerTimeout(kNeverMs)
                       .bodyTimeout(kNeverMs)
                       .keepaliveTimeout(std::chrono::milliseconds(impl_->config.keepalive_timeout_ms));
    impl_->endpoint->init(options);
    impl_->endpoint->setHandler(Http::make_handler<Handler>(impl_->dispatcher, impl_->keeper,
                                                            impl_->config.max_request_bytes,
                                                            impl_->config.socket_send_buffer_bytes));
    impl_->endpoint->serveThreaded();
    return static_cast<std::uint16_t>(impl_->endpoint->getPort());
}

void PistacheServer::Stop() {
    if (!impl_->endpoint) {
        return;
    }
    // New requests are answered 503; those in flight finish, and their answers are given the
    // grace period to reach their clients before the connections close.
    impl_->service->BeginDraining();
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(impl_->config.shutdown_grace_ms);
    while ((impl_->service->InFlight() > 0 || impl_->keeper->Unsent() > 0) &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    impl_->endpoint->shutdown();
    impl_->endpoint.reset();
    impl_->dispatcher->Stop();
    impl_->keeper->Stop();
    impl_->service->FinishQueued();
}

}  // namespace lastro::transport
