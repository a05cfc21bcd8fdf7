#include "core/http/pistache_server.hpp"

#include "core/http/problem.hpp"
#include "core/http/request_id.hpp"
#include "core/http/wire_request.hpp"

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/http_headers.h>
#include <pistache/peer.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace lastro::http {
namespace {

using namespace Pistache;
using Clock = std::chrono::steady_clock;

// What one connection may hold (docs/operations.md, "Connections"): requests taken whose
// answers have not left, and answer bytes the client has not read. Beyond either, lastrod
// stops reading the connection, sends what it owes and closes it.
constexpr std::uint64_t kMaxOwedAnswers = 32;
constexpr std::size_t kMaxUnsentBytes = std::size_t{1} << 20;

// The whole answer, status line to body, as the bytes that go on the wire. Billed answers are
// written from the ledger writer's thread, whose time bounds the throughput of billed calls
// (docs/performance.md), so they are formatted here in one buffer. Header values are ours
// (numbers, ids, media types), never a client's text. An answer to HEAD has no body, and no
// Content-Length, which would announce the body a GET has not asked for.
std::string WireResponse(bool http10, bool keep_alive, bool head, const OutgoingResponse& out) {
    std::string wire;
    wire.reserve(160 + out.content_type.size() + out.body.size() + out.headers.size() * 40);
    wire += http10 ? "HTTP/1.0 " : "HTTP/1.1 ";
    wire += std::to_string(out.status);
    wire += ' ';
    wire += Http::codeString(static_cast<Http::Code>(out.status));  // Pistache's reason phrases
    wire += "\r\nConnection: ";
    wire += keep_alive ? "Keep-Alive" : "Close";
    wire += "\r\nContent-Type: ";
    wire += out.content_type;
    for (const auto& [name, value] : out.headers) {
        wire += "\r\n";
        wire += name;
        wire += ": ";
        wire += value;
    }
    if (head) {
        wire += "\r\n\r\n";
        return wire;
    }
    wire += "\r\nContent-Length: ";
    wire += std::to_string(out.body.size());
    wire += "\r\n\r\n";
    wire += out.body;
    return wire;
}

// The transport's own problem, for what never reaches the pipeline (a request line that
// cannot be read, a request that timed out): a minimal body and a request id of its own.
OutgoingResponse TransportProblem(int status, const std::string& detail) {
    OutgoingResponse out;
    out.status = status;
    out.content_type = "application/problem+json";
    out.body = MinimalProblemBody(status, detail);
    out.headers.emplace_back("X-Request-Id", NewRequestId());
    return out;
}

class Keeper;

// One client connection. Pistache's reactor reads the socket and hands us its bytes
// (Handler::onInput); requests are framed here (ReadRequestHead), never by Pistache's parser,
// and every answer is written here, on a duplicate of the socket's descriptor. So the socket
// lives until lastrod has answered what it took: a client that half-closes (shutdown(SHUT_WR))
// still reads its answers after Pistache has dropped its side, and "Connection: close" ends
// the connection right after its answer.
class Connection {
public:
    Connection(int fd, std::weak_ptr<Keeper> keeper) : fd_(fd), keeper_(std::move(keeper)) {
        last_progress_ = Clock::now();
    }
    ~Connection() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    struct Taken {
        WireRequest wire;
        std::uint64_t ticket;
    };
    // On the reactor thread: adds input and returns the requests it completes, in order, each
    // with the ticket its answer leaves under. `*accepted`: the bytes were read (false once
    // the connection takes no more requests).
    // `*partial`: a request is partly read (the keeper times it out).
    std::vector<Taken> Take(const char* data, std::size_t size, std::size_t max_request_bytes, bool* accepted,
                            bool* partial);

    // From any thread: the answer to `ticket`; answers leave in ticket order.
    void Answer(std::uint64_t ticket, std::string bytes);
    // Pistache has closed its descriptor (the client's end of stream, a timeout, shutdown).
    void PistacheGone();

    // The keeper's: writes what the socket takes; timeouts.
    void Flush();
    void Tick(Clock::time_point now, const config::ServerConfig& config);
    int WritableFd() {
        std::lock_guard lock(mutex_);
        return fd_ >= 0 && Unsent() > 0 ? fd_ : -1;
    }
    bool Closed() {
        std::lock_guard lock(mutex_);
        return fd_ < 0;
    }
    void Close() {
        std::lock_guard lock(mutex_);
        CloseLocked();
    }

private:
    std::size_t Unsent() const { return out_.size() - out_offset_; }
    std::uint64_t Owed() const { return next_ticket_ - next_to_send_; }
    void StopReadingLocked() {
        reading_ = false;
        finish_ = true;
        in_.clear();
        in_.shrink_to_fit();
    }
    void DeliverLocked(std::uint64_t ticket, std::string bytes);
    void FlushLocked();
    void FinishIfDoneLocked();
    void CloseLocked();
    void WakeKeeper();

