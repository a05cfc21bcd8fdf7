// lastrod's HTTP/1.1 server: Pistache accepts (pistache_acceptor.hpp); each accepted socket
// belongs to one of server.threads connection loops (connection_loop.hpp), which frame its
// requests (request_framer.hpp), hand them one at a time to the request pipeline and write the
// answers back; explicit limits and timeouts, and a graceful stop (docs/operations.md).
#pragma once

#include "core/config/config.hpp"
#include "core/transport/request_handler.hpp"

#include <cstdint>
#include <memory>

namespace lastro::transport {

class HttpServer {
public:
    HttpServer(const config::ServerConfig& config, std::shared_ptr<RequestHandler> service);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and serves on background threads; returns the bound port.
    std::uint16_t Start();
    // Refuses new requests, waits (up to the grace period) for those in flight and for their
    // answers to be read, then stops; an answer still unsent then is reported undelivered.
    void Stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lastro::transport
