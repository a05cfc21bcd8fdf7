#include "core/transport/wire_request.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <string>
#include <vector>

namespace lastro::transport {
namespace {

constexpr std::size_t kMaxHeaderFields = 100;

bool IsTchar(char c) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        return true;
    }
    return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool IsToken(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), IsTchar);
}

// Field values: visible ASCII, obs-text, space and tab; never a control byte.
bool IsFieldValue(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == '\t' || (u >= 0x20 && u != 0x7F);
    });
}

bool IsTargetByte(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7F;
}

std::string Lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

// The query's name/value pairs as sent (still percent-encoded); a repeated name keeps its
// first occurrence (docs/api.md, "Parameters").
void ReadQuery(std::string_view query, IncomingRequest& request) {
    std::set<std::string, std::less<>> seen;
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (pair.empty()) {
            continue;
        }
        const std::size_t eq = pair.find('=');
        std::string_view name = pair.substr(0, eq);
        std::string_view value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
        if (seen.insert(std::string(name)).second) {
            request.query.emplace_back(std::string(name), std::string(value));
        }
    }
}

void SetTarget(std::string_view target, IncomingRequest& request) {
    const std::size_t q = target.find('?');
    request.resource = std::string(target.substr(0, q));
    if (q != std::string_view::npos) {
        ReadQuery(target.substr(q + 1), request);
    }
}

// What can be read of a request line that is too long to arrive whole: the method and the
// path, when the path has ended; so that the 413 names its path and a /v1 path its headers.
void ReadTruncatedLine(std::string_view line, IncomingRequest& request) {
    const std::size_t sp = line.find(' ');
    if (sp == std::string_view::npos || !IsToken(line.substr(0, sp))) {
        return;
    }
    std::string_view rest = line.substr(sp + 1);
    const std::size_t end = rest.find_first_of("? ");
    if (end == std::string_view::npos || rest.empty() || rest.front() != '/') {
        return;
    }
    std::string_view path = rest.substr(0, end);
    if (!std::all_of(path.begin(), path.end(), IsTargetByte)) {
        return;
    }
    request.method = std::string(line.substr(0, sp));
    request.resource = std::string(path);
}

HeadStatus Fail(WireRequest* out, int status, std::string detail) {
    out->problem = {status, std::move(detail)};
    out->keep_alive = false;
    return HeadStatus::kComplete;
}

}  // namespace

void ReadPartialRequestLine(std::string_view buffer, IncomingRequest& request) {
    while (buffer.starts_with("\r\n")) {
        buffer.remove_prefix(2);
    }
    const std::string_view line = buffer.substr(0, buffer.find("\r\n"));
    const std::size_t sp = line.find(' ');
    if (sp == std::string_view::npos || !IsToken(line.substr(0, sp))) {
        return;
    }
    std::string_view path = line.substr(sp + 1);
    path = path.substr(0, path.find_first_of("? \r"));
    if (path.empty() || path.front() != '/' || !std::all_of(path.begin(), path.end(), IsTargetByte)) {
        return;
    }
    request.method = std::string(line.substr(0, sp));
    request.resource = std::string(path);
}

