#include "core/transport/request_framer.hpp"

#include <utility>

namespace lastro::transport {

void RequestFramer::Append(std::string_view bytes) {
    if (!stopped_) {
        in_.append(bytes);
    }
}

std::optional<WireRequest> RequestFramer::Next() {
    if (stopped_ || in_.empty()) {
        return std::nullopt;
    }
    if (!head_) {
        WireRequest wire;
        std::size_t consumed = 0;
        if (ReadRequestHead(in_, max_request_bytes_, &wire, &consumed, &scanned_) ==
            HeadStatus::kIncomplete) {
            return std::nullopt;
        }
        if (wire.problem) {
            Stop();
            return wire;
        }
        head_ = std::move(wire);
        head_bytes_ = consumed;
    }
    const std::size_t whole = head_bytes_ + head_->body_bytes;
    if (in_.size() < whole) {
        return std::nullopt;  // the body is still arriving; its head is not read again
    }
    WireRequest wire = std::move(*head_);
    head_.reset();
    scanned_ = 0;
    if (!wire.keep_alive) {
        Stop();
    } else {
        in_.erase(0, whole);
    }
    return wire;
}

void RequestFramer::Stop() {
    stopped_ = true;
    head_.reset();
    in_.clear();
    in_.shrink_to_fit();
}

WireRequest RequestFramer::TimedOut() {
    WireRequest wire;
    if (head_) {
        wire.request.method = head_->request.method;
        wire.request.resource = head_->request.resource;
        wire.http10 = head_->http10;
    } else {
        // The method and path, when its request line got that far: the 408 names the path, and
        // a /v1 path carries the billing headers (docs/operations.md).
        ReadPartialRequestLine(in_, wire.request);
    }
    wire.problem = {408, "the request was not received in time"};
    wire.keep_alive = false;
    Stop();
    return wire;
}

}  // namespace lastro::transport
