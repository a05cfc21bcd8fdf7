// The series plugin end to end (docs/testing.md): a real lastrod loading the build's plugins on
// SQLite and PostgreSQL with the sample ingested by `lastro ingest --sample`. Every figure is
// recomputed here from the sample's own files (the SGS answers and CVM's daily report zips), read
// by this file's own readers, with exact rational arithmetic (Boost.Multiprecision cpp_rational /
// cpp_int): never through the plugin's code.
#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <boost/json.hpp>
#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace lastro::series::e2e {
namespace {

using namespace ::lastro::sdk::testing;
using boost::multiprecision::cpp_int;
using boost::multiprecision::cpp_rational;

class SeriesTest : public BackendTest<SeriesTest> {
public:
    static constexpr const char* kLabel = "series";
    static DeploymentOptions Options() { return {.plugin_dirs = {LASTRO_PLUGIN_DIR}}; }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, SeriesTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, SeriesTest, ::testing::Values(Backend::kPostgres), BackendParamName);

// ---- The sample's files, read here (JSON with or without BOM, or formato=csv)

using Series = std::map<std::string, std::optional<std::string>>;  // YYYY-MM-DD -> decimal text

std::string IsoOf(const std::string& sgs_date) {  // dd/MM/yyyy
    return sgs_date.substr(6, 4) + "-" + sgs_date.substr(3, 2) + "-" + sgs_date.substr(0, 2);
}

std::string Unquoted(std::string field) {
    if (field.size() >= 2 && field.front() == '"' && field.back() == '"') {
        field = field.substr(1, field.size() - 2);
    }
    return field;
}

void ReadFileInto(const std::string& path, Series& series) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) {
        text.erase(0, 3);
    }
    if (path.ends_with(".json")) {
        const boost::json::value answer = boost::json::parse(text);
        for (const boost::json::value& item : answer.as_array()) {
            const std::string valor(item.at("valor").as_string());
            series[IsoOf(std::string(item.at("data").as_string()))] =
                valor.empty() ? std::nullopt : std::optional<std::string>(valor);
        }
        return;
    }
    std::size_t start = text.find('\n') + 1;  // past the header
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? text.size() : end + 1;
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (line.empty()) {
            continue;
        }
        const std::size_t semicolon = line.find(';');
        std::string value = Unquoted(line.substr(semicolon + 1));
        std::replace(value.begin(), value.end(), ',', '.');
        series[IsoOf(Unquoted(line.substr(0, semicolon)))] =
            value.empty() ? std::nullopt : std::optional<std::string>(value);
    }
}

Series SampleSeries(Deployment& d, int code) {
    Series series;
    const std::string prefix = "bcdata.sgs." + std::to_string(code) + "_";
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(d.SampleDir())) {
        if (entry.path().filename().string().starts_with(prefix)) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
        ReadFileInto(file.string(), series);
    }
    return series;
}

// ---- Exact arithmetic, independent of the plugin's

cpp_rational RationalOf(const std::string& decimal) {
    const bool negative = decimal[0] == '-';
    const std::string digits = negative ? decimal.substr(1) : decimal;
    const std::size_t point = digits.find('.');
    std::string all =
        point == std::string::npos ? digits : digits.substr(0, point) + digits.substr(point + 1);
    all.erase(0, std::min(all.find_first_not_of('0'), all.size() - 1));  // a leading 0 would read as octal
    cpp_int units(all);
    cpp_int scale = 1;
    for (std::size_t i = point == std::string::npos ? 0 : digits.size() - point - 1; i > 0; --i) {
        scale *= 10;
    }
    cpp_rational value(units, scale);
    return negative ? -value : value;
}

// `value` rounded half away from zero to `decimals`, as text.
std::string Rounded(const cpp_rational& value, int decimals) {
    cpp_int scale = 1;
    for (int i = 0; i < decimals; ++i) {
        scale *= 10;
    }
    const cpp_rational magnitude = value < 0 ? cpp_rational(-value) : value;
    const cpp_rational scaled = magnitude * scale + cpp_rational(1, 2);
    const cpp_int units =
        boost::multiprecision::numerator(scaled) / boost::multiprecision::denominator(scaled);
    std::string digits = units.str();
    if (static_cast<int>(digits.size()) <= decimals) {
        digits.insert(0, static_cast<std::size_t>(decimals) + 1 - digits.size(), '0');
    }
    digits.insert(digits.size() - static_cast<std::size_t>(decimals), ".");
    return (value < 0 && units != 0 ? "-" : "") + digits;
}

double Num(const boost::json::value& v) {
    return v.is_double() ? v.as_double() : static_cast<double>(v.as_int64());
}

