// The codecs for answer compression side by side on real answer bodies (issue 50,
// docs/dependencies.md "Compression"): for each file given, zlib's gzip at levels 1, 6 and 9 and
// Debian's Brotli at qualities 1, 5, 9 and 11, each with its size (and ratio to the body) and the
// time to compress and to decompress it once (the best of several runs); then what a call costs
// when the answer was compressed once and stored (core/answering/gzip_member.hpp): the gzip
// member of an envelope assembled from its stored pieces and the call's own request id.
//
//   compression FILE...
#include "core/answering/gzip_member.hpp"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

// The best of `runs` timings of `work`, in microseconds.
double BestMicros(int runs, const std::function<void()>& work) {
    double best = 1e18;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = Clock::now();
        work();
        best = std::min(best, std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    return best;
}

std::string GzipAt(const std::string& text, int level) {
    z_stream s{};
    deflateInit2(&s, level, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&s, text.size()), '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    s.avail_in = static_cast<uInt>(text.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = static_cast<uInt>(out.size());
    deflate(&s, Z_FINISH);
    out.resize(out.size() - s.avail_out);
    deflateEnd(&s);
    return out;
}

std::string Gunzip(const std::string& member, std::size_t size) {
    std::string out(size, '\0');
    z_stream s{};
    inflateInit2(&s, 16 + 15);
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(member.data()));
    s.avail_in = static_cast<uInt>(member.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = static_cast<uInt>(out.size());
    inflate(&s, Z_FINISH);
    inflateEnd(&s);
    return out;
}

std::string BrotliAt(const std::string& text, int quality) {
    std::size_t size = BrotliEncoderMaxCompressedSize(text.size());
    std::string out(size, '\0');
    BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, text.size(),
                          reinterpret_cast<const uint8_t*>(text.data()), &size,
                          reinterpret_cast<uint8_t*>(out.data()));
    out.resize(size);
    return out;
}

std::string Unbrotli(const std::string& compressed, std::size_t size) {
    std::string out(size, '\0');
    std::size_t decoded = size;
    BrotliDecoderDecompress(compressed.size(), reinterpret_cast<const uint8_t*>(compressed.data()), &decoded,
                            reinterpret_cast<uint8_t*>(out.data()));
    out.resize(decoded);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: compression FILE...\n");
        return 2;
    }
    for (int i = 1; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        std::stringstream buffer;
        buffer << in.rdbuf();
        const std::string body = buffer.str();
        if (body.empty()) {
            std::fprintf(stderr, "compression: %s is empty or unreadable\n", argv[i]);
            return 1;
        }
        std::printf("%s: %zu bytes\n", argv[i], body.size());
        std::printf(
            "| codec | bytes | ratio to the body | compress, µs | decompress, µs |\n|---|---|---|---|---|\n");
        const int runs = body.size() > 200000 ? 5 : 20;
        for (int level : {1, 6, 9}) {
            std::string packed;
            const double c = BestMicros(runs, [&] { packed = GzipAt(body, level); });
            std::string unpacked;
            const double d = BestMicros(runs, [&] { unpacked = Gunzip(packed, body.size()); });
            if (unpacked != body)
                return std::fprintf(stderr, "gzip %d did not round-trip\n", level), 1;
            std::printf("| gzip %d (zlib) | %zu | %.3f | %.0f | %.0f |\n", level, packed.size(),
                        static_cast<double>(packed.size()) / body.size(), c, d);
        }
        for (int quality : {1, 5, 9, 11}) {
            std::string packed;
            const double c = BestMicros(quality == 11 ? 2 : runs, [&] { packed = BrotliAt(body, quality); });
            std::string unpacked;
            const double d = BestMicros(runs, [&] { unpacked = Unbrotli(packed, body.size()); });
            if (unpacked != body)
                return std::fprintf(stderr, "brotli %d did not round-trip\n", quality), 1;
            std::printf("| br %d (Brotli) | %zu | %.3f | %.0f | %.0f |\n", quality, packed.size(),
                        static_cast<double>(packed.size()) / body.size(), c, d);
        }
        // What a call costs once the answer's pieces are stored deflated: the envelope around them,
        // its request id and pagination as stored blocks, the CRC of those few bytes combined.
        const std::size_t half = body.size() / 2;
        const lastro::answering::DeflatedPiece data = lastro::answering::Deflate(body.substr(0, half));
        const lastro::answering::DeflatedPiece meta = lastro::answering::Deflate(body.substr(half));
        std::string assembled;
        const double per_call = BestMicros(200, [&] {
            lastro::answering::GzipMember member;
            member.Add("{\"data\":");
            member.Add(data);
            member.Add(",\"meta\":{\"request_id\":\"01a22b7a-53b4-7246-b100-b7794a6a1c2b\"");
            member.Add(meta);
            member.Add("}}");
            assembled = member.Finish();
        });
        std::printf("a call's gzip from the stored pieces (gzip 6): %.1f µs, %zu bytes\n\n", per_call,
                    assembled.size());
    }
    return 0;
}
