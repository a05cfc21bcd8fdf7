// The series sample writer (plugins/series/docs/sample.md): SGS answers in their real formats,
// the same bytes for the same seed, a file for every dataset of the manifest, series that agree
// with each other as the real ones do (12 is B3's rule on 4389, 4390 and 4391 compound 11 and 12,
// 11 and 4389 sit under the Selic target), and the quirks the ingester must survive at scale
// sample: a BOM, an indented file, overlapping windows, a gap, a zero, an empty valor, deflation.
#include "sample/sample_writer.hpp"
#include "domain/business_calendar.hpp"
#include "domain/sgs_reader.hpp"
#include "sample/sgs_model.hpp"

#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <fnmatch.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace lastro::series {
namespace {

namespace fs = std::filesystem;
using sdk::Date;
using sdk::SampleScale;

constexpr std::uint64_t kSeed = sdk::kDefaultSampleSeed;

SeriesSpec Spec(std::int64_t code, SeriesKind kind, RatePer per, Frequency frequency) {
    SeriesSpec spec;
    spec.code = code;
    spec.dataset = "bcb.sgs." + std::to_string(code);
    spec.name = spec.dataset;
    spec.kind = kind;
    spec.rate_per = per;
    spec.frequency = frequency;
    return spec;
}

// The series of plugins/series/manifest.yaml.
std::vector<SeriesSpec> ManifestSpecs() {
    return {Spec(11, SeriesKind::kRate, RatePer::kDay, Frequency::kDaily),
            Spec(12, SeriesKind::kRate, RatePer::kDay, Frequency::kDaily),
            Spec(432, SeriesKind::kLevel, RatePer::kYear, Frequency::kDaily),
            Spec(433, SeriesKind::kRate, RatePer::kMonth, Frequency::kMonthly),
            Spec(4389, SeriesKind::kRate, RatePer::kYear, Frequency::kDaily),
            Spec(4390, SeriesKind::kRate, RatePer::kMonth, Frequency::kMonthly),
            Spec(4391, SeriesKind::kRate, RatePer::kMonth, Frequency::kMonthly)};
}

std::string Slurp(const fs::path& path) {
    return sdk::testing::ReadFile(path);
}

// Every file of a directory by name.
std::map<std::string, std::string> FilesOf(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        files[entry.path().filename().string()] = Slurp(entry.path());
    }
    return files;
}

// --- Reading the files back, independently of the writer --------------------------------------

struct Row {
    Date date;
    std::string value;  // as published, with a decimal point; "" when empty
};

enum class Kind { kCompactJson, kBomJson, kIndentedJson, kCsv };

struct File {
    std::string name;
    std::int64_t code = 0;
    Date first;
    Date last;
    Kind kind = Kind::kCompactJson;
    std::vector<Row> rows;
};

Date ParseSgsDate(const std::string& text) {
    // dd/MM/yyyy
    const std::optional<Date> date =
        Date::Parse(text.substr(6, 4) + "-" + text.substr(3, 2) + "-" + text.substr(0, 2));
    if (!date || text.size() != 10 || text[2] != '/' || text[5] != '/') {
        throw std::runtime_error("bad SGS date '" + text + "'");
    }
    return *date;
}

Date ParseCompactDate(const std::string& text) {
    return *Date::Parse(text.substr(0, 4) + "-" + text.substr(4, 2) + "-" + text.substr(6, 2));
}

std::string DateText(const Date& date) {
    char text[16];
    std::snprintf(text, sizeof text, "%02d/%02d/%04d", date.day, date.month, date.year);
    return text;
}