// Every row of an operation, through its cursor pages, numbers parsed to the double nearest to
// their text (as std::stod does), so that a served text and the expected one compare as doubles.
std::vector<boost::json::object> Rows(Deployment& d, const std::string& path, const std::string& query,
                                      int limit = 500) {
    const std::string key = d.RoomyKey();
    boost::json::parse_options precise;
    precise.numbers = boost::json::number_precision::precise;
    std::vector<boost::json::object> rows;
    std::string cursor;
    for (int page = 0; page < 10000; ++page) {
        std::string target =
            path + "?" + query + (query.empty() ? "" : "&") + "limit=" + std::to_string(limit);
        if (!cursor.empty()) {
            target += "&cursor=" + cursor;
        }
        const HttpResponse r = d.Get(target, key);
        if (r.status != 200) {
            throw std::runtime_error(r.Describe());
        }
        const boost::json::value body = boost::json::parse(r.body, {}, precise);
        for (const boost::json::value& row : body.at("data").as_array()) {
            rows.push_back(row.as_object());
        }
        const boost::json::value& next = body.at("meta").at("pagination").at("next_cursor");
        if (next.is_null()) {
            return rows;
        }
        cursor.clear();
        for (const char c : next.as_string()) {  // percent-encoded, whatever its alphabet
            static const char* hex = "0123456789ABCDEF";
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '~') {
                cursor += c;
            } else {
                cursor +=
                    {'%', hex[static_cast<unsigned char>(c) >> 4], hex[static_cast<unsigned char>(c) & 15]};
            }
        }
    }
    throw std::runtime_error(path + ": more than 10000 pages");
}

// ---- The tests

TEST_P(SeriesTest, EverySampleObservationIsServedAsPublishedThroughTheCursorPages) {
    for (int code : {11, 12, 432, 433, 4389, 4390, 4391}) {
        SCOPED_TRACE(code);
        const Series published = SampleSeries(D(), code);
        ASSERT_FALSE(published.empty());
        const std::vector<boost::json::object> rows =
            Rows(D(), "/v1/macroeconomia/" + std::to_string(code), "", 137);
        ASSERT_EQ(rows.size(), published.size());
        auto it = published.begin();
        for (const boost::json::object& row : rows) {
            ASSERT_EQ(Str(row, "date"), it->first);
            if (it->second) {
                EXPECT_EQ(Num(At(row, "value")), std::stod(*it->second)) << it->first;
            } else {
                EXPECT_TRUE(At(row, "value").is_null()) << it->first << ": published empty stays null";
            }
            EXPECT_EQ(At(row, "observations").as_int64(), 1);
            EXPECT_FALSE(At(row, "partial").as_bool());
            ++it;
        }
    }
}

TEST_P(SeriesTest, ValuesKeepTheirPublishedDecimalsOnTheWire) {
    const Series published = SampleSeries(D(), 11);
    const std::string key = D().CreateKey({1000, 100, "", ""});
    HttpResponse r = D().Get("/v1/macroeconomia/11?limit=500", key);
    ASSERT_TRUE(IsEnvelope(r)) << r.Describe();
    // The first row's value is written with its published digits: "value":0.024620, zeros kept.
    const std::string first = *published.begin()->second;
    EXPECT_NE(r.body.find("\"value\":" + first + ","), std::string::npos)
        << first << " in " << r.body.substr(0, 300);
    const boost::json::object meta = AsObject(At(AsObject(r.Json()), "meta"));
    const boost::json::object series = AsObject(At(meta, "series"));
    EXPECT_EQ(Str(series, "published_unit"), "percent_per_day");
    EXPECT_EQ(Str(series, "unit"), "percent_per_day");
    EXPECT_EQ(Str(series, "native_frequency"), "daily");
    EXPECT_TRUE(At(series, "decimals").is_null());
    EXPECT_TRUE(CreditsAre(r, 1, 1, 999));
}

TEST_P(SeriesTest, MonthlyCompoundingOfTheCdiMatchesAnExactRecomputation) {
    const Series published = SampleSeries(D(), 12);
    std::map<std::string, cpp_rational> months;
    std::map<std::string, int> days;
    for (const auto& [date, value] : published) {
        auto [it, inserted] = months.emplace(date.substr(0, 7), cpp_rational(1));
        it->second *= 1 + RationalOf(*value) / 100;
        ++days[date.substr(0, 7)];
    }
    const std::vector<boost::json::object> rows = Rows(D(), "/v1/macroeconomia/12", "frequency=monthly");
    ASSERT_EQ(rows.size(), months.size());
    for (const boost::json::object& row : rows) {
        const std::string month = Str(row, "period");
        SCOPED_TRACE(month);
        EXPECT_EQ(Str(row, "date"), month + "-01");
        EXPECT_EQ(Num(At(row, "value")), std::stod(Rounded((months.at(month) - 1) * 100, 8)));
        EXPECT_EQ(At(row, "observations").as_int64(), days.at(month));
    }
    // The first month of the history and the latest one are flagged; one in the middle is not.
    EXPECT_FALSE(At(rows[rows.size() / 2], "partial").as_bool());
    EXPECT_TRUE(At(rows.back(), "partial").as_bool());
}

