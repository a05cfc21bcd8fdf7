// Fuzz target: lastrod's HTTP/1.x request framing, the first code that reads a client's bytes
// (core/transport/request_framer.cpp over core/transport/wire_request.cpp). Byte 0 picks the size limit
// (server.max_request_bytes, 64 B to 16 KiB); byte 1 the size of the reads the bytes arrive in.
// The rest is what the client sent on one connection. Checked on every input:
// - the same bytes framed whole and framed read by read give the same requests, in order, and
//   end with a refusal (a problem) alike: how the network splits bytes changes nothing;
// - what the framer holds never passes the limit plus one read;
// - every request framed is within the limit, its path starts with '/';
// - a request that timed out (what is left at the end) is framed without throwing.
// Nothing may throw: the framing answers with a problem, never an exception.
#include "fuzz_support.hpp"

#include "core/transport/request_framer.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using namespace lastro;

namespace {

struct Framed {
    std::vector<std::string> requests;  // method, path, body length of each request framed
    bool refused = false;               // framing ended with a problem
};

[[noreturn]] void Finding(const char* what) {
    std::fprintf(stderr, "request_framing: %s\n", what);
    std::abort();
}

Framed Frame(std::string_view bytes, std::size_t limit, std::size_t read_size) {
    Framed framed;
    transport::RequestFramer framer(limit);
    for (std::size_t at = 0; at < bytes.size() && !framer.Stopped(); at += read_size) {
        const std::string_view read = bytes.substr(at, read_size);
        framer.Append(read);
        while (auto wire = framer.Next()) {
            if (wire->problem) {
                framed.refused = true;
                break;
            }
            const transport::IncomingRequest& r = wire->request;
            if (r.size_bytes > limit || r.resource.empty() || r.resource.front() != '/' || r.method.empty()) {
                Finding("a request framed past the limit, or without a method and path");
            }
            framed.requests.push_back(r.method + " " + r.resource + " " + std::to_string(wire->body_bytes));
        }
        if (framer.Buffered() > limit + read.size()) {
            Finding("the framer holds more than the limit and one read");
        }
    }
    if (framer.Partial()) {
        (void)framer.TimedOut();
    }
    return framed;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) {
        return 0;
    }
    const std::size_t limit = 64 + (static_cast<std::size_t>(data[0]) << 6);  // 64 .. 16,384 bytes
    const std::size_t read_size = 1 + data[1] % 64;
    const std::string_view bytes(reinterpret_cast<const char*>(data + 2), size - 2);
    try {
        const Framed whole = Frame(bytes, limit, bytes.size() + 1);
        const Framed split = Frame(bytes, limit, read_size);
        if (whole.requests != split.requests || whole.refused != split.refused) {
            Finding("framing read by read differs from framing the bytes whole");
        }
    } catch (const std::exception& e) {
        fuzz::UnexpectedException("request_framing", e);
    }
    return 0;
}
