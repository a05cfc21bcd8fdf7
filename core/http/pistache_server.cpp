#include "core/http/pistache_server.hpp"

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

// Pistache 0.0.5 does not write headers added with addRaw() to a response: every header we
// send goes through this typed header instead.
class NamedHeader : public Http::Header::Header {
public:
    NamedHeader(std::string name, std::string value) : name_(std::move(name)), value_(std::move(value)) {}
    const char* name() const override { return name_.c_str(); }
    void write(std::ostream& stream) const override { stream << value_; }
    std::uint64_t hash() const override { return std::hash<std::string>{}(name_); }

private:
    std::string name_;
    std::string value_;
};

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

Http::Code ToCode(int status) {
    return static_cast<Http::Code>(status);
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

void Send(Http::ResponseWriter& response, bool keep_alive, const OutgoingResponse& out) {
    try {
        if (keep_alive) {
            response.headers().remove<Http::Header::Connection>();
            response.headers().add<Http::Header::Connection>(Http::ConnectionControl::KeepAlive);
        }
        for (const auto& [name, value] : out.headers) {
            response.headers().add(std::make_shared<NamedHeader>(name, value));
        }
        response.send(ToCode(out.status), out.body, Http::Mime::MediaType::fromString(out.content_type));
    } catch (...) {
        // The peer went away; nothing else can be done for this request.
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
        std::shared_ptr<ResponseOrder> order;
        std::uint64_t ticket = 0;
        if (auto peer = response.getPeer()) {
            order = OrderOf(peer);
            ticket = order->Take();
        }
        auto writer = std::make_shared<Http::ResponseWriter>(std::move(response));
        auto answered = std::make_shared<std::atomic<bool>>(false);
        ApiService::Respond respond = [service = service_, writer, keep_alive, order, ticket,
                                       answered](OutgoingResponse out) {
            if (answered->exchange(true)) {
                return;
            }
            auto send = [writer, keep_alive, out = std::move(out)] { Send(*writer, keep_alive, out); };
            if (order) {
                order->Ready(ticket, std::move(send));
            } else {
                send();
            }
            service->Leave();
        };
        try {
            service_->Handle(Convert(request), respond);
        } catch (...) {
            OutgoingResponse out;
            out.status = 500;
            out.content_type = "application/problem+json";
            out.body = R"({"title":"Internal API error","status":500,"detail":"an internal error occurred"})";
            respond(std::move(out));
        }
    }

    void onTimeout(const Http::Request&, Http::ResponseWriter response) override {
        try {
            response.send(
                Http::Code::Request_Timeout,
                R"({"title":"Request timeout","status":408,"detail":"the request was not received in time"})",
                Http::Mime::MediaType::fromString("application/problem+json"));
        } catch (...) {
        }
    }

private:
    std::shared_ptr<ApiService> service_;
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