TEST_P(SeriesTest, TwelveMonthIpcaIsTheProductOfTwelveMonthsAndNullWithoutThem) {
    const Series published = SampleSeries(D(), 433);
    std::vector<std::pair<std::string, cpp_rational>> months;
    for (const auto& [date, value] : published) {
        months.emplace_back(date, RationalOf(*value));
    }
    const std::vector<boost::json::object> rows =
        Rows(D(), "/v1/macroeconomia/433", "transform=accumulated_12m");
    ASSERT_EQ(rows.size(), months.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        SCOPED_TRACE(months[i].first);
        if (i < 11) {
            EXPECT_TRUE(At(rows[i], "value").is_null());
            EXPECT_TRUE(At(rows[i], "partial").as_bool());
            continue;
        }
        cpp_rational growth = 1;
        for (std::size_t j = i - 11; j <= i; ++j) {
            growth *= 1 + months[j].second / 100;
        }
        EXPECT_EQ(Num(At(rows[i], "value")), std::stod(Rounded((growth - 1) * 100, 8)));
        EXPECT_FALSE(At(rows[i], "partial").as_bool());
    }
}

// B3's accumulation, written here from the methodology: each day's factor 1 + rate/100 (8
// decimals), the running product truncated to 16 decimals after each day.
TEST_P(SeriesTest, CdiFactorsFollowB3sRuleAcrossPagesAndMatchTheAnnualRate) {
    const Series daily = SampleSeries(D(), 12);
    const Series annual = SampleSeries(D(), 4389);
    const std::string from = std::next(daily.begin(), 40)->first;
    const std::vector<boost::json::object> rows =
        Rows(D(), "/v1/benchmarks/cdi/serie-diaria", "from_date=" + from, 97);
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(std::distance(daily.find(from), daily.end())));
    const cpp_int one("10000000000000000");
    cpp_int accumulated = one;
    auto it = daily.find(from);
    std::size_t without_annual = 0;
    for (const boost::json::object& row : rows) {
        SCOPED_TRACE(it->first);
        ASSERT_EQ(Str(row, "date"), it->first);
        const cpp_rational factor = 1 + RationalOf(*it->second) / 100;
        EXPECT_EQ(Num(At(row, "factor")), std::stod(Rounded(factor, 8)));
        const cpp_rational exact = cpp_rational(accumulated) * factor;  // at 16 decimals
        accumulated = boost::multiprecision::numerator(exact) / boost::multiprecision::denominator(exact);
        EXPECT_EQ(Num(At(row, "accumulated_factor")), std::stod(Rounded(cpp_rational(accumulated, one), 16)));
        EXPECT_EQ(Num(At(row, "rate_pct")), std::stod(*it->second));
        const auto a = annual.find(it->first);
        if (a == annual.end() || !a->second) {
            EXPECT_TRUE(At(row, "annual_rate_pct").is_null());
            EXPECT_TRUE(At(row, "daily_factor_from_annual").is_null());
            ++without_annual;
        } else {
            EXPECT_EQ(Num(At(row, "annual_rate_pct")), std::stod(*a->second));
            // The sample's 12 is B3's rounding of 4389, as the real series are.
            EXPECT_EQ(Num(At(row, "daily_factor_from_annual")), Num(At(row, "factor")));
        }
        ++it;
    }
    EXPECT_LE(without_annual, 1u);
}

TEST_P(SeriesTest, LaterPagesWithinTheWindowAreIncludedInTheFirstPagesCost) {
    const std::string key = D().CreateKey({100, 100, "", ""});
    HttpResponse first = D().Get("/v1/macroeconomia/11?limit=50", key);
    ASSERT_EQ(first.status, 200) << first.Describe();
    EXPECT_TRUE(CreditsAre(first, 1, 1, 99));
    const std::string cursor =
        Str(AsObject(At(AsObject(At(AsObject(first.Json()), "meta")), "pagination")), "next_cursor");
    HttpResponse second = D().Get("/v1/macroeconomia/11?limit=50&cursor=" + cursor, key);
    ASSERT_EQ(second.status, 200) << second.Describe();
    EXPECT_TRUE(CreditsAre(second, 0, 0, 99));
}

