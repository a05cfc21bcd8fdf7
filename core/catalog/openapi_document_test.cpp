#include "core/catalog/openapi_document.hpp"

#include "core/catalog/catalog.hpp"
#include "core/request/problem.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

namespace lastro::catalog {
namespace {

// A manifest with every parameter type and every kind of response field.
constexpr const char* kManifest = R"yaml(
name: things
version: 1.2.3
description: Things for the generator's tests
library: libthings.so
operations:
  - id: things.search
    path: /v1/things
    summary: Search things
    price: 3
    scope: things
    pagination: cursor
    included_pages: true
    params:
      - {name: q, type: string, max_length: 40, description: Part of the name}
      - {name: kind, type: string, enum: [big, small], default: big, description: Kind}
      - {name: cnpj, type: cnpj, max_length: 32, description: CNPJ}
      - {name: month, type: month, required: true, description: Month}
      - {name: day, type: date, description: Day}
      - {name: ratio, type: number, description: Ratio}
      - {name: active, type: boolean, default: "true", description: Active only}
      - {name: limit, type: integer, min: 1, max: 100, default: 25, description: Page size}
      - {name: cursor, type: string, max_length: 512, description: Cursor}
    response:
      entity: thing
      shape: array
      fields:
        - {name: thing_id, type: uuid, description: Id, source: "things.ID"}
        - {name: value_brl, type: number, unit: BRL, nullable: true, description: Value, source: "things.VL"}
        - name: parts
          type: array
          description: Parts
          source: "parts"
          fields:
            - {name: month, type: month, description: Month of the part}
            - {name: at, type: timestamp, nullable: true, description: When}
        - {name: extra, type: object, description: Anything, source: "derived: the rest"}
  - id: things.read
    path: /v1/things/{thing_id}
    summary: One thing
    price: 1
    scope: things
    params:
      - {name: thing_id, in: path, type: uuid, description: Id}
    response:
      entity: thing
      shape: object
      fields:
        - {name: name, type: string, description: Name}
        - {name: tags, type: array, description: Tags}
)yaml";

class OpenApiDocumentTest : public ::testing::Test {
protected:
    OpenApiDocumentTest()
        : things_(plugins::ParseManifest(kManifest, "things.yaml")),
          core_(CoreManifest()),
          doc_(OpenApiDocument({&core_, &things_}, "https://api.example.test")) {}

    const boost::json::value& At(std::string_view pointer) const { return doc_.at_pointer(pointer); }

