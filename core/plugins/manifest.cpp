#include "core/plugins/manifest.hpp"

#include "core/config/yaml_reader.hpp"
#include "core/plugins/param_conversion.hpp"

#include <fnmatch.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

namespace lastro::plugins {
namespace {

using config::YamlError;
using config::YamlMap;
using config::YamlNode;

// Name checks by hand, not std::regex: libstdc++'s matcher recurses once per character, so a
// long name overflowed the stack (found with fuzz/manifest.cpp). A regex over a short literal
// alternation (the sync URL's placeholders below) recurses only as deep as the pattern.
bool IsLower(char c) {
    return c >= 'a' && c <= 'z';
}
bool IsLowerOrDigitOrUnderscore(char c) {
    return IsLower(c) || (c >= '0' && c <= '9') || c == '_';
}
// [a-z][a-z0-9_]*: plugin names, scopes, parameter names.
bool IsSnakeName(std::string_view text) {
    return !text.empty() && IsLower(text.front()) &&
           std::all_of(text.begin() + 1, text.end(), IsLowerOrDigitOrUnderscore);
}
// [a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+
bool IsOperationId(std::string_view text) {
    std::size_t parts = 0;
    for (std::size_t start = 0;; ++parts) {
        const std::size_t dot = text.find('.', start);
        if (!IsSnakeName(text.substr(start, dot == std::string_view::npos ? dot : dot - start))) {
            return false;
        }
        if (dot == std::string_view::npos) {
            return parts >= 1;
        }
        start = dot + 1;
    }
}
// [a-z][a-z0-9_]*\.[a-z0-9_.]+
bool IsDatasetId(std::string_view text) {
    const std::size_t dot = text.find('.');
    if (dot == std::string_view::npos || !IsSnakeName(text.substr(0, dot)) || dot + 1 == text.size()) {
        return false;
    }
    return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(dot) + 1, text.end(),
                       [](char c) { return IsLowerOrDigitOrUnderscore(c) || c == '.'; });
}
// [a-z0-9_\-]+ or {[a-z][a-z0-9_]*}
bool IsPathSegment(std::string_view text) {
    if (text.size() >= 2 && text.front() == '{' && text.back() == '}') {
        return IsSnakeName(text.substr(1, text.size() - 2));
    }
    return !text.empty() && std::all_of(text.begin(), text.end(),
                                        [](char c) { return IsLowerOrDigitOrUnderscore(c) || c == '-'; });
}
const std::set<std::string> kFieldTypes = {"string", "integer",   "number", "boolean", "date",
                                           "month",  "timestamp", "uuid",   "object",  "array"};

std::string Location(const YamlNode& node) {
    return node.Where();
}

void ParseParamType(const YamlNode& node, ParamSpec& p) {
    const std::string t = node.AsString();
    static const std::map<std::string, ParamType> kBuiltIn = {
        {"string", ParamType::kString},   {"integer", ParamType::kInteger}, {"number", ParamType::kNumber},
        {"boolean", ParamType::kBoolean}, {"month", ParamType::kMonth},     {"date", ParamType::kDate},
        {"uuid", ParamType::kUuid}};
    if (auto it = kBuiltIn.find(t); it != kBuiltIn.end()) {
        p.type = it->second;
        return;
    }
    if (const sdk::IdentifierFormat* format = sdk::FindIdentifierFormat(t)) {
        p.type = ParamType::kIdentifier;
        p.format = format;
        return;
    }
    node.Fail("unknown parameter type '" + t + "' (string, integer, number, boolean, month, date, uuid, " +
              sdk::IdentifierFormatNames() + ")");
}

ParamSpec ParseParam(const YamlNode& node) {
    YamlMap map(node, {"name", "in", "type", "required", "min", "max", "max_length", "enum", "folded",
                       "default", "example", "description"});
    ParamSpec p;
    p.name = map.String("name");
    if (!IsSnakeName(p.name)) {
        map.Get("name").Fail("parameter names are lower_snake_case");
    }
    std::string in = map.OptionalString("in").value_or("query");
    if (in == "query") {
        p.in = ParamLocation::kQuery;
    } else if (in == "path") {
        p.in = ParamLocation::kPath;
    } else {
        map.Get("in").Fail("expected query or path");
    }
    ParseParamType(map.Get("type"), p);
    p.required = map.OptionalBoolean("required").value_or(p.in == ParamLocation::kPath);
    if (p.in == ParamLocation::kPath && !p.required) {
        map.Get("required").Fail("path parameters are always required");
    }
    p.min = map.OptionalInteger("min");
    p.max = map.OptionalInteger("max");
    if ((p.min || p.max) && p.type != ParamType::kInteger) {
        node.Fail("min and max apply to integer parameters only");
    }
    if (p.min && p.max && *p.min > *p.max) {
        map.Get("min").Fail("min is greater than max");
    }
    if (auto len = map.OptionalInteger("max_length")) {
        if (*len < 1) {
            map.Get("max_length").Fail("must be at least 1");
        }
        p.max_length = static_cast<std::size_t>(*len);
    }
    if (auto values = map.Find("enum")) {
        if (p.type != ParamType::kString) {
            values->Fail("enum applies to string parameters only");
        }
        p.enum_values = values->AsStringList();
        if (p.enum_values.empty()) {
            values->Fail("enum needs at least one value");
        }
    }
    p.folded = map.OptionalBoolean("folded").value_or(false);
    if (p.folded && (p.type != ParamType::kString || !p.enum_values.empty())) {
        map.Get("folded").Fail("folded applies to free-text string parameters only (no enum)");
    }
    p.description = map.OptionalString("description").value_or("");
    if (auto def = map.Find("default")) {
        p.default_value = def->AsString();
        if (p.required) {
            def->Fail("a required parameter cannot have a default");
        }
        auto converted = ConvertParam(p, *p.default_value);
        if (auto* error = std::get_if<ParamError>(&converted)) {
            def->Fail("invalid default: " + error->detail);
        }
    }
    if (auto example = map.Find("example")) {
        p.example = example->AsString();
        auto converted = ConvertParam(p, *p.example);
        if (auto* error = std::get_if<ParamError>(&converted)) {
            example->Fail("invalid example: " + error->detail);
        }
    }
    return p;
}

// `top_level`: a field of the response itself, not of one of its objects or arrays.
FieldSpec ParseField(const YamlNode& node, bool top_level) {
    YamlMap map(node, {"name", "type", "nullable", "unit", "description", "source", "fields"});
    FieldSpec f;
    f.name = map.String("name");
    f.type = map.String("type");
    if (!kFieldTypes.count(f.type)) {
        map.Get("type").Fail(
            "unknown field type '" + f.type +
            "' (string, integer, number, boolean, date, month, timestamp, uuid, object, array)");
    }
    f.nullable = map.OptionalBoolean("nullable").value_or(false);
    f.unit = map.OptionalString("unit").value_or("");
    f.description = map.OptionalString("description").value_or("");
    if (auto source = map.Find("source")) {
        if (!top_level) {
            source->Fail(
                "source is declared on top-level response fields only (meta.field_sources names them)");
        }
        f.source = source->AsString();
        if (f.source->empty()) {
            source->Fail("must not be empty");
        }
    }
    if (auto fields = map.Find("fields")) {
        if (f.type != "object" && f.type != "array") {
            fields->Fail("only object and array fields have fields");
        }
        std::set<std::string> names;
        for (const YamlNode& item : fields->AsSequence()) {
            FieldSpec child = ParseField(item, false);
            if (!names.insert(child.name).second) {
                item.Fail("field '" + child.name + "' declared twice");
            }
            f.fields.push_back(std::move(child));
        }
    }
    return f;
}

std::vector<std::string> Segments(const std::string& path) {
    std::vector<std::string> segments;
    std::stringstream in(path.substr(1));
    std::string segment;
    while (std::getline(in, segment, '/')) {
        segments.push_back(segment);
    }
    return segments;
}

OperationSpec ParseOperation(const YamlNode& node) {
    YamlMap map(node, {"id", "path", "method", "summary", "price", "scope", "pagination", "included_pages",
                       "params", "response"});
    OperationSpec op;
    op.location = Location(node);
    op.id = map.String("id");
    if (!IsOperationId(op.id)) {
        map.Get("id").Fail("operation ids look like plugin.operation (lower case, dot separated)");
    }
    op.path = map.String("path");
    if (op.path.rfind("/v1/", 0) != 0 || op.path.size() < 5 || op.path.back() == '/') {
        map.Get("path").Fail("paths start with /v1/ and do not end with /");
    }
    if (auto method = map.OptionalString("method"); method && *method != "GET") {
        map.Get("method").Fail("API v1 is read-only: the method must be GET");
    }
    op.summary = map.OptionalString("summary").value_or("");
    op.price = map.Integer("price");
    if (op.price < 0) {
        map.Get("price").Fail("expected a non-negative integer");
    }
    op.scope = map.String("scope");
    if (!IsSnakeName(op.scope)) {
        map.Get("scope").Fail("scopes are lower_snake_case words");
    }
    std::string pagination = map.OptionalString("pagination").value_or("none");
    if (pagination == "none") {
        op.pagination = Pagination::kNone;
    } else if (pagination == "cursor") {
        op.pagination = Pagination::kCursor;
    } else if (pagination == "offset") {
        op.pagination = Pagination::kOffset;
    } else {
        map.Get("pagination").Fail("expected cursor, offset or none");
    }
    op.included_pages = map.OptionalBoolean("included_pages").value_or(false);
    if (op.included_pages && op.pagination != Pagination::kCursor) {
        map.Get("included_pages").Fail("included pages need cursor pagination");
    }

    std::set<std::string> names;
    if (auto params = map.Find("params")) {
        for (const YamlNode& item : params->AsSequence()) {
            ParamSpec p = ParseParam(item);
            if (p.name == "format") {
                item.Fail("'format' is the host's parameter on every operation (format=csv, docs/api.md)");
            }
            if (!names.insert(p.name).second) {
                item.Fail("parameter '" + p.name + "' declared twice");
            }
            op.params.push_back(std::move(p));
        }
    }
    // Every template segment has its path parameter, and every path parameter its segment.
    std::set<std::string> templates;
    for (const std::string& segment : Segments(op.path)) {
        if (!IsPathSegment(segment)) {
            map.Get("path").Fail("invalid path segment '" + segment + "'");
        }
        if (segment.front() == '{') {
            std::string name = segment.substr(1, segment.size() - 2);
            if (!templates.insert(name).second) {
                map.Get("path").Fail("template {" + name + "} appears twice");
            }
            const ParamSpec* p = op.FindParam(name);
            if (!p || p->in != ParamLocation::kPath) {
                map.Get("path").Fail("template {" + name + "} has no parameter with in: path");
            }
        }
    }
    for (const ParamSpec& p : op.params) {
        if (p.in == ParamLocation::kPath && !templates.count(p.name)) {
            map.Get("params").Fail("path parameter '" + p.name + "' does not appear in the path");
        }
    }
    if (op.pagination == Pagination::kCursor) {
        const ParamSpec* limit = op.FindParam("limit");
        const ParamSpec* cursor = op.FindParam("cursor");
        if (!limit || limit->type != ParamType::kInteger || !limit->max) {
            node.Fail("cursor pagination needs an integer 'limit' parameter with a max");
        }
        if (!cursor || cursor->type != ParamType::kString || !cursor->max_length ||
            *cursor->max_length > 512) {
            node.Fail("cursor pagination needs a string 'cursor' parameter with max_length <= 512");
        }
    }
    if (op.pagination == Pagination::kOffset && (!op.FindParam("limit") || !op.FindParam("offset"))) {
        node.Fail("offset pagination needs 'limit' and 'offset' parameters");
    }

    YamlMap response(map.Get("response"), {"entity", "shape", "fields", "rows"});
    op.response.entity = response.String("entity");
    op.response.shape = response.String("shape");
    if (op.response.shape != "array" && op.response.shape != "object") {
        response.Get("shape").Fail("expected array or object");
    }
    std::set<std::string> fields;
    const std::vector<YamlNode> items = response.Get("fields").AsSequence();
    for (const YamlNode& item : items) {
        FieldSpec f = ParseField(item, true);
        if (!fields.insert(f.name).second) {
            item.Fail("field '" + f.name + "' declared twice");
        }
        op.response.fields.push_back(std::move(f));
    }
    if (auto rows = response.OptionalString("rows")) {
        if (op.response.shape != "object") {
            response.Get("rows").Fail(
                "rows names the CSV rows of an object; an array's elements are its rows");
        }
        const auto named = std::find_if(op.response.fields.begin(), op.response.fields.end(),
                                        [&](const FieldSpec& f) { return f.name == *rows; });
        if (named == op.response.fields.end() || named->type != "array") {
            response.Get("rows").Fail("rows must name a field of type array of this response");
        }
        op.response.rows = *rows;
    }
    // Provenance is all or nothing: meta.field_sources names every field once it names one.
    const auto sourced = [](const FieldSpec& f) { return f.source.has_value(); };
    if (std::any_of(op.response.fields.begin(), op.response.fields.end(), sourced)) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (!op.response.fields[i].source) {
                items[i].Fail("field '" + op.response.fields[i].name +
                              "' has no source, while other fields of this response declare theirs");
            }
        }
    }
    return op;
}