TEST_P(SeriesTest, AnUnknownSeriesIsA404ListingTheServedOnes) {
    const std::string key = D().CreateKey({10, 100, "", ""});
    HttpResponse r = D().Get("/v1/macroeconomia/999", key);
    ASSERT_TRUE(IsProblem(r, 404, kBaseUrl, "/v1/macroeconomia/999", "serie_id")) << r.Describe();
    const std::string detail = Str(AsObject(r.Json()), "detail");
    for (const char* code : {"11", "12", "432", "433", "4389", "4390", "4391"}) {
        EXPECT_NE(detail.find(code), std::string::npos) << detail;
    }
}

TEST_P(SeriesTest, WhatASeriesCannotAnswerIsA422NamingTheParameter) {
    const std::string key = D().CreateKey({100, 100, "", ""});
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"/v1/macroeconomia/433?frequency=daily", "frequency"},
        {"/v1/macroeconomia/432?transform=accumulated", "transform"},
        {"/v1/macroeconomia/11?from_date=2024-13", "from_date"},
        {"/v1/macroeconomia/11?from_date=2024-05-01&to_date=2024-04", "to_date"},
        {"/v1/macroeconomia/11?transform=sum", "transform"},
        {"/v1/macroeconomia?series=11,433", "frequency"},
        {"/v1/macroeconomia?series=11,11", "series"},
        {"/v1/macroeconomia?series=11,999", "series"},
        {"/v1/macroeconomia?series=1,2,3,4,5,6,7,8,9,10,11", "series"},
    };
    for (const auto& [target, parameter] : cases) {
        SCOPED_TRACE(target);
        HttpResponse r = D().Get(target, key);
        const std::string instance = target.substr(0, target.find('?'));
        EXPECT_TRUE(IsProblem(r, 422, kBaseUrl, instance, parameter)) << r.Describe();
    }
}

TEST_P(SeriesTest, MonthsAndYearsBoundTheRangeAsDocumented) {
    const Series published = SampleSeries(D(), 433);
    const std::vector<boost::json::object> year =
        Rows(D(), "/v1/macroeconomia/433", "from_date=2023&to_date=2023");
    ASSERT_EQ(year.size(), 12u);
    EXPECT_EQ(Str(year.front(), "date"), "2023-01-01");
    EXPECT_EQ(Str(year.back(), "date"), "2023-12-01");
    const std::vector<boost::json::object> months =
        Rows(D(), "/v1/macroeconomia/12", "from_date=2024-02&to_date=2024-03");
    ASSERT_FALSE(months.empty());
    EXPECT_EQ(Str(months.front(), "date").substr(0, 7), "2024-02");
    EXPECT_EQ(Str(months.back(), "date").substr(0, 7), "2024-03");
    // A yearly IPCA for 2023, computed from its twelve months.
    const std::vector<boost::json::object> compounded =
        Rows(D(), "/v1/macroeconomia/433", "frequency=yearly&from_date=2023&to_date=2023");
    ASSERT_EQ(compounded.size(), 1u);
    cpp_rational growth = 1;
    for (const auto& [date, value] : published) {
        if (date.starts_with("2023-")) {
            growth *= 1 + RationalOf(*value) / 100;
        }
    }
    EXPECT_EQ(Num(At(compounded[0], "value")), std::stod(Rounded((growth - 1) * 100, 8)));
    EXPECT_EQ(At(compounded[0], "observations").as_int64(), 12);
    EXPECT_FALSE(At(compounded[0], "partial").as_bool());
}

TEST_P(SeriesTest, SeveralSeriesComeAlignedByMonth) {
    const std::vector<boost::json::object> rows =
        Rows(D(), "/v1/macroeconomia", "series=433,12,432&frequency=monthly&from_date=2023&to_date=2023");
    ASSERT_EQ(rows.size(), 12u);
    const std::vector<boost::json::object> ipca =
        Rows(D(), "/v1/macroeconomia/433", "from_date=2023&to_date=2023");
    const std::vector<boost::json::object> cdi =
        Rows(D(), "/v1/macroeconomia/12", "frequency=monthly&from_date=2023&to_date=2023");
    const std::vector<boost::json::object> target =
        Rows(D(), "/v1/macroeconomia/432", "frequency=monthly&from_date=2023&to_date=2023");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const boost::json::object& values = AsObject(At(rows[i], "values"));
        EXPECT_EQ(values.begin()->key(), "433");  // the order asked
        EXPECT_EQ(Num(At(values, "433")), Num(At(ipca[i], "value")));
        EXPECT_EQ(Num(At(values, "12")), Num(At(cdi[i], "value")));
        EXPECT_EQ(Num(At(values, "432")), Num(At(target[i], "value")));
        EXPECT_EQ(Str(rows[i], "period"), Str(ipca[i], "period"));
    }
    const std::string key = D().CreateKey({100, 100, "", ""});
    HttpResponse r = D().Get("/v1/macroeconomia?series=11,12&limit=5", key);
    ASSERT_EQ(r.status, 200) << r.Describe();
    EXPECT_TRUE(CreditsAre(r, 2, 2, 98));
}

