#include "core/plugins/manifest.hpp"

#include "core/config/yaml_reader.hpp"
#include "core/plugins/param_conversion.hpp"

#include <gtest/gtest.h>

namespace lastro::plugins {
namespace {

const std::string kHead = "name: t\nversion: 1.0.0\nlibrary: libt.so\nsdk: 1\noperations:\n";
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

TEST(ManifestTest, RejectsANegativePrice) {
    EXPECT_EQ(Error("  - id: t.a\n    path: /v1/a\n    price: -1\n    scope: t\n" + kResponse),
              "m.yaml:8:12: operations[0].price: expected a non-negative integer");
}

TEST(ManifestTest, RejectsAnUnknownParameterType) {
    EXPECT_NE(Error("  - id: t.a\n    path: /v1/a\n    price: 1\n    scope: t\n    params:\n"
                    "      - {name: x, type: float}\n" +
                    kResponse)
                  .find("unknown parameter type 'float'"),
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

// An operation whose response has a field `a` and an array `b` of objects with a field `c`; the
// three strings are spliced into the field mappings (line 14: a, line 15: b, line 19: c).
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
              "m.yaml:19:47: operations[0].response.fields[1].fields[0].source: source is declared on "
              "top-level response fields only (meta.field_sources names them)");
}

TEST(ManifestTest, RejectsAResponseWhereOnlySomeFieldsHaveASource) {
    EXPECT_EQ(Error(SourcedOperation(", source: a.A", "", "")),
              "m.yaml:15:11: operations[0].response.fields[1]: field 'b' has no source, while other fields "
              "of this response declare theirs");
    EXPECT_EQ(Error(SourcedOperation("", "          source: b.B\n", "")),
              "m.yaml:14:11: operations[0].response.fields[0]: field 'a' has no source, while other fields "
              "of this response declare theirs");
}

TEST(ManifestTest, RejectsAnEmptyOrNonTextSource) {
    EXPECT_EQ(Error(SourcedOperation(", source: \"\"", "          source: b.B\n", "")),
              "m.yaml:14:43: operations[0].response.fields[0].source: must not be empty");
    EXPECT_EQ(Error(SourcedOperation(", source: {file: x}", "          source: b.B\n", "")),
              "m.yaml:14:43: operations[0].response.fields[0].source: expected a string, found a mapping");
    EXPECT_EQ(Error(SourcedOperation(", source: [x, y]", "          source: b.B\n", "")),
              "m.yaml:14:43: operations[0].response.fields[0].source: expected a string, found a list");
}

TEST(ManifestTest, RejectsAMisspeltSourceKey) {
    EXPECT_EQ(Error(SourcedOperation(", sources: a.A", "", "")),
              "m.yaml:14:35: operations[0].response.fields[0].sources: unknown key (known keys: description, "
              "fields, name, nullable, source, type, unit)");
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
    cnpj.type = ParamType::kCnpj;
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

}  // namespace
}  // namespace lastro::plugins