    plugins::Manifest things_;
    plugins::Manifest core_;
    boost::json::value doc_;
};

constexpr const char* kSearch = "/paths/~1v1~1things/get";

TEST_F(OpenApiDocumentTest, DescribesTheDocumentAndItsServer) {
    EXPECT_EQ(At("/openapi"), "3.1.0");
    EXPECT_EQ(At("/info/version"), kContractVersion);
    EXPECT_EQ(At("/servers/0/url"), "https://api.example.test");
    EXPECT_EQ(At("/components/securitySchemes/bearer/scheme"), "bearer");
    EXPECT_EQ(At("/tags/2/name"), "things");
}

TEST_F(OpenApiDocumentTest, DescribesEveryOperationOfEveryManifest) {
    for (const char* path : {"/v1/schema", "/v1/things", "/v1/things/{thing_id}", "/health", "/pricing",
                             "/openapi.json", "/docs"}) {
        EXPECT_TRUE(At("/paths").as_object().contains(path)) << path;
    }
    EXPECT_EQ(At("/paths").as_object().size(), 7u);
    EXPECT_EQ(At("/paths/~1v1~1schema/get/operationId"), "schema.read");
    EXPECT_EQ(At(std::string(kSearch) + "/operationId"), "things.search");
    EXPECT_EQ(At(std::string(kSearch) + "/summary"), "Search things");
}

TEST_F(OpenApiDocumentTest, PublishesPriceAndBillingAsExtensions) {
    const std::string op = kSearch;
    EXPECT_EQ(At(op + "/x-billing-operation"), "things.search");
    EXPECT_EQ(At(op + "/x-price"), 3);
    EXPECT_EQ(At(op + "/x-scope"), "things");
    EXPECT_EQ(At(op + "/x-pagination"), "cursor");
    EXPECT_EQ(At(op + "/x-included-pages"), true);
    EXPECT_EQ(At(op + "/x-plugin"), "things");
    EXPECT_EQ(At(op + "/security/0/bearer"), boost::json::array{});
    EXPECT_TRUE(At("/paths/~1health/get/security").as_array().empty()) << "public: no key";
    EXPECT_EQ(At("/paths/~1pricing/get/x-price"), 0);
}

TEST_F(OpenApiDocumentTest, TypesParametersWithTheirBoundsPatternsAndDefaults) {
    const boost::json::array& params = At(std::string(kSearch) + "/parameters").as_array();
    ASSERT_EQ(params.size(), 11u) << "the manifest's nine, then the host's format and If-None-Match";
    EXPECT_EQ(params[9].at("name"), "format");
    EXPECT_EQ(params[9].at("schema").at("enum"), (boost::json::array{"json", "csv"}))
        << "an array: CSV offered";
    EXPECT_EQ(params[10].at("name"), "If-None-Match");
    EXPECT_EQ(params[10].at("in"), "header");
    auto schema = [&](std::size_t i) { return params[i].at("schema"); };
    EXPECT_EQ(params[0].at("name"), "q");
    EXPECT_EQ(params[0].at("in"), "query");
    EXPECT_EQ(params[0].at("required"), false);
    EXPECT_EQ(params[0].at("description"), "Part of the name");
    EXPECT_EQ(schema(0), (boost::json::object{{"type", "string"}, {"maxLength", 40}}));
    EXPECT_EQ(schema(1),
              (boost::json::object{
                  {"type", "string"}, {"enum", boost::json::array{"big", "small"}}, {"default", "big"}}));
    EXPECT_EQ(schema(2), (boost::json::object{{"type", "string"}, {"format", "cnpj"}, {"maxLength", 32}}));
    EXPECT_EQ(params[3].at("required"), true);
    EXPECT_EQ(schema(3), (boost::json::object{{"type", "string"}, {"pattern", kMonthPattern}}));
    EXPECT_EQ(schema(4), (boost::json::object{{"type", "string"}, {"format", "date"}}));
    EXPECT_EQ(schema(5), (boost::json::object{{"type", "number"}}));
    EXPECT_EQ(schema(6), (boost::json::object{{"type", "boolean"}, {"default", true}}));
    EXPECT_EQ(schema(7),
              (boost::json::object{{"type", "integer"}, {"minimum", 1}, {"maximum", 100}, {"default", 25}}));

    const boost::json::value& id = At("/paths/~1v1~1things~1{thing_id}/get/parameters/0");
    EXPECT_EQ(id.at("in"), "path");
    EXPECT_EQ(id.at("required"), true);
    EXPECT_EQ(id.at("schema"), (boost::json::object{{"type", "string"}, {"format", "uuid"}}));
}

TEST_F(OpenApiDocumentTest, WrapsTheResponseFieldsInTheSuccessEnvelope) {
    const std::string envelope = std::string(kSearch) + "/responses/200/content/application~1json/schema";
    EXPECT_EQ(At(envelope + "/required"), (boost::json::array{"data", "meta"}));
    EXPECT_EQ(At(envelope + "/additionalProperties"), false);
    const std::string item = envelope + "/properties/data/items";
    EXPECT_EQ(At(envelope + "/properties/data/type"), "array");
    EXPECT_EQ(At(item + "/required"), (boost::json::array{"thing_id", "value_brl", "parts", "extra"}));
    EXPECT_EQ(At(item + "/additionalProperties"), false);
    EXPECT_EQ(At(item + "/properties/thing_id/format"), "uuid");
    EXPECT_EQ(At(item + "/properties/value_brl/type"), (boost::json::array{"number", "null"}));
    EXPECT_EQ(At(item + "/properties/value_brl/x-unit"), "BRL");
    EXPECT_EQ(At(item + "/properties/value_brl/description"), "Value");
    EXPECT_EQ(At(item + "/properties/parts/items/properties/month/pattern"), kMonthPattern);
    EXPECT_EQ(At(item + "/properties/parts/items/properties/at/type"),
              (boost::json::array{"string", "null"}));
    EXPECT_EQ(At(item + "/properties/parts/items/properties/at/format"), "date-time");
    EXPECT_EQ(At(item + "/properties/extra"),
              (boost::json::object{
                  {"type", "object"}, {"description", "Anything"}, {"x-source", "derived: the rest"}}));

    const std::string meta = envelope + "/properties/meta";
    const boost::json::array& required = At(meta + "/required").as_array();
    for (const char* member :
         {"request_id", "data_release", "as_of", "row_count", "sources", "field_sources", "pagination"}) {
        EXPECT_NE(std::find(required.begin(), required.end(), boost::json::value(member)), required.end())
            << member;
    }
    EXPECT_EQ(At(meta + "/properties/field_sources/properties/value_brl/const"), "things.VL");
    EXPECT_EQ(At(meta + "/properties/pagination/$ref"), "#/components/schemas/CursorPagination");

    const std::string one =
        "/paths/~1v1~1things~1{thing_id}/get/responses/200/content/application~1json/schema";
    EXPECT_EQ(At(one + "/properties/data/type"), "object");
    EXPECT_EQ(At(one + "/properties/data/properties/tags"),
              (boost::json::object{{"type", "array"}, {"description", "Tags"}}));
    EXPECT_FALSE(At(one + "/properties/meta/properties").as_object().contains("pagination"));
    EXPECT_FALSE(At(one + "/properties/meta/properties").as_object().contains("field_sources"));
}

TEST_F(OpenApiDocumentTest, DescribesCsvTheEntityTagAndTheFree304) {
    const std::string ok = std::string(kSearch) + "/responses/200";
    EXPECT_EQ(At(ok + "/content/text~1csv/schema/type"), "string") << "an array: offered as CSV";
    for (const char* header : {"ETag", "Vary", "Cache-Control", "X-Row-Count", "Link", "X-Credits-Charged"}) {
        EXPECT_TRUE(At(ok + "/headers").as_object().contains(header)) << header;
    }
    EXPECT_EQ(At(std::string(kSearch) + "/responses/304/$ref"), "#/components/responses/NotModified");
    const boost::json::object& not_modified = At("/components/responses/NotModified").as_object();
    EXPECT_FALSE(not_modified.contains("content")) << "a 304 has none";
    EXPECT_TRUE(not_modified.at("headers").as_object().contains("ETag"));
    EXPECT_TRUE(not_modified.at("headers").as_object().contains("X-Credits-Charged"));
    EXPECT_EQ(At("/components/headers/ETag/required"), true);

    const std::string one = "/paths/~1v1~1things~1{thing_id}/get";
    EXPECT_FALSE(At(one + "/responses/200/content").as_object().contains("text/csv")) << "one object: no CSV";
    const boost::json::array& params = At(one + "/parameters").as_array();
    const auto format = std::find_if(params.begin(), params.end(),
                                     [](const boost::json::value& p) { return p.at("name") == "format"; });
    ASSERT_NE(format, params.end());
    EXPECT_EQ(format->at("schema").at("enum"), (boost::json::array{"json"}));
}

TEST_F(OpenApiDocumentTest, AnswersProblemsWithTheirTitles) {
    const boost::json::object& responses = At(std::string(kSearch) + "/responses").as_object();
    for (int status : {400, 401, 403, 404, 422, 429, 503}) {
        const std::string name = "Problem" + std::to_string(status);
        ASSERT_EQ(responses.at(std::to_string(status)).at("$ref"),
                  boost::json::value("#/components/responses/" + name));
        const boost::json::value& response = At("/components/responses/" + name);
        EXPECT_EQ(response.at("description"), request::ProblemTitle(status));
        const boost::json::value& schema = response.at("content").at("application/problem+json").at("schema");
        EXPECT_EQ(schema.at("allOf").at(0).at("$ref"), "#/components/schemas/Problem");
        EXPECT_EQ(schema.at("allOf").at(1).at("properties").at("title").at("const"),
                  request::ProblemTitle(status));
        EXPECT_EQ(schema.at("allOf").at(1).at("properties").at("status").at("const"), status);
    }
    EXPECT_FALSE(responses.contains("405")) << "only GET is described";
    EXPECT_EQ(At("/components/responses/Problem500/content/application~1problem+json/schema/allOf/0/$ref"),
              "#/components/schemas/TransportProblem");
    EXPECT_EQ(At("/components/schemas/Problem/required").as_array().size(), 7u);
    EXPECT_FALSE(At("/paths/~1health/get/responses").as_object().contains("401"));
}

}  // namespace
}  // namespace lastro::catalog