// `sync: {url: ..., periods: N, window: {years: N, since: DATE}, format: zip|csv|json}`.
SyncSpec ParseSync(const YamlNode& node) {
    YamlMap map(node, {"url", "periods", "window", "format"});
    SyncSpec spec;
    spec.location = node.Where();
    spec.url = map.String("url");
    if (spec.url.rfind("https://", 0) != 0 && spec.url.rfind("http://", 0) != 0) {
        map.Get("url").Fail("must start with https:// (or http://)");
    }
    const auto has = [&spec](const char* placeholder) {
        return spec.url.find(placeholder) != std::string::npos;
    };
    const int named = int(has("{YYYYMMDD}")) + int(has("{YYYYMM}")) + int(has("{YYYY}")) +
                      int(has("{FROM}") || has("{TO}"));
    if (named > 1) {
        map.Get("url").Fail("name one period: {YYYYMMDD}, {YYYYMM}, {YYYY} or a {FROM}..{TO} window");
    }
    spec.period = has("{YYYYMMDD}")              ? SyncSpec::Period::kDay
                  : has("{YYYYMM}")              ? SyncSpec::Period::kMonth
                  : has("{YYYY}")                ? SyncSpec::Period::kYear
                  : has("{FROM}") || has("{TO}") ? SyncSpec::Period::kWindow
                                                 : SyncSpec::Period::kNone;
    const std::string without =
        std::regex_replace(spec.url, std::regex(R"(\{YYYYMMDD\}|\{YYYYMM\}|\{YYYY\}|\{FROM\}|\{TO\})"), "");
    if (without.find_first_of("{}") != std::string::npos) {
        map.Get("url").Fail("the only placeholders are {YYYYMMDD}, {YYYYMM}, {YYYY}, {FROM} and {TO}");
    }
    if (auto periods = map.OptionalInteger("periods")) {
        if (spec.period == SyncSpec::Period::kNone || spec.period == SyncSpec::Period::kWindow) {
            map.Get("periods").Fail("only a URL with {YYYYMMDD}, {YYYYMM} or {YYYY} has periods");
        }
        if (*periods < 1 || *periods > 120) {
            map.Get("periods").Fail("must be between 1 and 120");
        }
        spec.periods = static_cast<int>(*periods);
    }
    if (spec.period == SyncSpec::Period::kWindow) {
        if (!has("{FROM}") || !has("{TO}")) {
            map.Get("url").Fail("a window needs both {FROM} and {TO}");
        }
        if (!map.Has("window")) {
            map.Node().Fail("a URL with {FROM} and {TO} needs window: {years: N, since: YYYY-MM-DD}");
        }
        YamlMap window(map.Get("window"), {"years", "since"});
        const std::int64_t years = window.Integer("years");
        if (years < 1 || years > 50) {
            window.Get("years").Fail("must be between 1 and 50");
        }
        spec.window_years = static_cast<int>(years);
        spec.window_since = window.String("since");
        if (!sdk::Date::Parse(spec.window_since)) {
            window.Get("since").Fail("expected a date YYYY-MM-DD, found '" + spec.window_since + "'");
        }
    } else if (map.Has("window")) {
        map.Get("window").Fail("only a URL with {FROM} and {TO} has a window");
    }
    if (auto format = map.OptionalString("format")) {
        if (*format == "zip") {
            spec.format = SyncSpec::Format::kZip;
        } else if (*format == "csv") {
            spec.format = SyncSpec::Format::kCsv;
        } else if (*format == "json") {
            spec.format = SyncSpec::Format::kJson;
        } else {
            map.Get("format").Fail("expected zip, csv or json, found '" + *format + "'");
        }
    }
    return spec;
}

