// InfDiarioReader (domain/daily/inf_diario_reader.hpp): CVM's daily fund report in its three
// layouts (real headers, invented values), the bytes as CVM writes them (ISO-8859-1, CRLF, masked
// CNPJs), nulls, every reason a record is rejected with its message, and what refuses a whole file.
#include "domain/daily/inf_diario_reader.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::series::testing {
namespace {

using ::testing::HasSubstr;

// The published headers (DATASETS-2.md §1.2), with their line end.
constexpr std::string_view kClassesHeader =
    "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;"
    "RESG_DIA;NR_COTST\n";
constexpr std::string_view kLegacyHeader =
    "TP_FUNDO;CNPJ_FUNDO;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;NR_COTST\n";
constexpr std::string_view kEarlyHeader =
    "CNPJ_FUNDO;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;NR_COTST\n";

// In-memory bytes handed out `chunk` bytes at a time (line ends then fall on read edges).
std::unique_ptr<sdk::ByteSource> Bytes(std::string_view bytes, std::size_t chunk = 1 << 20) {
    return sdk::testing::Bytes(std::string(bytes), "inf_diario_fi_202410.csv", chunk);
}

// What one call to Next gave.
struct Read {
    ReadOutcome outcome;
    DailyReportRow row;
    std::string problem;
};

// Every record of the file, rows and rejections, in order (the row object reused, as an
// ingester would).
std::vector<Read> ReadAll(InfDiarioReader& reader) {
    std::vector<Read> reads;
    DailyReportRow row;
    std::string problem;
    for (;;) {
        const ReadOutcome outcome = reader.Next(row, problem);
        if (outcome == ReadOutcome::kEnd) {
            break;
        }
        reads.push_back({outcome, row, outcome == ReadOutcome::kRejected ? problem : ""});
    }
    EXPECT_EQ(reader.Next(row, problem), ReadOutcome::kEnd) << "after the end";
    return reads;
}

std::vector<Read> ReadAll(std::string_view bytes, std::size_t chunk = 1 << 20) {
    InfDiarioReader reader(Bytes(bytes, chunk));
    return ReadAll(reader);
}

// The one record of `header` + `line`, expected rejected: its problem.
std::string RejectionOf(std::string_view header, std::string_view line) {
    const std::vector<Read> reads = ReadAll(std::string(header) + std::string(line) + "\n");
    if (reads.size() != 1 || reads[0].outcome != ReadOutcome::kRejected) {
        ADD_FAILURE() << "not one rejection: " << line;
        return "";
    }
    return reads[0].problem;
}

// The one record of `header` + `line`, expected read.
DailyReportRow RowOf(std::string_view header, std::string_view line) {
    const std::vector<Read> reads = ReadAll(std::string(header) + std::string(line) + "\n");
    if (reads.size() != 1 || reads[0].outcome != ReadOutcome::kRow) {
        ADD_FAILURE() << "not one row: " << line << (reads.empty() ? "" : " " + reads[0].problem);
        return {};
    }
    return reads[0].row;
}

// The message of the IngestError opening or reading `bytes` throws; "(no error)" otherwise.
std::string FileErrorOf(std::string_view bytes) {
    try {
        InfDiarioReader reader(Bytes(bytes));
        (void)ReadAll(reader);
    } catch (const sdk::IngestError& error) {
        EXPECT_EQ(error.File(), "inf_diario_fi_202410.csv");
        return error.what();
    }
    return "(no error)";
}

std::string Text(const std::optional<std::string>& value) {
    return value.value_or("(null)");
}

// ---- The three layouts ------------------------------------------------------------------------

TEST(InfDiarioReaderLayouts, ClassesLayoutWithAndWithoutSubclass) {
    const std::string bytes =
        std::string(kClassesHeader) +
        "CLASSES - FIF;00.017.024/0001-53;;2024-10-01;1132.53;44.275588000000;1132.53;0.00;0.00;1\n"
        "CLASSES - FIF;97.318.351/0001-87;RBMFN1747320951;2024-10-01;20471867.51;1.532749130000;"
        "20354121.07;150000.00;32754.19;412\n";
    InfDiarioReader reader(Bytes(bytes));
    EXPECT_EQ(reader.Layout(), DailyReportLayout::kClasses);
    EXPECT_EQ(reader.SourceName(), "inf_diario_fi_202410.csv");
    const std::vector<Read> reads = ReadAll(reader);
    ASSERT_EQ(reads.size(), 2u);

    const DailyReportRow& first = reads[0].row;
    ASSERT_EQ(reads[0].outcome, ReadOutcome::kRow) << reads[0].problem;
    EXPECT_EQ(first.line, 2u);
    EXPECT_EQ(first.fund_type, "CLASSES - FIF");
    EXPECT_EQ(first.cnpj, "00017024000153");
    EXPECT_EQ(first.subclass, "");
    EXPECT_EQ(first.day, (sdk::Date{2024, 10, 1}));
    EXPECT_EQ(Text(first.total), "1132.53");
    EXPECT_EQ(Text(first.quota), "44.275588000000");
    EXPECT_EQ(Text(first.net_worth), "1132.53");
    EXPECT_EQ(Text(first.subscriptions), "0.00");  // a published zero stays a zero, not a null
    EXPECT_EQ(Text(first.redemptions), "0.00");
    EXPECT_EQ(first.investors, std::optional<std::int64_t>(1));

    const DailyReportRow& second = reads[1].row;
    ASSERT_EQ(reads[1].outcome, ReadOutcome::kRow) << reads[1].problem;
    EXPECT_EQ(second.line, 3u);
    EXPECT_EQ(second.cnpj, "97318351000187");
    EXPECT_EQ(second.subclass, "RBMFN1747320951");
    EXPECT_EQ(Text(second.total), "20471867.51");
    EXPECT_EQ(Text(second.quota), "1.532749130000");
    EXPECT_EQ(Text(second.net_worth), "20354121.07");
    EXPECT_EQ(Text(second.subscriptions), "150000.00");
    EXPECT_EQ(Text(second.redemptions), "32754.19");
    EXPECT_EQ(second.investors, std::optional<std::int64_t>(412));
}

TEST(InfDiarioReaderLayouts, LegacyLayout) {
    const std::string bytes = std::string(kLegacyHeader) +
                              "FI;00.180.285/0001-90;2023-06-30;98765432.10;3.214566700000;97001234.56;"
                              "250000.00;1200000.50;15873\n";
    InfDiarioReader reader(Bytes(bytes));
    EXPECT_EQ(reader.Layout(), DailyReportLayout::kLegacy);
    const std::vector<Read> reads = ReadAll(reader);
    ASSERT_EQ(reads.size(), 1u);
    ASSERT_EQ(reads[0].outcome, ReadOutcome::kRow) << reads[0].problem;
    const DailyReportRow& row = reads[0].row;
    EXPECT_EQ(row.line, 2u);
    EXPECT_EQ(row.fund_type, "FI");
    EXPECT_EQ(row.cnpj, "00180285000190");
    EXPECT_EQ(row.subclass, "");
    EXPECT_EQ(row.day, (sdk::Date{2023, 6, 30}));
    EXPECT_EQ(Text(row.total), "98765432.10");
    EXPECT_EQ(Text(row.quota), "3.214566700000");
    EXPECT_EQ(Text(row.net_worth), "97001234.56");
    EXPECT_EQ(Text(row.subscriptions), "250000.00");
    EXPECT_EQ(Text(row.redemptions), "1200000.50");
    EXPECT_EQ(row.investors, std::optional<std::int64_t>(15873));
}

TEST(InfDiarioReaderLayouts, EarlyLayoutHasNoType) {
    const std::string bytes = std::string(kEarlyHeader) +
                              "11.052.478/0001-81;2004-03-15;5123456.78;12.345678900000;5100000.00;0.00;"
                              "2500.00;\n";
    InfDiarioReader reader(Bytes(bytes));
    EXPECT_EQ(reader.Layout(), DailyReportLayout::kEarly);
    const std::vector<Read> reads = ReadAll(reader);
    ASSERT_EQ(reads.size(), 1u);
    ASSERT_EQ(reads[0].outcome, ReadOutcome::kRow) << reads[0].problem;
    const DailyReportRow& row = reads[0].row;
    EXPECT_EQ(row.fund_type, "");
    EXPECT_EQ(row.cnpj, "11052478000181");
    EXPECT_EQ(row.subclass, "");
    EXPECT_EQ(row.day, (sdk::Date{2004, 3, 15}));
    EXPECT_EQ(Text(row.quota), "12.345678900000");
    EXPECT_EQ(row.investors, std::nullopt);  // NR_COTST blank, as in some 2004 rows
}

// Columns are found by name: another order and columns the format does not know are fine.
TEST(InfDiarioReaderLayouts, ExtraColumnsAndAnotherOrder) {
    const std::string bytes =
        "DT_COMPTC;DENOM_SOCIAL;NR_COTST;CNPJ_FUNDO_CLASSE;VL_QUOTA;TP_FUNDO_CLASSE;RESG_DIA;"
        "ID_SUBCLASSE;VL_PATRIM_LIQ;CAPTC_DIA;VL_TOTAL;DT_RECEB\n"
        "2024-10-02;FUNDO XPTO RENDA FIXA;37;26.673.818/0001-69;1.004512000000;CLASSES - FIF;10.00;"
        "SUB01;7000.00;20.00;7100.00;2024-10-03\n";
    InfDiarioReader reader(Bytes(bytes));
    EXPECT_EQ(reader.Layout(), DailyReportLayout::kClasses);
    const std::vector<Read> reads = ReadAll(reader);
    ASSERT_EQ(reads.size(), 1u);
    ASSERT_EQ(reads[0].outcome, ReadOutcome::kRow) << reads[0].problem;
    const DailyReportRow& row = reads[0].row;
    EXPECT_EQ(row.fund_type, "CLASSES - FIF");
    EXPECT_EQ(row.cnpj, "26673818000169");
    EXPECT_EQ(row.subclass, "SUB01");
    EXPECT_EQ(row.day, (sdk::Date{2024, 10, 2}));
    EXPECT_EQ(Text(row.total), "7100.00");
    EXPECT_EQ(Text(row.quota), "1.004512000000");
    EXPECT_EQ(Text(row.net_worth), "7000.00");
    EXPECT_EQ(Text(row.subscriptions), "20.00");
    EXPECT_EQ(Text(row.redemptions), "10.00");
    EXPECT_EQ(row.investors, std::optional<std::int64_t>(37));
}

// A class CNPJ without ID_SUBCLASSE in the header: the classes layout, every subclass "".
TEST(InfDiarioReaderLayouts, ClassesWithoutSubclassColumn) {
    const std::string bytes =
        "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;"
        "NR_COTST\n"
        "CLASSES - FIP;07.593.189/0001-12;2024-10-01;1000.00;1.000000000000;1000.00;0.00;0.00;2\n";
    InfDiarioReader reader(Bytes(bytes));
    EXPECT_EQ(reader.Layout(), DailyReportLayout::kClasses);
    const std::vector<Read> reads = ReadAll(reader);
    ASSERT_EQ(reads.size(), 1u);
    ASSERT_EQ(reads[0].outcome, ReadOutcome::kRow) << reads[0].problem;
    const DailyReportRow& row = reads[0].row;
    EXPECT_EQ(row.fund_type, "CLASSES - FIP");
    EXPECT_EQ(row.subclass, "");
    EXPECT_EQ(row.cnpj, "07593189000112");
}

// ---- The bytes as CVM writes them -------------------------------------------------------------

TEST(InfDiarioReaderBytes, CrlfLineEnds) {
    const std::string bytes =
        "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;"
        "RESG_DIA;NR_COTST\r\n"
        "CLASSES - FIF;00.017.024/0001-53;;2024-10-01;1132.53;44.275588000000;1132.53;0.00;0.00;1\r\n"
        "CLASSES - FIF;00.017.024/0001-53;;2024-10-02;1140.10;44.280001000000;1140.10;;;\r\n";
    const std::vector<Read> reads = ReadAll(bytes);
    ASSERT_EQ(reads.size(), 2u);
    for (const Read& read : reads) {
        ASSERT_EQ(read.outcome, ReadOutcome::kRow) << read.problem;
    }
    EXPECT_EQ(reads[0].row.investors, std::optional<std::int64_t>(1));  // no '\r' left on the last field
    EXPECT_EQ(reads[1].row.day, (sdk::Date{2024, 10, 2}));
    EXPECT_EQ(reads[1].row.redemptions, std::nullopt);
    EXPECT_EQ(reads[1].row.investors, std::nullopt);
}

// ISO-8859-1 text comes out as UTF-8.
TEST(InfDiarioReaderBytes, Latin1TypeComesOutAsUtf8) {
    const DailyReportRow row = RowOf(kLegacyHeader,
                                     "FUNDO DE \xCDNDICE;00.180.285/0001-90;2024-05-02;1500000.00;"
                                     "105.123456789012;1498000.00;0.00;0.00;3");
    EXPECT_EQ(row.fund_type, "FUNDO DE \xC3\x8DNDICE");  // "FUNDO DE ÍNDICE"
}

TEST(InfDiarioReaderBytes, MaskedAndBareCnpj) {
    const std::vector<Read> reads =
        ReadAll(std::string(kLegacyHeader) +
                "FI;00.017.024/0001-53;2024-05-02;1.00;1.000000000000;1.00;0.00;0.00;1\n"
                "FI;00017024000153;2024-05-02;1.00;1.000000000000;1.00;0.00;0.00;1\n"
                "FI; 97.318.351/0001-87 ;2024-05-02;1.00;1.000000000000;1.00;0.00;0.00;1\n");
    ASSERT_EQ(reads.size(), 3u);
    for (const Read& read : reads) {
        ASSERT_EQ(read.outcome, ReadOutcome::kRow) << read.problem;
    }
    EXPECT_EQ(reads[0].row.cnpj, "00017024000153");
    EXPECT_EQ(reads[1].row.cnpj, "00017024000153");
    EXPECT_EQ(reads[2].row.cnpj, "97318351000187");
}

TEST(InfDiarioReaderBytes, BlankLinesSkippedLinesCounted) {
    const std::vector<Read> reads = ReadAll(
        std::string(kLegacyHeader) + "\nFI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;1\n\n");
    ASSERT_EQ(reads.size(), 1u);
    ASSERT_EQ(reads[0].outcome, ReadOutcome::kRow) << reads[0].problem;
    EXPECT_EQ(reads[0].row.line, 3u);
}

TEST(InfDiarioReaderBytes, LastLineWithoutLineEndIsRead) {
    const std::vector<Read> reads =
        ReadAll(std::string(kLegacyHeader) + "FI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;1");
    ASSERT_EQ(reads.size(), 1u);
    ASSERT_EQ(reads[0].outcome, ReadOutcome::kRow) << reads[0].problem;
    EXPECT_EQ(reads[0].row.investors, std::optional<std::int64_t>(1));
}

TEST(InfDiarioReaderBytes, HeaderOnlyHasNoRecords) {
    EXPECT_TRUE(ReadAll(kClassesHeader).empty());
}

// ---- Values -----------------------------------------------------------------------------------

// Decimals are kept as published: no digit added or dropped, no conversion.
TEST(InfDiarioReaderValues, DecimalsKeptAsPublished) {
    const DailyReportRow row = RowOf(
        kClassesHeader,
        "CLASSES - FIF;00.017.024/0001-53;;2024-10-01;  1132.5 ;1.5;-0.01;0;100;0000000000000000000001");
    EXPECT_EQ(Text(row.total), "1132.5");  // blanks around a value are not part of it
    EXPECT_EQ(Text(row.quota), "1.5");     // fewer decimals than usual: as published
    EXPECT_EQ(Text(row.net_worth), "-0.01");
    EXPECT_EQ(Text(row.subscriptions), "0");
    EXPECT_EQ(Text(row.redemptions), "100");
    EXPECT_EQ(row.investors, std::optional<std::int64_t>(1));

    const DailyReportRow widest =
        RowOf(kClassesHeader,
              "CLASSES - FIF;00.017.024/0001-53;;2024-10-01;123456789012345678901234.1234567890123456;"
              "44.275588000000;0.0000000000000001;-123456789012345678901234;0.00;1000000000000");
    EXPECT_EQ(Text(widest.total), "123456789012345678901234.1234567890123456");
    EXPECT_EQ(Text(widest.quota), "44.275588000000");
    EXPECT_EQ(Text(widest.net_worth), "0.0000000000000001");
    EXPECT_EQ(Text(widest.subscriptions), "-123456789012345678901234");
    EXPECT_EQ(widest.investors, std::optional<std::int64_t>(1'000'000'000'000));
}

// A blank value is null (never 0); a blank subclass is "".
TEST(InfDiarioReaderValues, BlankFieldsAreNull) {
    const DailyReportRow row =
        RowOf(kClassesHeader, "CLASSES - FIF;00.017.024/0001-53;  ;2024-10-01;;44.275588000000; ; ;;");
    EXPECT_EQ(row.subclass, "");
    EXPECT_EQ(row.total, std::nullopt);
    EXPECT_EQ(Text(row.quota), "44.275588000000");
    EXPECT_EQ(row.net_worth, std::nullopt);
    EXPECT_EQ(row.subscriptions, std::nullopt);
    EXPECT_EQ(row.redemptions, std::nullopt);
    EXPECT_EQ(row.investors, std::nullopt);

    // A blank quota too: the row is read, with a null quota (the reader does not decide what a
    // series does with it).
    const DailyReportRow no_quota =
        RowOf(kClassesHeader, "CLASSES - FIF;00.017.024/0001-53;;2024-10-01;1.00;;1.00;0.00;0.00;1");
    EXPECT_EQ(no_quota.quota, std::nullopt);
}

// The row is reused from call to call: nothing of a record may leak into the next.
TEST(InfDiarioReaderValues, NothingLeaksFromOneRecordToTheNext) {
    const std::vector<Read> reads =
        ReadAll(std::string(kClassesHeader) +
                "CLASSES - FIF;97.318.351/0001-87;RBMFN1747320951;2024-10-01;20471867.51;1.532749130000;"
                "20354121.07;150000.00;32754.19;412\n"
                ";00.017.024/0001-53;;2024-10-02;;1.5;;;;\n"
                "CLASSES - FIF;97.318.351/0001-87;X;2024-10-03;1.00;2.00;3.00;4.00;5.00;6\n");
    ASSERT_EQ(reads.size(), 3u);
    const DailyReportRow& second = reads[1].row;
    ASSERT_EQ(reads[1].outcome, ReadOutcome::kRow) << reads[1].problem;
    EXPECT_EQ(second.fund_type, "");
    EXPECT_EQ(second.cnpj, "00017024000153");
    EXPECT_EQ(second.subclass, "");
    EXPECT_EQ(second.total, std::nullopt);
    EXPECT_EQ(Text(second.quota), "1.5");
    EXPECT_EQ(second.net_worth, std::nullopt);
    EXPECT_EQ(second.subscriptions, std::nullopt);
    EXPECT_EQ(second.redemptions, std::nullopt);
    EXPECT_EQ(second.investors, std::nullopt);
    const DailyReportRow& third = reads[2].row;
    ASSERT_EQ(reads[2].outcome, ReadOutcome::kRow) << reads[2].problem;
    EXPECT_EQ(third.subclass, "X");
    EXPECT_EQ(Text(third.total), "1.00");
    EXPECT_EQ(Text(third.redemptions), "5.00");
    EXPECT_EQ(third.investors, std::optional<std::int64_t>(6));
}

// One row object through files of two layouts: what the second layout lacks comes out empty.
TEST(InfDiarioReaderValues, RowReusedAcrossLayouts) {
    DailyReportRow row;
    std::string problem;
    InfDiarioReader classes(
        Bytes(std::string(kClassesHeader) +
              "CLASSES - FIF;97.318.351/0001-87;RBMFN1747320951;2024-10-01;1.00;1.5;1.00;0.00;0.00;1\n"));
    ASSERT_EQ(classes.Next(row, problem), ReadOutcome::kRow) << problem;
    EXPECT_EQ(row.subclass, "RBMFN1747320951");
    InfDiarioReader early(
        Bytes(std::string(kEarlyHeader) + "11.052.478/0001-81;2004-03-15;1.00;1.5;1.00;0.00;0.00;1\n"));
    ASSERT_EQ(early.Next(row, problem), ReadOutcome::kRow) << problem;
    EXPECT_EQ(row.fund_type, "");
    EXPECT_EQ(row.subclass, "");
    EXPECT_EQ(row.cnpj, "11052478000181");
}

TEST(InfDiarioReaderValues, PublishedDecimalForm) {
    for (const std::string_view good :
         {"0", "-0", "1.5", "44.275588000000", "007.10", "-1234.56", "123456789012345678901234",
          "1.1234567890123456", "123456789012345678901234.1234567890123456"}) {
        EXPECT_TRUE(IsPublishedDecimal(good)) << good;
    }
    for (const std::string_view bad : {"",
                                       "-",
                                       ".",
                                       ".5",
                                       "5.",
                                       "-.5",
                                       "+1",
                                       "1,5",
                                       "1.234,56",
                                       "1e5",
                                       "1E5",
                                       "1 5",
                                       " 1",
                                       "1 ",
                                       "--1",
                                       "1.2.3",
                                       "1234567890123456789012345",
                                       "1.12345678901234567",
                                       "NaN",
                                       "inf",
                                       "0x10",
                                       "1.5\r",
                                       "\xD9\xA1"}) {
        EXPECT_FALSE(IsPublishedDecimal(bad)) << bad;
    }
}

// ---- Rejected records: the whole record skipped, reading goes on ------------------------------

TEST(InfDiarioReaderRejections, RejectionDoesNotStopReading) {
    const std::vector<Read> reads = ReadAll(std::string(kLegacyHeader) +
                                            "FI;00.017.024/0001-53;2024-05-02;1.00;1,5;1.00;0.00;0.00;1\n"
                                            "FI;00.017.024/0001-53;2024-05-03;1.00;1.6;1.00;0.00;0.00;1\n"
                                            "FI;00.017.024/0001-53;2024-05-06;1.00\n"
                                            "FI;00.017.024/0001-53;2024-05-07;1.00;1.7;1.00;0.00;0.00;1\n");
    ASSERT_EQ(reads.size(), 4u);
    EXPECT_EQ(reads[0].outcome, ReadOutcome::kRejected);
    EXPECT_EQ(reads[0].problem, "line 2: VL_QUOTA is not a decimal number: '1,5'");
    ASSERT_EQ(reads[1].outcome, ReadOutcome::kRow) << reads[1].problem;
    EXPECT_EQ(reads[1].row.line, 3u);
    EXPECT_EQ(Text(reads[1].row.quota), "1.6");
    EXPECT_EQ(reads[2].outcome, ReadOutcome::kRejected);
    EXPECT_EQ(reads[2].problem, "line 4: expected 9 fields, found 4");
    ASSERT_EQ(reads[3].outcome, ReadOutcome::kRow) << reads[3].problem;
    EXPECT_EQ(reads[3].row.line, 5u);
    EXPECT_EQ(Text(reads[3].row.quota), "1.7");
}

TEST(InfDiarioReaderRejections, WrongFieldCount) {
    EXPECT_EQ(
        RejectionOf(kClassesHeader, "CLASSES - FIF;00.017.024/0001-53;;2024-10-01;1.00;1.5;1.00;0.00;0.00"),
        "line 2: expected 10 fields, found 9");
    EXPECT_EQ(RejectionOf(kClassesHeader,
                          "CLASSES - FIF;00.017.024/0001-53;;2024-10-01;1.00;1.5;1.00;0.00;0.00;1;"),
              "line 2: expected 10 fields, found 11");
    // A stray ';' inside a name-like field shifts everything: found by the count, not read shifted.
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;EXTRA;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: expected 9 fields, found 10");
}

TEST(InfDiarioReaderRejections, Cnpj) {
    EXPECT_EQ(RejectionOf(kClassesHeader, "CLASSES - FIF;;;2024-10-01;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: CNPJ_FUNDO_CLASSE is empty");
    EXPECT_EQ(RejectionOf(kClassesHeader, "CLASSES - FIF;   ;;2024-10-01;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: CNPJ_FUNDO_CLASSE is empty");
    // A wrong check digit.
    EXPECT_EQ(
        RejectionOf(kClassesHeader, "CLASSES - FIF;00.017.024/0001-54;;2024-10-01;1.00;1.5;1.00;0.00;0.00;1"),
        "line 2: CNPJ_FUNDO_CLASSE is not a valid CNPJ: '00.017.024/0001-54'");
    // CVM's "no CNPJ" placeholder.
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.000.000/0000-00;2024-05-02;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: CNPJ_FUNDO is not a valid CNPJ: '00.000.000/0000-00'");
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;0017024000153;2024-05-02;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: CNPJ_FUNDO is not a valid CNPJ: '0017024000153'");
    EXPECT_EQ(RejectionOf(kEarlyHeader, "FUNDO XPTO;2004-03-15;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: CNPJ_FUNDO is not a valid CNPJ: 'FUNDO XPTO'");
}

TEST(InfDiarioReaderRejections, Date) {
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: DT_COMPTC is empty");
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;2023-02-29;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: DT_COMPTC is not a YYYY-MM-DD date: '2023-02-29'");
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;02/05/2024;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: DT_COMPTC is not a YYYY-MM-DD date: '02/05/2024'");
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;2024-5-2;1.00;1.5;1.00;0.00;0.00;1"),
              "line 2: DT_COMPTC is not a YYYY-MM-DD date: '2024-5-2'");
    // A leap day is a real day.
    EXPECT_EQ(RowOf(kLegacyHeader, "FI;00.017.024/0001-53;2024-02-29;1.00;1.5;1.00;0.00;0.00;1").day,
              (sdk::Date{2024, 2, 29}));
}

// Each value column in turn, with each form CVM does not write.
TEST(InfDiarioReaderRejections, EveryValueColumnChecked) {
    const std::vector<std::string_view> columns = {"VL_TOTAL", "VL_QUOTA", "VL_PATRIM_LIQ", "CAPTC_DIA",
                                                   "RESG_DIA"};
    for (std::size_t column = 0; column < columns.size(); ++column) {
        for (const std::string_view bad : {"1,5", "+1.5", "1e5", ".5", "5.", "1 500.00", "1.2.3", "R$ 10"}) {
            std::vector<std::string> values = {"1.00", "1.5", "1.00", "0.00", "0.00"};
            values[column] = std::string(bad);
            const std::string line = "FI;00.017.024/0001-53;2024-05-02;" + values[0] + ";" + values[1] + ";" +
                                     values[2] + ";" + values[3] + ";" + values[4] + ";1";
            EXPECT_EQ(RejectionOf(kLegacyHeader, line), "line 2: " + std::string(columns[column]) +
                                                            " is not a decimal number: '" + std::string(bad) +
                                                            "'");
        }
    }
}

TEST(InfDiarioReaderRejections, DecimalTooWide) {
    EXPECT_EQ(
        RejectionOf(kLegacyHeader,
                    "FI;00.017.024/0001-53;2024-05-02;1234567890123456789012345.00;1.5;1.00;0.00;0.00;1"),
        "line 2: VL_TOTAL is not a decimal number: '1234567890123456789012345.00'");
    EXPECT_EQ(RejectionOf(kLegacyHeader,
                          "FI;00.017.024/0001-53;2024-05-02;1.00;1.12345678901234567;1.00;0.00;0.00;1"),
              "line 2: VL_QUOTA is not a decimal number: '1.12345678901234567'");
}

TEST(InfDiarioReaderRejections, Investors) {
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;-3"),
              "line 2: NR_COTST is not a non-negative integer: '-3'");
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;12.0"),
              "line 2: NR_COTST is not a non-negative integer: '12.0'");
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;+12"),
              "line 2: NR_COTST is not a non-negative integer: '+12'");
    EXPECT_EQ(RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;1 2"),
              "line 2: NR_COTST is not a non-negative integer: '1 2'");
    EXPECT_EQ(RejectionOf(kLegacyHeader,
                          "FI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;99999999999999999999"),
              "line 2: NR_COTST is not a non-negative integer: '99999999999999999999'");
    EXPECT_EQ(
        RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;1000000000001"),
        "line 2: NR_COTST is larger than 10^12: '1000000000001'");
}