    std::mutex mutex_;
    int fd_;  // our duplicate of the socket; -1 once closed
    std::weak_ptr<Keeper> keeper_;
    std::string in_;  // the start of a request not complete yet
    Clock::time_point partial_since_;
    bool awaiting_body_ = false;  // in_ holds a whole head: the body timeout applies
    bool reading_ = true;         // false: no further request is taken from this connection
    bool finish_ = false;         // end the connection once everything taken is answered
    bool fin_sent_ = false;
    Clock::time_point fin_at_;
    bool nudged_ = false;
    bool gone_ = false;  // Pistache no longer reads the socket
    std::string out_;    // answer bytes the socket has not taken yet, from out_offset_
    std::size_t out_offset_ = 0;
    Clock::time_point last_progress_;
    std::uint64_t next_ticket_ = 0;
    std::uint64_t next_to_send_ = 0;
    std::map<std::uint64_t, std::string> waiting_;  // answers ready before an earlier one
};

// One thread for every connection: it writes what a socket could not take at once (poll for
// POLLOUT), answers requests whose head or body stalls with 408, and closes connections whose
// client stopped reading.
class Keeper : public std::enable_shared_from_this<Keeper> {
public:
    explicit Keeper(config::ServerConfig config) : config_(std::move(config)) {
        wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    }
    ~Keeper() {
        Stop();
        if (wake_fd_ >= 0) {
            ::close(wake_fd_);
        }
    }
    void Start() {
        thread_ = std::thread([this] { Run(); });
    }
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
        std::lock_guard lock(mutex_);
        for (auto& weak : connections_) {
            if (auto connection = weak.lock()) {
                connection->Close();
            }
        }
        connections_.clear();
    }
    void Add(const std::shared_ptr<Connection>& connection) {
        std::lock_guard lock(mutex_);
        connections_.push_back(connection);
    }
    void Wake() {
        const std::uint64_t one = 1;
        [[maybe_unused]] auto written = ::write(wake_fd_, &one, sizeof one);
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
                std::erase_if(connections_, [&live](const std::weak_ptr<Connection>& weak) {
                    auto connection = weak.lock();
                    if (!connection || connection->Closed()) {
                        return true;
                    }
                    live.push_back(std::move(connection));
                    return false;
                });
            }
            std::vector<pollfd> fds{{wake_fd_, POLLIN, 0}};
            std::vector<Connection*> writers;
            for (const auto& connection : live) {
                if (const int fd = connection->WritableFd(); fd >= 0) {
                    fds.push_back({fd, POLLOUT, 0});
                    writers.push_back(connection.get());
                }
            }
            ::poll(fds.data(), fds.size(), 100);
            std::uint64_t wakeups;
            [[maybe_unused]] auto read = ::read(wake_fd_, &wakeups, sizeof wakeups);
            for (std::size_t i = 1; i < fds.size(); ++i) {
                if (fds[i].revents != 0) {
                    writers[i - 1]->Flush();
                }
            }
            const auto now = Clock::now();
            for (const auto& connection : live) {
                connection->Tick(now, config_);
            }
        }
    }

    config::ServerConfig config_;
    int wake_fd_ = -1;
    std::thread thread_;
    std::mutex mutex_;
    bool stopping_ = false;
    std::vector<std::weak_ptr<Connection>> connections_;
};

std::vector<Connection::Taken> Connection::Take(const char* data, std::size_t size,
                                                std::size_t max_request_bytes, bool* accepted,
                                                bool* partial) {
    std::vector<Taken> taken;
    std::lock_guard lock(mutex_);
    *partial = false;
    *accepted = reading_ && fd_ >= 0;
    if (!*accepted) {
        return taken;  // the connection is ending: what the client still sends is not read
    }
    if (in_.empty()) {
        partial_since_ = Clock::now();
    }
    in_.append(data, size);
    while (!in_.empty()) {
        WireRequest wire;
        std::size_t consumed = 0;
        awaiting_body_ = false;
        if (ReadRequestHead(in_, max_request_bytes, &wire, &consumed) == HeadStatus::kIncomplete) {
            break;
        }
        if (!wire.problem && in_.size() < consumed + wire.body_bytes) {
            awaiting_body_ = true;
            break;
        }
        if (Owed() >= kMaxOwedAnswers || Unsent() >= kMaxUnsentBytes) {
            // The client sends faster than it reads: stop reading (Pistache then sees the end
            // of the stream and drops its side), answer what was taken, and close.
            StopReadingLocked();
            ::shutdown(fd_, SHUT_RD);
            FinishIfDoneLocked();
            break;
        }
        const bool last = wire.problem || !wire.keep_alive;
        in_.erase(0, last ? in_.size() : consumed + wire.body_bytes);
        taken.push_back({std::move(wire), next_ticket_++});
        if (last) {
            StopReadingLocked();
            break;
        }
        partial_since_ = Clock::now();
    }
    *partial = reading_ && !in_.empty();
    return taken;
}

