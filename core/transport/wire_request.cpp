#include "core/transport/wire_request.hpp"

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
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

// The first value of field `lower_name` in a complete head, trimmed; for what Beast refused
// without handing it over.
std::optional<std::string_view> FieldValue(std::string_view head, std::string_view lower_name) {
    for (std::size_t at = head.find("\r\n"); at != std::string_view::npos && at + 2 < head.size();
         at = head.find("\r\n", at + 2)) {
        const std::string_view line = head.substr(at + 2, head.find("\r\n", at + 2) - at - 2);
        const std::size_t colon = line.find(':');
        if (colon != std::string_view::npos && Lower(line.substr(0, colon)) == lower_name) {
            return Trim(line.substr(colon + 1));
        }
    }
    return std::nullopt;
}

// A list-valued field (Accept, Accept-Encoding, If-None-Match) sent more than once reads as one
// comma-separated list (RFC 9110, 5.3). Its size is bounded by the head's.
void JoinListField(std::optional<std::string>& field, std::string_view value) {
    if (!field) {
        field.emplace(value);
    } else if (!value.empty()) {
        *field += ", ";
        *field += value;
    }
}

// Our rules over what Beast's parser reads of a complete head (RFC 9112 syntax is Beast's):
// an origin-form path, HTTP/1.1 or 1.0, at most kMaxHeaderFields fields, one Host (required in
// HTTP/1.1), one Authorization, no Transfer-Encoding, a Content-Length without leading zeros.
// A rule that refuses sets `refused` and stops the parse.
class HeadRules : public boost::beast::http::basic_parser<true> {
public:
    explicit HeadRules(WireRequest& out) : out_(out) {}

    std::optional<std::pair<int, std::string>> refused;

private:
    using string_view = boost::beast::string_view;
    using error_code = boost::beast::error_code;

    void Refuse(error_code& ec, std::string detail) {
        refused = {400, std::move(detail)};
        ec = boost::beast::http::error::bad_value;  // any error: it stops the parse
    }

    void on_request_impl(boost::beast::http::verb, string_view method, string_view target, int version,
                         error_code& ec) override {
        IncomingRequest& request = out_.request;
        if (target.empty() || target.front() != '/' ||
            !std::all_of(target.begin(), target.end(), IsTargetByte)) {
            return Refuse(ec, "the request line is not 'METHOD /path HTTP/1.1'");
        }
        request.method = std::string(method);
        SetTarget(std::string_view(target.data(), target.size()), request);
        if (version == 10) {
            out_.http10 = true;
            out_.keep_alive = false;  // HTTP/1.0 connections end after their answer
        } else if (version != 11) {
            return Refuse(ec, "only HTTP/1.1 and HTTP/1.0 are served");
        }
    }

    void on_response_impl(int, string_view, int, error_code& ec) override {
        ec = boost::beast::http::error::bad_method;  // a request parser is never given a response
    }

    void on_field_impl(boost::beast::http::field name, string_view name_text, string_view value_text,
                       error_code& ec) override {
        namespace fields = boost::beast::http;
        const std::string_view value(value_text.data(), value_text.size());
        IncomingRequest& request = out_.request;
        if (++fields_ > kMaxHeaderFields) {
            return Refuse(ec,
                          "the request has more than " + std::to_string(kMaxHeaderFields) + " header fields");
        }
        if (!IsFieldValue(value)) {
            return Refuse(ec, "the value of header " + std::string(name_text) + " holds a control character");
        }
        switch (name) {
            case fields::field::host:
                if (++hosts_ > 1) {
                    return Refuse(ec, "the request has more than one Host header");
                }
                break;
            case fields::field::content_length:
                // 1*DIGIT (RFC 9110, 8.6), but a leading zero is refused: no client writes one,
                // and a length read two ways by two parsers is how requests are smuggled past a proxy.
                if (value.size() > 1 && value.front() == '0') {
                    return Refuse(ec, "Content-Length must be a decimal number without leading zeros");
                }
                break;
            case fields::field::transfer_encoding:
                return Refuse(
                    ec,
                    "Transfer-Encoding is not accepted: a request carries no body, or one framed by "
                    "Content-Length");
            case fields::field::connection:
                for (std::string_view tokens = value; !tokens.empty();) {
                    const std::size_t comma = tokens.find(',');
                    if (Lower(Trim(tokens.substr(0, comma))) == "close") {
                        out_.keep_alive = false;
                    }
                    tokens = comma == std::string_view::npos ? std::string_view() : tokens.substr(comma + 1);
                }
                break;
            case fields::field::authorization:
                if (request.authorization) {
                    return Refuse(ec, "the request has more than one Authorization header");
                }
                request.authorization = std::string(value);
                break;
            case fields::field::content_type:
                if (!request.content_type) {
                    request.content_type = std::string(value);
                }
                break;
            case fields::field::accept:
                JoinListField(request.accept, value);
                break;
            case fields::field::accept_encoding:
                JoinListField(request.accept_encoding, value);
                break;
            case fields::field::if_none_match:
                JoinListField(request.if_none_match, value);
                break;
            default:
                break;
        }
    }

