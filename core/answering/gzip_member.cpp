#include "core/answering/gzip_member.hpp"

#include <zlib.h>

#include <algorithm>
#include <new>
#include <stdexcept>

namespace lastro::answering {
namespace {

constexpr std::size_t kStoredBlockMax = 65535;  // LEN is 16 bits

void PutLittleEndian32(std::string& out, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) {
        out += static_cast<char>((value >> (8 * i)) & 0xff);
    }
}

}  // namespace

DeflatedPiece Deflate(std::string_view text) {
    DeflatedPiece piece;
    piece.length = text.size();
    piece.crc = static_cast<std::uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef*>(text.data()), static_cast<z_size_t>(text.size())));
    z_stream stream{};
    // Raw deflate (negative window bits): the gzip header and trailer are the member's.
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        throw std::bad_alloc();
    }
    piece.blocks.resize(deflateBound(&stream, static_cast<uLong>(text.size())) + 16);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(piece.blocks.data());
    stream.avail_out = static_cast<uInt>(piece.blocks.size());
    // A sync flush ends the piece on a byte boundary with no final block: more may follow.
    const int status = deflate(&stream, Z_SYNC_FLUSH);
    piece.blocks.resize(piece.blocks.size() - stream.avail_out);
    deflateEnd(&stream);
    if (status != Z_OK || stream.avail_in != 0) {
        throw std::runtime_error("deflate did not take the whole text");
    }
    return piece;
}

GzipMember::GzipMember() {
    // ID1 ID2, CM deflate, no flags, no time, XFL 0, OS unknown (RFC 1952, 2.3): the same bytes
    // for the same answer, so that its entity tag stays true.
    static constexpr char kHeader[] = {'\x1f', '\x8b', '\x08', 0, 0, 0, 0, 0, 0, '\xff'};
    out_.assign(kHeader, sizeof kHeader);
}

void GzipMember::Add(const DeflatedPiece& piece) {
    out_ += piece.blocks;
    crc_ = static_cast<std::uint32_t>(crc32_combine(crc_, piece.crc, static_cast<z_off_t>(piece.length)));
    length_ += piece.length;
}

void GzipMember::Add(std::string_view text) {
    crc_ = static_cast<std::uint32_t>(
        crc32_z(crc_, reinterpret_cast<const Bytef*>(text.data()), static_cast<z_size_t>(text.size())));
    length_ += text.size();
    while (!text.empty()) {
        const std::size_t n = std::min(text.size(), kStoredBlockMax);
        // A stored block, not final (RFC 1951, 3.2.4): the stream is on a byte boundary here.
        out_ += '\x00';
        out_ += static_cast<char>(n & 0xff);
        out_ += static_cast<char>(n >> 8);
        out_ += static_cast<char>(~n & 0xff);
        out_ += static_cast<char>((~n >> 8) & 0xff);
        out_.append(text.data(), n);
        text.remove_prefix(n);
    }
}

std::string GzipMember::Finish() {
    // The final block: stored and empty.
    static constexpr char kLastBlock[] = {'\x01', '\x00', '\x00', '\xff', '\xff'};
    out_.append(kLastBlock, sizeof kLastBlock);
    PutLittleEndian32(out_, crc_);
    PutLittleEndian32(out_, static_cast<std::uint32_t>(length_));  // ISIZE: the length modulo 2^32
    return std::move(out_);
}

std::string Gzip(std::string_view text) {
    GzipMember member;
    member.Add(Deflate(text));
    return member.Finish();
}

}  // namespace lastro::answering