// A long value is cut in the message, on a character boundary.
TEST(InfDiarioReaderRejections, LongValueCutInMessage) {
    const std::string value = std::string(59, 'x') + "\xC9" + std::string(100, 'y');  // 'É' across byte 60
    const std::string problem =
        RejectionOf(kLegacyHeader, "FI;00.017.024/0001-53;2024-05-02;1.00;" + value + ";1.00;0.00;0.00;1");
    EXPECT_EQ(problem, "line 2: VL_QUOTA is not a decimal number: '" + std::string(59, 'x') + "...'");
}

// ---- Files refused whole ----------------------------------------------------------------------

TEST(InfDiarioReaderFile, MissingRequiredColumn) {
    const std::vector<std::string_view> required = {"DT_COMPTC", "VL_TOTAL", "VL_QUOTA", "VL_PATRIM_LIQ",
                                                    "CAPTC_DIA", "RESG_DIA", "NR_COTST"};
    for (const std::string_view header : {kClassesHeader, kLegacyHeader, kEarlyHeader}) {
        for (const std::string_view column : required) {
            std::string without(header);
            const std::size_t at = without.find(std::string(column) + ";") != std::string::npos
                                       ? without.find(std::string(column) + ";")
                                       : without.find(std::string(";") + std::string(column));
            ASSERT_NE(at, std::string::npos);
            without.erase(at, column.size() + 1);
            EXPECT_EQ(FileErrorOf(without),
                      "inf_diario_fi_202410.csv:1: missing column " + std::string(column))
                << without;
        }
    }
    EXPECT_EQ(FileErrorOf("TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;"
                          "VL_PATRIM_LIQ;NR_COTST\n"),
              "inf_diario_fi_202410.csv:1: missing columns CAPTC_DIA, RESG_DIA");
}

