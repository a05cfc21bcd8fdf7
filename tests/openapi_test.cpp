// GET /openapi.json and GET /docs (issue 19): the document checked by Debian's
// openapi-spec-validator, every operation's live answers validated against it by openapi-core
// (tests/openapi/check_openapi.py), its agreement with /v1/schema, and the docs page rendered
// by headless Chromium. The document does not depend on the database, so SQLite only.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/temp_dir.hpp>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

namespace lastro::e2e {
namespace {

class OpenApiTest : public BackendTest<OpenApiTest> {
public:
    static constexpr const char* kLabel = "openapi";
    static DeploymentOptions Options() { return HostOptions(); }

protected:
    boost::json::object Document() {
        HttpResponse r = D().Get("/openapi.json");
        EXPECT_EQ(r.status, 200) << r.Describe();
        return AsObject(r.Json());
    }
    std::string BaseUrl() { return "http://127.0.0.1:" + std::to_string(D().Server().Port()); }
};

// Where the checks leave what they saw (the document, the exchanges, the screenshot).
std::filesystem::path ArtifactDir(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::path(LASTRO_BINARY_DIR) / "artifacts" / name;
    std::filesystem::create_directories(dir);
    return dir;
}

const std::string kChecker = std::string(LASTRO_SOURCE_DIR) + "/tests/openapi/check_openapi.py";

void WriteJsonFile(const std::filesystem::path& file, const boost::json::value& v) {
    std::ofstream(file) << boost::json::serialize(v);
}

boost::json::value ReadJsonFile(const std::filesystem::path& file) {
    std::ifstream in(file);
    return boost::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
}

TEST_P(OpenApiTest, DocumentIsPublicFreeAndPricesEveryOperationLikePricing) {
    HttpResponse r = D().Get("/openapi.json");
    ASSERT_EQ(r.status, 200) << r.Describe();
    EXPECT_EQ(r.Header("Content-Type").value_or("(absent)"), "application/json");
    EXPECT_FALSE(r.Has("X-Credits-Cost")) << "not billed: " << r.Describe();
    const boost::json::object doc = AsObject(r.Json());
    EXPECT_EQ(Str(doc, "openapi"), "3.1.0");
    const boost::json::object& paths = AsObject(At(doc, "paths"));

    const boost::json::object pricing = AsObject(D().Get("/pricing").Json());
    std::size_t v1_paths = 0;
    for (const auto& [path, item] : paths) {
        v1_paths += path.starts_with("/v1/") ? 1 : 0;
    }
    const boost::json::array& operations = At(pricing, "operations").as_array();
    EXPECT_EQ(v1_paths, operations.size()) << "one /v1 path per priced operation";
    for (const auto& entry : operations) {
        const boost::json::object& priced = AsObject(entry);
        const std::string path = Str(priced, "path");
        ASSERT_TRUE(paths.contains(path)) << path << " is priced but not described";
        const boost::json::object& op = AsObject(At(AsObject(paths.at(path)), "get"));
        EXPECT_EQ(Str(op, "operationId"), Str(priced, "operation"));
        EXPECT_EQ(Str(op, "x-billing-operation"), Str(priced, "operation"));
        EXPECT_EQ(At(op, "x-price"), At(priced, "price")) << path;
        EXPECT_EQ(At(op, "x-scope"), At(priced, "scope")) << path;
    }
    for (const char* path : {"/health", "/pricing", "/openapi.json", "/docs"}) {
        EXPECT_TRUE(paths.contains(path)) << path;
    }
}

// The whole document through openapi-spec-validator, then every operation's live answers
// through openapi-core; then proof that the checker refuses answers the document does not allow.
TEST_P(OpenApiTest, LiveAnswersOfEveryOperationMatchTheDocument) {
    const std::filesystem::path out = ArtifactDir("openapi");
    CommandOptions options;
    options.env = {"LASTRO_API_KEY=" + D().RoomyKey()};
    options.timeout = std::chrono::seconds(300);
    CommandResult probe =
        RunCommand({"/usr/bin/python3", kChecker, "probe", BaseUrl(), out.string()}, options);
    ASSERT_EQ(probe.exit_code, 0) << probe.Describe() << "\n" << probe.out;

    boost::json::array exchanges = ReadJsonFile(out / "exchanges.json").as_array();
    // A copy of the exchanges with one answer changed by `mutate` must be refused, naming it.
    auto expect_refused = [&](const std::string& what, auto&& pick, auto&& mutate) {
        boost::json::array changed = exchanges;
        for (auto& e : changed) {
            boost::json::object& exchange = e.as_object();
            const auto& headers = exchange.at("response_headers").as_object();
            if (!headers.contains("Content-Type") ||
                headers.at("Content-Type").as_string().find("json") == boost::json::string::npos) {
                continue;  // the docs page
            }
            boost::json::value body = boost::json::parse(exchange.at("body").as_string());
            if (!pick(exchange, body))
                continue;
            mutate(body);
            exchange["body"] = boost::json::serialize(body);
            const std::filesystem::path file = out / ("refused-" + what + ".json");
            WriteJsonFile(file, changed);
            CommandResult r = RunCommand(
                {"/usr/bin/python3", kChecker, "validate", (out / "openapi.json").string(), file.string()});
            EXPECT_EQ(r.exit_code, 1) << what << ": " << r.Describe() << r.out;
            EXPECT_NE(r.out.find(std::string(exchange.at("target").as_string())), std::string::npos)
                << what << ": " << r.out;
            return;
        }
        ADD_FAILURE() << what << ": no exchange to change";
    };
    auto rows = [](const boost::json::object& e, const boost::json::value& body) {
        return e.at("status") == 200 && e.at("target").as_string().starts_with("/v1/") &&
               body.at("data").is_array() && !body.at("data").as_array().empty();
    };
    expect_refused("wrong-type", rows, [](boost::json::value& body) {
        boost::json::object& row = body.at("data").at(0).as_object();
        row.begin()->value() = boost::json::array{};  // no manifest field type admits an array here
    });
    expect_refused("undeclared-field", rows, [](boost::json::value& body) {
        body.at("data").at(0).as_object()["undeclared_field"] = 1;
    });
    expect_refused("missing-meta", rows,
                   [](boost::json::value& body) { body.at("meta").as_object().erase("request_id"); });
    expect_refused(
        "wrong-title",
        [](const boost::json::object& e, const boost::json::value&) { return e.at("status") == 401; },
        [](boost::json::value& body) { body.at("title") = "Something else"; });
}

// /v1/schema and /openapi.json describe the same operations, parameters and fields.
std::string ParamTypeOf(const boost::json::object& schema) {
    const std::string type = Str(schema, "type");
    if (schema.contains("pattern"))
        return "month";
    if (schema.contains("format"))
        return Str(schema, "format");  // date, uuid or an identifier format
    return type;
}

std::string FieldTypeOf(const boost::json::object& schema) {
    const boost::json::value& type = At(schema, "type");
    const std::string base =
        type.is_array() ? std::string(type.as_array().at(0).as_string()) : Str(schema, "type");
    if (schema.contains("pattern"))
        return "month";
    if (schema.contains("format")) {
        const std::string format = Str(schema, "format");
        return format == "date-time" ? "timestamp" : format;
    }
    return base;
}

void CompareFields(const std::string& where, const boost::json::array& fields,
                   const boost::json::object& schema) {
    const boost::json::object& properties = AsObject(At(schema, "properties"));
    ASSERT_EQ(properties.size(), fields.size()) << where << ": " << boost::json::serialize(schema);
    for (const auto& entry : fields) {
        const boost::json::object& field = AsObject(entry);
        const std::string name = Str(field, "name");
        const std::string here = where + "." + name;
        ASSERT_TRUE(properties.contains(name)) << here;
        const boost::json::object& p = AsObject(properties.at(name));
        EXPECT_EQ(FieldTypeOf(p), Str(field, "type")) << here;
        const bool nullable = At(p, "type").is_array();
        EXPECT_EQ(nullable, At(field, "nullable").as_bool()) << here;
        EXPECT_EQ(At(p, "description"), At(field, "description")) << here;
        EXPECT_EQ(p.contains("x-unit") ? At(p, "x-unit") : boost::json::value(""),
                  field.contains("unit") ? At(field, "unit") : boost::json::value(""))
            << here;
        if (field.contains("fields")) {
            const boost::json::object& nested = Str(field, "type") == "array" ? AsObject(At(p, "items")) : p;
            CompareFields(here, At(field, "fields").as_array(), nested);
        }
    }
}

TEST_P(OpenApiTest, SchemaAgreesWithTheDocument) {
    const boost::json::object doc = Document();
    const boost::json::object& paths = AsObject(At(doc, "paths"));
    HttpResponse r = D().Get("/v1/schema", D().RoomyKey());
    ASSERT_TRUE(IsEnvelope(r));
    const boost::json::value catalog = r.Json();
    const boost::json::array& resources = At(AsObject(At(AsObject(catalog), "data")), "resources").as_array();
    std::set<std::string> described;
    for (const auto& entry : resources) {
        const boost::json::object& res = AsObject(entry);
        const std::string path = Str(res, "path");
        described.insert(path);
        ASSERT_TRUE(paths.contains(path)) << path << " is in /v1/schema but not in /openapi.json";
        const boost::json::object& op = AsObject(At(AsObject(paths.at(path)), "get"));
        EXPECT_EQ(At(op, "operationId"), At(res, "operation")) << path;
        EXPECT_EQ(At(op, "summary"), At(res, "summary")) << path;
        EXPECT_EQ(At(op, "x-price"), At(res, "price")) << path;
        EXPECT_EQ(At(op, "x-scope"), At(res, "scope")) << path;
        EXPECT_EQ(At(op, "x-pagination"), At(res, "pagination")) << path;
        EXPECT_EQ(At(op, "x-entity"), At(res, "entity")) << path;

        const boost::json::array& params = At(res, "params").as_array();
        const boost::json::array& parameters = At(op, "parameters").as_array();
        // The manifest's parameters, then the host's two on every operation (docs/api.md).
        ASSERT_EQ(parameters.size(), params.size() + 2) << path;
        const boost::json::object& format = AsObject(parameters[params.size()]);
        EXPECT_EQ(At(format, "name"), "format") << path;
        EXPECT_EQ(At(AsObject(At(format, "schema")), "enum"), At(res, "formats")) << path;
        EXPECT_EQ(At(AsObject(parameters[params.size() + 1]), "name"), "If-None-Match") << path;
        for (std::size_t i = 0; i < params.size(); ++i) {
            const boost::json::object& param = AsObject(params[i]);
            const boost::json::object& parameter = AsObject(parameters[i]);
            const boost::json::object& schema = AsObject(At(parameter, "schema"));
            const std::string here = path + " " + Str(param, "name");
            EXPECT_EQ(At(parameter, "name"), At(param, "name")) << here;
            EXPECT_EQ(At(parameter, "in"), At(param, "in")) << here;
            EXPECT_EQ(At(parameter, "required"), At(param, "required")) << here;
            EXPECT_EQ(At(parameter, "description"), At(param, "description")) << here;
            EXPECT_EQ(ParamTypeOf(schema), Str(param, "type")) << here;
            for (auto [ours, theirs] : {std::pair{"minimum", "min"}, std::pair{"maximum", "max"},
                                        std::pair{"maxLength", "max_length"}, std::pair{"enum", "enum"}}) {
                EXPECT_EQ(schema.contains(ours), param.contains(theirs)) << here << " " << ours;
                if (schema.contains(ours) && param.contains(theirs)) {
                    EXPECT_EQ(At(schema, ours), At(param, theirs)) << here << " " << ours;
                }
            }
            EXPECT_EQ(schema.contains("default"), param.contains("default")) << here;
            if (schema.contains("default") && param.contains("default")) {
                const boost::json::value& typed = At(schema, "default");
                const std::string text =
                    typed.is_string() ? std::string(typed.as_string()) : boost::json::serialize(typed);
                EXPECT_EQ(text, Str(param, "default")) << here;
            }
        }

        const boost::json::object& data = AsObject(
            At(AsObject(
                   At(AsObject(At(AsObject(At(AsObject(At(AsObject(At(op, "responses")), "200")), "content")),
                                  "application/json")),
                      "schema")),
               "properties"));
        const boost::json::object& data_schema = AsObject(At(data, "data"));
        EXPECT_EQ(Str(data_schema, "type"), Str(res, "shape")) << path;
        CompareFields(path, At(res, "fields").as_array(),
                      Str(res, "shape") == "array" ? AsObject(At(data_schema, "items")) : data_schema);
    }
    for (const auto& [path, item] : paths) {
        if (path.starts_with("/v1/")) {
            EXPECT_TRUE(described.contains(std::string(path)))
                << path << " is in /openapi.json but not in /v1/schema";
        }
    }
}

TEST_P(OpenApiTest, DocsPageRendersEveryOperationInHeadlessChromium) {
    HttpResponse page = D().Get("/docs");
    ASSERT_EQ(page.status, 200) << page.Describe();
    EXPECT_EQ(page.Header("Content-Type").value_or(""), "text/html; charset=utf-8");
    EXPECT_EQ(page.body.find("://"), std::string::npos) << "the page loads nothing from another host";
    for (const char* file : {"/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css", "/docs/init.js"}) {
        HttpResponse r = D().Get(file);
        EXPECT_EQ(r.status, 200) << r.Describe();
        EXPECT_GT(r.body.size(), 100u) << file;
    }
    EXPECT_EQ(D().Get("/docs/nothing.js").status, 404);

    const std::filesystem::path out = ArtifactDir("docs");
    TempDir profile("chromium");
    auto chromium = [&](const std::vector<std::string>& args) {
        std::vector<std::string> argv{"/usr/bin/chromium",
                                      "--headless",
                                      "--no-sandbox",
                                      "--disable-gpu",
                                      "--disable-dev-shm-usage",
                                      "--no-first-run",
                                      "--hide-scrollbars",
                                      "--user-data-dir=" + profile.Path().string(),
                                      "--virtual-time-budget=20000",
                                      "--window-size=1280,3000"};
        argv.insert(argv.end(), args.begin(), args.end());
        argv.push_back(BaseUrl() + "/docs");
        CommandOptions options;
        options.env = {"HOME=" + profile.Path().string()};
        options.timeout = std::chrono::seconds(120);
        return RunCommand(argv, options);
    };
    CommandResult dom = chromium({"--dump-dom"});
    ASSERT_EQ(dom.exit_code, 0) << dom.Describe();
    std::ofstream(out / "docs-dom.html") << dom.out;
    const boost::json::object doc = Document();
    for (const auto& [path, item] : AsObject(At(doc, "paths"))) {
        const std::string id = Str(AsObject(At(AsObject(item), "get")), "operationId");
        // Swagger UI's markup for an operation's summary line: its path, then its operationId.
        EXPECT_NE(dom.out.find("data-path=\"" + std::string(path) + "\""), std::string::npos)
            << path << " is not on the page";
        EXPECT_NE(dom.out.find("opblock-summary-operation-id\">" + id + "<"), std::string::npos)
            << id << " (" << path << ") is not on the page";
    }
    CommandResult shot = chromium({"--screenshot=" + (out / "docs-page.png").string()});
    ASSERT_EQ(shot.exit_code, 0) << shot.Describe();
    EXPECT_GT(std::filesystem::file_size(out / "docs-page.png"), 10000u);
}

INSTANTIATE_TEST_SUITE_P(Sqlite, OpenApiTest, ::testing::Values(Backend::kSqlite), BackendParamName);

}  // namespace
}  // namespace lastro::e2e