// ---- CVM's daily fund reports (cvm.inf_diario_fi), read here from the sample's zips

struct DailyRow {
    std::string day;
    std::string subclass;
    std::string quota;  // as published
};

// Every row of `masked_cnpj` in the sample's monthly files of [first_month, last_month]
// (YYYYMM), in file order, found by header name; the class's own filing when it was also filed
// as the fund (the duplicate rule the docs state).
std::vector<DailyRow> SampleDailyRows(Deployment& d, const std::string& masked_cnpj, int first_month,
                                      int last_month, const std::filesystem::path& dir = {}) {
    std::map<std::pair<std::string, std::string>, std::pair<bool, DailyRow>> kept;  // (subclass, day)
    for (int month = first_month; month <= last_month; month = month % 100 == 12 ? month + 89 : month + 1) {
        const std::filesystem::path zip =
            (dir.empty() ? d.SampleDir() : dir) / ("inf_diario_fi_" + std::to_string(month) + ".zip");
        if (!std::filesystem::exists(zip)) {
            continue;
        }
        const sdk::ZipArchive archive(zip);
        const std::unique_ptr<sdk::ByteSource> source =
            archive.Open("inf_diario_fi_" + std::to_string(month) + ".csv");
        std::string text;
        char buffer[1 << 16];
        while (const std::size_t got = source->Read(buffer, sizeof buffer)) {
            text.append(buffer, got);
        }
        std::vector<std::string> header;
        std::map<std::string, std::size_t> column;
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find('\n', start);
            end = end == std::string::npos ? text.size() : end;
            std::string line = text.substr(start, end - start);
            start = end + 1;
            if (!line.empty() && line.back() == '\r') {
                line.pop_back();
            }
            std::vector<std::string> fields;
            for (std::size_t from = 0;;) {
                const std::size_t semicolon = line.find(';', from);
                fields.push_back(line.substr(from, semicolon - from));
                if (semicolon == std::string::npos) {
                    break;
                }
                from = semicolon + 1;
            }
            if (column.empty()) {
                for (std::size_t i = 0; i < fields.size(); ++i) {
                    column[fields[i]] = i;
                }
                continue;
            }
            const std::size_t cnpj =
                column.count("CNPJ_FUNDO_CLASSE") ? column["CNPJ_FUNDO_CLASSE"] : column["CNPJ_FUNDO"];
            if (fields[cnpj] != masked_cnpj) {
                continue;
            }
            const std::size_t type =
                column.count("TP_FUNDO_CLASSE") ? column["TP_FUNDO_CLASSE"] : column["TP_FUNDO"];
            const std::string subclass = column.count("ID_SUBCLASSE") ? fields[column["ID_SUBCLASSE"]] : "";
            const bool is_class = fields[type].starts_with("CLASSES");
            DailyRow row{fields[column["DT_COMPTC"]], subclass, fields[column["VL_QUOTA"]]};
            auto [it, inserted] = kept.try_emplace({subclass, row.day}, is_class, row);
            if (!inserted && (is_class || !it->second.first)) {
                it->second = {is_class, row};
            }
        }
    }
    std::vector<DailyRow> rows;
    for (const auto& [key, value] : kept) {
        rows.push_back(value.second);
    }
    std::sort(rows.begin(), rows.end(), [](const DailyRow& a, const DailyRow& b) {
        return std::tie(a.subclass, a.day) < std::tie(b.subclass, b.day);
    });
    return rows;
}

// The CDI over [from, to): the product of (1 + rate/100) of the sample's SGS 12 days in it.
cpp_rational CdiGrowth(const Series& cdi, const std::string& from, const std::string& to) {
    cpp_rational growth = 1;
    for (auto it = cdi.lower_bound(from); it != cdi.end() && it->first < to; ++it) {
        growth *= 1 + RationalOf(*it->second) / 100;
    }
    return growth;
}

void ExpectClose(double served, const cpp_rational& expected, const std::string& what) {
    const double e = static_cast<double>(expected);
    EXPECT_NEAR(served, e, std::abs(e) * 1e-12 + 1e-16) << what;
}

