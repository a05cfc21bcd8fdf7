// What the transport serves: the request pipeline as the connections see it. The transport
// knows nothing else of it (lastrod's main hands it http::ApiService), so that nothing in
// transport/ includes a part above it.
#pragma once

#include "core/transport/http_messages.hpp"

#include <functional>

namespace lastro::transport {

class RequestHandler {
public:
    virtual ~RequestHandler() = default;

    // Answers `request` through `respond`, exactly once, on this thread or another (a billed
    // call's answer leaves from the ledger writer's thread). `respond` must not throw.
    using Respond = std::function<void(OutgoingResponse)>;
    virtual void Handle(const IncomingRequest& request, Respond respond) = 0;

    // The transport counts a request from its arrival until its response is sent.
    virtual void Enter() = 0;
    virtual void Leave() = 0;
    virtual int InFlight() const = 0;
    // Graceful stop: new work is refused with 503 while the requests in flight finish.
    virtual void BeginDraining() = 0;
    // With the transport stopped: the work still queued behind the answers (settlements) is
    // done and answered.
    virtual void FinishQueued() = 0;
};

}  // namespace lastro::transport
