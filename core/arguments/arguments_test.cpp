// The arguments part alone (arguments.hpp): the query decoded and checked against a manifest, the
// problems in the contract's order, the filters a cursor is bound to, and included pages.
#include "core/arguments/arguments.hpp"

#include "core/catalog/catalog.hpp"
#include "core/plugins/manifest.hpp"

#include <gtest/gtest.h>

namespace lastro::arguments {
namespace {

const plugins::Manifest& TestManifest() {
    static const plugins::Manifest manifest = plugins::ParseManifest(
        "name: t\nversion: 1.0.0\nlibrary: libt.so\noperations:\n"
        "  - id: t.search\n    path: /v1/things/{thing}\n    price: 2\n    scope: t\n"
        "    pagination: cursor\n    included_pages: true\n"
        "    params:\n"
        "      - {name: thing, in: path, type: string, max_length: 20}\n"
        "      - {name: q, type: string, max_length: 50, folded: true}\n"
        "      - {name: limit, type: integer, min: 1, max: 100, default: \"10\"}\n"
        "      - {name: cursor, type: string, max_length: 512}\n"
        "    response: {entity: e, shape: array, fields: [{name: a, type: string}]}\n",
        "m.yaml");
    return manifest;
}

const plugins::OperationSpec& Op() {
    return TestManifest().operations.at(0);
}

constexpr std::int64_t kKey = 7;
constexpr std::time_t kNow = 1'800'000'000;

TEST(Arguments, FormatIsTheHostsOwnParameterAndCsvNeedsRows) {
    const ArgumentReader reader({"secret"});
    const Arguments csv = reader.Read(Op(), {{"thing", "x"}}, {{"form%61t", "csv"}, {"q", "a"}}, kKey, kNow);
    ASSERT_FALSE(csv.problem) << csv.problem->detail;
    EXPECT_EQ(csv.format, Format::kCsv);
    EXPECT_FALSE(csv.params.Has("format")) << "the handler never sees it";
    const Arguments json = reader.Read(Op(), {{"thing", "x"}}, {{"q", "a"}}, kKey, kNow);
    EXPECT_EQ(json.filters, csv.filters) << "a cursor serves both formats";
    EXPECT_FALSE(json.format);
    EXPECT_EQ(reader.Read(Op(), {{"thing", "x"}}, {{"format", "json"}}, kKey, kNow).format, Format::kJson);

    const Arguments bad = reader.Read(Op(), {{"thing", "x"}}, {{"format", "xml"}}, kKey, kNow);
    ASSERT_TRUE(bad.problem);
    EXPECT_EQ(bad.problem->status, 422);
    EXPECT_EQ(bad.problem->parameter, "format");

    plugins::OperationSpec object = Op();
    object.response.shape = "object";
    const Arguments refused = reader.Read(object, {{"thing", "x"}}, {{"format", "csv"}}, kKey, kNow);
    ASSERT_TRUE(refused.problem);
    EXPECT_EQ(refused.problem->detail,
              "format=csv is offered where data is a list of rows; /v1/things/{thing} answers one object");
    object.response.rows = "a";
    EXPECT_EQ(reader.Read(object, {{"thing", "x"}}, {{"format", "csv"}}, kKey, kNow).format, Format::kCsv);
}

TEST(Arguments, ReadsPathAndQueryAsTheManifestTypesThem) {
    const ArgumentReader reader({"secret"});
    const Arguments a =
        reader.Read(Op(), {{"thing", "x"}}, {{"q", "Cr%C3%A9dito"}, {"limit", "5"}}, kKey, kNow);
    ASSERT_FALSE(a.problem) << a.problem->detail;
    EXPECT_EQ(a.params.String("thing"), "x");
    EXPECT_EQ(a.params.String("q"), "Crédito");
    EXPECT_EQ(a.params.Integer("limit"), 5);
    EXPECT_FALSE(a.position);
    EXPECT_FALSE(a.included_by);
    // A folded filter binds the cursor alike in every spelling; another value does not.
    EXPECT_EQ(reader.Read(Op(), {{"thing", "x"}}, {{"q", "CREDITO "}, {"limit", "5"}}, kKey, kNow).filters,
              a.filters);
    EXPECT_NE(reader.Read(Op(), {{"thing", "x"}}, {{"q", "debito"}}, kKey, kNow).filters, a.filters);
}

TEST(Arguments, ProblemsComeInTheContractsOrderNamingTheParameter) {
    const ArgumentReader reader({"secret"});
    // A badly encoded parameter is named (422) before too many parameters (400).
    std::vector<std::pair<std::string, std::string>> many(40, {"q", "a"});
    many.push_back({"q", "%zz"});
    Arguments a = reader.Read(Op(), {{"thing", "x"}}, many, kKey, kNow);
    ASSERT_TRUE(a.problem);
    EXPECT_EQ(a.problem->status, 422);
    EXPECT_EQ(a.problem->parameter, "q");
    many.pop_back();
    a = reader.Read(Op(), {{"thing", "x"}}, many, kKey, kNow);
    ASSERT_TRUE(a.problem);
    EXPECT_EQ(a.problem->status, 400);
    EXPECT_FALSE(a.problem->parameter);

    a = reader.Read(Op(), {{"thing", "x"}}, {{"nope", "1"}}, kKey, kNow);
    ASSERT_TRUE(a.problem);
    EXPECT_EQ(a.problem->status, 422);
    EXPECT_EQ(a.problem->parameter, "nope");
    a = reader.Read(Op(), {{"thing", "x"}}, {{"limit", "500"}}, kKey, kNow);
    ASSERT_TRUE(a.problem);
    EXPECT_EQ(a.problem->parameter, "limit");
    a = reader.Read(Op(), {{"thing", "x"}}, {{"cursor", "not-a-cursor"}}, kKey, kNow);
    ASSERT_TRUE(a.problem);
    EXPECT_EQ(a.problem->status, 400);
    EXPECT_EQ(a.problem->parameter, "cursor");
}

TEST(Arguments, ANextPageIsIncludedWithinTheWindowAndForTheSameKeyAndFilters) {
    const ArgumentReader reader({"secret"});
    const Arguments first = reader.Read(Op(), {{"thing", "x"}}, {{"limit", "10"}}, kKey, kNow);
    const std::string cursor = reader.NextCursor(Op(), first, kKey, kNow, boost::json::value("after-1"));
    const Arguments next =
        reader.Read(Op(), {{"thing", "x"}}, {{"limit", "10"}, {"cursor", cursor}}, kKey, kNow + 60);
    ASSERT_FALSE(next.problem) << next.problem->detail;
    ASSERT_TRUE(next.position);
    EXPECT_EQ(next.position->as_string(), "after-1");
    ASSERT_TRUE(next.included_by);
    EXPECT_EQ(next.included_by->first, kNow);
    EXPECT_EQ(next.included_by->second, 10);
    // Its own next cursor hands the paid page's time on: the window never restarts.
    const std::string later = reader.NextCursor(Op(), next, kKey, kNow + 60, boost::json::value("after-2"));
    const Arguments third = reader.Read(Op(), {{"thing", "x"}}, {{"limit", "10"}, {"cursor", later}}, kKey,
                                        kNow + catalog::kIncludedPagesWindowSeconds + 1);
    ASSERT_FALSE(third.problem);
    EXPECT_FALSE(third.included_by);  // past the window of the page that paid: it pays
    // A larger page pays; another key or other filters are refused.
    EXPECT_FALSE(reader.Read(Op(), {{"thing", "x"}}, {{"limit", "20"}, {"cursor", cursor}}, kKey, kNow + 60)
                     .included_by);
    EXPECT_EQ(reader.Read(Op(), {{"thing", "x"}}, {{"limit", "10"}, {"cursor", cursor}}, kKey + 1, kNow)
                  .problem->status,
              400);
    EXPECT_EQ(reader.Read(Op(), {{"thing", "y"}}, {{"limit", "10"}, {"cursor", cursor}}, kKey, kNow)
                  .problem->parameter,
              "cursor");
}

}  // namespace
}  // namespace lastro::arguments