// The exact bytes of each form, to compare with what was written.
std::string Expected(const std::vector<Row>& rows, Kind kind) {
    std::string out;
    if (kind == Kind::kCsv) {
        out = "\"data\";\"valor\"\r\n";
        for (const Row& row : rows) {
            std::string value = row.value;
            std::replace(value.begin(), value.end(), '.', ',');
            out += "\"" + DateText(row.date) + "\";\"" + value + "\"\r\n";
        }
        return out;
    }
    out = kind == Kind::kBomJson ? "\xEF\xBB\xBF[" : "[";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (kind == Kind::kIndentedJson) {
            out += (i == 0 ? "\n" : ",\n");
            out += "  {\n    \"data\": \"" + DateText(rows[i].date) + "\",\n    \"valor\": \"" +
                   rows[i].value + "\"\n  }";
        } else {
            out += (i == 0 ? "" : ",");
            out += "{\"data\":\"" + DateText(rows[i].date) + "\",\"valor\":\"" + rows[i].value + "\"}";
        }
    }
    out += kind == Kind::kIndentedJson ? "\n]\n" : "]";
    return out;
}

// Reads a file by its quoted strings (the format has no escapes), then checks that its bytes
// are exactly one of SGS's forms of those rows.
File ParseFile(const std::string& name, const std::string& bytes) {
    static const std::regex kName(R"(bcdata\.sgs\.(\d+)_(\d{8})_(\d{8})\.(json|csv))");
    std::smatch match;
    if (!std::regex_match(name, match, kName)) {
        throw std::runtime_error("unexpected file name " + name);
    }
    File file;
    file.name = name;
    file.code = std::stoll(match[1]);
    file.first = ParseCompactDate(match[2]);
    file.last = ParseCompactDate(match[3]);
    const bool csv = match[4] == "csv";
    std::vector<std::string> strings;
    for (std::size_t at = bytes.find('"'); at != std::string::npos; at = bytes.find('"', at)) {
        const std::size_t end = bytes.find('"', at + 1);
        strings.push_back(bytes.substr(at + 1, end - at - 1));
        at = end + 1;
    }
    if (csv) {
        for (std::size_t i = 2; i + 1 < strings.size(); i += 2) {
            std::string value = strings[i + 1];
            std::replace(value.begin(), value.end(), ',', '.');
            file.rows.push_back({ParseSgsDate(strings[i]), value});
        }
    } else {
        for (std::size_t i = 0; i + 3 < strings.size(); i += 4) {
            file.rows.push_back({ParseSgsDate(strings[i + 1]), strings[i + 3]});
        }
    }
    std::vector<Kind> kinds =
        csv ? std::vector<Kind>{Kind::kCsv}
            : std::vector<Kind>{Kind::kCompactJson, Kind::kBomJson, Kind::kIndentedJson};
    for (const Kind kind : kinds) {
        if (Expected(file.rows, kind) == bytes) {
            file.kind = kind;
            return file;
        }
    }
    throw std::runtime_error(name + " is not in one of SGS's forms");
}

struct Sample {
    std::map<std::string, std::string> bytes;  // by file name
    std::vector<File> files;                   // by file name
    // Every series' observations by date (a date shared by two windows: the later file's).
    std::map<std::int64_t, std::map<Date, std::string>> series;
    sdk::SampleReport report;
};

Sample WriteSample(const std::vector<SeriesSpec>& specs, SampleScale scale, std::uint64_t seed = kSeed) {
    sdk::testing::TempDir dir("lastro-series-sample-");
    SgsSampleWriter writer(specs);
    Sample sample;
    sample.report = writer.Write({dir.Path(), seed, scale, std::nullopt});
    sample.bytes = FilesOf(dir.Path());
    for (const auto& [name, bytes] : sample.bytes) {
        sample.files.push_back(ParseFile(name, bytes));
        for (const Row& row : sample.files.back().rows) {
            sample.series[sample.files.back().code][row.date] = row.value;
        }
    }
    return sample;
}

const Sample& SampleScaleSample() {
    static const Sample sample = WriteSample(ManifestSpecs(), SampleScale::kSample);
    return sample;
}

const Sample& FullScaleSample() {
    static const Sample sample = WriteSample(ManifestSpecs(), SampleScale::kFull);
    return sample;
}

