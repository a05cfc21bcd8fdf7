#include "core/plugins/manifest.hpp"

#include "core/config/yaml_reader.hpp"
#include "core/plugins/param_conversion.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace lastro::plugins {
namespace {

const std::string kHead = "name: t\nversion: 1.0.0\nlibrary: libt.so\noperations:\n";
const std::string kResponse = "    response: {entity: e, shape: array, fields: [{name: a, type: string}]}\n";

std::string Error(const std::string& operations) {
    try {
        ParseManifest(kHead + operations, "m.yaml");
    } catch (const config::YamlError& e) {
        return e.what();
    }
    return "(valid)";
}

TEST(ManifestTest, ParsesAnOperationWithParameters) {
    Manifest m =
        ParseManifest(kHead +
                          "  - id: t.search\n    path: /v1/things/{thing_id}\n    price: 2\n    scope: t\n"
                          "    params:\n      - {name: thing_id, in: path, type: uuid}\n"
                          "      - {name: month, type: month, required: true}\n" +
                          kResponse,
                      "m.yaml");
    ASSERT_EQ(m.operations.size(), 1u);
    EXPECT_EQ(m.operations[0].price, 2);
    EXPECT_TRUE(m.operations[0].FindParam("thing_id")->required);
    EXPECT_EQ(m.operations[0].FindParam("month")->type, ParamType::kMonth);
}

TEST(ManifestTest, FoldedAppliesToFreeTextOnly) {
    const std::string op = "  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    params:\n";
    Manifest m =
        ParseManifest(kHead + op + "      - {name: q, type: string, folded: true}\n" + kResponse, "m.yaml");
    EXPECT_TRUE(m.operations[0].FindParam("q")->folded);
    EXPECT_EQ(Error(op + "      - {name: n, type: integer, folded: true}\n" + kResponse),
              "m.yaml:10:42: operations[0].params[0].folded: folded applies to free-text string parameters "
              "only (no enum)");
    EXPECT_EQ(Error(op + "      - {name: s, type: string, enum: [a], folded: true}\n" + kResponse),
              "m.yaml:10:52: operations[0].params[0].folded: folded applies to free-text string parameters "
              "only (no enum)");
}

TEST(ManifestTest, RejectsANegativePrice) {
    EXPECT_EQ(Error("  - id: t.a\n    path: /v1/a\n    price: -1\n    scope: t\n" + kResponse),
              "m.yaml:7:12: operations[0].price: expected a non-negative integer");
}

TEST(ManifestTest, RejectsAnUnknownParameterType) {
    EXPECT_NE(Error("  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    params:\n"
                    "      - {name: x, type: float}\n" +
                    kResponse)
                  .find("unknown parameter type 'float'"),
              std::string::npos);
}

TEST(ManifestTest, AnExampleIsValidatedLikeARequestValue) {
    EXPECT_NE(Error("  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    params:\n"
                    "      - {name: limit, type: integer, min: 1, max: 10, example: \"50\"}\n" +
                    kResponse)
                  .find("invalid example: limit must be an integer between 1 and 10"),
              std::string::npos);
}

TEST(ManifestTest, RejectsAnInvalidDefault) {
    EXPECT_NE(Error("  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    params:\n"
                    "      - {name: limit, type: integer, min: 1, max: 10, default: 50}\n" +
                    kResponse)
                  .find("invalid default: limit must be an integer between 1 and 10"),
              std::string::npos);
}

TEST(ManifestTest, RejectsATemplateWithoutPathParameter) {
    EXPECT_NE(Error("  - id: t.a\n    path: /v1/a/{id}\n    price: 1\n    scope: t\n" + kResponse)
                  .find("template {id} has no parameter with in: path"),
              std::string::npos);
}

TEST(ManifestTest, RejectsCursorPaginationWithoutLimit) {
    EXPECT_NE(Error("  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    pagination: cursor\n" +
                    kResponse)
                  .find("cursor pagination needs an integer 'limit' parameter"),
              std::string::npos);
}

TEST(ManifestTest, RejectsAnOperationIdDeclaredTwice) {
    EXPECT_NE(Error("  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n" + kResponse +
                    "  - id: t.a\n    path: /v1/b\n    price: 1\n    scope: t\n" + kResponse)
                  .find("operation id 't.a' declared twice"),
              std::string::npos);
}

const std::string kDatasetHead =
    "name: t\nversion: 1.0.0\nlibrary: libt.so\ndatasets:\n  - id: t.things\n    provider: t\n";

// The manifest with `sample: <sample>` on line 7 (the value starts at column 13).
Manifest WithSample(const std::string& sample) {
    return ParseManifest(kDatasetHead + "    sample: " + sample + "\n", "m.yaml");
}

std::string SampleError(const std::string& sample) {
    try {
        WithSample(sample);
    } catch (const config::YamlError& e) {
        return e.what();
    }
    return "(valid)";
}

// The manifest with `sync: <sync>` on line 7 (the value starts at column 11).
std::string SyncError(const std::string& sync) {
    try {
        ParseManifest(kDatasetHead + "    sync: " + sync + "\n", "m.yaml");
    } catch (const config::YamlError& e) {
        return e.what();
    }
    return "(valid)";
}

TEST(ManifestTest, ParsesWhereSyncFetchesADatasetAndExpandsItsPeriods) {
    const Manifest monthly = ParseManifest(
        kDatasetHead + "    sync: {url: \"https://x.example/t/things_{YYYYMM}.zip\", periods: 3}\n",
        "m.yaml");
    ASSERT_TRUE(monthly.datasets[0].sync);
    EXPECT_EQ(monthly.datasets[0].sync->format, SyncSpec::Format::kZip);
    // Closed months only, newest first; across a year's boundary.
    EXPECT_EQ(monthly.datasets[0].sync->Urls("2026-02-10"),
              (std::vector<std::string>{"https://x.example/t/things_202601.zip",
                                        "https://x.example/t/things_202512.zip",
                                        "https://x.example/t/things_202511.zip"}));
    const Manifest yearly = ParseManifest(
        kDatasetHead + "    sync: {url: \"http://x.example/things_{YYYY}.csv\", periods: 2, format: csv}\n",
        "m.yaml");
    EXPECT_EQ(
        yearly.datasets[0].sync->Urls("2026-11-24"),
        (std::vector<std::string>{"http://x.example/things_2026.csv", "http://x.example/things_2025.csv"}));
    const Manifest single = ParseManifest(
        kDatasetHead + "    sync: {url: \"https://x.example/all.json\", format: json}\n", "m.yaml");
    EXPECT_EQ(single.datasets[0].sync->Urls("2026-11-24"),
              (std::vector<std::string>{"https://x.example/all.json"}));
    EXPECT_FALSE(ParseManifest(kDatasetHead, "m.yaml").datasets[0].sync);
}

TEST(ManifestTest, ExpandsDailyFilesAndDateWindowsIntoNamedFiles) {
    const Manifest daily = ParseManifest(
        kDatasetHead +
            "    sync: {url: \"https://x.example/MediaCDI/{YYYYMMDD}.txt\", periods: 3, format: csv}\n",
        "m.yaml");
    // The days before today, newest first, across a month's boundary.
    EXPECT_EQ(daily.datasets[0].sync->Urls("2026-03-02"),
              (std::vector<std::string>{"https://x.example/MediaCDI/20260301.txt",
                                        "https://x.example/MediaCDI/20260228.txt",
                                        "https://x.example/MediaCDI/20260227.txt"}));
    // A period in the query string only: the file name carries it.
    const Manifest query = ParseManifest(
        kDatasetHead + "    sync: {url: \"https://x.example/get?month={YYYYMM}\", format: csv}\n", "m.yaml");
    EXPECT_EQ(query.datasets[0].sync->Targets("2026-03-02")[0].file_name, "get_202602");

    // SGS: at most 10 years a request, from the series' first day to today, dd/MM/yyyy.
    const Manifest windows = ParseManifest(
        kDatasetHead +
            "    sync: {url: "
            "\"https://x.example/sgs.12/dados?formato=json&dataInicial={FROM}&dataFinal={TO}\", "
            "window: {years: 10, since: 2004-02-29}, format: json}\n",
        "m.yaml");
    const auto targets = windows.datasets[0].sync->Targets("2026-11-26");
    ASSERT_EQ(targets.size(), 3u);
    const std::string base = "https://x.example/sgs.12/dados?formato=json&dataInicial=";
    EXPECT_EQ(targets[2].url, base + "29/02/2004&dataFinal=28/02/2014");
    EXPECT_EQ(targets[2].file_name, "dados_20040229_20140228.json");
    EXPECT_EQ(targets[2].key, targets[2].url);
    EXPECT_EQ(targets[1].url, base + "01/03/2014&dataFinal=29/02/2024");  // a leap day
    EXPECT_EQ(targets[0].url, base + "01/03/2024&dataFinal=26/11/2026");
    // The window that ends today keeps its name and key from one day to the next.
    EXPECT_EQ(targets[0].file_name, "dados_20240301_open.json");
    const auto tomorrow = windows.datasets[0].sync->Targets("2026-11-27");
    EXPECT_EQ(tomorrow[0].url, base + "01/03/2024&dataFinal=27/11/2026");
    EXPECT_EQ(tomorrow[0].key, targets[0].key);
    EXPECT_EQ(tomorrow[0].file_name, targets[0].file_name);
    // A window ending exactly today is still the open one; the next day starts a new window.
    EXPECT_EQ(windows.datasets[0].sync->Targets("2034-02-28").size(), 3u);
    const auto later = windows.datasets[0].sync->Targets("2034-03-01");
    ASSERT_EQ(later.size(), 4u);
    EXPECT_EQ(later[1].url, base + "01/03/2024&dataFinal=28/02/2034");
    EXPECT_EQ(later[0].url, base + "01/03/2034&dataFinal=01/03/2034");
}

TEST(ManifestTest, RejectsMalformedSyncDeclarations) {
    EXPECT_EQ(SyncError("{url: ftp://x/a.zip}"),
              "m.yaml:7:17: datasets[0].sync.url: must start with https:// (or http://)");
    EXPECT_EQ(SyncError("{url: \"https://x/a_{YYYYMM}_{YYYY}.zip\"}"),
              "m.yaml:7:17: datasets[0].sync.url: name one period: {YYYYMMDD}, {YYYYMM}, {YYYY} or a "
              "{FROM}..{TO} window");
    EXPECT_EQ(SyncError("{url: \"https://x/a_{DD}.zip\"}"),
              "m.yaml:7:17: datasets[0].sync.url: the only placeholders are {YYYYMMDD}, {YYYYMM}, {YYYY}, "
              "{FROM} and {TO}");
    EXPECT_EQ(SyncError("{url: \"https://x/a?i={FROM}\"}"),
              "m.yaml:7:17: datasets[0].sync.url: a window needs both {FROM} and {TO}");
    EXPECT_EQ(SyncError("{url: \"https://x/a?i={FROM}&f={TO}\"}"),
              "m.yaml:7:11: datasets[0].sync: a URL with {FROM} and {TO} needs window: {years: N, since: "
              "YYYY-MM-DD}");
    EXPECT_EQ(SyncError("{url: \"https://x/a?i={FROM}&f={TO}\", window: {years: 0, since: 2000-01-01}}"),
              "m.yaml:7:64: datasets[0].sync.window.years: must be between 1 and 50");
    EXPECT_EQ(SyncError("{url: \"https://x/a?i={FROM}&f={TO}\", window: {years: 10, since: 2000-13-01}}"),
              "m.yaml:7:75: datasets[0].sync.window.since: expected a date YYYY-MM-DD, found '2000-13-01'");
    EXPECT_EQ(SyncError("{url: \"https://x/a.zip\", window: {years: 10, since: 2000-01-01}}"),
              "m.yaml:7:44: datasets[0].sync.window: only a URL with {FROM} and {TO} has a window");
    EXPECT_EQ(
        SyncError("{url: \"https://x/a.zip\", periods: 2}"),
        "m.yaml:7:45: datasets[0].sync.periods: only a URL with {YYYYMMDD}, {YYYYMM} or {YYYY} has periods");
    EXPECT_EQ(SyncError("{url: \"https://x/a_{YYYY}.zip\", periods: 0}"),
              "m.yaml:7:52: datasets[0].sync.periods: must be between 1 and 120");
    EXPECT_EQ(SyncError("{url: \"https://x/a.zip\", format: xml}"),
              "m.yaml:7:44: datasets[0].sync.format: expected zip, csv or json, found 'xml'");
    EXPECT_EQ(SyncError("{periods: 1}"), "m.yaml:7:11: datasets[0].sync: missing required key 'url'");
}

// `properties:` are handed to the plugin as written; only their shape is the host's business.
TEST(ManifestTest, ParsesADatasetsPropertiesAndRejectsMalformedOnes) {
    const Manifest m = ParseManifest(
        kDatasetHead + "    properties: {sgs_code: \"11\", kind: rate, since: 1986-06-04}\n", "m.yaml");
    EXPECT_EQ(m.datasets[0].properties, (std::map<std::string, std::string>{
                                            {"sgs_code", "11"}, {"kind", "rate"}, {"since", "1986-06-04"}}));
    EXPECT_TRUE(ParseManifest(kDatasetHead, "m.yaml").datasets[0].properties.empty());
    const auto error = [](const std::string& properties) {
        try {
            ParseManifest(kDatasetHead + "    properties: " + properties + "\n", "m.yaml");
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(error("[a, b]"),
              "m.yaml:7:17: datasets[0].properties: expected a mapping of property names to values");
    EXPECT_EQ(error("{Kind: rate}"),
              "m.yaml:7:18: datasets[0].properties: property names are lower case letters, digits and _, "
              "starting with a letter");
    EXPECT_EQ(error("{kind: [a]}"),
              "m.yaml:7:24: datasets[0].properties.kind: a property's value is a non-empty scalar");
    EXPECT_EQ(error("{kind: \"\"}"),
              "m.yaml:7:24: datasets[0].properties.kind: a property's value is a non-empty scalar");
}

TEST(ManifestTest, ParsesADatasetsSampleFilesAndScales) {
    const Manifest m = WithSample("{files: [\"things_*.csv\", things.zip], scales: [sample, full]}");
    ASSERT_TRUE(m.datasets[0].sample);
    const SampleSpec& sample = *m.datasets[0].sample;
    EXPECT_EQ(sample.files, (std::vector<std::string>{"things_*.csv", "things.zip"}));
    EXPECT_EQ(sample.location, "m.yaml:7:13");
    EXPECT_TRUE(sample.Covers(sdk::SampleScale::kSample));
    EXPECT_TRUE(sample.Covers(sdk::SampleScale::kFull));
    EXPECT_TRUE(sample.Matches("things_202401.csv"));
    EXPECT_TRUE(sample.Matches("things.zip"));
    EXPECT_FALSE(sample.Matches("things.csv"));
    EXPECT_FALSE(sample.Matches("other_things_1.csv"));
    EXPECT_FALSE(sample.Matches("things_1.csv.part"));
}

TEST(ManifestTest, SampleScalesDefaultToSampleAndDatasetsWithoutSampleHaveNone) {
    const Manifest m = WithSample("{files: [things.csv]}");
    EXPECT_TRUE(m.datasets[0].sample->Covers(sdk::SampleScale::kSample));
    EXPECT_FALSE(m.datasets[0].sample->Covers(sdk::SampleScale::kFull));
    EXPECT_FALSE(ParseManifest(kDatasetHead, "m.yaml").datasets[0].sample);
}

TEST(ManifestTest, RejectsMalformedSampleDeclarations) {
    EXPECT_EQ(SampleError("{files: []}"),
              "m.yaml:7:21: datasets[0].sample.files: list at least one file name pattern");
    EXPECT_EQ(SampleError("{files: [a/b.csv]}"),
              "m.yaml:7:22: datasets[0].sample.files[0]: 'a/b.csv' is not a file name pattern (a name in the "
              "sample directory, no '/')");
    EXPECT_EQ(SampleError("{files: [\"\"]}"),
              "m.yaml:7:22: datasets[0].sample.files[0]: '' is not a file name pattern (a name in the sample "
              "directory, no '/')");
    EXPECT_EQ(SampleError("{files: [a.csv, a.csv]}"),
              "m.yaml:7:29: datasets[0].sample.files[1]: pattern 'a.csv' listed twice");
    EXPECT_EQ(SampleError("{files: [a.csv], scales: [huge]}"),
              "m.yaml:7:39: datasets[0].sample.scales[0]: unknown scale 'huge' (sample, full)");
    EXPECT_EQ(SampleError("{files: [a.csv], scales: [full, full]}"),
              "m.yaml:7:45: datasets[0].sample.scales[1]: scale 'full' listed twice");
    EXPECT_EQ(SampleError("{files: [a.csv], scales: []}"),
              "m.yaml:7:38: datasets[0].sample.scales: list at least one scale (sample, full)");
    EXPECT_EQ(SampleError("{file: [a.csv]}"),
              "m.yaml:7:14: datasets[0].sample.file: unknown key (known keys: files, scales)");
    EXPECT_EQ(SampleError("{scales: [sample]}"),
              "m.yaml:7:13: datasets[0].sample: missing required key 'files'");
    EXPECT_NE(SampleError("[a.csv]").find("m.yaml:7:13: datasets[0].sample: expected a mapping"),
              std::string::npos);
    EXPECT_NE(SampleError("{files: a.csv}").find("m.yaml:7:21: datasets[0].sample.files: expected a list"),
              std::string::npos);
}

// An operation whose response has a field `a` and an array `b` of objects with a field `c`; the
// three strings are spliced into the field mappings (line 13: a, line 14: b, line 18: c).
std::string SourcedOperation(const std::string& a, const std::string& b, const std::string& c) {
    return "  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    response:\n      entity: e\n"
           "      shape: array\n      fields:\n"
           "        - {name: a, type: string" +
           a +
           "}\n"
           "        - name: b\n          type: array\n" +
           b +
           "          fields:\n"
           "            - {name: c, type: string" +
           c + "}\n";
}

TEST(ManifestTest, ReadsTheSourceOfEachTopLevelField) {
    Manifest m =
        ParseManifest(kHead + SourcedOperation(", source: \"registro_fundo.CNPJ_Fundo\"",
                                               "          source: \"derived: a x 2, docs/x.md\"\n", ""),
                      "m.yaml");
    const ResponseSpec& response = m.operations[0].response;
    EXPECT_EQ(response.fields[0].source, "registro_fundo.CNPJ_Fundo");
    EXPECT_EQ(response.fields[1].source, "derived: a x 2, docs/x.md");
    EXPECT_FALSE(response.fields[1].fields[0].source.has_value());

    Manifest bare = ParseManifest(kHead + SourcedOperation("", "", ""), "m.yaml");
    EXPECT_FALSE(bare.operations[0].response.fields[0].source.has_value());
}

TEST(ManifestTest, RejectsASourceOnANestedField) {
    EXPECT_EQ(Error(SourcedOperation(", source: a.A", "          source: b.B\n", ", source: c.C")),
              "m.yaml:18:47: operations[0].response.fields[1].fields[0].source: source is declared on "
              "top-level response fields only (meta.field_sources names them)");
}

TEST(ManifestTest, RejectsAResponseWhereOnlySomeFieldsHaveASource) {
    EXPECT_EQ(Error(SourcedOperation(", source: a.A", "", "")),
              "m.yaml:14:11: operations[0].response.fields[1]: field 'b' has no source, while other fields "
              "of this response declare theirs");
    EXPECT_EQ(Error(SourcedOperation("", "          source: b.B\n", "")),
              "m.yaml:13:11: operations[0].response.fields[0]: field 'a' has no source, while other fields "
              "of this response declare theirs");
}

TEST(ManifestTest, RejectsAnEmptyOrNonTextSource) {
    EXPECT_EQ(Error(SourcedOperation(", source: \"\"", "          source: b.B\n", "")),
              "m.yaml:13:43: operations[0].response.fields[0].source: must not be empty");
    EXPECT_EQ(Error(SourcedOperation(", source: {file: x}", "          source: b.B\n", "")),
              "m.yaml:13:43: operations[0].response.fields[0].source: expected a string, found a mapping");
    EXPECT_EQ(Error(SourcedOperation(", source: [x, y]", "          source: b.B\n", "")),
              "m.yaml:13:43: operations[0].response.fields[0].source: expected a string, found a list");
}

TEST(ManifestTest, RejectsAMisspeltSourceKey) {
    EXPECT_EQ(Error(SourcedOperation(", sources: a.A", "", "")),
              "m.yaml:13:35: operations[0].response.fields[0].sources: unknown key (known keys: description, "
              "fields, name, nullable, source, type, unit)");
}

// An object with rows: format=csv writes its rows; an array's elements are rows of their own.
std::string RowsOperation(const std::string& shape, const std::string& rows) {
    return "  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    response:\n      entity: e\n"
           "      shape: " +
           shape + "\n" + rows +
           "      fields:\n"
           "        - {name: a, type: string}\n"
           "        - {name: items, type: array}\n";
}

TEST(ManifestTest, ReadsTheCsvRowsOfAnObjectAndWhichOperationsOfferCsv) {
    Manifest m = ParseManifest(kHead + RowsOperation("object", "      rows: items\n"), "m.yaml");
    EXPECT_EQ(m.operations[0].response.rows, "items");
    EXPECT_TRUE(m.operations[0].response.OffersCsv());
    EXPECT_FALSE(
        ParseManifest(kHead + RowsOperation("object", ""), "m.yaml").operations[0].response.OffersCsv());
    EXPECT_TRUE(
        ParseManifest(kHead + RowsOperation("array", ""), "m.yaml").operations[0].response.OffersCsv());
    EXPECT_EQ(
        Error(RowsOperation("object", "      rows: a\n")),
        "m.yaml:12:13: operations[0].response.rows: rows must name a field of type array of this response");
    EXPECT_EQ(Error(RowsOperation("array", "      rows: items\n")),
              "m.yaml:12:13: operations[0].response.rows: rows names the CSV rows of an object; an array's "
              "elements are its rows");
}

TEST(ManifestTest, RefusesAParameterNamedFormat) {
    const std::string op =
        "  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    params:\n"
        "      - {name: format, in: query, type: string}\n"
        "    response: {entity: e, shape: array, fields: [{name: a, type: string}]}\n";
    EXPECT_EQ(Error(op),
              "m.yaml:10:9: operations[0].params[0]: 'format' is the host's parameter on every "
              "operation (format=csv, docs/api.md)");
}

TEST(ParamConversionTest, ConvertsAndRejectsByType) {
    ParamSpec limit;
    limit.name = "limit";
    limit.type = ParamType::kInteger;
    limit.min = 1;
    limit.max = 100;
    EXPECT_EQ(std::get<sdk::ParamValue>(ConvertParam(limit, "25")), sdk::ParamValue(std::int64_t{25}));
    EXPECT_EQ(std::get<ParamError>(ConvertParam(limit, "0")).detail,
              "limit must be an integer between 1 and 100");
    EXPECT_EQ(std::get<ParamError>(ConvertParam(limit, "1e3")).detail,
              "limit must be an integer between 1 and 100");
    ParamSpec ratio;
    ratio.name = "min_ratio";
    ratio.type = ParamType::kNumber;
    EXPECT_EQ(std::get<sdk::ParamValue>(ConvertParam(ratio, "0.05")), sdk::ParamValue(0.05));
    EXPECT_EQ(std::get<sdk::ParamValue>(ConvertParam(ratio, "-12")), sdk::ParamValue(-12.0));
    for (const char* bad : {"1e3", "inf", "nan", "0x10", "", "1,5", "1.2.3"}) {
        EXPECT_EQ(std::get<ParamError>(ConvertParam(ratio, bad)).detail,
                  "min_ratio must be a decimal number written with a point (e.g. 0.05)")
            << bad;
    }
    ParamSpec month;
    month.name = "month";
    month.type = ParamType::kMonth;
    EXPECT_EQ(std::get<ParamError>(ConvertParam(month, "2024-13")).detail,
              "month must be a month written YYYY-MM (month 01 to 12)");
    EXPECT_TRUE(std::holds_alternative<ParamError>(ConvertParam(month, "24-01")));
    ParamSpec cnpj;
    cnpj.name = "cnpj";
    cnpj.type = ParamType::kIdentifier;
    cnpj.format = sdk::FindIdentifierFormat("cnpj");
    EXPECT_EQ(std::get<sdk::ParamValue>(ConvertParam(cnpj, "11.222.333/0001-81")),
              sdk::ParamValue(std::string("11222333000181")));
    EXPECT_EQ(std::get<ParamError>(ConvertParam(cnpj, "11.222.333/0001-82")).detail,
              "cnpj has invalid CNPJ check digits");
    ParamSpec q;
    q.name = "q";
    q.max_length = 5;
    EXPECT_EQ(std::get<ParamError>(ConvertParam(q, "abcdef")).detail, "q is longer than 5 characters");
    EXPECT_TRUE(std::holds_alternative<sdk::ParamValue>(ConvertParam(q, "ação!")));  // 5 characters, 7 bytes
    EXPECT_EQ(std::get<ParamError>(ConvertParam(q, "\xC3\x28")).detail, "q must be valid UTF-8 text");
    EXPECT_EQ(std::get<ParamError>(ConvertParam(q, std::string("a\0b", 3))).detail,
              "q must not contain control characters");
}

std::string TopError(const std::string& text) {
    try {
        ParseManifest(text, "m.yaml");
    } catch (const config::YamlError& e) {
        return e.what();
    }
    return "(valid)";
}

TEST(ManifestTest, RefusesTheRetiredSdkNumber) {
    EXPECT_EQ(
        TopError("name: t\nversion: 1.0.0\nlibrary: libt.so\nsdk: 2\n"),
        "m.yaml:4:6: sdk: manifests no longer declare the SDK: the host reads the ABI identity from the "
        "library (docs/plugins.md); remove this key");
}

TEST(ManifestTest, RequiresASemanticVersion) {
    EXPECT_EQ(TopError("name: t\nversion: 1.0\nlibrary: libt.so\n"),
              "m.yaml:2:10: version: expected MAJOR.MINOR.PATCH, digits only (e.g. 1.0.0)");
}

TEST(ManifestTest, ParsesRequirementsAndDerivedDatasets) {
    Manifest m = ParseManifest(
        "name: t\nversion: 1.2.3\nlibrary: libt.so\nrequires:\n  - {plugin: funds, version: \">=1.0.0, "
        "<2.0.0\"}\n"
        "  - {plugin: other}\ndatasets:\n  - {id: t.totals, provider: lastro, derived_from: "
        "[cvm.inf_mensal_fidc]}\n",
        "m.yaml");
    ASSERT_EQ(m.requires_plugins.size(), 2u);
    EXPECT_EQ(m.requires_plugins[0].plugin, "funds");
    EXPECT_TRUE(m.requires_plugins[0].versions.Contains(*Version::Parse("1.9.0")));
    EXPECT_FALSE(m.requires_plugins[0].versions.Contains(*Version::Parse("2.0.0")));
    EXPECT_TRUE(m.requires_plugins[1].versions.Contains(*Version::Parse("0.0.1")));  // no range: any
    ASSERT_EQ(m.datasets.size(), 1u);
    EXPECT_TRUE(m.datasets[0].Derived());
    EXPECT_EQ(m.datasets[0].derived_from, std::vector<std::string>{"cvm.inf_mensal_fidc"});
}

TEST(ManifestTest, RefusesBadRequirements) {
    const std::string head = "name: t\nversion: 1.0.0\nlibrary: libt.so\nrequires:\n";
    EXPECT_EQ(TopError(head + "  - {plugin: funds, version: \">=1.x\"}\n"),
              "m.yaml:5:30: requires[0].version: '>=1.x' is not a version comparator (e.g. >=1.0.0, <2.0.0, "
              "^1.2.0, ~1.2.0)");
    EXPECT_EQ(TopError(head + "  - {plugin: t}\n"),
              "m.yaml:5:14: requires[0].plugin: a plugin cannot require itself");
    EXPECT_EQ(TopError(head + "  - {plugin: funds}\n  - {plugin: funds}\n"),
              "m.yaml:6:5: requires[1]: plugin 'funds' required twice");
    EXPECT_NE(TopError(head + "  - {plugin: funds, versions: \"*\"}\n").find("versions: unknown key"),
              std::string::npos);
}

TEST(ManifestTest, RefusesBadDerivedDatasets) {
    const std::string head = "name: t\nversion: 1.0.0\nlibrary: libt.so\ndatasets:\n";
    EXPECT_EQ(TopError(head + "  - {id: t.a, provider: x, derived_from: [t.a]}\n"),
              "m.yaml:5:42: datasets[0].derived_from: a dataset cannot be derived from itself");
    EXPECT_EQ(
        TopError(head + "  - {id: t.a, provider: x, derived_from: []}\n"),
        "m.yaml:5:42: datasets[0].derived_from: name at least one source dataset, or leave the key out");
    EXPECT_EQ(TopError(head + "  - {id: t.a, provider: x, derived_from: [nodot]}\n"),
              "m.yaml:5:42: datasets[0].derived_from: 'nodot' is not a dataset id (provider.dataset)");
    EXPECT_EQ(TopError(head + "  - {id: t.a, provider: x, files: [a.csv], derived_from: [u.b]}\n"),
              "m.yaml:5:35: datasets[0].files: a derived dataset is computed, not read from files");
}

// Found by fuzz/manifest.cpp: names were checked with std::regex, whose matcher recurses once
// per character, so a long enough name (or id, or path segment) overflowed the stack and killed
// lastro and lastrod at start-up instead of naming the manifest's mistake.
TEST(ManifestTest, LongNamesAreCheckedWithoutExhaustingTheStack) {
    const std::string word(1'000'000, 'a');
    Manifest m = ParseManifest(
        "name: " + word + "\nversion: 1.0.0\nlibrary: libt.so\noperations:\n  - id: " + word + "." + word +
            "\n    path: /v1/" + word + "/{" + word + "}\n    price: 1\n    scope: " + word +
            "\n    params:\n      - {name: " + word + ", in: path, type: string}\n" + kResponse +
            "datasets:\n  - {id: t." + word + ", provider: x, derived_from: [u." + word + "]}\n",
        "m.yaml");
    EXPECT_EQ(m.name, word);
    ASSERT_EQ(m.operations.size(), 1u);
    EXPECT_EQ(m.operations[0].params[0].name, word);
    ASSERT_EQ(m.datasets.size(), 1u);
    EXPECT_EQ(TopError("name: " + word + "-\nversion: 1.0.0\nlibrary: libt.so\n"),
              "m.yaml:1:7: name: plugin names are lower_snake_case");
    EXPECT_NE(Error("  - id: t." + word + "-\n    path: /v1/a\n    price: 1\n    scope: t\n" + kResponse)
                  .find("operation ids look like plugin.operation"),
              std::string::npos);
    EXPECT_NE(Error("  - id: t.a\n    path: /v1/" + word + "+\n    price: 1\n    scope: t\n" + kResponse)
                  .find("invalid path segment"),
              std::string::npos);
}

TEST(VersionRangeTest, ReadsComparatorsAndShorthands) {
    std::string error;
    const auto v = [](const char* text) { return *Version::Parse(text); };
    auto caret = VersionRange::Parse("^1.2.0", error);
    ASSERT_TRUE(caret) << error;
    EXPECT_TRUE(caret->Contains(v("1.2.0")));
    EXPECT_TRUE(caret->Contains(v("1.99.0")));
    EXPECT_FALSE(caret->Contains(v("2.0.0")));
    EXPECT_FALSE(caret->Contains(v("1.1.9")));
    auto tilde = VersionRange::Parse("~1.2.0", error);
    EXPECT_TRUE(tilde->Contains(v("1.2.7")));
    EXPECT_FALSE(tilde->Contains(v("1.3.0")));
    auto exact = VersionRange::Parse("1.0.0", error);
    EXPECT_TRUE(exact->Contains(v("1.0.0")));
    EXPECT_FALSE(exact->Contains(v("1.0.1")));
    auto open = VersionRange::Parse(">1.0.0 <=1.5.0", error);
    EXPECT_FALSE(open->Contains(v("1.0.0")));
    EXPECT_TRUE(open->Contains(v("1.5.0")));
    EXPECT_FALSE(VersionRange::Parse("", error));
    EXPECT_EQ(error, "the version range is empty (use * for any version)");
    EXPECT_FALSE(Version::Parse("1.2"));
    EXPECT_FALSE(Version::Parse("1.2.3-rc1"));
    EXPECT_FALSE(Version::Parse("v1.2.3"));
    EXPECT_TRUE(Version::Parse("10.20.30"));
}

}  // namespace
}  // namespace lastro::plugins
