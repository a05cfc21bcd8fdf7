// The SDK's sample kit beside the generator (sample_prng_test.cpp, sample_date_math_test.cpp):
// keyed streams, CSV tables, exact money, and the sample directory with its fixed zip time.
#include <lastro/sdk/sample/csv_table.hpp>
#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/sample/prng.hpp>
#include <lastro/sdk/sample/sample_directory.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <ctime>
#include <stdexcept>
#include <string_view>

namespace lastro::sdk::sample {
namespace {

using testing::TempDir;

// Pins the hash: a change here silently changes every sample drawn from keyed streams.
TEST(SampleStreamsTest, KeyedStreamsArePinnedAndDistinct) {
    static_assert(StreamOf("") == 0xCBF29CE484222325ULL);
    EXPECT_EQ(StreamOf("a"), 0xAF63DC4C8601EC8CULL);
    EXPECT_NE(StreamOf("cvm.cda_fi"), StreamOf("cvm.cda_fie"));
    EXPECT_NE(Prng::ForStream(1, StreamOf("x.one")).Next(), Prng::ForStream(1, StreamOf("x.two")).Next());
}

TEST(CsvTableTest, RendersUtf8AndLatin1AndRefusesWhatCannotBeReadBack) {
    constexpr std::array<std::string_view, 2> kColumns{"NOME", "VALOR"};
    CsvTable table(kColumns);
    table.AddRow({"Crédito", CentsField(-35)});
    table.AddRow({"", CentsField(std::nullopt)});
    EXPECT_EQ(table.RowCount(), 2u);
    EXPECT_EQ(table.Utf8(), "NOME;VALOR\nCrédito;-0.35\n;\n");
    EXPECT_EQ(table.ToLatin1(),
              "NOME;VALOR\nCr\xE9"
              "dito;-0.35\n;\n");
    EXPECT_THROW(table.AddRow({"a;b", "1"}), std::logic_error);
    EXPECT_THROW(table.AddRow({"a\nb", "1"}), std::logic_error);
    EXPECT_THROW(table.AddRow({"only one"}), std::logic_error);
    EXPECT_EQ(DateField(Date{2026, 1, 5}), "2026-01-05");
    EXPECT_EQ(FlagField(false), "N");
    EXPECT_EQ(FlagField(std::nullopt), "");
}

TEST(MoneyTest, RoundsHalvesAwayFromZeroAndAllocatesExactly) {
    EXPECT_EQ(MulDiv(5, 1, 2), 3);
    EXPECT_EQ(MulDiv(-5, 1, 2), -3);
    EXPECT_EQ(MulDiv(4, 1, 3), 1);
    EXPECT_EQ(Share(1'000'000, 333'333), 333'333);
    EXPECT_EQ(ValueInCents(3 * kE8, 150'000'000), 450);  // 3 units at R$ 1.50
    ValueSum sum;
    sum.Add(kE8 / 3, kE8);  // 0.33333333 units at R$ 1, three times: R$ 0.99999999
    sum.Add(kE8 / 3, kE8);
    sum.Add(kE8 / 3, kE8);
    EXPECT_EQ(sum.Cents(), 100);
    const std::array<std::int64_t, 3> weights{1, 1, 1};
    EXPECT_EQ(Allocate(100, weights), (std::vector<std::int64_t>{34, 33, 33}));
    EXPECT_EQ(Allocate(-100, weights), (std::vector<std::int64_t>{-34, -33, -33}));
    EXPECT_EQ(Decimal(-35, 2), "-0.35");
    EXPECT_EQ(Decimal(1'234'567'800, 8), "12.34567800");
    EXPECT_EQ(Decimal(std::nullopt, 2), "");
    EXPECT_THROW(MulDiv(1, 1, 0), std::invalid_argument);
}

TEST(SampleDirectoryTest, WritesFilesAndZipsInOrderWithTheFixedTime) {
    TempDir tmp;
    const std::filesystem::path dir = tmp.Path() / "out" / "nested";
    const std::time_t at = ArchiveTimestamp(20261014, {2026, 10, 14});
    SampleDirectory out(dir, at);
    out.Write("b.csv", "b\n");
    out.WriteZip("a.zip", {{"one.csv", "1\n"}, {"two.csv", "2\n"}});
    EXPECT_EQ(out.Files(), (std::vector<std::filesystem::path>{dir / "b.csv", dir / "a.zip"}));
    EXPECT_EQ(testing::ReadFile(dir / "b.csv"), "b\n");
    ZipArchive zip(dir / "a.zip");
    EXPECT_EQ(zip.Members(), (std::vector<std::string>{"one.csv", "two.csv"}));
    EXPECT_EQ(zip.ModifiedAt("two.csv"), at);

    std::tm local{};
    localtime_r(&at, &local);
    EXPECT_EQ(local.tm_mday, 14);
    EXPECT_EQ(local.tm_hour, 5);  // early morning, minutes and even seconds from the seed
    EXPECT_EQ(local.tm_sec % 2, 0);
}

TEST(SampleDirectoryTest, ZipBytesDoNotDependOnTheTimeZone) {
    TempDir tmp;
    const char* saved = std::getenv("TZ");
    const std::string saved_tz = saved ? saved : "";
    std::vector<std::string> archives;
    for (const char* tz : {"UTC", "America/Sao_Paulo", "Asia/Tokyo"}) {
        ::setenv("TZ", tz, 1);
        ::tzset();
        SampleDirectory out(tmp.Path() / tz, ArchiveTimestamp(77, {2026, 10, 14}));
        out.WriteZip("a.zip", {{"one.csv", "1\n"}});
        archives.push_back(testing::ReadFile(out.Files().front()));
    }
    if (saved) {
        ::setenv("TZ", saved_tz.c_str(), 1);
    } else {
        ::unsetenv("TZ");
    }
    ::tzset();
    EXPECT_EQ(archives[0], archives[1]);
    EXPECT_EQ(archives[0], archives[2]);
}

TEST(SampleDirectoryTest, AnUnwritableDirectoryNamesThePath) {
    TempDir tmp;
    const std::filesystem::path file = tmp.Write("not-a-directory", "x");
    try {
        SampleDirectory out(file / "out", 0);
        FAIL() << "expected an exception";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find(file.string()), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace lastro::sdk::sample