// A published decimal as an integer count of its last digit ("-0.35" -> -35).
std::int64_t Units(const std::string& text) {
    std::string digits;
    for (const char c : text) {
        if (c != '.') {
            digits += c;
        }
    }
    return std::stoll(digits);
}

int Decimals(const std::string& text) {
    const std::size_t point = text.find('.');
    return point == std::string::npos ? 0 : static_cast<int>(text.size() - point - 1);
}

// B3's rule, written out again: (1 + annual/100)^(1/252) rounded half up to 8 decimals, the
// daily rate (factor - 1) x 100 with 6 decimals, as millionths of a percent.
std::int64_t B3Daily(const std::string& annual_percent) {
    const long double annual =
        static_cast<long double>(Units(annual_percent)) / std::pow(10.0L, Decimals(annual_percent));
    const long double factor = std::pow(1.0L + annual / 100.0L, 1.0L / 252.0L);
    return static_cast<std::int64_t>(std::floor(factor * 1e8L + 0.5L)) - 100'000'000;
}

// "13.65" from 1365.
std::string PercentText(std::int64_t hundredths) {
    char text[32];
    std::snprintf(text, sizeof text, "%lld.%02lld", static_cast<long long>(hundredths / 100),
                  static_cast<long long>(hundredths % 100));
    return text;
}

// (prod(1 + d/100) - 1) x 100 rounded to hundredths, from daily rates with 6 decimals.
std::int64_t CompoundedHundredths(const std::vector<std::string>& daily) {
    long double factor = 1.0L;
    for (const std::string& rate : daily) {
        factor *= 1.0L + static_cast<long double>(Units(rate)) / 1e8L;
    }
    return std::llround((factor - 1.0L) * 1e4L);
}

std::vector<const File*> FilesOfCode(const Sample& sample, std::int64_t code) {
    std::vector<const File*> files;
    for (const File& file : sample.files) {
        if (file.code == code) {
            files.push_back(&file);
        }
    }
    std::sort(files.begin(), files.end(), [](const File* a, const File* b) { return a->first < b->first; });
    return files;
}

// --- Tests --------------------------------------------------------------------------------------

TEST(SgsSampleB3Rule, GivesTheWorkedValues) {
    EXPECT_EQ(sgs_sample::DailyRateFromAnnual(1165), 43739);  // 11.65 % a year -> 0.043739
    EXPECT_EQ(sgs_sample::DailyRateFromAnnual(1490), 55131);  // 14.90 -> 0.055131
    EXPECT_EQ(sgs_sample::DailyRateFromAnnual(1365), 50788);  // 13.65 -> 0.050788
    EXPECT_EQ(sgs_sample::DailyRateFromAnnual(640), 24620);   // 6.40 -> 0.024620 (SGS 12, 2018-10)
    EXPECT_EQ(B3Daily("11.65"), 43739);
    EXPECT_EQ(B3Daily("14.90"), 55131);
    EXPECT_EQ(B3Daily("13.65"), 50788);
    // A month of 21 days at 0.043739: 1.00043739^21 - 1 = 0.922...% -> 0.92.
    EXPECT_EQ(sgs_sample::CompoundedPercent(std::vector<std::int64_t>(21, 43739)), 92);
}

