#include "core/transport/wire_answer.hpp"

#include <pistache/http_defs.h>

#include <string>
#include <utility>

namespace lastro::transport {

// Header values are ours (numbers, ids, media types), never a client's text.
WireAnswer ToWire(bool http10, bool keep_alive, bool head, OutgoingResponse&& out) {
    WireAnswer wire;
    std::string& h = wire.head;
    h.reserve(160 + out.content_type.size() + out.headers.size() * 40);
    h += http10 ? "HTTP/1.0 " : "HTTP/1.1 ";
    h += std::to_string(out.status);
    h += ' ';
    h += Pistache::Http::codeString(static_cast<Pistache::Http::Code>(out.status));  // reason phrases
    h += "\r\nConnection: ";
    h += keep_alive ? "Keep-Alive" : "Close";
    // A 304 has no content (RFC 9110, 15.4.5): no type, no length, no body.
    const bool no_content = out.status == 304;
    if (!no_content) {
        h += "\r\nContent-Type: ";
        h += out.content_type;
    }
    for (const auto& [name, value] : out.headers) {
        h += "\r\n";
        h += name;
        h += ": ";
        h += value;
    }
    if (head || no_content) {
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

}  // namespace lastro::transport
