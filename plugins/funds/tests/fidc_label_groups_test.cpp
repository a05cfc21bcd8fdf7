// The two rules the FIDC ingester applies to X_4 and the series tables before anything is
// stored: how the rows of a repeated series label split into series (SplitLabelGroup) and which
// column of an amortization row holds the BRL amount (ReadAmortization).
#include "ingest/inf_mensal_fidc/fidc_amortization.hpp"
#include "ingest/inf_mensal_fidc/fidc_row_store.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lastro::funds {
namespace {

std::vector<FidcStoredRow> Rows(const std::vector<std::string>& lines) {
    std::vector<FidcStoredRow> rows;
    std::uint64_t seq = 0;
    for (const std::string& line : lines) {
        ++seq;
        rows.push_back(FidcStoredRow{line, 0, static_cast<std::uint32_t>(seq + 1), seq});
    }
    return rows;
}

std::vector<std::string> Kept(const FidcGroupSplit& split) {
    std::vector<std::string> kept;
    for (const FidcOccurrence& occurrence : split.occurrences) {
        kept.push_back(occurrence.kept.line);
    }
    return kept;
}

TEST(FidcLabelGroups, DifferentRowsOfOneLabelAreDistinctSeriesInFileOrder) {
    // 36.115.099/0001-14, 2023-10: three 'Subclasse Subordinada 0 | 0' rows, one delivery.
    const FidcGroupSplit split =
        SplitLabelGroup(Rows({"4760.1;1462.65", "25000.0;1257.48", "11888.46;1020.94"}), 1);
    EXPECT_EQ(split.reading, FidcGroupReading::kDistinctSeries);
    EXPECT_EQ(Kept(split),
              (std::vector<std::string>{"4760.1;1462.65", "25000.0;1257.48", "11888.46;1020.94"}));
    for (const FidcOccurrence& occurrence : split.occurrences) {
        EXPECT_TRUE(occurrence.replaced.empty());
    }
}

TEST(FidcLabelGroups, TheSameRowFiledTwiceIsOneSeries) {
    const FidcGroupSplit split = SplitLabelGroup(Rows({"a", "b", "a", "a"}), 1);
    EXPECT_EQ(split.reading, FidcGroupReading::kDistinctSeries);
    EXPECT_EQ(Kept(split), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(split.occurrences[0].kept.seq, 4u);  // the later position stands for the repeats

    const FidcGroupSplit single = SplitLabelGroup(Rows({"a", "a", "a", "a"}), 1);
    EXPECT_EQ(single.reading, FidcGroupReading::kSingle);
    EXPECT_EQ(Kept(single), (std::vector<std::string>{"a"}));
}

TEST(FidcLabelGroups, ARedeliveredReportKeepsItsLastDeliveryOfEachSeries) {
    // 08.632.394/0001-02, 2023-12, delivered twice: 56.76 then 56.8 for 'Senior Serie 1'.
    const FidcGroupSplit split = SplitLabelGroup(Rows({"56.76;22705284.26", "56.8;22719421.84"}), 2);
    EXPECT_EQ(split.reading, FidcGroupReading::kRedelivered);
    EXPECT_EQ(Kept(split), (std::vector<std::string>{"56.8;22719421.84"}));
    ASSERT_EQ(split.occurrences[0].replaced.size(), 1u);
    EXPECT_EQ(split.occurrences[0].replaced[0].line, "56.76;22705284.26");
}

TEST(FidcLabelGroups, IdenticalDeliveriesDecideNothing) {
    const FidcGroupSplit split = SplitLabelGroup(Rows({"400000.0;1312.9", "400000.0;1312.9"}), 2);
    EXPECT_EQ(split.reading, FidcGroupReading::kSingle);
    EXPECT_EQ(Kept(split), (std::vector<std::string>{"400000.0;1312.9"}));
    EXPECT_TRUE(split.occurrences[0].replaced.empty());
}

TEST(FidcLabelGroups, SeveralSeriesOfOneLabelInARedeliveredReport) {
    // k = 2 deliveries of two series each: row i is series i mod 2.
    const FidcGroupSplit split = SplitLabelGroup(Rows({"s1", "s2", "s1'", "s2"}), 2);
    EXPECT_EQ(split.reading, FidcGroupReading::kRedelivered);
    EXPECT_EQ(Kept(split), (std::vector<std::string>{"s1'", "s2"}));
    EXPECT_EQ(split.occurrences[0].replaced.size(), 1u);
    EXPECT_TRUE(split.occurrences[1].replaced.empty());
}

TEST(FidcLabelGroups, AGroupThatIsNoMultipleOfTheDeliveriesIsReadRowByRow) {
    const FidcGroupSplit split = SplitLabelGroup(Rows({"a", "b", "c"}), 2);
    EXPECT_EQ(split.reading, FidcGroupReading::kDistinctSeries);
    EXPECT_EQ(Kept(split), (std::vector<std::string>{"a", "b", "c"}));
    // One row in a report delivered twice: the series of one delivery only.
    EXPECT_EQ(SplitLabelGroup(Rows({"a"}), 2).reading, FidcGroupReading::kSingle);
}

TEST(FidcLabelGroups, RowsAreTakenInReadOrder) {
    std::vector<FidcStoredRow> rows = Rows({"first", "second"});
    std::swap(rows[0], rows[1]);
    EXPECT_EQ(Kept(SplitLabelGroup(rows, 1)), (std::vector<std::string>{"first", "second"}));
}

TEST(FidcLabelGroups, TheFirstSeriesKeepsTheFoldedLabelTheOthersANumber) {
    EXPECT_EQ(SeriesKeyOf("subclasse subordinada 0 | 0", 0), "subclasse subordinada 0 | 0");
    EXPECT_EQ(SeriesKeyOf("subclasse subordinada 0 | 0", 1), "subclasse subordinada 0 | 0 #2");
    EXPECT_EQ(SeriesKeyOf("subclasse subordinada 0 | 0", 2), "subclasse subordinada 0 | 0 #3");
}

TEST(FidcAmortizationReading, ColumnsReversedAgainstTheSeriesQuotaCount) {
    // 08.632.394/0001-02 'Subclasse Senior Serie 1': 22,705,284.26 / 56.76 = 400,023 quotas.
    const FidcReadAmount read = ReadAmortization(56.76, 22705284.26, 400000.0);
    EXPECT_EQ(read.reading, FidcReading::kSwapped);
    EXPECT_EQ(read.value_brl, 22705284.26);
    // 11.823.118/0001-36 'Subclasse Senior Série 4': 560,178.13 / 71,815.79 = 7.80 quotas.
    EXPECT_EQ(ReadAmortization(71815.79, 560178.13, 7.8).reading, FidcReading::kSwapped);
    EXPECT_EQ(ReadAmortization(71815.79, 560178.13, 7.8).value_brl, 560178.13);
}

TEST(FidcAmortizationReading, ColumnsAsNamedWhenTheQuotasAreTheSeriesQuotas) {
    const FidcReadAmount read = ReadAmortization(22705284.26, 400000.0, 400000.0);
    EXPECT_EQ(read.reading, FidcReading::kAsPublished);
    EXPECT_EQ(read.value_brl, 22705284.26);
    // Within 1 % of N either way.
    EXPECT_EQ(ReadAmortization(1000.0, 1010.0, 1000.0).reading, FidcReading::kAsPublished);
    EXPECT_EQ(ReadAmortization(1000.0, 990.0, 1000.0).reading, FidcReading::kAsPublished);
    EXPECT_EQ(ReadAmortization(1000.0, 1010.5, 1000.0).reading, FidcReading::kUnverified);
    // 0 quotas: swapped, 10,000.00 per quota would total 0, so only the names fit.
    const FidcReadAmount no_quotas = ReadAmortization(10000.0, 0.0, 50.0);
    EXPECT_EQ(no_quotas.reading, FidcReading::kAsPublished);
    EXPECT_EQ(no_quotas.value_brl, 10000.0);
    EXPECT_EQ(ReadAmortization(10000.0, 0.0, std::nullopt).reading, FidcReading::kAsPublished);
}

TEST(FidcAmortizationReading, NothingAmortizedIsZero) {
    const FidcReadAmount zero = ReadAmortization(0.0, 0.0, std::nullopt);
    EXPECT_EQ(zero.reading, FidcReading::kAsPublished);
    EXPECT_EQ(zero.value_brl, 0.0);
    const FidcReadAmount empty = ReadAmortization(std::nullopt, std::nullopt, 10.0);
    EXPECT_EQ(empty.reading, FidcReading::kAsPublished);
    EXPECT_FALSE(empty.value_brl.has_value());  // null stays null
}

TEST(FidcAmortizationReading, WithoutEvidenceNoAmountIsGuessed) {
    for (const FidcReadAmount& read : {
             ReadAmortization(43.36, 30000000.02, std::nullopt),  // the series has no X_2 row
             ReadAmortization(43.36, 30000000.02, 0.0),           // no quotas to compare with
             ReadAmortization(100.0, std::nullopt, 10.0),         // a figure empty
             ReadAmortization(std::nullopt, 100.0, 100.0),
             ReadAmortization(1.0, 1000.0, 1000.0),  // both readings fit
             ReadAmortization(5.0, 7.0, 1000.0),     // neither fits
         }) {
        EXPECT_EQ(read.reading, FidcReading::kUnverified);
        EXPECT_FALSE(read.value_brl.has_value());
    }
}

TEST(FidcAmortizationReading, ReadingNames) {
    EXPECT_EQ(ReadingName(FidcReading::kAsPublished), "as_published");
    EXPECT_EQ(ReadingName(FidcReading::kSwapped), "swapped");
    EXPECT_EQ(ReadingName(FidcReading::kUnverified), "unverified");
}

}  // namespace
}  // namespace lastro::funds
