#include "core/answering/gzip_member.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

namespace lastro::answering {
namespace {

// zlib's gzip decoder, which checks the member's CRC-32 and length; "(invalid)" when it refuses.
std::string Gunzip(const std::string& member) {
    z_stream stream{};
    EXPECT_EQ(inflateInit2(&stream, 16 + 15), Z_OK);
    std::string out(1 << 16, '\0');
    std::string text;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(member.data()));
    stream.avail_in = static_cast<uInt>(member.size());
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(out.data());
        stream.avail_out = static_cast<uInt>(out.size());
        status = inflate(&stream, Z_NO_FLUSH);
        text.append(out.data(), out.size() - stream.avail_out);
    }
    const bool whole = status == Z_STREAM_END && stream.avail_in == 0;
    inflateEnd(&stream);
    return whole ? text : "(invalid)";
}

std::string Json(std::size_t rows, unsigned seed) {
    std::mt19937 random(seed);
    std::string text = "[";
    for (std::size_t i = 0; i < rows; ++i) {
        text += (i ? ",{\"id\":" : "{\"id\":") + std::to_string(random()) + ",\"name\":\"fundo " +
                std::to_string(random() % 1000) + "\"}";
    }
    return text + "]";
}

TEST(GzipMember, PiecesDeflatedApartAndCallTextStoredInflateToTheWhole) {
    const std::string data = Json(5000, 1), meta = ",\"row_count\":5000";
    const DeflatedPiece data_piece = Deflate(data), meta_piece = Deflate(meta);
    EXPECT_LT(data_piece.blocks.size(), data.size() / 2) << "JSON compresses";
    GzipMember member;
    member.Add("{\"data\":");
    member.Add(data_piece);
    member.Add(",\"meta\":{\"request_id\":\"r-1\"");
    member.Add(meta_piece);
    member.Add("}}");
    EXPECT_EQ(Gunzip(member.Finish()),
              "{\"data\":" + data + ",\"meta\":{\"request_id\":\"r-1\"" + meta + "}}");
}

TEST(GzipMember, EmptyAndLargeStoredTextsAndTheWholeAtOnce) {
    EXPECT_EQ(Gunzip(Gzip("")), "");
    EXPECT_EQ(Gunzip(GzipMember().Finish()), "");
    const std::string large = Json(20000, 2);  // over one stored block's 65,535 bytes
    GzipMember member;
    member.Add(large);
    member.Add("");
    member.Add(Deflate(""));
    member.Add(Deflate(large));
    EXPECT_EQ(Gunzip(member.Finish()), large + large);
    EXPECT_EQ(Gunzip(Gzip(large)), large);
    EXPECT_EQ(Gzip(large), Gzip(large)) << "the same bytes each time: the entity tag stays true";
}

TEST(GzipMember, AWrongPieceIsCaughtByTheChecksum) {
    DeflatedPiece piece = Deflate("abc");
    piece.crc ^= 1;
    GzipMember member;
    member.Add(piece);
    EXPECT_EQ(Gunzip(member.Finish()), "(invalid)");
}

}  // namespace
}  // namespace lastro::answering