TEST(InfDiarioReaderFile, HeaderNotTheFormats) {
    // No column naming the fund at all (another CVM file).
    EXPECT_EQ(FileErrorOf("CNPJ_CIA;DENOM_SOCIAL;DT_REG\n"),
              "inf_diario_fi_202410.csv:1: missing column CNPJ_FUNDO_CLASSE (or CNPJ_FUNDO)");
    EXPECT_EQ(FileErrorOf("DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;NR_COTST\n"),
              "inf_diario_fi_202410.csv:1: missing column CNPJ_FUNDO_CLASSE (or CNPJ_FUNDO)");
    // The legacy type without its CNPJ column.
    EXPECT_EQ(FileErrorOf("TP_FUNDO;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;NR_COTST\n"),
              "inf_diario_fi_202410.csv:1: missing column CNPJ_FUNDO");
    // The classes' type with the legacy CNPJ column.
    EXPECT_EQ(FileErrorOf("TP_FUNDO_CLASSE;CNPJ_FUNDO;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;"
                          "RESG_DIA;NR_COTST\n"),
              "inf_diario_fi_202410.csv:1: missing column CNPJ_FUNDO_CLASSE");
    // The classes' CNPJ without a type column.
    EXPECT_EQ(
        FileErrorOf("CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;"
                    "RESG_DIA;NR_COTST\n"),
        "inf_diario_fi_202410.csv:1: missing column TP_FUNDO_CLASSE (or TP_FUNDO)");
    // A header that is not ';' separated; an empty file.
    EXPECT_THAT(
        FileErrorOf("TP_FUNDO,CNPJ_FUNDO,DT_COMPTC,VL_TOTAL,VL_QUOTA,VL_PATRIM_LIQ,CAPTC_DIA,RESG_DIA,"
                    "NR_COTST\n"),
        HasSubstr("inf_diario_fi_202410.csv:1: header is not ';' separated"));
    EXPECT_THAT(FileErrorOf(""), HasSubstr("inf_diario_fi_202410.csv:1: empty file"));
}

