#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lastro::sdk {
namespace {

using testing::TempDir;

// 2024-05-17 10:20:30 UTC: zip stores DOS times with two-second resolution, so an even second.
constexpr std::time_t kModified = 1715941230;
constexpr std::time_t kOtherModified = 1700000000;

std::string ReadAllFrom(ByteSource& source) {
    std::string out;
    char buffer[1000];
    while (std::size_t n = source.Read(buffer, sizeof buffer)) {
        out.append(buffer, n);
    }
    return out;
}

// Bytes deflate cannot shrink, so the member's data sits stored and a flipped byte is a CRC error.
std::string Noise(std::size_t size) {
    std::string bytes;
    std::uint32_t state = 12345;
    for (std::size_t i = 0; i < size; ++i) {
        state = state * 1103515245u + 12345u;
        bytes.push_back(static_cast<char>(state >> 24));
    }
    return bytes;
}

std::string Csv() {
    std::string csv = "CNPJ_Fundo;Denominacao_Social\n";
    for (int i = 0; i < 2000; ++i) {
        csv +=
            "12345678000195;FUNDO DE INVESTIMENTO EM DIREITOS CREDIT\xD3RIOS " + std::to_string(i) + "\r\n";
    }
    return csv;
}

std::filesystem::path WriteSample(const TempDir& dir) {
    const auto path = dir.Path() / "registro_fundo_classe.zip";
    ZipWriter writer(path);
    writer.Add("registro_fundo.csv", Csv(), kModified);
    writer.Add("noise.bin", Noise(20000), kOtherModified);
    writer.Close();
    return path;
}

template <typename Action>
IngestError CatchIngestError(Action action) {
    try {
        action();
    } catch (const IngestError& error) {
        return error;
    }
    ADD_FAILURE() << "expected IngestError";
    return IngestError("", 0, "");
}

TEST(ZipArchive, MissingFile) {
    TempDir dir;
    const auto path = dir.Path() / "absent.zip";
    const IngestError error = CatchIngestError([&] { ZipArchive archive(path); });
    EXPECT_EQ(error.File(), path.string());
    EXPECT_EQ(error.Line(), 0u);
    EXPECT_EQ(std::string(error.what()), path.string() + ": cannot open: No such file or directory");
}

TEST(ZipArchive, NotAZip) {
    TempDir dir;
    const auto path = dir.Write("cad_fi.zip", "TP_FUNDO;CNPJ_FUNDO\nFI;00.000.684/0001-21\n");
    const IngestError error = CatchIngestError([&] { ZipArchive archive(path); });
    EXPECT_EQ(error.File(), path.string());
    EXPECT_EQ(std::string(error.what()),
              path.string() + ": not a zip archive or truncated (libzip: Not a zip archive)");
}

TEST(ZipArchive, EmptyFile) {
    TempDir dir;
    const auto path = dir.Write("empty.zip", "");
    const IngestError error = CatchIngestError([&] { ZipArchive archive(path); });
    EXPECT_EQ(std::string(error.what()), path.string() + ": not a zip archive or truncated (empty file)");
}

TEST(ZipArchive, TruncatedFile) {
    TempDir dir;
    const std::string bytes = testing::ReadFile(WriteSample(dir));
    for (std::size_t keep : {bytes.size() / 2, bytes.size() - 10, std::size_t{100}}) {
        const auto path = dir.Write("cut.zip", bytes.substr(0, keep));
        const IngestError error = CatchIngestError([&] { ZipArchive archive(path); });
        EXPECT_EQ(error.File(), path.string()) << keep;
        EXPECT_NE(
            std::string(error.what()).find(path.string() + ": not a zip archive or truncated (libzip: "),
            std::string::npos)
            << error.what();
    }
}

TEST(ZipArchive, CorruptMemberDataFailsWhileReading) {
    TempDir dir;
    const auto written = dir.Path() / "written.zip";
    ZipWriter writer(written);
    writer.Add("noise.bin", Noise(20000), kModified);
    writer.Add("registro_fundo.csv", Csv(), kModified);
    writer.Close();
    std::string bytes = testing::ReadFile(written);
    // noise.bin's data follows the first local file header (30 bytes, then name and extra field).
    const auto u16 = [&](std::size_t at) {
        return static_cast<unsigned char>(bytes[at]) | static_cast<unsigned char>(bytes[at + 1]) << 8;
    };
    ASSERT_EQ(bytes.substr(0, 4), "PK\x03\x04");
    const std::size_t data = 30 + u16(26) + u16(28);
    bytes[data + 5000] = static_cast<char>(bytes[data + 5000] ^ 0x55);
    const auto path = dir.Write("corrupt.zip", bytes);

    ZipArchive archive(path);  // the directory is intact
    auto source = archive.Open("noise.bin");
    EXPECT_EQ(source->Name(), "corrupt.zip:noise.bin");
    const IngestError error = CatchIngestError([&] { ReadAllFrom(*source); });
    EXPECT_EQ(error.File(), "corrupt.zip:noise.bin");
    EXPECT_EQ(error.Line(), 0u);
    EXPECT_EQ(std::string(error.what()),
              "corrupt.zip:noise.bin: corrupt or truncated archive member (libzip: CRC error)");
    // The other member is still readable.
    EXPECT_EQ(ReadAllFrom(*archive.Open("registro_fundo.csv")), Csv());
}

TEST(ZipArchive, AbsentMember) {
    TempDir dir;
    ZipArchive archive(WriteSample(dir));
    EXPECT_FALSE(archive.Has("registro_classe.csv"));
    EXPECT_EQ(archive.ModifiedAt("registro_classe.csv"), std::nullopt);
    const IngestError error = CatchIngestError([&] { archive.Open("registro_classe.csv"); });
    EXPECT_EQ(std::string(error.what()),
              "registro_fundo_classe.zip:registro_classe.csv: no such member in the archive");
}

TEST(ZipArchive, ReadsBackWhatZipWriterWrote) {
    TempDir dir;
    ZipArchive archive(WriteSample(dir));
    EXPECT_EQ(archive.Members(), (std::vector<std::string>{"registro_fundo.csv", "noise.bin"}));
    EXPECT_TRUE(archive.Has("registro_fundo.csv"));
    EXPECT_EQ(archive.ModifiedAt("registro_fundo.csv"), kModified);
    EXPECT_EQ(archive.ModifiedAt("noise.bin"), kOtherModified);
    auto source = archive.Open("registro_fundo.csv");
    EXPECT_EQ(source->Name(), "registro_fundo_classe.zip:registro_fundo.csv");
    EXPECT_EQ(ReadAllFrom(*source), Csv());
    EXPECT_EQ(ReadAllFrom(*archive.Open("noise.bin")), Noise(20000));
}

TEST(ZipArchive, MembersAreDeflated) {
    TempDir dir;
    const auto path = WriteSample(dir);
    // The CSV repeats itself, so deflate must make the archive much smaller than its contents.
    EXPECT_LT(std::filesystem::file_size(path), Csv().size() / 4 + 20000 + 1000);
}

TEST(ZipArchive, FeedsCvmCsvReaderWithMemberNamesInErrors) {
    TempDir dir;
    const auto path = dir.Path() / "registro_fundo_classe.zip";
    ZipWriter writer(path);
    writer.Add("registro_fundo.csv", "CNPJ_Fundo;Situacao\n12345678000195;Em Funcionamento Normal\n",
               kModified);
    writer.Close();
    ZipArchive archive(path);
    CvmCsvReader reader(archive.Open("registro_fundo.csv"));
    const IngestError error = CatchIngestError([&] { reader.Require("Tipo_Fundo"); });
    EXPECT_EQ(std::string(error.what()),
              "registro_fundo_classe.zip:registro_fundo.csv:1: missing column Tipo_Fundo");
    ASSERT_TRUE(reader.Next());
    EXPECT_EQ(reader.Field(reader.Require("Situacao")), "Em Funcionamento Normal");
    EXPECT_FALSE(reader.Next());
}

TEST(ZipWriter, FailureToWriteNamesThePath) {
    TempDir dir;
    const auto path = dir.Path() / "no-such-dir" / "out.zip";
    try {
        ZipWriter writer(path);
        writer.Add("a.csv", "a;b\n", kModified);
        writer.Close();
        FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos) << error.what();
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(ZipWriter, NotClosedWritesNothing) {
    TempDir dir;
    const auto path = dir.Path() / "abandoned.zip";
    {
        ZipWriter writer(path);
        writer.Add("a.csv", "a;b\n", kModified);
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace lastro::sdk
