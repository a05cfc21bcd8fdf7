// The sample of CVM's daily fund reports (plugins/series/docs/sample.md, "CVM's daily fund
// reports"): the files are read back with the SDK's zip and CVM CSV readers, independently of the
// writer, and every documented property is checked on them: names, members, both header eras,
// the format, valid CNPJs, the same bytes for the same seed, the quota model (DI funds within
// 85-110 % of the sample's CDI, net worth moved by the quota and the day's flows, drawdowns) and
// each planted case (the duplicate filer, the gap, the lag, the republished month, subclasses,
// a late start, a cancellation, a short quota, blank investor counts).
#include "sample/inf_diario/inf_diario_sample.hpp"

#include "domain/business_calendar.hpp"
#include "sample/sgs_model.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/sample_directory.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace lastro::sdk {
// Dates and months in failure messages as YYYY-MM-DD and YYYY-MM.
static void PrintTo(const Date& date, std::ostream* os) {
    *os << date.ToString();
}
static void PrintTo(const Month& month, std::ostream* os) {
    *os << month.ToString();
}
}  // namespace lastro::sdk

namespace lastro::series {
namespace {

namespace fs = std::filesystem;
using sdk::Date;
using sdk::Month;

constexpr std::uint64_t kSeed = sdk::kDefaultSampleSeed;
constexpr Month kFirstMonth{2024, 11};
constexpr Month kLastMonth{2026, 10};
constexpr Date kLastDay{2026, 10, 13};  // the business day before the reference day
constexpr Month kRepublished{2026, 9};
constexpr std::string_view kLegacyHeader =
    "TP_FUNDO;CNPJ_FUNDO;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;NR_COTST";
constexpr std::string_view kClassHeader =
    "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;"
    "RESG_DIA;NR_COTST";

std::string Stem(const Month& month) {
    char text[32];
    std::snprintf(text, sizeof text, "inf_diario_fi_%04d%02d", month.year, month.month);
    return text;
}

std::vector<Month> MonthsBetween(Month first, const Month& last) {
    std::vector<Month> months;
    for (; first <= last; first = first.Next()) {
        months.push_back(first);
    }
    return months;
}

Date AddDays(const Date& date, int days) {
    return sdk::sample::AddDays(date, days);
}

// --- Reading the files back ---------------------------------------------------------------------

struct Row {
    Month file;  // the month of the file it was read from
    std::string type;
    std::string cnpj;
    std::string subclass;
    Date date;
    std::string quota_text;
    int quota_decimals = 0;
    std::int64_t total = 0;      // cents
    std::int64_t quota = 0;      // 1e-12
    std::int64_t net_worth = 0;  // cents
    std::int64_t subscriptions = 0;
    std::int64_t redemptions = 0;
    std::optional<std::int64_t> investors;
    std::string fields;  // the record from DT_COMPTC on, as published (the republished month's only)

