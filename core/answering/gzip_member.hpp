// An answer in gzip (RFC 1952) assembled from pieces, so that what is stored is compressed
// once and what belongs to one call (its request_id, its signed cursor) costs nothing to add.
// A deflate stream (RFC 1951) is a run of blocks: a piece deflated with a sync flush ends on a
// byte boundary without a final block, so pieces laid end to end are one valid stream once a
// final block closes it; a call's own few bytes go in as stored (uncompressed) blocks; the
// member's CRC-32 is the pieces' CRCs combined (zlib's crc32_combine), never a second pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lastro::answering {

// Text deflated once: raw deflate blocks ending on a byte boundary, none final.
struct DeflatedPiece {
    std::string blocks;
    std::uint32_t crc = 0;   // CRC-32 of the text
    std::size_t length = 0;  // of the text
};

// `text` deflated at zlib's default level (6) into one piece. Throws std::bad_alloc only.
DeflatedPiece Deflate(std::string_view text);

// Builds one gzip member from pieces in order: Add() a stored piece or a call's own text, then
// Finish() for the member's bytes.
class GzipMember {
public:
    GzipMember();
    void Add(const DeflatedPiece& piece);
    void Add(std::string_view text);  // as stored blocks
    std::string Finish();

private:
    std::string out_;
    std::uint32_t crc_ = 0;
    std::size_t length_ = 0;
};

// The whole of `text` as one gzip member (a body compressed once, a CSV table).
std::string Gzip(std::string_view text);

}  // namespace lastro::answering