TEST(InfDiarioReaderFile, TruncatedLastLine) {
    EXPECT_EQ(FileErrorOf(std::string(kClassesHeader) +
                          "CLASSES - FIF;00.017.024/0001-53;;2024-10-01;1.00;1.5;1.00;0.00;0.00;1\n"
                          "CLASSES - FIF;00.017.024/0001-53;;2024-10-02;1.0"),
              "inf_diario_fi_202410.csv:3: truncated file: last line has 5 of 10 fields");
}

TEST(InfDiarioReaderFile, BytesThatAreNotText) {
    EXPECT_THAT(
        FileErrorOf(std::string(kLegacyHeader) + "FI;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;" +
                    std::string(1, '\0') + ";0.00;1\n"),
        HasSubstr("inf_diario_fi_202410.csv:2: byte 0x00 is not ISO-8859-1 text"));
    // The same name written in UTF-8: CVM's files are ISO-8859-1.
    EXPECT_THAT(
        FileErrorOf(std::string(kLegacyHeader) +
                    "FUNDO DE \xC3\x8DNDICE;00.017.024/0001-53;2024-05-02;1.00;1.5;1.00;0.00;0.00;1\n"),
        HasSubstr("inf_diario_fi_202410.csv:2: the file looks UTF-8 encoded"));
}