HeadStatus ReadRequestHead(std::string_view buffer, std::size_t max_request_bytes, WireRequest* out,
                           std::size_t* consumed, std::size_t* scanned) {
    *out = WireRequest{};
    *consumed = 0;
    // Empty lines before a request line are ignored (RFC 9112, 2.2), a few of them: a flood of
    // them is refused rather than held, and they count in the size limit below.
    std::size_t start = 0;
    std::size_t empty_lines = 0;
    while (buffer.size() - start >= 2 && buffer.compare(start, 2, "\r\n") == 0) {
        start += 2;
        if (++empty_lines > kMaxEmptyLinesBeforeRequest) {
            return Fail(out, 400,
                        "more than " + std::to_string(kMaxEmptyLinesBeforeRequest) +
                            " empty lines before the request line");
        }
    }
    const std::string_view data = buffer.substr(start);
    // What an earlier call scanned is not scanned again; the last three bytes are, since the
    // head's end (CRLFCRLF) or a CR's line end may straddle the bytes that arrive next.
    const std::size_t from = scanned && *scanned > start + 3 ? *scanned - start - 3 : 0;
    const std::size_t end = data.find("\r\n\r\n", std::min(from, data.size()));
    // A bare LF (or CR) in the head is refused at once rather than waited on.
    const std::size_t head_scan = end == std::string_view::npos ? data.size() : end + 4;
    for (std::size_t i = std::min(from, head_scan); i < head_scan; ++i) {
        if (data[i] == '\n' && (i == 0 || data[i - 1] != '\r')) {
            return Fail(out, 400, "lines of a request head end with CRLF");
        }
        if (data[i] == '\r' && i + 1 < head_scan && data[i + 1] != '\n') {
            return Fail(out, 400, "lines of a request head end with CRLF");
        }
    }
    if (end == std::string_view::npos) {
        if (start + data.size() > max_request_bytes) {
            const std::size_t eol = data.find("\r\n");
            if (eol != std::string_view::npos) {
                const std::string_view line = data.substr(0, eol);
                const std::size_t sp1 = line.find(' ');
                const std::size_t sp2 = line.find(' ', sp1 == std::string_view::npos ? line.size() : sp1 + 1);
                if (sp1 != std::string_view::npos && sp2 != std::string_view::npos) {
                    out->request.method = std::string(line.substr(0, sp1));
                    SetTarget(line.substr(sp1 + 1, sp2 - sp1 - 1), out->request);
                    out->request.query.clear();
                }
            } else {
                ReadTruncatedLine(data, out->request);
            }
            return Fail(
                out, 413,
                "the request head exceeds the limit of " + std::to_string(max_request_bytes) + " bytes");
        }
        if (scanned) {
            *scanned = start + data.size();
        }
        return HeadStatus::kIncomplete;
    }
    const std::size_t head_bytes = start + end + 4;  // the empty lines before it included
    *consumed = head_bytes;
    IncomingRequest& request = out->request;

    // Request line: method SP origin-form SP version.
    const std::size_t eol = data.find("\r\n");
    const std::string_view line = data.substr(0, eol);
    const std::size_t sp1 = line.find(' ');
    const std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == std::string_view::npos || sp2 == std::string_view::npos ||
        line.find(' ', sp2 + 1) != std::string_view::npos) {
        ReadTruncatedLine(line, request);
        return Fail(out, 400, "the request line is not 'METHOD /path HTTP/1.1'");
    }
    const std::string_view method = line.substr(0, sp1);
    const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const std::string_view version = line.substr(sp2 + 1);
    if (!IsToken(method) || target.empty() || target.front() != '/' ||
        !std::all_of(target.begin(), target.end(), IsTargetByte)) {
        return Fail(out, 400, "the request line is not 'METHOD /path HTTP/1.1'");
    }
    request.method = std::string(method);
    SetTarget(target, request);
    if (version == "HTTP/1.0") {
        out->http10 = true;
        out->keep_alive = false;  // HTTP/1.0 connections end after their answer
    } else if (version != "HTTP/1.1") {
        return Fail(out, 400, "only HTTP/1.1 and HTTP/1.0 are served");
    }

    // Header fields.
    std::size_t fields = 0;
    int hosts = 0;
    std::optional<std::string_view> content_length;
    std::size_t at = eol + 2;
    while (at < end + 2) {
        const std::size_t next = data.find("\r\n", at);
        const std::string_view field = data.substr(at, next - at);
        at = next + 2;
        if (++fields > kMaxHeaderFields) {
            return Fail(out, 400,
                        "the request has more than " + std::to_string(kMaxHeaderFields) + " header fields");
        }
        const std::size_t colon = field.find(':');
        if (colon == std::string_view::npos || !IsToken(field.substr(0, colon))) {
            return Fail(out, 400, "a header field is not 'Name: value'");
        }
        const std::string name = Lower(field.substr(0, colon));
        const std::string_view value = Trim(field.substr(colon + 1));
        if (!IsFieldValue(value)) {
            return Fail(
                out, 400,
                "the value of header " + std::string(field.substr(0, colon)) + " holds a control character");
        }
        if (name == "host") {
            ++hosts;
        } else if (name == "content-length") {
            if (value.empty() ||
                !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                return Fail(out, 400, "Content-Length must be a decimal number of bytes");
            }
            if (content_length && *content_length != value) {
                return Fail(out, 400, "the request has two different Content-Length headers");
            }
            content_length = value;
        } else if (name == "transfer-encoding") {
            return Fail(out, 400,
                        "Transfer-Encoding is not accepted: a request carries no body, or one framed by "
                        "Content-Length");
        } else if (name == "connection") {
            std::string_view tokens = value;
            while (!tokens.empty()) {
                const std::size_t comma = tokens.find(',');
                if (Lower(Trim(tokens.substr(0, comma))) == "close") {
                    out->keep_alive = false;
                }
                tokens = comma == std::string_view::npos ? std::string_view() : tokens.substr(comma + 1);
            }
        } else if (name == "authorization") {
            if (request.authorization) {
                return Fail(out, 400, "the request has more than one Authorization header");
            }
            request.authorization = std::string(value);
        } else if (name == "content-type") {
            if (!request.content_type) {
                request.content_type = std::string(value);
            }
        }
    }
    if (hosts > 1) {
        return Fail(out, 400, "the request has more than one Host header");
    }
    if (hosts == 0 && !out->http10) {
        return Fail(out, 400, "an HTTP/1.1 request must have a Host header");
    }
    std::size_t body = 0;
    if (content_length) {
        // 1*DIGIT (RFC 9110, 8.6), but a leading zero is refused: no client writes one, and a
        // length read two ways by two parsers is how requests are smuggled past a proxy.
        if (content_length->size() > 1 && content_length->front() == '0') {
            return Fail(out, 400, "Content-Length must be a decimal number without leading zeros");
        }
        // More digits than a size holds is too large anyway.
        if (content_length->size() > 15 ||
            std::from_chars(content_length->data(), content_length->data() + content_length->size(), body)
                    .ec != std::errc()) {
            return Fail(out, 413,
                        "the request body is larger than the limit of " + std::to_string(max_request_bytes) +
                            " bytes");
        }
    }
    if (head_bytes + body > max_request_bytes) {
        return Fail(out, 413,
                    "the request is " + std::to_string(head_bytes + body) + " bytes; the limit is " +
                        std::to_string(max_request_bytes));
    }
    out->body_bytes = body;
    request.has_body = body > 0;
    request.size_bytes = head_bytes + body;
    return HeadStatus::kComplete;
}

}  // namespace lastro::transport