    void on_header_impl(error_code& ec) override {
        if (hosts_ == 0 && !out_.http10) {
            Refuse(ec, "an HTTP/1.1 request must have a Host header");
        }
    }

    // The head alone is parsed (eager off): nothing below is reached but for a head with no body.
    void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}
    std::size_t on_body_impl(string_view body, error_code&) override { return body.size(); }
    void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code&) override {
        return body.size();
    }
    void on_finish_impl(error_code&) override {}

    WireRequest& out_;
    std::size_t fields_ = 0;
    int hosts_ = 0;
};

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
    const std::string_view head = data.substr(0, end + 4);
    // A field folded over lines (obs-fold, RFC 9112 5.2): Beast would join it; refused instead.
    for (std::size_t at = head.find("\r\n"); at + 4 < head.size(); at = head.find("\r\n", at + 2)) {
        if (head[at + 2] == ' ' || head[at + 2] == '\t') {
            return Fail(out, 400, "a header field is folded over lines (obs-fold); write it on one line");
        }
    }

    // The whole head, once, through Beast's parser: the syntax is Beast's; the rules that are
    // ours (HeadRules) decide on what it reads.
    HeadRules rules(*out);
    rules.header_limit(UINT32_MAX);  // the head's size is bounded above, by max_request_bytes
    rules.eager(false);              // the head only: the body is the framer's
    boost::beast::error_code ec;
    rules.put(boost::asio::buffer(head.data(), head.size()), ec);
    if (rules.refused) {
        return Fail(out, rules.refused->first, std::move(rules.refused->second));
    }
    if (ec || !rules.is_header_done()) {
        const std::string_view line = data.substr(0, data.find("\r\n"));
        namespace error = boost::beast::http;
        if (ec == error::error::bad_method || ec == error::error::bad_target ||
            ec == error::error::bad_version) {
            ReadTruncatedLine(line, request);
            return Fail(out, 400, "the request line is not 'METHOD /path HTTP/1.1'");
        }
        if (ec == error::error::bad_field) {
            return Fail(out, 400, "a header field is not 'Name: value'");
        }
        if (ec == error::error::bad_value) {
            return Fail(out, 400, "a header field's value holds a control character");
        }
        if (ec == error::error::bad_content_length) {
            // Digits only, but more than a size holds: too large, not malformed.
            const std::optional<std::string_view> length = FieldValue(head, "content-length");
            if (length && !length->empty() &&
                std::all_of(length->begin(), length->end(), [](char c) { return c >= '0' && c <= '9'; })) {
                return Fail(out, 413,
                            "the request body is larger than the limit of " +
                                std::to_string(max_request_bytes) + " bytes");
            }
            return Fail(out, 400, "Content-Length must be a decimal number of bytes");
        }
        if (ec == error::error::multiple_content_length) {
            return Fail(out, 400, "the request has two different Content-Length headers");
        }
        return Fail(out, 400, "the request head cannot be read: " + ec.message());
    }
    const std::size_t body = static_cast<std::size_t>(rules.content_length().value_or(0));
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