    std::tuple<std::string, std::string, Date, std::string> Key() const {
        return {cnpj, subclass, date, type};
    }
};

// "123.45" with exactly `decimals` decimals, in units of 10^-decimals; nullopt otherwise. (By
// hand: std::regex is slow on the sample's 700,000 fields.)
std::optional<std::int64_t> Units(std::string_view text, int decimals) {
    const bool negative = !text.empty() && text.front() == '-';
    if (negative) {
        text.remove_prefix(1);
    }
    const std::size_t point = text.find('.');
    if (point == std::string_view::npos || point == 0 ||
        static_cast<int>(text.size() - point - 1) != decimals || decimals == 0) {
        return std::nullopt;
    }
    std::int64_t units = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (i == point) {
            continue;
        }
        if (text[i] < '0' || text[i] > '9') {
            return std::nullopt;
        }
        units = units * 10 + (text[i] - '0');
    }
    return negative ? -units : units;
}

// 00.017.024/0001-53
bool Masked(std::string_view cnpj) {
    static constexpr std::string_view kShape = "00.000.000/0000-00";
    if (cnpj.size() != kShape.size()) {
        return false;
    }
    for (std::size_t i = 0; i < cnpj.size(); ++i) {
        const bool digit = cnpj[i] >= '0' && cnpj[i] <= '9';
        if (kShape[i] == '0' ? !digit : cnpj[i] != kShape[i]) {
            return false;
        }
    }
    return true;
}

// Every record of one monthly zip, checked for the format on the way.
std::vector<Row> ReadMonth(const fs::path& zip, const Month& month) {
    sdk::ZipArchive archive(zip);
    const std::string member = Stem(month) + ".csv";
    EXPECT_EQ(archive.Members(), std::vector<std::string>{member}) << zip;
    sdk::CvmCsvReader reader(archive.Open(member));
    const bool legacy = month < kInfDiarioSwitchMonth;
    const std::size_t type = reader.Require(legacy ? "TP_FUNDO" : "TP_FUNDO_CLASSE");
    const std::size_t cnpj = reader.Require(legacy ? "CNPJ_FUNDO" : "CNPJ_FUNDO_CLASSE");
    const std::optional<std::size_t> subclass = reader.Find("ID_SUBCLASSE");
    const std::size_t date = reader.Require("DT_COMPTC");
    const std::size_t total = reader.Require("VL_TOTAL");
    const std::size_t quota = reader.Require("VL_QUOTA");
    const std::size_t net_worth = reader.Require("VL_PATRIM_LIQ");
    const std::size_t subscriptions = reader.Require("CAPTC_DIA");
    const std::size_t redemptions = reader.Require("RESG_DIA");
    const std::size_t investors = reader.Require("NR_COTST");
    EXPECT_EQ(subclass.has_value(), !legacy) << zip;
    std::vector<Row> rows;
    std::set<std::string> checked;  // CNPJs
    while (reader.Next()) {
        reader.RequireFieldCount();
        Row row;
        row.file = month;
        row.type = std::string(reader.Field(type));
        row.cnpj = std::string(reader.Field(cnpj));
        if (checked.insert(row.cnpj).second) {
            EXPECT_TRUE(Masked(row.cnpj)) << row.cnpj;
            EXPECT_EQ(sdk::ParseCnpj(row.cnpj).error, sdk::CnpjError::kNone) << row.cnpj;
        }
        row.subclass = subclass ? std::string(reader.Field(*subclass)) : "";
        const std::optional<Date> day = reader.DateValue(date);
        EXPECT_TRUE(day.has_value()) << zip << ":" << reader.Line();
        row.date = day.value_or(Date{});
        row.quota_text = std::string(reader.Field(quota));
        const std::size_t point = row.quota_text.find('.');
        row.quota_decimals =
            point == std::string::npos ? 0 : static_cast<int>(row.quota_text.size() - point - 1);
        const auto money = [&](std::size_t column) {
            const std::optional<std::int64_t> cents = Units(reader.Field(column), 2);
            EXPECT_TRUE(cents.has_value()) << zip << ":" << reader.Line() << " " << reader.Field(column);
            return cents.value_or(0);
        };
        row.total = money(total);
        row.net_worth = money(net_worth);
        row.subscriptions = money(subscriptions);
        row.redemptions = money(redemptions);
        const std::optional<std::int64_t> quota_units = Units(row.quota_text, row.quota_decimals);
        EXPECT_TRUE(quota_units && row.quota_decimals >= 1 && row.quota_decimals <= 12) << row.quota_text;
        row.quota = quota_units.value_or(0);
        for (int i = row.quota_decimals; i < 12; ++i) {
            row.quota *= 10;
        }
        row.investors = reader.Integer(investors);
        if (month == kRepublished) {  // to compare the two versions
            for (std::size_t i = date; i < reader.FieldCount(); ++i) {
                row.fields += std::string(reader.Field(i)) + ";";
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<Row> ReadMonths(const fs::path& dir, const std::vector<Month>& months) {
    std::vector<Row> rows;
    for (const Month& month : months) {
        std::vector<Row> read = ReadMonth(dir / (Stem(month) + ".zip"), month);
        rows.insert(rows.end(), std::make_move_iterator(read.begin()), std::make_move_iterator(read.end()));
    }
    return rows;
}

// The rows of each series (CNPJ and subclass), by day; `type` filters (empty: the series' rows
// of every type but the FI duplicates of `skip_fi_of`).
using SeriesKey = std::pair<std::string, std::string>;
std::map<SeriesKey, std::vector<const Row*>> BySeries(const std::vector<Row>& rows,
                                                      const std::string& skip_fi_of) {
    std::map<SeriesKey, std::vector<const Row*>> series;
    for (const Row& row : rows) {
        if (row.cnpj == skip_fi_of && row.type == "FI" && kInfDiarioSwitchMonth <= row.file) {
            continue;
        }
        series[{row.cnpj, row.subclass}].push_back(&row);
    }
    for (auto& [key, list] : series) {
        std::stable_sort(list.begin(), list.end(),
                         [](const Row* a, const Row* b) { return a->date < b->date; });
    }
    return series;
}

// The CDI of the sample (SGS 12 as the SGS sample writes it): each business day's rate in 1e-8.
const std::map<Date, std::int64_t>& Cdi() {
    static const std::map<Date, std::int64_t> cdi = [] {
        const sgs_sample::RateModel model(kSeed, kLastDay, {2026, 9});
        std::map<Date, std::int64_t> rates;
        for (const sgs_sample::ModelDay& day : model.Days()) {
            if (Date{2024, 9, 1} <= day.date) {
                rates[day.date] = sgs_sample::DailyRateFromAnnual(day.cdi_bp);
            }
        }
        return rates;
    }();
    return cdi;
}

// The CDI compounded over the business days (from, to]: each day accrues the rate of the
// business day before it.
long double CdiGrowth(const Date& from, const Date& to) {
    const std::map<Date, std::int64_t>& cdi = Cdi();
    long double factor = 1;
    auto it = cdi.find(from);
    EXPECT_NE(it, cdi.end()) << from.ToString();
    for (; it != cdi.end() && std::next(it) != cdi.end() && std::next(it)->first <= to; ++it) {
        factor *= 1 + static_cast<long double>(it->second) / 1e8L;
    }
    return factor - 1;
}

long double Quota(const Row& row) {
    return static_cast<long double>(row.quota) / 1e12L;
}

// --- The default sample, written once ----------------------------------------------------------

// Written and read once per process (ctest runs each case in its own: the cases below group the
// checks, each a function of its own).
class InfDiarioSampleTest : public ::testing::Test {
protected:
    static void WritesOneZipPerMonthWithOneMemberAndTheRepublishedMonth();
    static void EachEraHasItsHeaderAndTheFilesCvmsFormat();
    static void RowsAreValidOrderedAndInTheirMonthsBusinessDays();
    static void FundTypesByEra();
    static void ReportCountsWhatTheFilesHold();
    static void QuotasHaveTwelveDecimalsButTheShortFundsSix();
    static void InvestorCountsAreBlankOnlyOnTheDocumentedDays();
    static void NetWorthMovesWithTheQuotaAndTheDaysFlows();
    static void CdiFundsEarnEightyFiveToOneHundredTenPercentOfTheSamplesCdi();
    static void EquityIsMoreVolatileThanMultimarketWithFatTails();
    static void OneEquityDrawdownRecoversAndOneNeverDoes();
    static void TheDuplicateFilerFilesAsFiAndClassesFifOnTheSameDays();
    static void OnlyTheGapFundAndTheLateReportMissADayInsideTheirSpan();
    static void TheLastMonthsLastFiveBusinessDaysAreStillFilling();
    static void TheRepublishedMonthDiffersExactlyAsDocumented();
    static void SubclassesFileTheirOwnQuotasAndTheClassThenFilesNone();
    static void AFundStartsIn2025AndOneIsCancelledBeforeTheEnd();

    static void SetUpTestSuite() {
        dir_ = new sdk::testing::TempDir("inf-diario-sample-");
        writer_ = new InfDiarioSampleWriter;
        report_ = new sdk::SampleReport(writer_->Write({dir_->Path(), kSeed}));
        rows_ = new std::vector<Row>(ReadMonths(dir_->Path(), MonthsBetween(kFirstMonth, kLastMonth)));
        later_ = new std::vector<Row>(
            ReadMonth(dir_->Path() / kInfDiarioRepublishedDir / (Stem(kRepublished) + ".zip"), kRepublished));
    }
    static void TearDownTestSuite() {
        delete later_;
        delete rows_;
        delete report_;
        delete writer_;
        delete dir_;
    }

    static const InfDiarioSampleCases& Cases() { return writer_->Cases(); }
    static const std::vector<Row>& Rows() { return *rows_; }
    static std::vector<const Row*> RowsOf(const std::string& cnpj) {
        std::vector<const Row*> rows;
        for (const Row& row : *rows_) {
            if (row.cnpj == cnpj) {
                rows.push_back(&row);
            }
        }
        return rows;
    }
    static std::map<SeriesKey, std::vector<const Row*>> Series() {
        return BySeries(*rows_, Cases().duplicate_cnpj.value_or(""));
    }

    static sdk::testing::TempDir* dir_;
    static InfDiarioSampleWriter* writer_;
    static sdk::SampleReport* report_;
    static std::vector<Row>* rows_;
    static std::vector<Row>* later_;
};

sdk::testing::TempDir* InfDiarioSampleTest::dir_ = nullptr;
InfDiarioSampleWriter* InfDiarioSampleTest::writer_ = nullptr;
sdk::SampleReport* InfDiarioSampleTest::report_ = nullptr;
std::vector<Row>* InfDiarioSampleTest::rows_ = nullptr;
std::vector<Row>* InfDiarioSampleTest::later_ = nullptr;

void InfDiarioSampleTest::WritesOneZipPerMonthWithOneMemberAndTheRepublishedMonth() {
    std::vector<fs::path> expected;
    for (const Month& month : MonthsBetween(kFirstMonth, kLastMonth)) {
        expected.push_back(dir_->Path() / (Stem(month) + ".zip"));
    }
    expected.push_back(dir_->Path() / kInfDiarioRepublishedDir / "inf_diario_fi_202609.zip");
    EXPECT_EQ(report_->files, expected);
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_->Path())) {
        names.insert(entry.path().filename().string());
    }
    EXPECT_EQ(names.size(), 25U);  // 24 zips and republished/
    // Every member stamped early on the reference day; the republished one the morning after.
    const std::time_t written = sdk::sample::ArchiveTimestamp(kSeed, kInfDiarioReferenceDate);
    for (std::size_t i = 0; i + 1 < expected.size(); ++i) {
        sdk::ZipArchive archive(expected[i]);
        ASSERT_EQ(archive.Members().size(), 1U);
        EXPECT_EQ(archive.ModifiedAt(archive.Members()[0]), written) << expected[i];
    }
    sdk::ZipArchive later(expected.back());
    EXPECT_EQ(later.Members(), std::vector<std::string>{"inf_diario_fi_202609.csv"});
    EXPECT_EQ(later.ModifiedAt("inf_diario_fi_202609.csv"),
              sdk::sample::ArchiveTimestamp(kSeed, AddDays(kInfDiarioReferenceDate, 1)));
}

void InfDiarioSampleTest::EachEraHasItsHeaderAndTheFilesCvmsFormat() {
    for (const Month& month : MonthsBetween(kFirstMonth, kLastMonth)) {
        const auto members = sdk::testing::ZipMemberBytes(dir_->Path() / (Stem(month) + ".zip"));
        ASSERT_EQ(members.size(), 1U);
        const std::string& bytes = members[0].second;
        const std::string_view header = month < Month{2025, 6} ? kLegacyHeader : kClassHeader;
        EXPECT_EQ(bytes.substr(0, bytes.find('\n')), header) << month.ToString();
        EXPECT_EQ(bytes.find('\r'), std::string::npos) << "LF line ends: " << month.ToString();
        EXPECT_EQ(bytes.find('"'), std::string::npos);
        EXPECT_EQ(bytes.back(), '\n');
        EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(),
                                [](char c) {
                                    return c == '\n' || (static_cast<unsigned char>(c) >= 0x20 &&
                                                         static_cast<unsigned char>(c) < 0x7F);
                                }))
            << "ASCII, hence ISO-8859-1: " << month.ToString();
    }
}

void InfDiarioSampleTest::RowsAreValidOrderedAndInTheirMonthsBusinessDays() {
    ASSERT_GT(Rows().size(), 100'000U);
    std::map<Month, std::vector<const Row*>> by_file;
    for (const Row& row : Rows()) {
        by_file[row.file].push_back(&row);
        EXPECT_EQ(row.date.ToMonth(), row.file) << row.cnpj << " " << row.date.ToString();
        EXPECT_TRUE(IsBusinessDay(row.date)) << row.date.ToString();
        EXPECT_LE(row.date, kLastDay);
        EXPECT_GE(row.total, row.net_worth) << row.cnpj << " " << row.date.ToString();
        EXPECT_LE(row.total, row.net_worth + row.net_worth / 20) << row.cnpj << " " << row.date.ToString();
        EXPECT_GT(row.net_worth, 0) << row.cnpj << " " << row.date.ToString();
        EXPECT_GE(row.subscriptions, 0);
        EXPECT_GE(row.redemptions, 0);
        EXPECT_GT(row.quota, 0);
        if (row.investors) {
            EXPECT_GE(*row.investors, 1);
        }
    }
    for (const auto& [month, rows] : by_file) {
        for (std::size_t i = 1; i < rows.size(); ++i) {
            EXPECT_LT(rows[i - 1]->Key(), rows[i]->Key())
                << "file order, " << month.ToString() << " row " << i;
        }
    }
}

void InfDiarioSampleTest::FundTypesByEra() {
    std::map<bool, std::set<std::string>> types;  // by legacy
    std::set<std::string> fip;
    for (const Row& row : Rows()) {
        types[row.file < kInfDiarioSwitchMonth].insert(row.type);
        if (row.type == "CLASSES - FIP") {
            fip.insert(row.cnpj);
        }
    }
    EXPECT_EQ(types[true], (std::set<std::string>{"FI", "FUNDO DE INDICE"}));
    EXPECT_EQ(types[false],
              (std::set<std::string>{"CLASSES - FIF", "CLASSES - FIP", "FI", "FUNDO DE INDICE"}));
    // FIPs file from the switch only.
    EXPECT_GE(fip.size(), 10U);
    for (const Row& row : Rows()) {
        if (fip.count(row.cnpj)) {
            EXPECT_EQ(row.type, "CLASSES - FIP");
            EXPECT_LE(kInfDiarioSwitchMonth, row.file);
        }
    }
    // After the switch FI is filed only by the late adapters (until they adapt) and by the
    // duplicate filer.
    std::set<std::string> fi_after;
    for (const Row& row : Rows()) {
        if (row.type == "FI" && kInfDiarioSwitchMonth <= row.file && row.cnpj != Cases().duplicate_cnpj) {
            fi_after.insert(row.cnpj);
        }
    }
    EXPECT_EQ(fi_after, std::set<std::string>(Cases().fi_after_switch_cnpjs.begin(),
                                              Cases().fi_after_switch_cnpjs.end()));
    EXPECT_EQ(fi_after.size(), 6U);
    for (const std::string& cnpj : fi_after) {
        // One type change at most: FI, then CLASSES - FIF.
        bool adapted = false;
        for (const Row* row : RowsOf(cnpj)) {
            if (row->file < kInfDiarioSwitchMonth) {
                continue;
            }
            adapted = adapted || row->type == "CLASSES - FIF";
            EXPECT_EQ(row->type, adapted ? "CLASSES - FIF" : "FI") << cnpj << " " << row->date.ToString();
        }
    }
}

void InfDiarioSampleTest::ReportCountsWhatTheFilesHold() {
    std::set<std::string> cnpjs;
    std::set<SeriesKey> subclasses;
    for (const Row& row : Rows()) {
        cnpjs.insert(row.cnpj);
        if (!row.subclass.empty()) {
            subclasses.insert({row.cnpj, row.subclass});
        }
    }
    ASSERT_EQ(report_->counts.size(), 4U);
    EXPECT_EQ(report_->counts[0].count, cnpjs.size());
    EXPECT_EQ(cnpjs.size(), 300U);
    EXPECT_EQ(report_->counts[1].count, subclasses.size());
    EXPECT_EQ(subclasses.size(), 10U);
    EXPECT_EQ(report_->counts[2].count, Rows().size());
    EXPECT_EQ(report_->counts[3].count, 25U);
    const auto noted = [&](const std::string& text) {
        return std::any_of(report_->notes.begin(), report_->notes.end(),
                           [&](const std::string& note) { return note.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(noted("republished/inf_diario_fi_202609.zip"));
    EXPECT_TRUE(noted("2026-10-13"));
    EXPECT_TRUE(noted(*Cases().duplicate_cnpj));
    EXPECT_TRUE(noted(Cases().gap->cnpj));
}

void InfDiarioSampleTest::QuotasHaveTwelveDecimalsButTheShortFundsSix() {
    ASSERT_TRUE(Cases().short_quota_cnpj);
    std::size_t short_rows = 0;
    std::size_t trailing_zeros = 0;
    for (const Row& row : Rows()) {
        if (row.cnpj == *Cases().short_quota_cnpj) {
            ++short_rows;
            EXPECT_EQ(row.quota_decimals, 6) << row.quota_text;
        } else {
            EXPECT_EQ(row.quota_decimals, 12) << row.cnpj << " " << row.quota_text;
            trailing_zeros += row.quota_text.ends_with("000000") ? 1 : 0;
        }
    }
    EXPECT_GT(short_rows, 400U);
    // Most administrators send 6 to 8 decimals, printed with CVM's 12: 44.275588000000.
    EXPECT_GT(trailing_zeros, Rows().size() / 3);
    EXPECT_LT(trailing_zeros, Rows().size() - Rows().size() / 20);
}

void InfDiarioSampleTest::InvestorCountsAreBlankOnlyOnTheDocumentedDays() {
    ASSERT_TRUE(Cases().blank_investors_cnpj);
    ASSERT_EQ(Cases().blank_investor_days.size(), 8U);
    std::set<Date> blank;
    for (const Row& row : Rows()) {
        if (!row.investors) {
            EXPECT_EQ(row.cnpj, *Cases().blank_investors_cnpj) << row.date.ToString();
            blank.insert(row.date);
        }
    }
    EXPECT_EQ(blank, std::set<Date>(Cases().blank_investor_days.begin(), Cases().blank_investor_days.end()));
}

void InfDiarioSampleTest::NetWorthMovesWithTheQuotaAndTheDaysFlows() {
    // VL_PATRIM_LIQ(d) = VL_PATRIM_LIQ(d-1) x VL_QUOTA(d) / VL_QUOTA(d-1) + CAPTC_DIA - RESG_DIA,
    // to the cent, on consecutive business days; the first version's wrong values (republished)
    // are left out.
    std::set<std::pair<std::string, Date>> wrong;
    for (const InfDiarioFundDay& day : Cases().changed_values) {
        wrong.insert({day.cnpj, day.day});
        wrong.insert({day.cnpj, NextBusinessDay(AddDays(day.day, 1))});
    }
    std::size_t checked = 0;
    for (const auto& [key, rows] : Series()) {
        for (std::size_t i = 1; i < rows.size(); ++i) {
            const Row& before = *rows[i - 1];
            const Row& row = *rows[i];
            if (NextBusinessDay(AddDays(before.date, 1)) != row.date || wrong.count({key.first, row.date})) {
                continue;
            }
            const __int128 product = static_cast<__int128>(before.net_worth) * row.quota;
            const auto grown = static_cast<std::int64_t>((product + before.quota / 2) / before.quota);
            EXPECT_LE(std::llabs(row.net_worth - (grown + row.subscriptions - row.redemptions)), 1)
                << key.first << " " << key.second << " " << row.date.ToString();
            ++checked;
        }
    }
    EXPECT_GT(checked, 120'000U);
    // Flows: most days none (CVM prints 0.00), some days either.
    std::size_t no_subscription = 0;
    std::size_t no_redemption = 0;
    for (const Row& row : Rows()) {
        no_subscription += row.subscriptions == 0 ? 1 : 0;
        no_redemption += row.redemptions == 0 ? 1 : 0;
    }
    EXPECT_GT(no_subscription, Rows().size() * 6 / 10);
    EXPECT_LT(no_subscription, Rows().size() * 95 / 100);
    EXPECT_GT(no_redemption, Rows().size() * 6 / 10);
    EXPECT_LT(no_redemption, Rows().size() * 95 / 100);
}

void InfDiarioSampleTest::CdiFundsEarnEightyFiveToOneHundredTenPercentOfTheSamplesCdi() {
    const std::set<std::string> cdi(Cases().cdi_cnpjs.begin(), Cases().cdi_cnpjs.end());
    ASSERT_GE(cdi.size(), 100U);
    ASSERT_TRUE(Cases().gap && cdi.count(Cases().gap->cnpj));
    std::size_t checked = 0;
    std::vector<long double> means;
    for (const auto& [key, rows] : Series()) {
        if (!cdi.count(key.first)) {
            continue;
        }
        long double fund_growth = 1;
        long double cdi_growth = 1;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            const Row& before = *rows[i - 1];
            const Row& row = *rows[i];
            const long double fund = Quota(row) / Quota(before) - 1;
            const long double benchmark = CdiGrowth(before.date, row.date);
            // A quota sent with 6 decimals moves by whole millionths.
            const long double tolerance = 2e-6L / Quota(before) / benchmark + 1e-9L;
            EXPECT_GE(fund / benchmark, 0.85L - tolerance)
                << key.first << " " << key.second << " " << row.date.ToString();
            EXPECT_LE(fund / benchmark, 1.10L + tolerance)
                << key.first << " " << key.second << " " << row.date.ToString();
            fund_growth *= 1 + fund;
            cdi_growth *= 1 + benchmark;
            ++checked;
        }
        if (rows.size() > 100) {
            means.push_back((fund_growth - 1) / (cdi_growth - 1));
        }
    }
    EXPECT_GT(checked, 45'000U);
    // A realistic spread: some funds near 88 %, some above the CDI.
    ASSERT_FALSE(means.empty());
    EXPECT_LT(*std::min_element(means.begin(), means.end()), 0.92L);
    EXPECT_GT(*std::max_element(means.begin(), means.end()), 1.03L);

    // The check tells the kinds apart: equity funds leave the band on most days.
    std::size_t outside = 0;
    std::size_t equity_days = 0;
    const std::set<std::string> equity(Cases().equity_cnpjs.begin(), Cases().equity_cnpjs.end());
    for (const auto& [key, rows] : Series()) {
        if (!equity.count(key.first)) {
            continue;
        }
        for (std::size_t i = 1; i < rows.size(); ++i) {
            const long double ratio =
                (Quota(*rows[i]) / Quota(*rows[i - 1]) - 1) / CdiGrowth(rows[i - 1]->date, rows[i]->date);
            outside += ratio < 0.85L || ratio > 1.10L ? 1 : 0;
            ++equity_days;
        }
    }
    EXPECT_GT(outside, equity_days * 9 / 10);
}

// Daily returns of the series of `cnpjs`, and their standard deviation and kurtosis.
struct Moments {
    long double sd = 0;
    long double kurtosis = 0;
};
Moments ReturnMoments(const std::map<SeriesKey, std::vector<const Row*>>& series,
                      const std::vector<std::string>& cnpjs) {
    const std::set<std::string> wanted(cnpjs.begin(), cnpjs.end());
    std::vector<long double> returns;
    for (const auto& [key, rows] : series) {
        if (!wanted.count(key.first)) {
            continue;
        }
        for (std::size_t i = 1; i < rows.size(); ++i) {
            if (NextBusinessDay(AddDays(rows[i - 1]->date, 1)) == rows[i]->date) {
                returns.push_back(Quota(*rows[i]) / Quota(*rows[i - 1]) - 1);
            }
        }
    }
    long double mean = 0;
    for (const long double r : returns) {
        mean += r;
    }
    mean /= static_cast<long double>(returns.size());
    long double m2 = 0;
    long double m4 = 0;
    for (const long double r : returns) {
        m2 += (r - mean) * (r - mean);
        m4 += (r - mean) * (r - mean) * (r - mean) * (r - mean);
    }
    m2 /= static_cast<long double>(returns.size());
    m4 /= static_cast<long double>(returns.size());
    return {std::sqrt(m2), m4 / (m2 * m2)};
}

void InfDiarioSampleTest::EquityIsMoreVolatileThanMultimarketWithFatTails() {
    const auto series = Series();
    const Moments equity = ReturnMoments(series, Cases().equity_cnpjs);
    const Moments multimarket = ReturnMoments(series, Cases().multimarket_cnpjs);
    const Moments cdi = ReturnMoments(series, Cases().cdi_cnpjs);
    EXPECT_GT(equity.sd, 0.010L);  // over 16 % a year
    EXPECT_LT(equity.sd, 0.030L);
    EXPECT_GT(multimarket.sd, 0.002L);
    EXPECT_LT(multimarket.sd, equity.sd / 2);
    EXPECT_LT(cdi.sd, 0.0002L);
    EXPECT_GT(equity.kurtosis, 3.6L);  // a normal's is 3
}

struct Drawdown {
    long double depth = 0;
    Date peak;
    std::int64_t peak_quota = 0;
    Date trough;
    std::optional<Date> recovered;  // the first day back at the peak's quota
};
Drawdown Deepest(const std::vector<const Row*>& rows) {
    Drawdown deepest;
    const Row* peak = rows.front();
    for (const Row* row : rows) {
        if (row->quota > peak->quota) {
            peak = row;
        }
        const long double depth = 1 - Quota(*row) / Quota(*peak);
        if (depth > deepest.depth) {
            deepest = {depth, peak->date, peak->quota, row->date, std::nullopt};
        }
    }
    for (const Row* row : rows) {
        if (deepest.trough < row->date && row->quota >= deepest.peak_quota) {
            deepest.recovered = row->date;
            break;
        }
    }
    return deepest;
}

void InfDiarioSampleTest::OneEquityDrawdownRecoversAndOneNeverDoes() {
    ASSERT_TRUE(Cases().recovering_drawdown_cnpj && Cases().lasting_drawdown_cnpj);
    const auto series = Series();
    const std::set<std::string> equity(Cases().equity_cnpjs.begin(), Cases().equity_cnpjs.end());
    EXPECT_TRUE(equity.count(*Cases().recovering_drawdown_cnpj));
    EXPECT_TRUE(equity.count(*Cases().lasting_drawdown_cnpj));

    const Drawdown recovering = Deepest(series.at({*Cases().recovering_drawdown_cnpj, ""}));
    EXPECT_GE(recovering.depth, 0.35L);
    // The trough: at the planted bottom (2025-05-30) or a little after, where the climb's noise
    // took it lower still.
    EXPECT_LE(Date(2025, 2, 3), recovering.trough);
    EXPECT_LE(recovering.trough, Date(2025, 12, 31));
    ASSERT_TRUE(recovering.recovered);
    EXPECT_LE(*recovering.recovered, Date(2026, 1, 30));

    const std::vector<const Row*>& lasting_rows = series.at({*Cases().lasting_drawdown_cnpj, ""});
    const Drawdown lasting = Deepest(lasting_rows);
    EXPECT_GE(lasting.depth, 0.40L);
    EXPECT_LE(Date(2025, 9, 1), lasting.trough);
    EXPECT_FALSE(lasting.recovered);
    EXPECT_GE(lasting_rows.back()->date, Date(2026, 10, 5));  // files to the end (but for the lag)
}

void InfDiarioSampleTest::TheDuplicateFilerFilesAsFiAndClassesFifOnTheSameDays() {
    ASSERT_TRUE(Cases().duplicate_cnpj);
    EXPECT_EQ(Cases().duplicate_months, (std::vector<Month>{{2025, 6}, {2025, 7}, {2025, 8}}));
    const std::string& cnpj = *Cases().duplicate_cnpj;
    std::map<Date, std::vector<const Row*>> days;
    for (const Row* row : RowsOf(cnpj)) {
        days[row->date].push_back(row);
    }
    std::size_t duplicated = 0;
    std::size_t quota_differs = 0;
    for (const auto& [day, rows] : days) {
        const bool inside = Month{2025, 6} <= day.ToMonth() && day.ToMonth() <= Month{2025, 8};
        if (!inside) {
            ASSERT_EQ(rows.size(), 1U) << day.ToString();
            EXPECT_EQ(rows[0]->type, day.ToMonth() < kInfDiarioSwitchMonth ? "FI" : "CLASSES - FIF");
            continue;
        }
        ASSERT_EQ(rows.size(), 2U) << day.ToString();
        const Row& klass = *rows[0];
        const Row& fi = *rows[1];
        EXPECT_EQ(klass.type, "CLASSES - FIF");
        EXPECT_EQ(fi.type, "FI");
        EXPECT_EQ(klass.subclass, "");
        EXPECT_EQ(fi.subclass, "");
        EXPECT_EQ(fi.quota, klass.quota - klass.quota % 10'000) << "cut to 8 decimals";
        EXPECT_GE(klass.net_worth - fi.net_worth, 1'000);
        EXPECT_LE(klass.net_worth - fi.net_worth, 50'000);
        EXPECT_EQ(klass.net_worth - fi.net_worth, klass.total - fi.total);
        EXPECT_EQ(klass.subscriptions, fi.subscriptions);
        EXPECT_EQ(klass.redemptions, fi.redemptions);
        EXPECT_EQ(klass.investors, fi.investors);
        quota_differs += fi.quota != klass.quota ? 1 : 0;
        ++duplicated;
    }
    const std::size_t business_days = BusinessDays({2025, 6, 1}, {2025, 8, 31}).size();
    EXPECT_EQ(duplicated, business_days);
    EXPECT_GE(quota_differs, business_days - 2);
    // Nobody else files a series twice on a day.
    std::map<std::tuple<std::string, std::string, Date>, int> filings;
    for (const Row& row : Rows()) {
        ++filings[{row.cnpj, row.subclass, row.date}];
    }
    std::size_t twice = 0;
    for (const auto& [key, count] : filings) {
        if (count > 1) {
            EXPECT_EQ(std::get<0>(key), cnpj);
            EXPECT_EQ(count, 2);
            ++twice;
        }
    }
    EXPECT_EQ(twice, business_days);
}

// Business days inside each series' span (first to last row) without a row, before the days the
// last month's lag leaves incomplete.
std::map<SeriesKey, std::vector<Date>> InteriorGaps(
    const std::map<SeriesKey, std::vector<const Row*>>& series) {
    std::map<SeriesKey, std::vector<Date>> gaps;
    for (const auto& [key, rows] : series) {
        std::set<Date> filed;
        for (const Row* row : rows) {
            filed.insert(row->date);
        }
        for (const Date& day :
             BusinessDays(rows.front()->date, std::min(rows.back()->date, Date{2026, 10, 5}))) {
            if (!filed.count(day)) {
                gaps[key].push_back(day);
            }
        }
    }
    return gaps;
}

void InfDiarioSampleTest::OnlyTheGapFundAndTheLateReportMissADayInsideTheirSpan() {
    ASSERT_TRUE(Cases().gap && Cases().added);
    EXPECT_EQ(Cases().gap->day, Date(2026, 3, 18));
    const auto gaps = InteriorGaps(Series());
    // The main files hold the republished month's first version, which lacks the late report.
    const std::map<SeriesKey, std::vector<Date>> expected{
        {{Cases().gap->cnpj, ""}, {Cases().gap->day}},
        {{Cases().added->cnpj, ""}, {Cases().added->day}},
    };
    EXPECT_EQ(gaps, expected);
    // Everyone else alive files the gap day: the day exists.
    std::size_t on_gap_day = 0;
    for (const Row& row : Rows()) {
        on_gap_day += row.date == Cases().gap->day ? 1 : 0;
    }
    EXPECT_GT(on_gap_day, 250U);
}

void InfDiarioSampleTest::TheLastMonthsLastFiveBusinessDaysAreStillFilling() {
    // Funds with a row on each of October's days (each class counted once).
    std::map<Date, std::set<std::string>> funds;
    for (const Row& row : Rows()) {
        if (row.file == kLastMonth) {
            funds[row.date].insert(row.cnpj);
        }
    }
    const std::vector<Date> days = BusinessDays({2026, 10, 1}, kLastDay);
    ASSERT_EQ(days.size(), 8U);  // 12 October is a holiday
    ASSERT_EQ(days.back(), kLastDay);
    const std::size_t all = funds[days[0]].size();
    EXPECT_EQ(funds[days[1]].size(), all);
    EXPECT_EQ(funds[days[2]].size(), all);  // lag 6: complete
    // Lags 5, 4, 3, 2, 1: ~99 %, ~98 %, ~95 %, ~85 %, ~1 %; each day's filers are among the day before's.
    const std::size_t lag5 = funds[days[3]].size();
    const std::size_t lag2 = funds[days[6]].size();
    const std::size_t lag1 = funds[days[7]].size();
    EXPECT_LT(lag5, all);
    EXPECT_GE(lag5, all * 97 / 100);
    EXPECT_GE(lag2, all * 75 / 100);
    EXPECT_LE(lag2, all * 92 / 100);
    EXPECT_GE(lag1, 1U);
    EXPECT_LE(lag1, all * 3 / 100);
    for (std::size_t i = 3; i < days.size(); ++i) {
        const std::set<std::string>& today = funds[days[i]];
        const std::set<std::string>& before = funds[days[i - 1]];
        EXPECT_LE(today.size(), before.size()) << days[i].ToString();
        EXPECT_TRUE(std::includes(before.begin(), before.end(), today.begin(), today.end()))
            << days[i].ToString();
    }
    // As the cases say.
    ASSERT_EQ(Cases().lag_days.size(), 6U);
    for (const InfDiarioLagDay& day : Cases().lag_days) {
        EXPECT_EQ(day.filed, funds[day.day].size()) << day.day.ToString();
        EXPECT_EQ(day.expected, all) << day.day.ToString();
        EXPECT_EQ(day.lag, static_cast<int>(days.end() - std::find(days.begin(), days.end(), day.day)))
            << day.day.ToString();
    }
}

void InfDiarioSampleTest::TheRepublishedMonthDiffersExactlyAsDocumented() {
    ASSERT_EQ(Cases().republished_month, kRepublished);
    ASSERT_EQ(Cases().changed_values.size(), 3U);
    ASSERT_TRUE(Cases().changed_investors && Cases().added && Cases().removed);
    std::map<std::tuple<std::string, std::string, Date, std::string>, const Row*> first;
    std::map<std::tuple<std::string, std::string, Date, std::string>, const Row*> later;
    for (const Row& row : Rows()) {
        if (row.file == kRepublished) {
            first[row.Key()] = &row;
        }
    }
    for (const Row& row : *later_) {
        later[row.Key()] = &row;
    }
    ASSERT_GT(first.size(), 5'000U);
    std::set<std::pair<std::string, Date>> only_first;
    std::set<std::pair<std::string, Date>> only_later;
    std::set<std::pair<std::string, Date>> changed;
    for (const auto& [key, row] : first) {
        const auto it = later.find(key);
        if (it == later.end()) {
            only_first.insert({row->cnpj, row->date});
        } else if (it->second->fields != row->fields) {
            changed.insert({row->cnpj, row->date});
        }
    }
    for (const auto& [key, row] : later) {
        if (!first.count(key)) {
            only_later.insert({row->cnpj, row->date});
        }
    }
    EXPECT_EQ(only_first,
              (std::set<std::pair<std::string, Date>>{{Cases().removed->cnpj, Cases().removed->day}}));
    EXPECT_EQ(only_later,
              (std::set<std::pair<std::string, Date>>{{Cases().added->cnpj, Cases().added->day}}));
    std::set<std::pair<std::string, Date>> expected{
        {Cases().changed_investors->cnpj, Cases().changed_investors->day}};
    for (const InfDiarioFundDay& day : Cases().changed_values) {
        expected.insert({day.cnpj, day.day});
    }
    EXPECT_EQ(changed, expected);
    EXPECT_EQ(Cases().changed_values.front().day, Date(2026, 9, 15));
    EXPECT_EQ(Cases().changed_values.back().day, Date(2026, 9, 17));

    // What changed: the values 0.5 % lower in the later version; NR_COTST only.
    for (const InfDiarioFundDay& day : Cases().changed_values) {
        const Row& was = *first.at({day.cnpj, "", day.day, "CLASSES - FIF"});
        const Row& is = *later.at({day.cnpj, "", day.day, "CLASSES - FIF"});
        EXPECT_NEAR(static_cast<double>(was.quota) / static_cast<double>(is.quota), 1.005, 1e-6);
        EXPECT_NEAR(static_cast<double>(was.net_worth) / static_cast<double>(is.net_worth), 1.005, 1e-6);
        EXPECT_NEAR(static_cast<double>(was.total) / static_cast<double>(is.total), 1.005, 1e-6);
        EXPECT_EQ(was.subscriptions, is.subscriptions);
        EXPECT_EQ(was.redemptions, is.redemptions);
        EXPECT_EQ(was.investors, is.investors);
    }
    const InfDiarioFundDay& investors = *Cases().changed_investors;
    const Row& was = *first.at({investors.cnpj, "", investors.day, "CLASSES - FIF"});
    const Row& is = *later.at({investors.cnpj, "", investors.day, "CLASSES - FIF"});
    EXPECT_NE(was.investors, is.investors);
    EXPECT_EQ(was.quota_text, is.quota_text);
    EXPECT_EQ(was.net_worth, is.net_worth);
    EXPECT_EQ(was.total, is.total);
}

void InfDiarioSampleTest::SubclassesFileTheirOwnQuotasAndTheClassThenFilesNone() {
    ASSERT_EQ(Cases().subclass_cnpjs.size(), 4U);
    std::set<std::string> with_subclasses;
    for (const Row& row : Rows()) {
        if (!row.subclass.empty()) {
            with_subclasses.insert(row.cnpj);
        }
    }
    EXPECT_EQ(with_subclasses,
              std::set<std::string>(Cases().subclass_cnpjs.begin(), Cases().subclass_cnpjs.end()));
    static const std::regex kId(R"([A-Z]{5}\d{10})");
    std::size_t late_splits = 0;
    for (std::size_t i = 0; i < Cases().subclass_cnpjs.size(); ++i) {
        const std::string& cnpj = Cases().subclass_cnpjs[i];
        const Month split = Cases().subclass_months[i];
        late_splits += split == Month{2025, 9} ? 1 : 0;
        std::map<std::string, std::vector<const Row*>> series;
        for (const Row* row : RowsOf(cnpj)) {
            series[row->subclass].push_back(row);
            EXPECT_EQ(row->subclass.empty(), row->file < split) << cnpj << " " << row->date.ToString();
        }
        const std::vector<const Row*> own = series[""];  // the class's rows before the split
        series.erase("");
        ASSERT_FALSE(own.empty()) << cnpj;
        ASSERT_GE(series.size(), 2U) << cnpj;
        ASSERT_LE(series.size(), 3U) << cnpj;
        const std::size_t days = BusinessDays({split.year, split.month, 1}, kLastDay).size();
        std::vector<long double> last_quotas;
        for (const auto& [id, rows] : series) {
            EXPECT_TRUE(std::regex_match(id, kId)) << id;
            // The code's digits: a Unix time in the month before the split.
            const Date registered = sdk::sample::FromDayNumber(std::stoll(id.substr(5)) / 86'400);
            EXPECT_EQ(registered.ToMonth(), split.Previous()) << id;
            EXPECT_GE(rows.size(), days - 5) << id;  // every day but the lag's
            EXPECT_EQ(rows.front()->date, NextBusinessDay({split.year, split.month, 1})) << id;
            // Each starts from the class's last quota, moved by one day.
            EXPECT_NEAR(static_cast<double>(Quota(*rows.front()) / Quota(*own.back())), 1.0, 0.1) << id;
            EXPECT_NEAR(static_cast<double>(Quota(*rows.front()) / Quota(*series.begin()->second.front())),
                        1.0, 1e-3)
                << id;
            last_quotas.push_back(Quota(*rows[days - 6]));
        }
        // Their fees differ: the paths part.
        std::sort(last_quotas.begin(), last_quotas.end());
        for (std::size_t k = 1; k < last_quotas.size(); ++k) {
            EXPECT_GT(last_quotas[k] / last_quotas[k - 1], 1.0005L) << cnpj;
        }
    }
    EXPECT_EQ(late_splits, 1U);
}

void InfDiarioSampleTest::AFundStartsIn2025AndOneIsCancelledBeforeTheEnd() {
    ASSERT_TRUE(Cases().late_start && Cases().cancelled);
    EXPECT_EQ(Cases().late_start->day, Date(2025, 3, 17));
    const std::vector<const Row*> start = RowsOf(Cases().late_start->cnpj);
    ASSERT_FALSE(start.empty());
    EXPECT_EQ(start.front()->date, Date(2025, 3, 17));
    EXPECT_EQ(start.front()->quota_text, "1.000000000000");
    EXPECT_EQ(start.front()->subscriptions, start.front()->net_worth);
    EXPECT_EQ(start.front()->redemptions, 0);

    EXPECT_EQ(Cases().cancelled->day, Date(2026, 5, 29));
    const std::vector<const Row*> cancelled = RowsOf(Cases().cancelled->cnpj);
    ASSERT_GT(cancelled.size(), 20U);
    EXPECT_EQ(cancelled.front()->date, NextBusinessDay(Date{2024, 11, 1}));
    EXPECT_EQ(cancelled.back()->date, Date(2026, 5, 29));
    // Winding down: redemptions every one of its last days, no subscriptions.
    for (std::size_t i = cancelled.size() - 10; i < cancelled.size(); ++i) {
        EXPECT_GT(cancelled[i]->redemptions, 0);
        EXPECT_EQ(cancelled[i]->subscriptions, 0);
    }
    EXPECT_LT(cancelled.back()->net_worth, cancelled[cancelled.size() - 15]->net_worth / 2);
}

TEST_F(InfDiarioSampleTest, FilesMembersHeadersAndFormat) {
    {
        SCOPED_TRACE("WritesOneZipPerMonthWithOneMemberAndTheRepublishedMonth");
        WritesOneZipPerMonthWithOneMemberAndTheRepublishedMonth();
    }
    {
        SCOPED_TRACE("EachEraHasItsHeaderAndTheFilesCvmsFormat");
        EachEraHasItsHeaderAndTheFilesCvmsFormat();
    }
    {
        SCOPED_TRACE("ReportCountsWhatTheFilesHold");
        ReportCountsWhatTheFilesHold();
    }
}

TEST_F(InfDiarioSampleTest, RowsTypesDecimalsAndInvestorCounts) {
    {
        SCOPED_TRACE("RowsAreValidOrderedAndInTheirMonthsBusinessDays");
        RowsAreValidOrderedAndInTheirMonthsBusinessDays();
    }
    {
        SCOPED_TRACE("FundTypesByEra");
        FundTypesByEra();
    }
    {
        SCOPED_TRACE("QuotasHaveTwelveDecimalsButTheShortFundsSix");
        QuotasHaveTwelveDecimalsButTheShortFundsSix();
    }
    {
        SCOPED_TRACE("InvestorCountsAreBlankOnlyOnTheDocumentedDays");
        InvestorCountsAreBlankOnlyOnTheDocumentedDays();
    }
}

TEST_F(InfDiarioSampleTest, QuotaModel) {
    {
        SCOPED_TRACE("NetWorthMovesWithTheQuotaAndTheDaysFlows");
        NetWorthMovesWithTheQuotaAndTheDaysFlows();
    }
    {
        SCOPED_TRACE("CdiFundsEarnEightyFiveToOneHundredTenPercentOfTheSamplesCdi");
        CdiFundsEarnEightyFiveToOneHundredTenPercentOfTheSamplesCdi();
    }
    {
        SCOPED_TRACE("EquityIsMoreVolatileThanMultimarketWithFatTails");
        EquityIsMoreVolatileThanMultimarketWithFatTails();
    }
    {
        SCOPED_TRACE("OneEquityDrawdownRecoversAndOneNeverDoes");
        OneEquityDrawdownRecoversAndOneNeverDoes();
    }
}

TEST_F(InfDiarioSampleTest, DuplicateFilerGapAndLag) {
    {
        SCOPED_TRACE("TheDuplicateFilerFilesAsFiAndClassesFifOnTheSameDays");
        TheDuplicateFilerFilesAsFiAndClassesFifOnTheSameDays();
    }
    {
        SCOPED_TRACE("OnlyTheGapFundAndTheLateReportMissADayInsideTheirSpan");
        OnlyTheGapFundAndTheLateReportMissADayInsideTheirSpan();
    }
    {
        SCOPED_TRACE("TheLastMonthsLastFiveBusinessDaysAreStillFilling");
        TheLastMonthsLastFiveBusinessDaysAreStillFilling();
    }
}

TEST_F(InfDiarioSampleTest, RepublishedMonth) {
    {
        SCOPED_TRACE("TheRepublishedMonthDiffersExactlyAsDocumented");
        TheRepublishedMonthDiffersExactlyAsDocumented();
    }
}

TEST_F(InfDiarioSampleTest, SubclassesStartsAndCancellations) {
    {
        SCOPED_TRACE("SubclassesFileTheirOwnQuotasAndTheClassThenFilesNone");
        SubclassesFileTheirOwnQuotasAndTheClassThenFilesNone();
    }
    {
        SCOPED_TRACE("AFundStartsIn2025AndOneIsCancelledBeforeTheEnd");
        AFundStartsIn2025AndOneIsCancelledBeforeTheEnd();
    }
}

// --- Other requests -----------------------------------------------------------------------------

std::map<std::string, std::string> FilesUnder(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (entry.is_regular_file()) {
            files[fs::relative(entry.path(), dir).string()] = sdk::testing::ReadFile(entry.path());
        }
    }
    return files;
}

TEST(InfDiarioSampleDeterminismTest, TheSameSeedGivesTheSameBytesAndAnotherSeedOthers) {
    sdk::testing::TempDir dir;
    InfDiarioSampleWriter writer;
    const sdk::SampleReport one = writer.Write({dir.Subdir("one"), kSeed});
    const sdk::SampleReport two = writer.Write({dir.Subdir("two"), kSeed});
    const sdk::SampleReport other = writer.Write({dir.Subdir("other"), kSeed + 1});
    const auto a = FilesUnder(dir.Path() / "one");
    const auto b = FilesUnder(dir.Path() / "two");
    const auto c = FilesUnder(dir.Path() / "other");
    ASSERT_EQ(a.size(), 25U);
    EXPECT_EQ(a, b);
    EXPECT_EQ(one.notes, two.notes);
    ASSERT_EQ(c.size(), a.size());
    for (const auto& [name, bytes] : a) {
        ASSERT_TRUE(c.count(name)) << name;
        EXPECT_NE(c.at(name), bytes) << name;
    }
    EXPECT_NE(one.notes, other.notes);
}

TEST(InfDiarioSampleMonthsTest, MonthsChooseTheWindowAndStaleMonthsAreRemoved) {
    sdk::testing::TempDir dir;
    InfDiarioSampleWriter writer;
    writer.Write({dir.Path(), kSeed});
    sdk::testing::WriteFile(dir.Path() / "inf_diario_fi_201901.csv", "not ours");  // not a monthly zip: kept
    const sdk::SampleReport two = writer.Write({dir.Path(), kSeed, sdk::SampleScale::kSample, 2});
    EXPECT_EQ(two.files, (std::vector<fs::path>{dir.Path() / "inf_diario_fi_202609.zip",
                                                dir.Path() / "inf_diario_fi_202610.zip",
                                                dir.Path() / "republished" / "inf_diario_fi_202609.zip"}));
    EXPECT_EQ(FilesUnder(dir.Path()).size(), 4U);
    EXPECT_TRUE(writer.Cases().republished_month);
    EXPECT_FALSE(writer.Cases().duplicate_cnpj);  // 2025 is outside the window
    EXPECT_FALSE(writer.Cases().gap);
    const std::vector<Row> rows = ReadMonths(dir.Path(), {{2026, 9}, {2026, 10}});
    EXPECT_GT(rows.size(), 7'000U);

    const sdk::SampleReport one = writer.Write({dir.Path(), kSeed, sdk::SampleScale::kSample, 1});
    EXPECT_EQ(one.files, std::vector<fs::path>{dir.Path() / "inf_diario_fi_202610.zip"});
    EXPECT_EQ(FilesUnder(dir.Path()).size(), 2U);  // the CSV that is not ours stays
    EXPECT_FALSE(writer.Cases().republished_month);

    EXPECT_THROW(writer.Write({dir.Path(), kSeed, sdk::SampleScale::kSample, 0}), std::invalid_argument);
    EXPECT_THROW(writer.Write({dir.Path(), kSeed, sdk::SampleScale::kSample, sdk::kMaxSampleMonths + 1}),
                 std::invalid_argument);
}

TEST(InfDiarioSampleFullTest, OneFullSizeMonthOfTheMonthBeforeTheReference) {
    sdk::testing::TempDir dir;
    InfDiarioSampleWriter writer;
    const sdk::SampleReport report = writer.Write({dir.Path(), kSeed, sdk::SampleScale::kFull});
    ASSERT_EQ(report.files, std::vector<fs::path>{dir.Path() / "inf_diario_fi_202609.zip"});
    const auto members = sdk::testing::ZipMemberBytes(report.files[0]);
    ASSERT_EQ(members.size(), 1U);
    EXPECT_EQ(members[0].first, "inf_diario_fi_202609.csv");
    const std::string& bytes = members[0].second;
    EXPECT_EQ(bytes.substr(0, bytes.find('\n')), kClassHeader);
    // About real January 2024's 567,668 rows: ~27,000 series over September's 21 business days.
    const auto rows = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n')) - 1;
    EXPECT_GT(rows, 540'000U);
    EXPECT_LT(rows, 600'000U);
    std::set<std::string> series;
    std::set<std::string> days;
    std::size_t at = bytes.find('\n') + 1;
    while (at < bytes.size()) {
        const std::size_t end = bytes.find('\n', at);
        const std::string_view line(bytes.data() + at, end - at);
        std::size_t field = 0;
        std::size_t start = 0;
        std::string key;
        for (std::size_t i = 0; i <= line.size() && field < 4; ++i) {
            if (i == line.size() || line[i] == ';') {
                if (field == 1 || field == 2) {
                    key += std::string(line.substr(start, i - start)) + "|";
                } else if (field == 3) {
                    days.insert(std::string(line.substr(start, i - start)));
                }
                ++field;
                start = i + 1;
            }
        }
        series.insert(key);
        at = end + 1;
    }
    EXPECT_EQ(days.size(), 21U);
    EXPECT_GE(series.size(), 26'900U);
    EXPECT_LE(series.size(), 27'100U);
    ASSERT_GE(report.counts.size(), 3U);
    EXPECT_EQ(report.counts[2].count, rows);
    EXPECT_FALSE(writer.Cases().duplicate_cnpj);
    EXPECT_FALSE(writer.Cases().republished_month);
}

}  // namespace
}  // namespace lastro::series