// `properties: {name: text, ...}` of a dataset: what its plugin reads about it (the series
// plugin's SGS code, unit and kind). Names like parameter names, values non-empty scalars.
std::map<std::string, std::string> ParseProperties(const YamlNode& node) {
    if (!node.IsMap()) {
        node.Fail("expected a mapping of property names to values");
    }
    std::map<std::string, std::string> properties;
    for (const auto& entry : node.Raw()) {
        const std::string name = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
        const YamlNode value(entry.second, node.File(), node.Path() + "." + name);
        bool valid_name = !name.empty() && name.size() <= 64 && name[0] >= 'a' && name[0] <= 'z';
        for (char c : name) {
            valid_name = valid_name && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
        }
        if (!valid_name) {
            YamlNode(entry.first, node.File(), node.Path())
                .Fail("property names are lower case letters, digits and _, starting with a letter");
        }
        if (!value.IsScalar() || value.Raw().Scalar().empty()) {
            value.Fail("a property's value is a non-empty scalar");
        }
        if (!properties.emplace(name, value.Raw().Scalar()).second) {
            value.Fail("property '" + name + "' given twice");
        }
    }
    return properties;
}

// `sample: {files: [pattern...], scales: [sample, full]}` of a dataset.
SampleSpec ParseSample(const YamlNode& node) {
    YamlMap map(node, {"files", "scales"});
    SampleSpec spec;
    spec.location = node.Where();
    const std::vector<YamlNode> files = map.Get("files").AsSequence();
    if (files.empty()) {
        map.Get("files").Fail("list at least one file name pattern");
    }
    for (const YamlNode& item : files) {
        std::string pattern = item.AsString();
        if (pattern.empty() || pattern.find('/') != std::string::npos) {
            item.Fail("'" + pattern +
                      "' is not a file name pattern (a name in the sample directory, no '/')");
        }
        if (std::find(spec.files.begin(), spec.files.end(), pattern) != spec.files.end()) {
            item.Fail("pattern '" + pattern + "' listed twice");
        }
        spec.files.push_back(std::move(pattern));
    }
    if (auto scales = map.Find("scales")) {
        const std::vector<YamlNode> items = scales->AsSequence();
        if (items.empty()) {
            scales->Fail("list at least one scale (sample, full)");
        }
        for (const YamlNode& item : items) {
            const std::string name = item.AsString();
            const std::optional<sdk::SampleScale> scale = sdk::ParseSampleScale(name);
            if (!scale) {
                item.Fail("unknown scale '" + name + "' (sample, full)");
            }
            if (spec.Covers(*scale)) {
                item.Fail("scale '" + name + "' listed twice");
            }
            spec.scales.push_back(*scale);
        }
    } else {
        spec.scales = {sdk::SampleScale::kSample};
    }
    return spec;
}

}  // namespace

