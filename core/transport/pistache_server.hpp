// The Pistache side of lastrod: one Http::Endpoint, our own handler (never Rest::Router),
// explicit limits and timeouts, and a graceful stop (docs/operations.md).
#pragma once

#include "core/config/config.hpp"
#include "core/transport/request_handler.hpp"

#include <memory>

namespace lastro::transport {

class PistacheServer {
public:
    PistacheServer(const config::ServerConfig& config, std::shared_ptr<RequestHandler> service);
    ~PistacheServer();

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