constexpr const char* kDailyFund = "/v1/series-diarias/02865611000128/desempenho";  // a DI fund with a gap

TEST_P(SeriesTest, AFundsHalfYearRecomputesExactlyFromTheSampleFilesAndTheCdi) {
    const std::vector<DailyRow> published = SampleDailyRows(D(), "02.865.611/0001-28", 202601, 202606);
    const std::vector<boost::json::object> rows =
        Rows(D(), kDailyFund, "from_date=2026-01-01&to_date=2026-06-30", 50);
    const Series cdi = SampleSeries(D(), 12);
    ASSERT_EQ(rows.size(), published.size());
    ASSERT_GT(rows.size(), 100u);
    const cpp_rational first = RationalOf(published.front().quota);
    std::vector<long double> returns;
    bool spanned_the_gap = false;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const boost::json::object& row = rows[i];
        const std::string day = Str(row, "date");
        SCOPED_TRACE(day);
        ASSERT_EQ(day, published[i].day);
        EXPECT_EQ(Num(row.at("quota")), std::stod(published[i].quota));
        if (i == 0) {
            EXPECT_TRUE(row.at("return").is_null());
            continue;
        }
        const cpp_rational quota = RationalOf(published[i].quota);
        const cpp_rational previous = RationalOf(published[i - 1].quota);
        const cpp_rational fund_return = quota / previous - 1;
        const cpp_rational cdi_return = CdiGrowth(cdi, published[i - 1].day, day) - 1;
        EXPECT_EQ(Str(row, "return_from"), published[i - 1].day);
        ExpectClose(Num(row.at("return")), fund_return, "return");
        ExpectClose(Num(row.at("accumulated_return")), quota / first - 1, "accumulated_return");
        ExpectClose(Num(row.at("cdi_return")), cdi_return, "cdi_return");
        ExpectClose(Num(row.at("cdi_accumulated_return")), CdiGrowth(cdi, published.front().day, day) - 1,
                    "cdi_accumulated_return");
        ExpectClose(Num(row.at("pct_of_cdi")), 100 * fund_return / cdi_return, "pct_of_cdi");
        spanned_the_gap |= day == "2026-03-19" && published[i - 1].day == "2026-03-17";
        returns.push_back(static_cast<long double>(fund_return));
    }
    EXPECT_TRUE(spanned_the_gap)
        << "the fund filed nothing on 2026-03-18: its next return starts on the 17th";

    // The summary: volatility is the sample standard deviation of those returns x sqrt(252).
    const HttpResponse r =
        D().Get(std::string(kDailyFund) + "?from_date=2026-01-01&to_date=2026-06-30&limit=1", D().RoomyKey());
    ASSERT_EQ(r.status, 200) << r.Describe();
    const boost::json::object summary = AsObject(AsObject(r.Json()).at("meta").at("summary"));
    long double mean = 0;
    for (const long double x : returns) {
        mean += x;
    }
    mean /= returns.size();
    long double squares = 0;
    for (const long double x : returns) {
        squares += (x - mean) * (x - mean);
    }
    const long double volatility = std::sqrt(squares / (returns.size() - 1)) * std::sqrt(252.0L);
    EXPECT_NEAR(Num(summary.at("volatility_annualized")), static_cast<double>(volatility),
                static_cast<double>(volatility) * 1e-9);
    ExpectClose(Num(summary.at("returns").at("since_first_quota")),
                RationalOf(published.back().quota) / first - 1, "since_first_quota");
    const boost::json::array& gaps = summary.at("gaps").as_array();
    ASSERT_EQ(gaps.size(), 1u);
    EXPECT_EQ(Str(AsObject(gaps[0]), "after"), "2026-03-17");
    EXPECT_EQ(Str(AsObject(gaps[0]), "reason"), "not_filed");
}

