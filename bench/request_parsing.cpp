// The request engine's framing, measured (issue 49, "one request engine"): the CPU one request
// head costs through lastrod's framer (core/transport/wire_request.cpp, ReadRequestHead) and
// through Boost.Beast's request_parser with the same limits, each producing what the pipeline
// reads (method, path, query pairs, Authorization, Content-Type). Both parse the same heads,
// whole and arriving in pieces, in one run. `./dev bench parsing`; bench/README.md.
#include "core/transport/wire_request.hpp"

#include <boost/beast/http.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace beast_http = boost::beast::http;
using lastro::transport::IncomingRequest;

constexpr std::size_t kMaxRequestBytes = 16384;

// What lastrod reads of a request, through Beast: the same fields as ReadRequestHead.
bool BeastFrame(std::string_view bytes, std::size_t piece, IncomingRequest& out) {
    beast_http::request_parser<beast_http::string_body> parser;
    parser.header_limit(kMaxRequestBytes);
    parser.body_limit(kMaxRequestBytes);
    boost::beast::error_code ec;
    std::size_t at = 0;
    std::string pending;  // Beast consumes whole lines only: what it left waits for more bytes
    while (!parser.is_header_done()) {
        if (at >= bytes.size()) {
            return false;
        }
        const std::size_t n = std::min(piece, bytes.size() - at);
        pending.append(bytes.substr(at, n));
        at += n;
        const std::size_t used = parser.put(boost::asio::buffer(pending), ec);
        if (ec == beast_http::error::need_more) {
            ec = {};
        } else if (ec) {
            return false;
        }
        pending.erase(0, used);
    }
    const auto& request = parser.get();
    out = IncomingRequest{};
    out.method = std::string(request.method_string());
    const std::string_view target = request.target();
    const std::size_t q = target.find('?');
    out.resource = std::string(target.substr(0, q));
    std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        const std::size_t eq = pair.find('=');
        out.query.emplace_back(std::string(pair.substr(0, eq)), eq == std::string_view::npos
                                                                    ? std::string()
                                                                    : std::string(pair.substr(eq + 1)));
    }
    if (auto it = request.find(beast_http::field::authorization); it != request.end()) {
        out.authorization = std::string(it->value());
    }
    if (auto it = request.find(beast_http::field::content_type); it != request.end()) {
        out.content_type = std::string(it->value());
    }
    return true;
}

// Through lastrod's framer, fed the same pieces (its scan resumes where it stopped).
bool LastroFrame(std::string_view bytes, std::size_t piece, IncomingRequest& out) {
    lastro::transport::WireRequest wire;
    std::size_t consumed = 0;
    std::size_t scanned = 0;
    for (std::size_t have = std::min(piece, bytes.size());; have = std::min(have + piece, bytes.size())) {
        const auto status = lastro::transport::ReadRequestHead(bytes.substr(0, have), kMaxRequestBytes, &wire,
                                                               &consumed, &scanned);
        if (status == lastro::transport::HeadStatus::kComplete) {
            out = std::move(wire.request);
            return !wire.problem;
        }
        if (have == bytes.size()) {
            return false;
        }
    }
}

template <typename Frame>
double NanosecondsPerHead(const std::vector<std::string>& heads, std::size_t piece, int rounds, Frame frame) {
    IncomingRequest out;
    std::size_t framed = 0;
    const auto began = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) {
        for (const std::string& head : heads) {
            framed += frame(head, piece, out) ? 1 : 0;
        }
    }
    const auto took = std::chrono::steady_clock::now() - began;
    if (framed != heads.size() * static_cast<std::size_t>(rounds)) {
        std::fprintf(stderr, "a head was not framed\n");
        std::exit(1);
    }
    return std::chrono::duration<double, std::nano>(took).count() / static_cast<double>(framed);
}

}  // namespace

int main() {
    const std::string key = "Authorization: Bearer lk_live_0123456789abcdef0123456789abcdef\r\n";
    const std::vector<std::string> heads = {
        // What wrk sends in ./dev bench load.
        "GET /v1/resolve?cnpj=12345678000195 HTTP/1.1\r\nHost: 127.0.0.1:18080\r\n" + key + "\r\n",
        // A browser-like client: more fields, a longer query.
        "GET /v1/fundos?q=credito%20imobiliario&limit=100&sort=nav&order=desc HTTP/1.1\r\n"
        "Host: api.example.com\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36\r\n"
        "Accept: application/json\r\nAccept-Encoding: gzip, deflate, br\r\nAccept-Language: "
        "pt-BR,pt;q=0.9\r\n" +
            key + "Connection: keep-alive\r\n\r\n",
    };
    const int rounds = 200000;
    std::printf("%-40s %14s %14s %8s\n", "heads", "lastro ns", "beast ns", "ratio");
    for (std::size_t piece : {std::size_t{1} << 20, std::size_t{16}}) {
        // A warm-up of each, then the measured rounds.
        NanosecondsPerHead(heads, piece, rounds / 10, LastroFrame);
        NanosecondsPerHead(heads, piece, rounds / 10, BeastFrame);
        const double ours = NanosecondsPerHead(heads, piece, rounds, LastroFrame);
        const double beast = NanosecondsPerHead(heads, piece, rounds, BeastFrame);
        std::printf("%-40s %14.0f %14.0f %8.2f\n", piece > 4096 ? "whole (one read)" : "in 16-byte reads",
                    ours, beast, beast / ours);
    }
    return 0;
}
