#include "core/http/pistache_server.hpp"

#include "core/http/problem.hpp"

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/http_headers.h>
#include <pistache/peer.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace lastro::http {
namespace {

using namespace Pistache;

IncomingRequest Convert(const Http::Request& request) {
    IncomingRequest in;
    in.method = Http::methodString(request.method());
    in.resource = request.resource();
    const Http::Uri::Query& query = request.query();
    for (auto it = query.parameters_begin(); it != query.parameters_end(); ++it) {
        in.query.emplace_back(it->first, it->second);
    }
    const auto& headers = request.headers();
    if (auto raw = headers.tryGetRaw("Authorization")) {
        in.authorization = raw->value();
    }
    if (auto raw = headers.tryGetRaw("Content-Type")) {
        in.content_type = raw->value();
    }
    in.client_address = request.address().host();
    in.has_body = !request.body().empty();
    // What the request weighed on the wire, near enough: the limit is ours to answer (with a
    // problem) below Pistache's own hard cap.
    in.size_bytes = in.method.size() + in.resource.size() + request.body().size() + 16;
    for (const auto& [name, value] : in.query) {
        in.size_bytes += name.size() + value.size() + 2;
    }
    for (const auto& raw : headers.rawList()) {
        in.size_bytes += raw.second.name().size() + raw.second.value().size() + 4;
    }
    return in;
}

// Pistache 0.0.5 answers an HTTP/1.1 request without a Connection header with
// "Connection: Close" yet keeps the socket: say Keep-Alive, as HTTP/1.1 means (DESIGN.md).
bool KeepsAlive(const Http::Request& request) {
    auto connection = request.headers().tryGet<Http::Header::Connection>();
    return request.version() == Http::Version::Http11 &&
           (!connection || connection->control() != Http::ConnectionControl::Close);
}

// A billed call is answered from the ledger writer's thread, after its settlement's commit;
// an unbilled one at once. On one connection a later request may so be ready first: its
// response waits for the earlier ones, so that they leave in request order (HTTP/1.1
// pipelining). Tickets are taken on the connection's reactor thread, in request order.
class ResponseOrder {
public:
    std::uint64_t Take() { return next_ticket_++; }

    void Ready(std::uint64_t ticket, std::function<void()> send) {
        std::lock_guard lock(mutex_);
        waiting_.emplace(ticket, std::move(send));
        while (!waiting_.empty() && waiting_.begin()->first == next_to_send_) {
            waiting_.begin()->second();
            waiting_.erase(waiting_.begin());
            ++next_to_send_;
        }
    }

private:
    std::atomic<std::uint64_t> next_ticket_{0};
    std::mutex mutex_;
    std::uint64_t next_to_send_ = 0;
    std::map<std::uint64_t, std::function<void()>> waiting_;
};

constexpr const char* kOrderKey = "lastro.response_order";

std::shared_ptr<ResponseOrder> OrderOf(const std::shared_ptr<Tcp::Peer>& peer) {
    auto order = std::static_pointer_cast<ResponseOrder>(peer->tryGetData(kOrderKey));
    if (!order) {
        order = std::make_shared<ResponseOrder>();
        peer->putData(kOrderKey, order);
    }
    return order;
}

// The whole answer, status line to body, as the bytes that go on the wire. Pistache's
// ResponseWriter would build one header object per header and format them through an
// ostream; billed answers are written from the ledger writer's thread, whose time bounds the
// throughput of billed calls (docs/performance.md), so they are formatted here in one buffer.
// Header values are ours (numbers, ids, media types), never a client's text.
std::string WireResponse(Http::Version version, bool keep_alive, const OutgoingResponse& out) {
    std::string wire;
    wire.reserve(160 + out.content_type.size() + out.body.size() + out.headers.size() * 40);
    wire += version == Http::Version::Http10 ? "HTTP/1.0 " : "HTTP/1.1 ";
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
    wire += "\r\nContent-Length: ";
    wire += std::to_string(out.body.size());
    wire += "\r\n\r\n";
    wire += out.body;
    return wire;
}

// Queues the answer on the connection's reactor, from any thread. Marking the peer idle is
// what ResponseWriter::send does too: Pistache's keep-alive timer then treats it as waiting
// for its next request, not as a request still being read.
void Send(const std::weak_ptr<Tcp::Peer>& weak_peer, Http::Version version, bool keep_alive,
          const OutgoingResponse& out) {
    auto peer = weak_peer.lock();
    if (!peer) {
        return;  // the client went away; nothing else can be done for this request
    }
    try {
        std::string wire = WireResponse(version, keep_alive, out);
        const std::size_t size = wire.size();
        peer->setIdle(true);
        peer->send(RawBuffer(std::move(wire), size));
    } catch (...) {
    }
}

class Handler : public Http::Handler {
public:
    HTTP_PROTOTYPE(Handler)