namespace {

namespace chrono = std::chrono;

chrono::sys_days DaysOf(const sdk::Date& date) {
    return chrono::year_month_day{chrono::year{date.year}, chrono::month{unsigned(date.month)},
                                  chrono::day{unsigned(date.day)}};
}

// "%Y%m%d" (the default) or "%d/%m/%Y" of a day.
std::string DayText(chrono::sys_days day, bool slashes = false) {
    const chrono::year_month_day ymd{day};
    char text[16];
    const int y = int(ymd.year());
    const unsigned m = unsigned(ymd.month()), d = unsigned(ymd.day());
    if (slashes) {
        std::snprintf(text, sizeof text, "%02u/%02u/%04d", d, m, y);
    } else {
        std::snprintf(text, sizeof text, "%04d%02u%02u", y, m, d);
    }
    return text;
}

// "dados" of ".../dados?formato=json": the last path segment.
std::string FileNameOf(const std::string& url) {
    std::string path = url.substr(0, url.find_first_of("?#"));
    const std::size_t slash = path.rfind('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    return name.empty() || name == "." || name == ".." ? "index" : name;
}

}  // namespace

std::vector<SyncSpec::Target> SyncSpec::Targets(const std::string& today) const {
    const std::optional<sdk::Date> date = sdk::Date::Parse(today);
    if (!date) {
        throw std::invalid_argument("not a date: " + today);
    }
    // A period named only in the query string would give every file the same name: the
    // period's text is appended to it then.
    const auto target = [this](std::string placeholder, const std::string& value) {
        std::string url = this->url;
        const std::size_t at = url.find(placeholder);
        url.replace(at, placeholder.size(), value);
        std::string name = FileNameOf(url);
        if (at > this->url.find_first_of("?#")) {
            name += "_" + value;
        }
        return Target{url, url, name};
    };
    std::vector<Target> targets;
    if (period == Period::kNone) {
        targets.push_back({url, url, FileNameOf(url)});
    } else if (period == Period::kDay) {
        for (int i = 1; i <= periods; ++i) {
            targets.push_back(target("{YYYYMMDD}", DayText(DaysOf(*date) - chrono::days{i})));
        }
    } else if (period == Period::kMonth) {
        sdk::Month month = date->ToMonth();
        for (int i = 0; i < periods; ++i) {
            month = month.Previous();
            std::string text = month.ToString();
            text.erase(4, 1);  // "2026-10" -> "202610"
            targets.push_back(target("{YYYYMM}", text));
        }
    } else if (period == Period::kYear) {
        for (int i = 0; i < periods; ++i) {
            targets.push_back(target("{YYYY}", std::to_string(date->year - i)));
        }
    } else {
        // Windows never overlap (each starts the day after the one before ends), so no date is
        // asked twice; each is one day short of `window_years` years, inside an inclusive limit.
        const chrono::sys_days end = DaysOf(*date);
        const std::string extension = format == Format::kJson  ? ".json"
                                      : format == Format::kCsv ? ".csv"
                                                               : ".zip";
        for (chrono::sys_days from = DaysOf(*sdk::Date::Parse(window_since)); from <= end;) {
            const chrono::year_month_day ymd{from};
            chrono::year_month_day next{ymd.year() + chrono::years{window_years}, ymd.month(), ymd.day()};
            if (!next.ok()) {  // 29 February + N years
                next = chrono::year_month_day{next.year(), next.month(), chrono::day{28}};
                next = chrono::year_month_day{chrono::sys_days{next} + chrono::days{1}};
            }
            const chrono::sys_days to = std::min(chrono::sys_days{next} - chrono::days{1}, end);
            std::string asked = url;
            asked.replace(asked.find("{FROM}"), 6, DayText(from, true));
            asked.replace(asked.find("{TO}"), 4, DayText(to, true));
            // The window that ends today is asked again tomorrow with another {TO}: it keeps one
            // name, so its validators and bytes are compared with the last run's.
            const bool open = to == end;
            const std::string name =
                FileNameOf(url) + "_" + DayText(from) + "_" + (open ? std::string("open") : DayText(to));
            std::string key = url;
            key.replace(key.find("{FROM}"), 6, DayText(from, true));
            targets.push_back({asked, open ? key : asked, name + extension});
            from = to + chrono::days{1};
        }
        std::reverse(targets.begin(), targets.end());
    }
    return targets;
}

std::vector<std::string> SyncSpec::Urls(const std::string& today) const {
    std::vector<std::string> urls;
    for (const Target& t : Targets(today)) {
        urls.push_back(t.url);
    }
    return urls;
}

bool SampleSpec::Covers(sdk::SampleScale scale) const {
    return std::find(scales.begin(), scales.end(), scale) != scales.end();
}

bool SampleSpec::Matches(const std::string& file_name) const {
    return std::any_of(files.begin(), files.end(), [&](const std::string& pattern) {
        return ::fnmatch(pattern.c_str(), file_name.c_str(), FNM_PERIOD) == 0;
    });
}

std::string TypeName(const ParamSpec& spec) {
    switch (spec.type) {
        case ParamType::kString:
            return "string";
        case ParamType::kInteger:
            return "integer";
        case ParamType::kNumber:
            return "number";
        case ParamType::kBoolean:
            return "boolean";
        case ParamType::kMonth:
            return "month";
        case ParamType::kDate:
            return "date";
        case ParamType::kUuid:
            return "uuid";
        case ParamType::kIdentifier:
            return std::string(spec.format->Name());
    }
    return "string";
}

const char* ToString(Pagination pagination) {
    switch (pagination) {
        case Pagination::kNone:
            return "none";
        case Pagination::kCursor:
            return "cursor";
        case Pagination::kOffset:
            return "offset";
    }
    return "none";
}

const ParamSpec* OperationSpec::FindParam(const std::string& name) const {
    for (const ParamSpec& p : params) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}

Manifest ParseManifest(const std::string& text, const std::filesystem::path& file) {
    const YAML::Node root = config::ParseYamlText(text, file.string());
    YamlNode top(root, file.string(), "");
    if (const YAML::Node& raw = top.Raw(); raw.IsMap() && raw["sdk"]) {
        YamlNode(raw["sdk"], file.string(), "sdk")
            .Fail(
                "manifests no longer declare the SDK: the host reads the ABI identity from the library "
                "(docs/plugins.md); remove this key");
    }
    YamlMap map(top, {"name", "version", "description", "library", "requires", "operations", "datasets",
                      "entities", "planned"});
    Manifest m;
    m.file = file;
    m.name = map.String("name");
    if (!IsSnakeName(m.name)) {
        map.Get("name").Fail("plugin names are lower_snake_case");
    }
    m.version = map.String("version");
    if (!Version::Parse(m.version)) {
        map.Get("version").Fail("expected MAJOR.MINOR.PATCH, digits only (e.g. 1.0.0)");
    }
    m.description = map.OptionalString("description").value_or("");
    m.library = map.String("library");
    if (m.library.empty()) {
        map.Get("library").Fail("must name the plugin's shared library");
    }
    if (auto requires_node = map.Find("requires")) {
        std::set<std::string> required;
        for (const YamlNode& item : requires_node->AsSequence()) {
            YamlMap r(item, {"plugin", "version"});
            const std::string plugin = r.String("plugin");
            if (!IsSnakeName(plugin)) {
                r.Get("plugin").Fail("plugin names are lower_snake_case");
            }
            if (plugin == m.name) {
                r.Get("plugin").Fail("a plugin cannot require itself");
            }
            if (!required.insert(plugin).second) {
                item.Fail("plugin '" + plugin + "' required twice");
            }
            std::string error;
            auto range = VersionRange::Parse(r.OptionalString("version").value_or("*"), error);
            if (!range) {
                r.Get("version").Fail(error);
            }
            m.requires_plugins.push_back({plugin, std::move(*range), item.Where()});
        }
    }

    std::set<std::string> ids;
    std::set<std::string> paths;
    if (auto operations = map.Find("operations")) {
        for (const YamlNode& item : operations->AsSequence()) {
            OperationSpec op = ParseOperation(item);
            if (!ids.insert(op.id).second) {
                item.Fail("operation id '" + op.id + "' declared twice");
            }
            if (!paths.insert(op.path).second) {
                item.Fail("path '" + op.path + "' declared twice");
            }
            m.operations.push_back(std::move(op));
        }
    }
    std::set<std::string> dataset_ids;
    if (auto datasets = map.Find("datasets")) {
        for (const YamlNode& item : datasets->AsSequence()) {
            YamlMap d(item, {"id", "provider", "description", "files", "derived_from", "sample", "sync",
                             "properties"});
            DatasetSpec ds;
            ds.location = item.Where();
            ds.id = d.String("id");
            if (!IsDatasetId(ds.id)) {
                d.Get("id").Fail("dataset ids look like provider.dataset");
            }
            if (!dataset_ids.insert(ds.id).second) {
                item.Fail("dataset '" + ds.id + "' declared twice");
            }
            ds.provider = d.String("provider");
            ds.description = d.OptionalString("description").value_or("");
            if (auto files = d.Find("files")) {
                ds.files = files->AsStringList();
            }
            if (auto sources = d.Find("derived_from")) {
                ds.derived_from = sources->AsStringList();
                if (ds.derived_from.empty()) {
                    sources->Fail("name at least one source dataset, or leave the key out");
                }
                for (const std::string& source : ds.derived_from) {
                    if (!IsDatasetId(source)) {
                        sources->Fail("'" + source + "' is not a dataset id (provider.dataset)");
                    }
                    if (source == ds.id) {
                        sources->Fail("a dataset cannot be derived from itself");
                    }
                }
                if (ds.files.size()) {
                    d.Get("files").Fail("a derived dataset is computed, not read from files");
                }
            }
            if (auto properties = d.Find("properties")) {
                ds.properties = ParseProperties(*properties);
            }
            if (auto sample = d.Find("sample")) {
                if (ds.Derived()) {
                    sample->Fail("a derived dataset has no sample files: its derivation makes it");
                }
                ds.sample = ParseSample(*sample);
            }
            if (auto sync = d.Find("sync")) {
                if (ds.Derived()) {
                    sync->Fail("a derived dataset has nothing to fetch: its derivation makes it");
                }
                ds.sync = ParseSync(*sync);
            }
            m.datasets.push_back(std::move(ds));
        }
    }
    if (auto entities = map.Find("entities")) {
        for (const YamlNode& item : entities->AsSequence()) {
            YamlMap e(item, {"name", "description", "id"});
            m.entities.push_back({e.String("name"), e.OptionalString("description").value_or(""),
                                  e.OptionalString("id").value_or("")});
        }
    }
    if (auto planned = map.Find("planned")) {
        for (const YamlNode& item : planned->AsSequence()) {
            YamlMap p(item, {"path", "description"});
            m.planned.push_back({p.String("path"), p.OptionalString("description").value_or("")});
        }
    }
    return m;
}

Manifest LoadManifest(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) {
        throw YamlError(file.string() + ": cannot read the manifest");
    }
    std::stringstream text;
    text << in.rdbuf();
    return ParseManifest(text.str(), file);
}

}  // namespace lastro::plugins