TEST_P(SeriesTest, IdentitiesListEverySeriesAndMonthsMonthlyRowsSitAtTheirLastQuota) {
    const std::string key = D().RoomyKey();
    HttpResponse r = D().Get("/v1/series-diarias/00210897000188/identidades", key);
    ASSERT_TRUE(IsEnvelope(r)) << r.Describe();
    const boost::json::value body = r.Json();
    const boost::json::array& items = AsObject(body).at("data").as_array();
    const std::vector<DailyRow> published = SampleDailyRows(D(), "00.210.897/0001-88", 202411, 202610);
    std::map<std::string, std::size_t> rows_of;
    for (const DailyRow& row : published) {
        ++rows_of[row.subclass];
    }
    ASSERT_EQ(items.size(), rows_of.size());
    ASSERT_EQ(items.size(), 4u) << "the class, and three subclasses from 2025-06";
    for (const boost::json::value& item : items) {
        const boost::json::object& series = AsObject(item);
        const std::string subclass = series.at("subclass").is_null() ? "" : Str(series, "subclass");
        EXPECT_EQ(series.at("rows").as_int64(), static_cast<std::int64_t>(rows_of[subclass])) << subclass;
        EXPECT_EQ(Str(series, "source_series_id"),
                  "inf_diario_fi:00210897000188" + (subclass.empty() ? "" : ":" + subclass));
        const boost::json::array& periods = series.at("periods_with_rows").as_array();
        ASSERT_EQ(periods.size(), 1u);
        EXPECT_EQ(Str(AsObject(periods[0]), "from"), subclass.empty() ? "2024-11" : "2025-06");
        if (subclass.empty()) {
            EXPECT_EQ(Str(AsObject(periods[0]), "to"), "2025-05")
                << "the class files per subclass from the switch";
        }
    }

    // A month's row is its last published quota, its return from the previous month's last.
    const std::string subclass = Str(AsObject(items[1]), "subclass");
    std::vector<DailyRow> days;
    for (const DailyRow& row : published) {
        if (row.subclass == subclass && row.day >= "2025-07-01" && row.day <= "2025-12-31") {
            days.push_back(row);
        }
    }
    const std::vector<boost::json::object> months =
        Rows(D(), "/v1/series-diarias/00210897000188/desempenho",
             "source_series_id=inf_diario_fi:00210897000188:" + subclass +
                 "&frequency=monthly&from_date=2025-07&to_date=2025-12");
    ASSERT_EQ(months.size(), 6u);
    std::map<std::string, DailyRow> last_of_month;
    for (const DailyRow& row : days) {
        last_of_month[row.day.substr(0, 7)] = row;
    }
    for (std::size_t i = 1; i < months.size(); ++i) {
        const std::string month = Str(months[i], "month");
        const std::string previous = Str(months[i - 1], "month");
        EXPECT_EQ(Str(months[i], "date"), last_of_month[month].day);
        EXPECT_TRUE(months[i].at("month_complete").as_bool());
        ExpectClose(Num(months[i].at("return")),
                    RationalOf(last_of_month[month].quota) / RationalOf(last_of_month[previous].quota) - 1,
                    month);
    }
}

