#include "core/catalog/openapi_document.hpp"

#include "core/catalog/catalog.hpp"
#include "core/request/problem.hpp"

#include <boost/json.hpp>

#include <string_view>

namespace lastro::catalog {
namespace {

using boost::json::array;
using boost::json::object;
using boost::json::value;

// Problem statuses a /v1 operation may answer (405 belongs to the methods not described) and
// those of the public documents, which need no key and read no parameter.
constexpr int kV1Statuses[] = {400, 401, 403, 404, 408, 413, 415, 422, 429, 500, 503};
constexpr int kPublicStatuses[] = {408, 413, 415, 500, 503};
// The transport answers these two by itself when the pipeline could not (core/request/problem.hpp,
// MinimalProblemBody): only title, status and detail are certain.
bool TransportStatus(int status) {
    return status == 408 || status == 500;
}

constexpr const char* kBearer = "bearer";

struct HeaderDoc {
    const char* name;
    const char* description;
};
// What every /v1 answer carries (docs/billing.md, "Headers").
constexpr HeaderDoc kBillingHeaders[] = {
    {"X-Credits-Cost", "Price of this call in credits"},
    {"X-Credits-Charged", "Credits charged after settlement"},
    {"X-Credits-Remaining", "Allowance left this month after this call"},
    {"X-Credits-Limit", "The key's monthly allowance"},
    {"X-Credits-Reset", "Unix time (UTC) when the allowance resets"},
    {"X-RateLimit-Limit", "The key's calls per minute"},
    {"X-RateLimit-Remaining", "Calls left in the current minute window"},
    {"X-RateLimit-Reset", "Unix time when the current minute window ends"},
};

std::string Ref(std::string_view kind, std::string_view name) {
    return "#/components/" + std::string(kind) + "/" + std::string(name);
}

object RefTo(std::string_view kind, std::string_view name) {
    return object{{"$ref", Ref(kind, name)}};
}

object Str() {
    return object{{"type", "string"}};
}

object Formatted(const char* format) {
    return object{{"type", "string"}, {"format", format}};
}

object Int() {
    return object{{"type", "integer"}};
}

// `type` also admits null.
void MakeNullable(object& schema) {
    schema["type"] = array{schema["type"], "null"};
}

object Nullable(object schema) {
    MakeNullable(schema);
    return schema;
}

// A closed object: every member listed is required and no other may appear.
object Closed(std::initializer_list<std::pair<std::string_view, object>> members) {
    object properties;
    array required;
    for (const auto& [name, schema] : members) {
        properties[name] = schema;
        required.push_back(value(name));
    }
    return object{{"type", "object"},
                  {"properties", std::move(properties)},
                  {"required", std::move(required)},
                  {"additionalProperties", false}};
}

object ArrayOf(object items) {
    return object{{"type", "array"}, {"items", std::move(items)}};
}

object Described(object schema, std::string_view description) {
    schema["description"] = description;
    return schema;
}

// A manifest's response field (FieldSpec::type) as a JSON Schema.
object FieldSchema(const plugins::FieldSpec& field);

object FieldsSchema(const std::vector<plugins::FieldSpec>& fields) {
    object properties;
    array required;
    for (const plugins::FieldSpec& f : fields) {
        properties[f.name] = FieldSchema(f);
        required.push_back(value(f.name));
    }
    return object{{"type", "object"},
                  {"properties", std::move(properties)},
                  {"required", std::move(required)},
                  {"additionalProperties", false}};
}

object FieldSchema(const plugins::FieldSpec& field) {
    const std::string& t = field.type;
    object schema;
    if (t == "object") {
        schema = field.fields.empty() ? object{{"type", "object"}} : FieldsSchema(field.fields);
    } else if (t == "array") {
        schema = field.fields.empty() ? object{{"type", "array"}} : ArrayOf(FieldsSchema(field.fields));
    } else if (t == "date") {
        schema = Formatted("date");
    } else if (t == "timestamp") {
        schema = Formatted("date-time");
    } else if (t == "uuid") {
        schema = Formatted("uuid");
    } else if (t == "month") {
        schema = object{{"type", "string"}, {"pattern", kMonthPattern}};
    } else {
        schema = object{{"type", t}};  // string, integer, number, boolean
    }
    if (field.nullable) {
        MakeNullable(schema);
    }
    schema["description"] = field.description;
    if (!field.unit.empty()) {
        schema["x-unit"] = field.unit;
    }
    if (field.source) {
        schema["x-source"] = *field.source;
    }
    return schema;
}

// A parameter's default, typed as the parameter (the manifest writes it as text).
// A default or example, given as text in the manifest, as the JSON value of its type.
value TypedValue(const plugins::ParamSpec& p, const std::string& text) {
    switch (p.type) {
        case plugins::ParamType::kInteger:
            return std::stoll(text);
        case plugins::ParamType::kNumber:
            return std::stod(text);
        case plugins::ParamType::kBoolean:
            return text == "true";
        default:
            return value(text);
    }
}

object ParamSchema(const plugins::ParamSpec& p) {
    object schema;
    switch (p.type) {
        case plugins::ParamType::kString:
            schema = Str();
            break;
        case plugins::ParamType::kInteger:
            schema = Int();
            break;
        case plugins::ParamType::kNumber:
            schema = object{{"type", "number"}};
            break;
        case plugins::ParamType::kBoolean:
            schema = object{{"type", "boolean"}};
            break;
        case plugins::ParamType::kMonth:
            schema = object{{"type", "string"}, {"pattern", kMonthPattern}};
            break;
        case plugins::ParamType::kDate:
            schema = Formatted("date");
            break;
        case plugins::ParamType::kUuid:
            schema = Formatted("uuid");
            break;
        case plugins::ParamType::kIdentifier:
            // An SDK identifier format (e.g. cnpj), checked and normalised by the server.
            schema = object{{"type", "string"}, {"format", plugins::TypeName(p)}};
            break;
    }
    if (p.min)
        schema["minimum"] = *p.min;
    if (p.max)
        schema["maximum"] = *p.max;
    if (p.max_length)
        schema["maxLength"] = *p.max_length;
    if (!p.enum_values.empty()) {
        array values;
        for (const std::string& v : p.enum_values)
            values.push_back(value(v));
        schema["enum"] = std::move(values);
    }
    if (p.default_value)
        schema["default"] = TypedValue(p, *p.default_value);
    return schema;
}

object Parameter(const plugins::ParamSpec& p) {
    const bool in_path = p.in == plugins::ParamLocation::kPath;
    object parameter{{"name", p.name},
                     {"in", in_path ? "path" : "query"},
                     {"required", in_path || p.required},
                     {"description", p.description},
                     {"schema", ParamSchema(p)}};
    if (p.example) {
        parameter["example"] = TypedValue(p, *p.example);
    }
    return parameter;
}

// meta of the success envelope (contract 2.2) for `op`: the host's members, the manifest's
// field_sources and the cursor pagination; a handler may add members of its own.
object MetaSchema(const plugins::OperationSpec& op) {
    object properties{
        {"request_id", Described(Formatted("uuid"), "Identifier for support")},
        {"data_release", Described(Nullable(Str()), "Data release served")},
        {"as_of", Described(Nullable(Str()), "Reference period of the data")},
        {"row_count", Described(object{{"type", "integer"}, {"minimum", 0}}, "Number of rows returned")},
        {"sources", Described(ArrayOf(RefTo("schemas", "Source")), "Data sources")},
    };
    array required{"request_id", "data_release", "as_of", "row_count", "sources"};
    object sources;
    array sourced;
    for (const plugins::FieldSpec& f : op.response.fields) {
        if (f.source) {
            sources[f.name] = object{{"type", "string"}, {"const", *f.source}};
            sourced.push_back(value(f.name));
        }
    }
    if (!sources.empty()) {
        properties["field_sources"] = object{{"type", "object"},
                                             {"description", "Where each field comes from"},
                                             {"properties", std::move(sources)},
                                             {"required", std::move(sourced)},
                                             {"additionalProperties", false}};
        required.push_back("field_sources");
    }
    if (op.pagination == plugins::Pagination::kCursor) {
        properties["pagination"] = RefTo("schemas", "CursorPagination");
        required.push_back("pagination");
    }
    return object{{"type", "object"},
                  {"properties", std::move(properties)},
                  {"required", std::move(required)},
                  {"additionalProperties", true}};
}

object JsonContent(object schema) {
    return object{{"application/json", object{{"schema", std::move(schema)}}}};
}

object HeaderRefs(bool billed) {
    object headers{{"X-Request-Id", RefTo("headers", "X-Request-Id")}};
    if (billed) {
        for (const HeaderDoc& h : kBillingHeaders)
            headers[h.name] = RefTo("headers", h.name);
    }
    return headers;
}

// The headers of every /v1 answer with content or a 304 (docs/api.md, "On the wire").
void AddRepresentationHeaders(object& headers) {
    headers["ETag"] = RefTo("headers", "ETag");
    headers["Vary"] = RefTo("headers", "Vary");
    headers["Cache-Control"] = RefTo("headers", "Cache-Control");
    headers["Last-Modified"] = RefTo("headers", "Last-Modified");
}

object SuccessResponse(const plugins::OperationSpec& op) {
    const std::vector<plugins::FieldSpec>& fields = op.response.fields;
    object data = op.response.shape == "array" ? ArrayOf(FieldsSchema(fields)) : FieldsSchema(fields);
    data["description"] = "Rows of entity " + op.response.entity;
    object envelope = Closed({{"data", std::move(data)}, {"meta", MetaSchema(op)}});
    object headers = HeaderRefs(true);
    AddRepresentationHeaders(headers);
    object content = JsonContent(std::move(envelope));
    if (op.response.OffersCsv()) {
        headers["X-Row-Count"] = RefTo("headers", "X-Row-Count");
        headers["Link"] = RefTo("headers", "Link");
        const std::string rows = op.response.rows.empty() ? "data" : "data." + op.response.rows;
        content["text/csv"] = object{
            {"schema", Described(Str(), "With format=csv (or Accept: text/csv): the rows of " + rows +
                                            " as RFC 4180 CSV, a header row named as their fields (nested "
                                            "objects by dots); meta in the X-Row-Count, X-Data-Release and "
                                            "Link headers")}};
    }
    return object{
        {"description", op.summary}, {"headers", std::move(headers)}, {"content", std::move(content)}};
}

// The host's parameters on every /v1 operation: the representation and the conditional request.
void AddHostParameters(const plugins::OperationSpec& op, array& parameters) {
    array formats{"json"};
    if (op.response.OffersCsv()) {
        formats.push_back("csv");
    }
    parameters.push_back(object{
        {"name", "format"},
        {"in", "query"},
        {"required", false},
        {"description", op.response.OffersCsv()
                            ? "json (the envelope) or csv (the rows as CSV; also chosen by Accept: text/csv)"
                            : "json; this operation answers one object, so it offers no CSV"},
        {"schema", object{{"type", "string"}, {"enum", std::move(formats)}, {"default", "json"}}}});
    parameters.push_back(
        object{{"name", "If-None-Match"},
               {"in", "header"},
               {"required", false},
               {"description", "An ETag of an earlier answer: 304, free, when the answer is unchanged"},
               {"schema", Str()}});
}

template <std::size_t N>
void AddProblems(object& responses, const int (&statuses)[N]) {
    for (int status : statuses) {
        responses[std::to_string(status)] = RefTo("responses", "Problem" + std::to_string(status));
    }
}

object V1Operation(const plugins::Manifest& m, const plugins::OperationSpec& op) {
    array parameters;
    for (const plugins::ParamSpec& p : op.params)
        parameters.push_back(Parameter(p));
    AddHostParameters(op, parameters);
    object responses{{"200", SuccessResponse(op)}, {"304", RefTo("responses", "NotModified")}};
    AddProblems(responses, kV1Statuses);
    return object{{"operationId", op.id},
                  {"summary", op.summary},
                  {"tags", array{value(m.name)}},
                  {"security", array{object{{kBearer, array{}}}}},
                  {"parameters", std::move(parameters)},
                  {"responses", std::move(responses)},
                  {"x-billing-operation", op.id},
                  {"x-price", op.price},
                  {"x-price-unit", "credits"},
                  {"x-scope", op.scope},
                  {"x-pagination", plugins::ToString(op.pagination)},
                  {"x-included-pages", op.included_pages},
                  {"x-entity", op.response.entity},
                  {"x-plugin", m.name}};
}

constexpr const char* kDiscoveryTag = "discovery";

object PublicOperation(const char* id, const char* summary, const char* media_type, object schema) {
    object responses{
        {"200", object{{"description", summary},
                       {"headers", HeaderRefs(false)},
                       {"content", object{{media_type, object{{"schema", std::move(schema)}}}}}}}};
    AddProblems(responses, kPublicStatuses);
    return object{{"get", object{{"operationId", id},
                                 {"summary", summary},
                                 {"tags", array{kDiscoveryTag}},
                                 {"security", array{}},
                                 {"x-price", 0},
                                 {"responses", std::move(responses)}}}};
}

// The bodies of /health and /pricing (catalog.cpp), described here beside their operations.
object HealthSchema() {
    return Closed(
        {{"status", Described(object{{"type", "string"}, {"enum", array{"ok", "degraded"}}},
                              "ok while serving; degraded while the database is unavailable (still 200)")},
         {"version", Described(Str(), "Server version")},
         {"started_at", Formatted("date-time")},
         {"uptime_seconds", Int()},
         {"database", Described(object{{"type", "string"}, {"enum", array{"ok", "unavailable"}}},
                                "What the last billing write found; not a probe")},
         {"plugins",
          ArrayOf(
              Closed({{"name", Str()}, {"version", Str()}, {"operations", Int()}, {"datasets", Int()}}))}});
}

object PricingSchema() {
    const object status_list = ArrayOf(object{{"type", array{"integer", "string"}}});
    return Closed(
        {{"policy_version", Str()},
         {"contract_version", Str()},
         {"unit", object{{"type", "string"}, {"const", "credits"}}},
         {"limits", Closed({{"monthly_allowance", Int()},
                            {"allowance_period", Str()},
                            {"calls_per_minute", Int()},
                            {"included_pages_window_seconds", Int()}})},
         {"settlement", Closed({{"charged", status_list},
                                {"refunded", status_list},
                                {"not_reserved", status_list},
                                {"undelivered", Described(Str(), "What an answer that never arrived costs")},
                                {"not_modified", Described(Str(), "What a 304 costs")}})},
         {"included_pages", Closed({{"window_seconds", Int()}, {"rule", Str()}})},
         {"operations", ArrayOf(Closed({{"operation", Str()},
                                        {"method", Str()},
                                        {"path", Str()},
                                        {"price", Described(Int(), "credits")},
                                        {"scope", Str()},
                                        {"pagination", object{{"type", "string"},
                                                              {"enum", array{"none", "cursor", "offset"}}}},
                                        {"included_pages", object{{"type", "boolean"}}},
                                        {"plugin", Str()}}))},
         {"history", ArrayOf(Closed({{"version", Str()}, {"effective_from", Formatted("date")}}))}});
}

object ProblemSchema(bool transport) {
    object properties{{"type", Described(Formatted("uri"), "{base_url}/problems/http-<status>")},
                      {"title", Described(Str(), "Fixed text per status")},
                      {"status", Described(Int(), "HTTP status")},
                      {"detail", Described(Str(), "What went wrong")},
                      {"instance", Described(Str(), "Request path")},
                      {"request_id", Described(Formatted("uuid"), "For support")},
                      {"parameter", Described(Nullable(Str()), "Offending parameter, when applicable")}};
    array required = transport
                         ? array{"title", "status", "detail"}
                         : array{"type", "title", "status", "detail", "instance", "request_id", "parameter"};
    return object{{"type", "object"},
                  {"properties", std::move(properties)},
                  {"required", std::move(required)},
                  {"additionalProperties", false}};
}

object Components() {
    object schemas{{"Problem", ProblemSchema(false)},
                   {"TransportProblem", ProblemSchema(true)},
                   {"Source", Closed({{"provider", Str()}, {"dataset", Str()}})},
                   {"CursorPagination", Closed({{"limit", Int()},
                                                {"has_more", object{{"type", "boolean"}}},
                                                {"next_cursor", Nullable(Str())}})}};
    object responses;
    for (const request::ProblemStatus& p : request::kProblemStatuses) {
        const bool transport = TransportStatus(p.status);
        object schema{
            {"allOf", array{RefTo("schemas", transport ? "TransportProblem" : "Problem"),
                            object{{"properties", object{{"status", object{{"const", p.status}}},
                                                         {"title", object{{"const", p.title}}}}}}}}};
        object headers = transport ? object{} : HeaderRefs(false);
        if (p.status == 429 || p.status == 503) {
            headers["Retry-After"] = RefTo("headers", "Retry-After");
        }
        responses["Problem" + std::to_string(p.status)] =
            object{{"description", p.title},
                   {"headers", std::move(headers)},
                   {"content", object{{"application/problem+json", object{{"schema", std::move(schema)}}}}}};
    }
    object not_modified_headers = HeaderRefs(true);
    AddRepresentationHeaders(not_modified_headers);
    responses["NotModified"] = object{{"description",
                                       "Not Modified: If-None-Match named this answer's ETag. No content; "
                                       "not charged (X-Credits-Charged: 0)"},
                                      {"headers", std::move(not_modified_headers)}};
    object headers{
        {"X-Request-Id", object{{"description", "The request's id (also meta.request_id)"},
                                {"required", true},
                                {"schema", Formatted("uuid")}}},
        {"Retry-After", object{{"description", "Seconds to wait before retrying"}, {"schema", Int()}}},
        {"ETag", object{{"description",
                         "Strong entity tag of the answer: the data release it was read at, the "
                         "request and the representation (docs/api.md)"},
                        {"required", true},
                        {"schema", Str()}}},
        {"Vary", object{{"description", "Accept, Accept-Encoding: the representation depends on them"},
                        {"required", true},
                        {"schema", Str()}}},
        {"Cache-Control",
         object{{"description", "private, no-cache: keep it, but ask again with If-None-Match"},
                {"required", true},
                {"schema", Str()}}},
        {"Last-Modified", object{{"description",
                                  "When the newest data release the answer was read at was ingested "
                                  "(absent before the first ingest)"},
                                 {"schema", Str()}}},
        {"X-Row-Count",
         object{{"description", "CSV answers: the rows (meta.row_count of the JSON)"}, {"schema", Int()}}},
        {"Link",
         object{{"description", "CSV answers of cursor operations: the next page, <URL>; rel=\"next\""},
                {"schema", Str()}}}};
    for (const HeaderDoc& h : kBillingHeaders) {
        headers[h.name] = object{{"description", h.description}, {"required", true}, {"schema", Int()}};
    }
    object security{
        {kBearer, object{{"type", "http"},
                         {"scheme", "bearer"},
                         {"description", "An API key (lastro keys create): Authorization: Bearer <key>"}}}};
    return object{{"schemas", std::move(schemas)},
                  {"responses", std::move(responses)},
                  {"headers", std::move(headers)},
                  {"securitySchemes", std::move(security)}};
}

}  // namespace

object OpenApiDocument(const std::vector<const plugins::Manifest*>& manifests, const std::string& base_url) {
    object paths;
    paths["/health"] =
        PublicOperation("health", "Whether the server is up (no key; does not test the data sources)",
                        "application/json", HealthSchema());
    paths["/pricing"] =
        PublicOperation("pricing", "Prices, credit policy, its history and the limits (no key)",
                        "application/json", PricingSchema());
    paths["/openapi.json"] =
        PublicOperation("openapi", "This document (no key)", "application/json",
                        object{{"type", "object"},
                               {"properties", object{{"openapi", Str()},
                                                     {"info", object{{"type", "object"}}},
                                                     {"paths", object{{"type", "object"}}}}},
                               {"required", array{"openapi", "info", "paths"}}});
    paths["/docs"] =
        PublicOperation("docs", "A page that renders this document (no key)", "text/html", Str());
    array tags{object{{"name", kDiscoveryTag}, {"description", "Public documents, no key, not billed"}}};
    for (const plugins::Manifest* m : manifests) {
        tags.push_back(object{{"name", m->name}, {"description", m->description}});
        for (const plugins::OperationSpec& op : m->operations) {
            paths[op.path] = object{{"get", V1Operation(*m, op)}};
        }
    }
    return object{
        {"openapi", kOpenApiVersion},
        {"info",
         object{{"title", "Lastro API"},
                {"version", kContractVersion},
                {"description",
                 "Read-only HTTP API over Brazilian public financial data. Every /v1 operation is billed "
                 "in credits (x-price; GET /pricing has the policy) and needs an API key."},
                {"x-policy-version", kPolicyVersion},
                {"x-server-version", LASTRO_VERSION}}},
        {"servers", array{object{{"url", base_url}}}},
        {"tags", std::move(tags)},
        {"paths", std::move(paths)},
        {"components", Components()},
    };
}

object OpenApiDocument(const plugins::PluginSet& plugins, const std::string& base_url) {
    std::vector<const plugins::Manifest*> manifests;
    for (const auto& p : plugins.Plugins()) {
        manifests.push_back(&p->manifest);
    }
    return OpenApiDocument(manifests, base_url);
}

}  // namespace lastro::catalog