void Connection::Answer(std::uint64_t ticket, std::string bytes) {
    bool blocked = false;
    {
        std::lock_guard lock(mutex_);
        DeliverLocked(ticket, std::move(bytes));
        blocked = fd_ >= 0 && Unsent() > 0;
    }
    if (blocked) {
        WakeKeeper();  // the keeper polls the socket until it takes the rest
    }
}

void Connection::DeliverLocked(std::uint64_t ticket, std::string bytes) {
    if (fd_ < 0) {
        next_to_send_ = std::max(next_to_send_, ticket + 1);
        return;
    }
    waiting_.emplace(ticket, std::move(bytes));
    while (!waiting_.empty() && waiting_.begin()->first == next_to_send_) {
        std::string& next = waiting_.begin()->second;
        if (Unsent() == 0) {
            out_ = std::move(next);  // nothing queued: the answer becomes the buffer, uncopied
            out_offset_ = 0;
        } else {
            out_ += next;
        }
        waiting_.erase(waiting_.begin());
        ++next_to_send_;
    }
    FlushLocked();
    FinishIfDoneLocked();
}

void Connection::PistacheGone() {
    std::lock_guard lock(mutex_);
    gone_ = true;
    reading_ = false;
    in_.clear();
    FinishIfDoneLocked();
}

void Connection::Flush() {
    std::lock_guard lock(mutex_);
    FlushLocked();
    FinishIfDoneLocked();
}