TEST(SgsSampleCalendar, KnowsBrazilsNationalHolidays) {
    using series::EasterSunday;
    using series::IsBusinessDay;
    EXPECT_EQ(EasterSunday(2019), (Date{2019, 4, 21}));
    EXPECT_EQ(EasterSunday(2024), (Date{2024, 3, 31}));
    EXPECT_EQ(EasterSunday(2026), (Date{2026, 4, 5}));
    EXPECT_FALSE(IsBusinessDay({2020, 2, 24}));   // Carnival Monday
    EXPECT_FALSE(IsBusinessDay({2020, 2, 25}));   // Carnival Tuesday
    EXPECT_FALSE(IsBusinessDay({2024, 3, 29}));   // Good Friday
    EXPECT_FALSE(IsBusinessDay({2016, 5, 26}));   // Corpus Christi (absent from the real SGS 12)
    EXPECT_FALSE(IsBusinessDay({2023, 9, 7}));    // Independence
    EXPECT_FALSE(IsBusinessDay({2024, 11, 20}));  // national from 2024
    EXPECT_TRUE(IsBusinessDay({2023, 11, 20}));
    EXPECT_TRUE(IsBusinessDay({2024, 12, 24}));
    EXPECT_TRUE(IsBusinessDay({2024, 12, 31}));
    EXPECT_FALSE(IsBusinessDay({2026, 10, 10}));  // a Saturday
}

TEST(SgsSampleWriterTest, SameSeedGivesTheSameBytes) {
    for (const SampleScale scale : {SampleScale::kSample, SampleScale::kFull}) {
        const Sample again = WriteSample(ManifestSpecs(), scale);
        const Sample& first = scale == SampleScale::kSample ? SampleScaleSample() : FullScaleSample();
        EXPECT_EQ(again.bytes, first.bytes) << sdk::SampleScaleName(scale);
    }
    const Sample other = WriteSample(ManifestSpecs(), SampleScale::kSample, kSeed + 1);
    EXPECT_NE(other.bytes, SampleScaleSample().bytes);
}

// A second run in the same directory leaves only its own windows (the ingest would read all).
TEST(SgsSampleWriterTest, ReplacesTheAnswersOfAnEarlierRun) {
    sdk::testing::TempDir dir("lastro-series-sample-");
    SgsSampleWriter writer(ManifestSpecs());
    writer.Write({dir.Path(), kSeed + 1, SampleScale::kFull, std::nullopt});
    dir.Write("bcdata.sgs.999_20190101_20191231.json", "[]");  // not one of these series: kept
    dir.Write("notes.txt", "x");
    const sdk::SampleReport report = writer.Write({dir.Path(), kSeed, SampleScale::kSample, std::nullopt});
    std::map<std::string, std::string> expected = SampleScaleSample().bytes;
    expected["bcdata.sgs.999_20190101_20191231.json"] = "[]";
    expected["notes.txt"] = "x";
    EXPECT_EQ(FilesOf(dir.Path()), expected);
    EXPECT_NE(std::find_if(report.notes.begin(), report.notes.end(),
                           [](const std::string& note) { return note.find("removed ") == 0; }),
              report.notes.end());
}

TEST(SgsSampleWriterTest, ReportsItsFilesAndCounts) {
    const Sample& sample = SampleScaleSample();
    ASSERT_EQ(sample.report.files.size(), sample.bytes.size());
    std::size_t rows = 0;
    for (const File& file : sample.files) {
        rows += file.rows.size();
    }
    ASSERT_EQ(sample.report.counts.size(), 3u);
    EXPECT_EQ(sample.report.counts[0].name, "series");
    EXPECT_EQ(sample.report.counts[0].count, 7u);
    EXPECT_EQ(sample.report.counts[1].name, "files");
    EXPECT_EQ(sample.report.counts[1].count, sample.files.size());
    EXPECT_EQ(sample.report.counts[2].name, "observations");
    EXPECT_EQ(sample.report.counts[2].count, rows);
    EXPECT_FALSE(sample.report.notes.empty());
}

