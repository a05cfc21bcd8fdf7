#include "core/transport/http_server.hpp"

#include "core/request/problem.hpp"
#include "core/request/request_id.hpp"
#include "core/transport/connection_loop.hpp"
#include "core/transport/pistache_acceptor.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace lastro::transport {
namespace {

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

// Hands a connection's requests to the pipeline, on the connection's loop thread; the answer,
// from that thread or another (a billed answer leaves from the ledger writer's), goes back to
// the connection's loop, which writes it and dispatches the next request (or is written by the
// thread that made it, when the loop waits for nothing else: ConnectionLoop::Deliver).
class Dispatcher final : public RequestDispatcher {
public:
    explicit Dispatcher(std::shared_ptr<RequestHandler> service) : service_(std::move(service)) {}

    // Everything is caught here; the answer is built whole and handed to the connection once.
    void Dispatch(const std::shared_ptr<Connection>& connection, WireRequest& wire) override {
        service_->Enter();
        auto answered = std::make_shared<std::atomic<bool>>(false);
        RequestHandler::Respond respond = [service = service_, connection, fallback = internal_error_wire_,
                                           http10 = wire.http10, keep_alive = wire.keep_alive,
                                           head = wire.request.method == "HEAD",
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
            // Left only once the connection holds the answer: a graceful stop waits for both.
            auto leave = [service] { service->Leave(); };
            if (std::shared_ptr<ConnectionLoop> loop = connection->Loop().lock()) {
                loop->Deliver(connection, std::move(bytes), std::move(leave));
            } else {
                connection->Answer(std::move(bytes));  // closed with its loop: reported undelivered
                leave();
            }
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

private:
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
};

}  // namespace

struct HttpServer::Impl {
    config::ServerConfig config;
    std::shared_ptr<RequestHandler> service;
    std::unique_ptr<Dispatcher> dispatcher;
    std::vector<std::shared_ptr<ConnectionLoop>> loops;
    std::unique_ptr<PistacheAcceptor> acceptor;

    std::size_t Unsent() const {
        std::size_t unsent = 0;
        for (const auto& loop : loops) {
            unsent += loop->Unsent();
        }
        return unsent;
    }
};

HttpServer::HttpServer(const config::ServerConfig& config, std::shared_ptr<RequestHandler> service)
    : impl_(std::make_unique<Impl>()) {
    impl_->config = config;
    impl_->service = std::move(service);
}

HttpServer::~HttpServer() {
    Stop();
}

std::uint16_t HttpServer::Start() {
    impl_->dispatcher = std::make_unique<Dispatcher>(impl_->service);
    // server.threads loops; 0 is one per core, as Pistache's own "auto" was.
    const int threads = impl_->config.threads > 0
                            ? impl_->config.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int i = 0; i < threads; ++i) {
        auto loop = std::make_shared<ConnectionLoop>(
            ConnectionLimits::Of(impl_->config), impl_->config.socket_send_buffer_bytes, *impl_->dispatcher);
        loop->Start("http-worker");  // the name `top -H`, perf and the load benchmark know
        impl_->loops.push_back(std::move(loop));
    }
    auto next = std::make_shared<std::atomic<std::size_t>>(0);
    impl_->acceptor = std::make_unique<PistacheAcceptor>(
        impl_->config.listen_host, impl_->config.listen_port,
        [loops = impl_->loops, next](int fd, std::string client_address) {
            loops[next->fetch_add(1, std::memory_order_relaxed) % loops.size()]->Adopt(
                fd, std::move(client_address));
        });
    return impl_->acceptor->Start();
}

void HttpServer::Stop() {
    if (!impl_->acceptor) {
        return;
    }
    // New requests are answered 503; those in flight finish, and their answers are given the
    // grace period to reach their clients before the connections close.
    impl_->service->BeginDraining();
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(impl_->config.shutdown_grace_ms);
    while ((impl_->service->InFlight() > 0 || impl_->Unsent() > 0) &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    impl_->acceptor->Stop();
    impl_->acceptor.reset();
    for (const auto& loop : impl_->loops) {
        loop->Stop();
    }
    impl_->service->FinishQueued();
    impl_->loops.clear();
}

}  // namespace lastro::transport