void Connection::FlushLocked() {
    while (fd_ >= 0 && Unsent() > 0) {
        const ssize_t sent = ::send(fd_, out_.data() + out_offset_, Unsent(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0) {
            out_offset_ += static_cast<std::size_t>(sent);
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
    if (Unsent() == 0) {
        out_.clear();
        out_offset_ = 0;
    } else if (out_offset_ > 65536 && out_offset_ > out_.size() / 2) {
        out_.erase(0, out_offset_);
        out_offset_ = 0;
    }
}

void Connection::FinishIfDoneLocked() {
    if (fd_ < 0 || Owed() > 0 || Unsent() > 0) {
        return;
    }
    if (gone_) {
        CloseLocked();
    } else if (finish_ && !fin_sent_) {
        // The client reads the end of the stream after the last answer; Pistache drops its
        // side when the client closes, or at the keep-alive timeout.
        ::shutdown(fd_, SHUT_WR);
        fin_sent_ = true;
        fin_at_ = Clock::now();
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
    in_.clear();
    out_.clear();
    out_.shrink_to_fit();
    out_offset_ = 0;
    waiting_.clear();
    next_to_send_ = next_ticket_;
}

void Connection::Tick(Clock::time_point now, const config::ServerConfig& config) {
    bool blocked = false;
    {
        std::lock_guard lock(mutex_);
        if (fd_ < 0) {
            return;
        }
        const int timeout_ms = awaiting_body_ ? config.body_timeout_ms : config.header_timeout_ms;
        if (reading_ && !in_.empty() && now - partial_since_ > std::chrono::milliseconds(timeout_ms)) {
            StopReadingLocked();
            const std::uint64_t ticket = next_ticket_++;
            DeliverLocked(ticket,
                          WireResponse(false, false, false,
                                       TransportProblem(408, "the request was not received in time")));
            blocked = fd_ >= 0 && Unsent() > 0;
        } else if (Unsent() > 0 &&
                   now - last_progress_ > std::chrono::milliseconds(config.keepalive_timeout_ms)) {
            CloseLocked();  // the client has not read for a whole keep-alive timeout
        } else if (fin_sent_ && !gone_ && !nudged_ &&
                   now - fin_at_ > std::chrono::milliseconds(config.keepalive_timeout_ms)) {
            // Answered and ended, but the client keeps its side open: make Pistache drop it.
            ::shutdown(fd_, SHUT_RDWR);
            nudged_ = true;
        }
    }
    if (blocked) {
        WakeKeeper();
    }
}

void Connection::WakeKeeper() {
    if (auto keeper = keeper_.lock()) {
        keeper->Wake();
    }
}

// Kept in the Pistache peer's data: when Pistache destroys the peer (it has closed its
// descriptor), the connection learns it.
struct PeerLink {
    std::shared_ptr<Connection> connection;
    std::string client_address;  // failed authentications are counted by it
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

    Handler(std::shared_ptr<ApiService> service, std::shared_ptr<Keeper> keeper,
            std::size_t max_request_bytes)
        : service_(std::move(service)), keeper_(std::move(keeper)), max_request_bytes_(max_request_bytes) {}

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
        auto link = std::make_shared<PeerLink>();
        link->connection = std::make_shared<Connection>(fd, keeper_);
        link->client_address = peer->address().host();
        keeper_->Add(link->connection);
        peer->putData(kConnectionKey, std::move(link));
    }

    void onInput(const char* buffer, std::size_t size, const std::shared_ptr<Tcp::Peer>& peer) override {
        auto link = std::static_pointer_cast<PeerLink>(peer->tryGetData(kConnectionKey));
        if (!link) {
            return;
        }
        bool accepted = false;
        bool partial = false;
        std::vector<Connection::Taken> taken;
        try {
            taken = link->connection->Take(buffer, size, max_request_bytes_, &accepted, &partial);
        } catch (...) {
            link->connection->Close();  // out of memory for this input: drop the connection
            return;
        }
        if (accepted) {
            getParser(peer)->reset();  // the keep-alive timeout counts from the last bytes read
        }
        peer->setIdle(!partial);
        for (Connection::Taken& request : taken) {
            Dispatch(link->connection, link->client_address, request);
        }
    }

private:
    // Everything is caught here; the answer is built whole and sent once.
    void Dispatch(const std::shared_ptr<Connection>& connection, const std::string& client_address,
                  Connection::Taken& taken) {
        service_->Enter();
        const WireRequest& wire = taken.wire;
        auto answered = std::make_shared<std::atomic<bool>>(false);
        ApiService::Respond respond = [service = service_, connection, ticket = taken.ticket,
                                       http10 = wire.http10, keep_alive = wire.keep_alive,
                                       head = wire.request.method == "HEAD", answered,
                                       fallback = internal_error_wire_](OutgoingResponse out) {
            if (answered->exchange(true)) {
                return;
            }
            std::string bytes;
            try {
                bytes = WireResponse(http10, keep_alive, head, out);
            } catch (...) {
                bytes = fallback;
            }
            connection->Answer(ticket, std::move(bytes));
            service->Leave();
        };
        try {
            if (wire.problem && wire.request.resource.empty()) {
                respond(TransportProblem(wire.problem->first, wire.problem->second));
                return;
            }
            IncomingRequest request = wire.request;
            request.wire_problem = wire.problem;
            request.client_address = client_address;
            service_->Handle(request, respond);
        } catch (...) {
            OutgoingResponse out;
            out.status = 500;
            out.content_type = "application/problem+json";
            out.body = internal_error_body_;
            respond(std::move(out));
        }
    }

    std::shared_ptr<ApiService> service_;
    std::shared_ptr<Keeper> keeper_;
    std::size_t max_request_bytes_;
    // Built once: the paths that send them may be out of memory.
    std::string internal_error_body_ = MinimalProblemBody(500, "an internal error occurred");
    std::string internal_error_wire_ = [] {
        OutgoingResponse out;
        out.status = 500;
        out.content_type = "application/problem+json";
        out.body = MinimalProblemBody(500, "an internal error occurred");
        return WireResponse(false, false, false, out);
    }();
};

}  // namespace

// Pistache's own request timeouts would answer 408 in text/plain: the keeper's come first.
constexpr std::chrono::milliseconds kNeverMs{std::chrono::hours(24 * 365)};

struct PistacheServer::Impl {
    config::ServerConfig config;
    std::shared_ptr<ApiService> service;
    std::shared_ptr<Keeper> keeper;
    std::unique_ptr<Http::Endpoint> endpoint;
};

PistacheServer::PistacheServer(const config::ServerConfig& config, std::shared_ptr<ApiService> service)
    : impl_(std::make_unique<Impl>()) {
    impl_->config = config;
    impl_->service = std::move(service);
}

PistacheServer::~PistacheServer() {
    Stop();
}

std::uint16_t PistacheServer::Start() {
    Address address(impl_->config.listen_host, Port(impl_->config.listen_port));
    impl_->keeper = std::make_shared<Keeper>(impl_->config);
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
    impl_->endpoint->setHandler(
        Http::make_handler<Handler>(impl_->service, impl_->keeper, impl_->config.max_request_bytes));
    impl_->endpoint->serveThreaded();
    return static_cast<std::uint16_t>(impl_->endpoint->getPort());
}

void PistacheServer::Stop() {
    if (!impl_->endpoint) {
        return;
    }
    impl_->service->BeginDraining();
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(impl_->config.shutdown_grace_ms);
    while (impl_->service->InFlight() > 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    impl_->endpoint->shutdown();
    impl_->endpoint.reset();
    impl_->keeper->Stop();
    impl_->service->StopBilling();
}

}  // namespace lastro::http