TEST_P(SeriesTest, TheRegistrysFundIdComesThroughTheFundsPlugin) {
    const std::string key = D().RoomyKey();
    HttpResponse funds = D().Get("/v1/fundos?limit=1", key);
    ASSERT_EQ(funds.status, 200) << funds.Describe();
    const boost::json::object fund = AsObject(AsObject(funds.Json()).at("data").as_array().at(0));
    const std::string cnpj = Str(fund, "cnpj");
    // The registry knows the fund; the daily reports do not yet: listed without series.
    HttpResponse before = D().Get("/v1/series-diarias/" + cnpj + "/identidades", key);
    ASSERT_TRUE(IsEnvelope(before)) << before.Describe();
    EXPECT_EQ(AsObject(before.Json()).at("data").as_array().size(), 0u);
    EXPECT_EQ(Str(AsObject(AsObject(AsObject(before.Json()).at("meta")).at("registry")), "fund_id"),
              Str(fund, "fund_id"));
    // A month of 2019 where it filed: now its series carries the fund_id.
    const std::filesystem::path file = D().Dir() / "inf_diario_fi_201901.csv";
    std::ofstream(file)
        << "TP_FUNDO;CNPJ_FUNDO;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;NR_COTST\n"
        << "FI;" << cnpj << ";2019-01-02;10.00;1.000000000000;10.00;0.00;0.00;1\n";
    const CommandResult ingest = D().Lastro({"ingest", "cvm.inf_diario_fi", file.string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    HttpResponse after = D().Get("/v1/series-diarias/" + cnpj + "/identidades", key);
    ASSERT_TRUE(IsEnvelope(after)) << after.Describe();
    const boost::json::value body = after.Json();
    const boost::json::array& items = AsObject(body).at("data").as_array();
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(Str(AsObject(items[0]), "fund_id"), Str(fund, "fund_id"));
    EXPECT_EQ(Str(AsObject(items[0]), "fund_type"), "FI");
}

TEST_P(SeriesTest, ARepublishedMonthReplacesTheServedValuesAndAsOfNamesTheVintage) {
    const std::string key = D().RoomyKey();
    const std::string target =
        "/v1/series-diarias/57519271000175/desempenho?from_date=2026-09-15&to_date=2026-09-15";
    HttpResponse before = D().Get(target, key);
    ASSERT_EQ(before.status, 200) << before.Describe();
    const std::filesystem::path republished = D().SampleDir() / "republished";
    const std::vector<DailyRow> later =
        SampleDailyRows(D(), "57.519.271/0001-75", 202609, 202609, republished);
    const CommandResult ingest =
        D().Lastro({"ingest", "cvm.inf_diario_fi", (republished / "inf_diario_fi_202609.zip").string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    HttpResponse after = D().Get(target, key);
    ASSERT_EQ(after.status, 200) << after.Describe();
    const boost::json::object row = AsObject(AsObject(after.Json()).at("data").as_array().at(0));
    const auto republished_day =
        std::find_if(later.begin(), later.end(), [](const DailyRow& r) { return r.day == "2026-09-15"; });
    ASSERT_NE(republished_day, later.end());
    EXPECT_EQ(Num(row.at("quota")), std::stod(republished_day->quota));
    EXPECT_NE(Num(row.at("quota")),
              Num(AsObject(AsObject(before.Json()).at("data").as_array().at(0)).at("quota")));
    EXPECT_GE(Str(row, "value_since"), Str(row, "first_seen_at"));
    // The removed day is gone; as_of of a day before any ingest is a 404 naming as_of.
    HttpResponse removed =
        D().Get("/v1/series-diarias/43356147000121/desempenho?from_date=2026-09-10&to_date=2026-09-10", key);
    ASSERT_EQ(removed.status, 200) << removed.Describe();
    EXPECT_EQ(AsObject(removed.Json()).at("data").as_array().size(), 0u);
    HttpResponse old = D().Get(target + std::string("&as_of=2000-01-03"), key);
    EXPECT_TRUE(IsProblem(old, 404, kBaseUrl, "/v1/series-diarias/57519271000175/desempenho", "as_of"))
        << old.Describe();
}

// The sample's last month was written on 2026-10-14: the days with fewer than 5 business days
// after them (2026-10-07 on; 10-12 is a holiday) are still being filed.
TEST_P(SeriesTest, TheLastDaysCvmStillFilesAreProvisionalAndTheWindowsEndBeforeThem) {
    HttpResponse r = D().Get(std::string(kDailyFund) + "?from_date=2026-09-01&limit=500", D().RoomyKey());
    ASSERT_EQ(r.status, 200) << r.Describe();
    const boost::json::value body = r.Json();
    const boost::json::object& meta = AsObject(AsObject(body).at("meta"));
    EXPECT_EQ(Str(meta, "last_complete_day"), "2026-10-06");
    EXPECT_EQ(Str(AsObject(meta.at("summary")), "end_date"), "2026-10-06");
    std::size_t rows = 0;
    for (const boost::json::value& row : AsObject(body).at("data").as_array()) {
        const std::string day = Str(AsObject(row), "date");
        EXPECT_EQ(AsObject(row).at("provisional").as_bool(), day > "2026-10-06") << day;
        ++rows;
    }
    EXPECT_GT(rows, 20u);
}

TEST_P(SeriesTest, DailySeriesErrorsNameTheParameterAndInvalidOnesAreRefunded) {
    const std::string key = D().CreateKey({100, 100, "", ""});
    HttpResponse several = D().Get("/v1/series-diarias/00210897000188/desempenho", key);
    ASSERT_TRUE(
        IsProblem(several, 400, kBaseUrl, "/v1/series-diarias/00210897000188/desempenho", "source_series_id"))
        << several.Describe();
    EXPECT_NE(Str(AsObject(several.Json()), "detail").find("inf_diario_fi:00210897000188:KSCKW1747141206"),
              std::string::npos);
    EXPECT_TRUE(CreditsAre(several, 1, 0, 100)) << "a 400 is refunded";
    HttpResponse unknown = D().Get("/v1/series-diarias/11222333000181/identidades", key);
    EXPECT_TRUE(IsProblem(unknown, 404, kBaseUrl, "/v1/series-diarias/11222333000181/identidades", "cnpj"))
        << unknown.Describe();
    HttpResponse bad_cnpj = D().Get("/v1/series-diarias/11222333000182/desempenho", key);
    EXPECT_TRUE(IsProblem(bad_cnpj, 422, kBaseUrl, "/v1/series-diarias/11222333000182/desempenho", "cnpj"))
        << bad_cnpj.Describe();
    HttpResponse bad_date = D().Get(std::string(kDailyFund) + "?from_date=2026-13-01", key);
    EXPECT_TRUE(IsProblem(bad_date, 422, kBaseUrl, kDailyFund, "from_date")) << bad_date.Describe();
}

}  // namespace
}  // namespace lastro::series::e2e