    explicit Handler(std::shared_ptr<ApiService> service) : service_(std::move(service)) {}

    // Everything is caught here: an escaping exception would become Pistache's own 500 with
    // e.what() in the body. The body is built whole and sent once.
    void onRequest(const Http::Request& request, Http::ResponseWriter response) override {
        service_->Enter();
        const bool keep_alive = KeepsAlive(request);
        const Http::Version version = request.version();
        std::shared_ptr<Tcp::Peer> peer = response.getPeer();
        std::shared_ptr<ResponseOrder> order;
        std::uint64_t ticket = 0;
        if (peer) {
            order = OrderOf(peer);
            ticket = order->Take();
        }
        auto answered = std::make_shared<std::atomic<bool>>(false);
        ApiService::Respond respond = [service = service_, weak_peer = std::weak_ptr<Tcp::Peer>(peer),
                                       version, keep_alive, order, ticket, answered](OutgoingResponse out) {
            if (answered->exchange(true)) {
                return;
            }
            if (order) {
                order->Ready(ticket, [weak_peer, version, keep_alive, out = std::move(out)] {
                    Send(weak_peer, version, keep_alive, out);
                });
            }
            service->Leave();
        };
        try {
            service_->Handle(Convert(request), respond);
        } catch (...) {
            OutgoingResponse out;
            out.status = 500;
            out.content_type = "application/problem+json";
            out.body = internal_error_body_;
            respond(std::move(out));
        }
    }

    void onTimeout(const Http::Request&, Http::ResponseWriter response) override {
        try {
            response.send(Http::Code::Request_Timeout, timeout_body_,
                          Http::Mime::MediaType::fromString("application/problem+json"));
        } catch (...) {
        }
    }

private:
    std::shared_ptr<ApiService> service_;
    // Built once: the paths that send them may be out of memory.
    std::string internal_error_body_ = MinimalProblemBody(500, "an internal error occurred");
    std::string timeout_body_ = MinimalProblemBody(408, "the request was not received in time");
};

// Pistache answers requests above its cap itself, in text/plain, before our handler runs. The
// cap sits well above our limit so that our handler answers most oversized requests with a
// problem (docs/operations.md).
std::size_t PistacheRequestCap(std::size_t limit) {
    return std::max<std::size_t>(limit * 4, 65536);
}

}  // namespace

struct PistacheServer::Impl {
    config::ServerConfig config;
    std::shared_ptr<ApiService> service;
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
    impl_->endpoint = std::make_unique<Http::Endpoint>(address);
    auto options = Http::Endpoint::options()
                       .threads(impl_->config.threads)
                       .threadsName("http-worker")  // for `top -H`, perf and the load benchmark
                       .flags(Tcp::Options::ReuseAddr)
                       .maxRequestSize(PistacheRequestCap(impl_->config.max_request_bytes))
                       .headerTimeout(std::chrono::milliseconds(impl_->config.header_timeout_ms))
                       .bodyTimeout(std::chrono::milliseconds(impl_->config.body_timeout_ms))
                       .keepaliveTimeout(std::chrono::milliseconds(impl_->config.keepalive_timeout_ms));
    impl_->endpoint->init(options);
    impl_->endpoint->setHandler(Http::make_handler<Handler>(impl_->service));
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
}

}  // namespace lastro::http
