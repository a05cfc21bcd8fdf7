#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/problem.hpp>

#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>

#include <string>

namespace lastro::sdk {
namespace {

using testing::TempDir;

std::string ReadAllFrom(ByteSource& source, std::size_t chunk) {
    std::string out;
    std::string buffer(chunk, '\0');
    while (std::size_t n = source.Read(buffer.data(), buffer.size())) {
        EXPECT_LE(n, chunk);
        out.append(buffer.data(), n);
    }
    return out;
}

TEST(OpenFile, MissingFileNamesThePathAndTheReason) {
    TempDir dir;
    const auto path = dir.Path() / "cad_fi.csv";
    try {
        OpenFile(path);
        FAIL() << "expected IngestError";
    } catch (const IngestError& error) {
        EXPECT_EQ(error.File(), path.string());
        EXPECT_EQ(error.Line(), 0u);
        EXPECT_EQ(std::string(error.what()), path.string() + ": cannot open: No such file or directory");
    }
}

TEST(OpenFile, DirectoryIsRefused) {
    TempDir dir;
    try {
        OpenFile(dir.Path());
        FAIL() << "expected IngestError";
    } catch (const IngestError& error) {
        EXPECT_EQ(std::string(error.what()), dir.Path().string() + ": cannot open: Is a directory");
    }
}

TEST(OpenFile, StreamsTheBytesInChunks) {
    TempDir dir;
    std::string bytes;
    for (int i = 0; i < 200000; ++i) {
        bytes.push_back(static_cast<char>(i * 7 % 251));
    }
    const auto path = dir.Write("registro_fundo.csv", bytes);
    auto source = OpenFile(path);
    EXPECT_EQ(source->Name(), "registro_fundo.csv");
    EXPECT_EQ(ReadAllFrom(*source, 4096), bytes);
    char byte;
    EXPECT_EQ(source->Read(&byte, 1), 0u);  // and stays at the end
}

TEST(OpenFile, EmptyFileReadsNothing) {
    TempDir dir;
    auto source = OpenFile(dir.Write("empty.csv", ""));
    char byte;
    EXPECT_EQ(source->Read(&byte, 1), 0u);
}

}  // namespace
}  // namespace lastro::sdk