// ---- Streaming --------------------------------------------------------------------------------

// A file bigger than the reader's buffer, handed out in odd chunks: every record read, with its
// line, whatever the read edges.
TEST(InfDiarioReaderStreaming, ManyRecordsInOddChunks) {
    std::string bytes(kClassesHeader);
    constexpr int kRecords = 5000;
    for (int i = 0; i < kRecords; ++i) {
        char line[256];
        std::snprintf(
            line, sizeof line,
            "CLASSES - FIF;97.318.351/0001-87;SUB%d;2024-10-%02d;%d.%02d;1.%012d;%d.00;0.00;0.00;%d\r\n",
            i % 7, 1 + i % 28, 1000 + i, i % 100, i, 999 + i, i);
        bytes += line;
    }
    ASSERT_GT(bytes.size(), 3u * 64 * 1024);
    for (const std::size_t chunk : {std::size_t{1} << 20, std::size_t{7}, std::size_t{4093}}) {
        const std::vector<Read> reads = ReadAll(bytes, chunk);
        ASSERT_EQ(reads.size(), static_cast<std::size_t>(kRecords)) << chunk;
        for (int i = 0; i < kRecords; ++i) {
            const Read& read = reads[static_cast<std::size_t>(i)];
            ASSERT_EQ(read.outcome, ReadOutcome::kRow) << read.problem;
            ASSERT_EQ(read.row.line, static_cast<std::size_t>(i) + 2);
            ASSERT_EQ(read.row.subclass, "SUB" + std::to_string(i % 7));
            char quota[32];
            std::snprintf(quota, sizeof quota, "1.%012d", i);
            ASSERT_EQ(Text(read.row.quota), quota);
            ASSERT_EQ(read.row.investors, std::optional<std::int64_t>(i));
        }
    }
}

}  // namespace
}  // namespace lastro::series::testing