// Every `sample: {files: [...]}` pattern of the manifest matches files at both scales.
TEST(SgsSampleWriterTest, EveryManifestDatasetGetsFiles) {
    std::ifstream manifest(std::string(LASTRO_SOURCE_DIR) + "/plugins/series/manifest.yaml");
    ASSERT_TRUE(manifest) << "plugins/series/manifest.yaml";
    static const std::regex kPattern(R"(sample:\s*\{\s*files:\s*\[\s*"([^"]+)\")");
    std::vector<std::string> patterns;
    for (std::string line; std::getline(manifest, line);) {
        std::smatch match;
        // The SGS series' datasets (the daily reports' sample is inf_diario_sample_test.cpp's).
        if (std::regex_search(line, match, kPattern) && match[1].str().starts_with("bcdata.sgs.")) {
            patterns.push_back(match[1]);
        }
    }
    ASSERT_EQ(patterns.size(), 7u);
    for (const Sample* sample : {&SampleScaleSample(), &FullScaleSample()}) {
        for (const std::string& pattern : patterns) {
            std::size_t matched = 0;
            for (const auto& [name, bytes] : sample->bytes) {
                matched += fnmatch(pattern.c_str(), name.c_str(), 0) == 0 ? 1 : 0;
            }
            EXPECT_GE(matched, 3u) << pattern;
        }
    }
}

TEST(SgsSampleWriterTest, WindowsAreConsecutiveExceptOneOverlapOfTwelve) {
    const Sample& sample = SampleScaleSample();
    int overlaps = 0;
    for (const SeriesSpec& spec : ManifestSpecs()) {
        const std::vector<const File*> files = FilesOfCode(sample, spec.code);
        ASSERT_GE(files.size(), 3u) << spec.code;
        EXPECT_EQ(files.front()->first, kSgsSampleFirstDay);
        EXPECT_EQ(files.back()->last, kSgsSampleReferenceDate);
        std::set<std::int64_t> lengths;
        bool json = false;
        bool csv = false;
        for (std::size_t i = 0; i < files.size(); ++i) {
            const File& file = *files[i];
            lengths.insert(sdk::sample::DayNumber(file.last) - sdk::sample::DayNumber(file.first));
            (file.kind == Kind::kCsv ? csv : json) = true;
            ASSERT_FALSE(file.rows.empty()) << file.name;
            EXPECT_FALSE(file.rows.front().date < file.first) << file.name;
            EXPECT_FALSE(file.last < file.rows.back().date) << file.name;
            for (std::size_t r = 1; r < file.rows.size(); ++r) {
                EXPECT_LT(file.rows[r - 1].date, file.rows[r].date) << file.name;
            }
            if (i == 0) {
                continue;
            }
            const File& previous = *files[i - 1];
            EXPECT_NE(file.kind == Kind::kCsv, previous.kind == Kind::kCsv)
                << "formats alternate: " << file.name;
            if (file.first == sdk::sample::AddDays(previous.last, 1)) {
                continue;
            }
            // The one overlap: 12's, whose shared days carry the same values in both files.
            ++overlaps;
            EXPECT_EQ(spec.code, 12) << file.name;
            ASSERT_LT(file.first, previous.last) << file.name;
            std::map<Date, std::string> earlier;
            for (const Row& row : previous.rows) {
                earlier[row.date] = row.value;
            }
            int shared = 0;
            for (const Row& row : file.rows) {
                if (!(previous.last < row.date)) {
                    ++shared;
                    ASSERT_TRUE(earlier.count(row.date)) << DateText(row.date);
                    EXPECT_EQ(earlier[row.date], row.value) << DateText(row.date);
                }
            }
            EXPECT_GT(shared, 0);
        }
        EXPECT_EQ(lengths.size(), files.size()) << "windows of different lengths: " << spec.code;
        EXPECT_TRUE(json && csv) << spec.code;
    }
    EXPECT_EQ(overlaps, 1);
}

TEST(SgsSampleWriterTest, DailySeriesPublishBusinessDaysOnly) {
    for (const Sample* sample : {&SampleScaleSample(), &FullScaleSample()}) {
        for (const std::int64_t code : {11, 12, 432, 4389}) {
            for (const auto& [date, value] : sample->series.at(code)) {
                ASSERT_TRUE(series::IsBusinessDay(date)) << code << " " << DateText(date);
            }
        }
        // 12 publishes every business day from its first to the day before the reference date.
        const auto& cdi = sample->series.at(12);
        const std::vector<Date> days = series::BusinessDays(cdi.begin()->first, cdi.rbegin()->first);
        EXPECT_EQ(days.size(), cdi.size());
        EXPECT_EQ(cdi.rbegin()->first, (Date{2026, 10, 13}));
    }
}

TEST(SgsSampleWriterTest, CdiDailyIsB3RuleOnTheAnnualRate) {
    for (const Sample* sample : {&SampleScaleSample(), &FullScaleSample()}) {
        const auto& annual = sample->series.at(4389);
        const auto& daily = sample->series.at(12);
        std::size_t checked = 0;
        for (const auto& [date, rate] : daily) {
            EXPECT_EQ(Decimals(rate), 6) << DateText(date);
            const auto it = annual.find(date);
            if (it == annual.end() || it->second.empty()) {
                continue;
            }
            EXPECT_EQ(Decimals(it->second), 2);
            ASSERT_EQ(Units(rate), B3Daily(it->second)) << DateText(date) << " 4389=" << it->second;
            ++checked;
        }
        EXPECT_GE(checked + 1, daily.size());  // all but the day 4389 has no value
    }
}

TEST(SgsSampleWriterTest, MonthlySeriesCompoundTheDailyOnes) {
    for (const Sample* sample : {&SampleScaleSample(), &FullScaleSample()}) {
        for (const auto& [monthly_code, daily_code] : {std::pair{4390, 11}, std::pair{4391, 12}}) {
            std::map<sdk::Month, std::vector<std::string>> months;
            for (const auto& [date, rate] : sample->series.at(daily_code)) {
                months[date.ToMonth()].push_back(rate);
            }
            const auto& monthly = sample->series.at(monthly_code);
            ASSERT_FALSE(monthly.empty());
            for (const auto& [date, value] : monthly) {
                EXPECT_EQ(date.day, 1);
                EXPECT_EQ(Decimals(value), 2);
                ASSERT_EQ(Units(value), CompoundedHundredths(months.at(date.ToMonth())))
                    << monthly_code << " " << DateText(date);
            }
            EXPECT_EQ(monthly.rbegin()->first, (Date{2026, 9, 1}));
        }
    }
}

// 11 and 4389 sit under the Copom target (432): 11 at target - 0.10, 4389 at target - 0.20,
// within 0.02 (a hundredth of drift each); the target moves in quarter points.
TEST(SgsSampleWriterTest, RatesFollowTheSelicTarget) {
    const Sample& sample = FullScaleSample();
    const auto& target = sample.series.at(432);
    EXPECT_EQ(target.begin()->first, (Date{1999, 3, 5}));
    std::string previous;
    std::optional<Date> changed;  // the last change seen
    for (const auto& [date, value] : target) {
        EXPECT_EQ(Units(value) % 25, 0) << DateText(date);
        if (!(date < Date{2010, 1, 1})) {
            EXPECT_GE(Units(value), 200) << DateText(date);
            EXPECT_LE(Units(value), 1425) << DateText(date);
        }
        if (!previous.empty() && value != previous) {
            // Copom meets about monthly until 2005, every ~45 days since.
            if (changed) {
                EXPECT_GE(sdk::sample::DayNumber(date) - sdk::sample::DayNumber(*changed), 25)
                    << DateText(date);
            }
            changed = date;
        }
        previous = value;
    }
    for (const auto& [date, value] : target) {
        if (date < Date{2003, 1, 1}) {
            continue;
        }
        const std::int64_t t = Units(value);
        EXPECT_LE(std::abs(Units(sample.series.at(4389).at(date)) - (t - 20)), 2) << DateText(date);
        const std::int64_t selic = Units(sample.series.at(11).at(date));
        bool near = false;
        for (std::int64_t bp = t - 11; bp <= t - 9; ++bp) {
            near = near || selic == B3Daily(PercentText(bp));
        }
        EXPECT_TRUE(near) << DateText(date) << " 11=" << selic << " 432=" << value;
    }
}

TEST(SgsSampleWriterTest, SampleScaleHasTheQuirksToRead) {
    const Sample& sample = SampleScaleSample();
    int bom = 0;
    int indented = 0;
    for (const File& file : sample.files) {
        bom += file.kind == Kind::kBomJson ? 1 : 0;
        indented += file.kind == Kind::kIndentedJson ? 1 : 0;
    }
    EXPECT_EQ(bom, 1);
    EXPECT_EQ(indented, 1);

    // 11: one business day without observation (12 has it), one published zero.
    const auto& selic = sample.series.at(11);
    const auto& cdi = sample.series.at(12);
    std::vector<Date> missing;
    for (const auto& [date, value] : cdi) {
        if (!selic.count(date)) {
            missing.push_back(date);
        }
    }
    EXPECT_EQ(missing.size(), 1u);
    int zeros = 0;
    for (const auto& [date, value] : selic) {
        zeros += value == "0.000000" ? 1 : 0;
    }
    EXPECT_EQ(zeros, 1);

    // 4389: one empty valor, in a JSON file (`"valor":""`).
    int empty = 0;
    for (const File* file : FilesOfCode(sample, 4389)) {
        for (const Row& row : file->rows) {
            if (row.value.empty()) {
                ++empty;
                EXPECT_NE(file->kind, Kind::kCsv);
                EXPECT_NE(sample.bytes.at(file->name).find("\"valor\":\"\""), std::string::npos);
            }
        }
    }
    EXPECT_EQ(empty, 1);

    // 433: a 0.00 month, at least three negative ones, a mean about 0.4.
    const auto& ipca = sample.series.at(433);
    int negative = 0;
    int zero = 0;
    std::int64_t sum = 0;
    for (const auto& [date, value] : ipca) {
        EXPECT_EQ(Decimals(value), 2);
        negative += Units(value) < 0 ? 1 : 0;
        zero += value == "0.00" ? 1 : 0;
        sum += Units(value);
    }
    EXPECT_GE(negative, 3);
    EXPECT_EQ(zero, 1);
    const double mean = static_cast<double>(sum) / static_cast<double>(ipca.size()) / 100.0;
    EXPECT_GT(mean, 0.3);
    EXPECT_LT(mean, 0.5);
}

TEST(SgsSampleWriterTest, FullScaleRunsFromTheRealStartsInTenYearWindows) {
    const Sample& sample = FullScaleSample();
    const std::map<std::int64_t, Date> starts{{11, {1986, 6, 4}},  {12, {1986, 3, 6}},   {432, {1999, 3, 5}},
                                              {433, {1980, 1, 1}}, {4389, {1986, 3, 6}}, {4390, {1986, 7, 1}},
                                              {4391, {1986, 7, 1}}};
    for (const auto& [code, start] : starts) {
        const std::vector<const File*> files = FilesOfCode(sample, code);
        ASSERT_FALSE(files.empty());
        EXPECT_EQ(files.front()->first, start) << code;
        EXPECT_EQ(files.back()->last, kSgsSampleReferenceDate) << code;
        for (std::size_t i = 0; i < files.size(); ++i) {
            EXPECT_EQ(files[i]->kind, Kind::kCompactJson) << files[i]->name;
            if (i + 1 < files.size()) {
                // 10 years less a day, the next starting the day after.
                const Date& first = files[i]->first;
                EXPECT_EQ(sdk::sample::AddDays(files[i]->last, 1),
                          (Date{first.year + 10, first.month, first.day}));
                EXPECT_EQ(files[i + 1]->first, sdk::sample::AddDays(files[i]->last, 1));
            }
        }
    }
    // Hyperinflation: the IPCA's record month, daily rates near 3 % a day in 1990.
    const auto& ipca = sample.series.at(433);
    EXPECT_EQ(ipca.at({1990, 3, 1}), "82.39");
    for (const auto& [date, value] : ipca) {
        EXPECT_LE(Units(value), 8239) << DateText(date);
    }
    std::int64_t top = 0;
    for (const auto& [date, value] : sample.series.at(11)) {
        if (date.year == 1990) {
            top = std::max(top, Units(value));
        }
    }
    EXPECT_GT(top, 2'500'000);  // 2.5 % a day
    EXPECT_LT(top, 3'500'000);
    EXPECT_LT(Units(sample.series.at(11).at({2019, 1, 2})), 100'000);  // 0.1 % a day after the Real
}

// A series the model does not know gets a generic one of its kind, span and frequency.
TEST(SgsSampleWriterTest, UnknownSeriesGetAGenericModel) {
    const std::vector<SeriesSpec> specs{Spec(1178, SeriesKind::kRate, RatePer::kYear, Frequency::kDaily),
                                        Spec(7, SeriesKind::kRate, RatePer::kDay, Frequency::kDaily),
                                        Spec(8, SeriesKind::kRate, RatePer::kMonth, Frequency::kMonthly),
                                        Spec(9, SeriesKind::kLevel, RatePer::kYear, Frequency::kMonthly),
                                        Spec(10, SeriesKind::kRate, RatePer::kYear, Frequency::kYearly),
                                        // A known code with another spec is generic too.
                                        Spec(433, SeriesKind::kRate, RatePer::kMonth, Frequency::kYearly)};
    for (const SampleScale scale : {SampleScale::kSample, SampleScale::kFull}) {
        const Sample sample = WriteSample(specs, scale);
        EXPECT_EQ(WriteSample(specs, scale).bytes, sample.bytes);
        const std::map<std::int64_t, int> decimals{{1178, 2}, {7, 6}, {8, 2}, {9, 2}, {10, 2}, {433, 2}};
        for (const auto& [code, places] : decimals) {
            ASSERT_TRUE(sample.series.count(code)) << code;
            const auto& rows = sample.series.at(code);
            EXPECT_GE(FilesOfCode(sample, code).size(), scale == SampleScale::kFull ? 2u : 3u) << code;
            for (const auto& [date, value] : rows) {
                EXPECT_EQ(Decimals(value), places) << code;
            }
        }
        for (const auto& [date, value] : sample.series.at(9)) {
            EXPECT_EQ(date.day, 1);
            EXPECT_EQ(Units(value) % 25, 0);
        }
        for (const auto& [date, value] : sample.series.at(10)) {
            EXPECT_EQ(date.month, 1);
            EXPECT_EQ(date.day, 1);
            EXPECT_LT(date.year, 2026);  // complete years only
        }
        for (const auto& [date, value] : sample.series.at(7)) {
            ASSERT_TRUE(series::IsBusinessDay(date));
            EXPECT_GT(Units(value), 0);
            EXPECT_LT(Units(value), 200'000);  // under 0.2 % a day (65 % a year) since 2000
        }
    }
}

// The plugin's own reader takes every file as it is (BOM, indentation, CSV, empty valor).
TEST(SgsSampleWriterTest, TheSgsReaderReadsEveryFile) {
    for (const Sample* sample : {&SampleScaleSample(), &FullScaleSample()}) {
        for (const File& file : sample->files) {
            const SgsAnswer answer = ReadSgsAnswer(sample->bytes.at(file.name), file.name);
            EXPECT_EQ(answer.format == SgsFormat::kCsv, file.kind == Kind::kCsv) << file.name;
            ASSERT_EQ(answer.observations.size(), file.rows.size()) << file.name;
            for (std::size_t i = 0; i < file.rows.size(); ++i) {
                EXPECT_EQ(answer.observations[i].date, file.rows[i].date) << file.name;
                EXPECT_EQ(answer.observations[i].value.value_or(""), file.rows[i].value) << file.name;
            }
        }
    }
}

}  // namespace
}  // namespace lastro::series
