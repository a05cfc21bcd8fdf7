// The stocks sample's COTAHIST_A2026: B3's layout byte for byte, its calendar, its kinds of
// lines, and the same bytes for the same seed. Read with the SDK's FixedWidthReader.
#include "sample/b3_calendar.hpp"
#include "sample/cotahist_line.hpp"
#include "written_sample.hpp"

#include <lastro/companies/sample_listing.hpp>

#include <gtest/gtest.h>

#include <set>

namespace lastro::stocks {
namespace {

using testing::Record;
using testing::Sample;

TEST(SampleCotahistTest, TheSameSeedGivesTheSameBytesAndAnotherSeedOthers) {
    sdk::testing::TempDir again;
    StocksSampleWriter writer;
    const sdk::SampleReport report =
        writer.Write({again.Path(), sdk::kDefaultSampleSeed, sdk::SampleScale::kSample});
    ASSERT_EQ(report.files.size(), Sample().report.files.size());
    for (const auto& path : report.files) {
        SCOPED_TRACE(path.filename().string());
        std::ifstream in(path, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        EXPECT_EQ(bytes.str(), Sample().File(path.filename().string()));
    }
    sdk::testing::TempDir other;
    writer.Write({other.Path(), 7, sdk::SampleScale::kSample});
    EXPECT_NE(sdk::testing::ZipMemberBytes(other.Path() / "COTAHIST_A2026.ZIP"),
              sdk::testing::ZipMemberBytes(again.Path() / "COTAHIST_A2026.ZIP"));
}

TEST(SampleCotahistTest, EveryRecordIs245BytesAndCrlfAndTheTrailerCountsThemAll) {
    const std::string& bytes = Sample().cotahist;
    std::size_t lines = 0;
    for (std::size_t start = 0; start < bytes.size(); ++lines) {
        const std::size_t end = bytes.find("\r\n", start);
        ASSERT_NE(end, std::string::npos) << "line " << lines + 1 << " lacks CRLF";
        ASSERT_EQ(end - start, kCotahistRecordBytes) << "line " << lines + 1;
        start = end + 2;
    }
    EXPECT_EQ(bytes.find('\n'), bytes.find("\r\n") + 1);  // no bare LF
    EXPECT_TRUE(bytes.starts_with("00COTAHIST.2026BOVESPA 20261014   "));
    EXPECT_EQ(Sample().lines, lines);
    EXPECT_EQ(Sample().trailer_count, static_cast<std::int64_t>(lines));  // header and trailer included
    EXPECT_EQ(Sample().records.size() + 2, lines);
    EXPECT_GT(lines, 10'000u);
}

TEST(SampleCotahistTest, EveryB3TradingDayOf2026UntilTheReferenceDate) {
    std::set<sdk::Date> days;
    for (const Record& r : Sample().records) {
        days.insert(r.day);
    }
    // 2026-01-02 to 2026-10-14: 203 weekdays less Carnival (16 and 17 Feb), Good Friday (3 Apr),
    // Tiradentes, 1 May, Corpus Christi (4 Jun), 7 Sep and 12 Oct.
    EXPECT_EQ(days.size(), 196u);
    EXPECT_EQ(*days.begin(), (sdk::Date{2026, 1, 2}));
    EXPECT_EQ(*days.rbegin(), (sdk::Date{2026, 10, 14}));
    for (const sdk::Date closed :
         {sdk::Date{2026, 2, 16}, sdk::Date{2026, 2, 17}, sdk::Date{2026, 4, 3}, sdk::Date{2026, 4, 21},
          sdk::Date{2026, 5, 1}, sdk::Date{2026, 6, 4}, sdk::Date{2026, 9, 7}, sdk::Date{2026, 10, 12}}) {
        EXPECT_FALSE(days.contains(closed)) << closed.ToString();
    }
    EXPECT_TRUE(days.contains(sdk::Date{2026, 2, 18}));  // Ash Wednesday trades from 13:00
    EXPECT_TRUE(days.contains(sdk::Date{2026, 7, 9}));   // São Paulo's holiday: trading since 2022
    EXPECT_FALSE(IsB3TradingDay({2025, 12, 24}));
    EXPECT_FALSE(IsB3TradingDay({2025, 12, 31}));
    EXPECT_FALSE(IsB3TradingDay({2024, 11, 20}));
    EXPECT_TRUE(IsB3TradingDay({2023, 11, 20}));
}

TEST(SampleCotahistTest, PremedIsTheVolumeOverTheQuantityTruncated) {
    std::size_t rounding_would_differ = 0;
    for (const Record& r : Sample().records) {
        SCOPED_TRACE(r.ticker + " " + r.day.ToString());
        const __int128 scaled = static_cast<__int128>(r.volume) * r.fatcot;
        ASSERT_EQ(r.average, static_cast<std::int64_t>(scaled / r.quantity));
        ASSERT_LE(r.low, r.high);
        ASSERT_LE(r.low, r.average);
        ASSERT_LE(r.average, r.high);
        ASSERT_LE(r.low, r.close);
        ASSERT_LE(r.close, r.high);
        rounding_would_differ += (scaled % r.quantity) * 2 >= r.quantity ? 1 : 0;
    }
    EXPECT_GT(rounding_would_differ, 100u);
}

TEST(SampleCotahistTest, IsinsCarryTheirCheckDigit) {
    // The algorithm against real ISINs of B3's files.
    for (const std::string real : {"BRABEVACNOR1", "BRBBASACNOR3", "BRALUPCDAM15", "BRAAPLBDR004",
                                   "BRBRKMACNPA4", "BRABCPCTF000", "BRBRSRACNPB4"}) {
        EXPECT_EQ(WithIsinCheckDigit(real.substr(0, 11)), real);
    }
    std::set<std::string> isins;
    for (const Record& r : Sample().records) {
        isins.insert(r.isin);
    }
    for (const std::string& isin : isins) {
        ASSERT_EQ(isin.size(), 12u);
        EXPECT_EQ(WithIsinCheckDigit(isin.substr(0, 11)), isin);
    }
}

TEST(SampleCotahistTest, TheLinesOfEveryKindTheIngestMustTellApart) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> kinds;  // (CODBDI, TPMERC) -> lines
    std::set<std::string> per_thousand;
    for (const Record& r : Sample().records) {
        ++kinds[{r.codbdi, r.tpmerc}];
        if (r.fatcot == 1000) {
            per_thousand.insert(r.ticker);
            EXPECT_EQ(r.quantity % 1000, 0) << r.ticker;
        } else {
            EXPECT_EQ(r.fatcot, 1);
        }
        if (r.codbdi == 96) {
            EXPECT_EQ(r.tpmerc, 20);
            EXPECT_EQ(r.ticker.back(), 'F');
        }
        if (r.codbdi == 14 || r.codbdi == 12) {
            EXPECT_EQ(r.especi, "CI");
        }
        if (r.codbdi == 34) {
            EXPECT_EQ(r.especi, "DRN");
        }
    }
    for (const auto& kind : {std::pair<std::int64_t, std::int64_t>{2, 10},
                             {96, 20},
                             {12, 10},
                             {14, 10},
                             {34, 10},
                             {78, 70},
                             {82, 80}}) {
        EXPECT_GT(kinds[kind], 0u) << "CODBDI " << kind.first << " TPMERC " << kind.second;
    }
    const std::set<std::string> planted(Sample().market.cases.per_thousand.begin(),
                                        Sample().market.cases.per_thousand.end());
    EXPECT_EQ(per_thousand, planted);
    EXPECT_EQ(planted.size(), 2u);
}

TEST(SampleCotahistTest, EachListedTickerCarriesItsClassAndSegment) {
    const std::vector<companies::ListedSampleCompany> listing =
        companies::SampleListing(sdk::kDefaultSampleSeed, sdk::SampleScale::kSample);
    std::map<std::string, std::string> especi;
    for (const Record& r : Sample().records) {
        if (r.tpmerc == 10) {
            especi[r.ticker] = r.especi;
        }
    }
    std::size_t seen = 0;
    for (const auto& company : listing) {
        const std::string code = company.segment == "Novo Mercado" ? "NM"
                                 : company.segment == "Nível 1"    ? "N1"
                                 : company.segment == "Nível 2"    ? "N2"
                                                                   : "";
        for (const auto& security : company.securities) {
            if (!especi.contains(security.ticker)) {
                continue;
            }
            ++seen;
            const std::string share_class =
                security.share_class == companies::ListedClass::kUnit
                    ? "UNT"
                    : std::string(companies::ListedClassName(security.share_class));
            std::string expected = share_class;
            if (!code.empty()) {
                expected.append(8 - expected.size(), ' ');
                expected += code;
            }
            EXPECT_EQ(especi.at(security.ticker), expected) << security.ticker;
        }
    }
    EXPECT_GT(seen, 40u);
}

}  // namespace
}  // namespace lastro::stocks
