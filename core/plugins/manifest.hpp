// A plugin manifest (docs/plugins.md): the public facts of a plugin's operations and datasets.
// Parsed and validated strictly before the library is opened.
#pragma once

#include "core/plugins/version_range.hpp"

#include <lastro/sdk/identifier_formats.hpp>
#include <lastro/sdk/sample.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lastro::plugins {

// kIdentifier: a format the SDK defines (sdk/identifier_formats.hpp), named by ParamSpec::format.
enum class ParamType { kString, kInteger, kNumber, kBoolean, kMonth, kDate, kUuid, kIdentifier };
enum class ParamLocation { kQuery, kPath };
enum class Pagination { kNone, kCursor, kOffset };

const char* ToString(Pagination pagination);

struct ParamSpec {
    std::string name;
    ParamLocation in = ParamLocation::kQuery;
    ParamType type = ParamType::kString;
    const sdk::IdentifierFormat* format = nullptr;  // for kIdentifier
    bool required = false;
    std::optional<std::int64_t> min;
    std::optional<std::int64_t> max;
    std::optional<std::size_t> max_length;
    std::vector<std::string> enum_values;
    // The operation matches this text ignoring case and accents (sdk::FoldForSearch) and the
    // blanks around it: the host compares it so folded where it binds a cursor to the filters,
    // so that `q=CREDITO` pages on with the cursor of `q=credito` (docs/plugins.md).
    bool folded = false;
    std::optional<std::string> default_value;  // as text; validated like a request value
    // A value that answers, for /openapi.json and the clients generated from it; validated like
    // a request value.
    std::optional<std::string> example;
    std::string description;
};

struct FieldSpec {
    std::string name;
    std::string type;  // string integer number boolean date month timestamp uuid object array
    bool nullable = false;
    std::string unit;
    std::string description;
    // Where the value comes from ("<file>.<column>", "derived: ..."); top-level fields
    // only. The host answers them as meta.field_sources.
    std::optional<std::string> source;
    std::vector<FieldSpec> fields;  // for object and array-of-object fields
};

struct ResponseSpec {
    std::string entity;
    std::string shape;  // array | object
    std::vector<FieldSpec> fields;
    // For an object: the field (an array) whose elements are the rows of its CSV (format=csv);
    // empty when the object has none, and then the operation answers JSON only.
    std::string rows;

    // Whether format=csv is offered: the data is an array, or an object with its rows named.
    bool OffersCsv() const { return shape == "array" || !rows.empty(); }
};

struct OperationSpec {
    std::string id;
    std::string path;
    std::string summary;
    std::int64_t price = 0;
    std::string scope;
    Pagination pagination = Pagination::kNone;
    bool included_pages = false;
    std::vector<ParamSpec> params;
    ResponseSpec response;
    std::string location;  // "file:line" of the operation, for messages

    const ParamSpec* FindParam(const std::string& name) const;
};

// How `lastro sample` writes a dataset and which of its files `lastro ingest --sample` loads.
struct SampleSpec {
    std::vector<std::string> files;        // file name patterns (fnmatch: *, ?, [...]), no '/'
    std::vector<sdk::SampleScale> scales;  // the scales that write the dataset; default [sample]
    std::string location;

    bool Covers(sdk::SampleScale scale) const;
    bool Matches(const std::string& file_name) const;  // any pattern
};

// Where `lastro sync` fetches a dataset's files (docs/sync.md): one URL, or a URL template
// whose {YYYYMMDD}, {YYYYMM} or {YYYY} names the period of each file, or whose {FROM} and {TO}
// bound a window of dates (an origin that answers at most so many years per request: SGS).
struct SyncSpec {
    enum class Format { kZip, kCsv, kJson };
    enum class Period { kNone, kDay, kMonth, kYear, kWindow };

    std::string url;
    Period period = Period::kNone;
    // For {YYYYMMDD}: the last `periods` days before today; for {YYYYMM}: the last `periods`
    // closed months (the current month is not published yet); for {YYYY}: the current year and
    // the `periods` - 1 before it.
    int periods = 1;
    // For {FROM}/{TO}: consecutive windows of at most `window_years` calendar years, from
    // `window_since` ("YYYY-MM-DD") to today, each asked as dd/MM/yyyy.
    int window_years = 0;
    std::string window_since;
    Format format = Format::kZip;  // what a body must be (an HTML page never is)
    std::string location;

    // One file to fetch: its URL, the name its validators are remembered under (the URL, but
    // for the window that ends today, whose URL changes every day), and its file name.
    struct Target {
        std::string url;
        std::string key;
        std::string file_name;
    };

    // The files for `today` (UTC "YYYY-MM-DD"), newest period first.
    std::vector<Target> Targets(const std::string& today) const;
    std::vector<std::string> Urls(const std::string& today) const;  // the Targets' URLs
};

struct DatasetSpec {
    std::string id;
    std::string provider;
    std::string description;
    std::vector<std::string> files;
    std::optional<SampleSpec> sample;
    std::optional<SyncSpec> sync;
    // Datasets this one is computed from (a Derivation, not an ingester); empty for a dataset
    // read from files.
    std::vector<std::string> derived_from;
    // `properties:`: what the plugin reads about the dataset itself (sdk::DeclaredDataset), text
    // as written; the host only checks their shape.
    std::map<std::string, std::string> properties;
    std::string location;

    bool Derived() const { return !derived_from.empty(); }
};

// `requires:` one entry: another plugin, in a version range, that must load before this one.
struct RequireSpec {
    std::string plugin;
    VersionRange versions;
    std::string location;
};

struct EntitySpec {
    std::string name;
    std::string description;
    std::string id;
};

struct PlannedSpec {
    std::string path;
    std::string description;
};

struct Manifest {
    std::filesystem::path file;
    std::string name;
    std::string version;  // MAJOR.MINOR.PATCH
    std::string description;
    std::string library;
    std::vector<RequireSpec> requires_plugins;
    std::vector<OperationSpec> operations;
    std::vector<DatasetSpec> datasets;
    std::vector<EntitySpec> entities;
    std::vector<PlannedSpec> planned;
};

// Parses and validates one manifest; throws config::YamlError "file:line:col: path: message".
Manifest ParseManifest(const std::string& text, const std::filesystem::path& file);
Manifest LoadManifest(const std::filesystem::path& file);

// The type as a manifest writes it: a built-in name ("integer") or an identifier format's.
std::string TypeName(const ParamSpec& spec);

// Validates `value` (raw request text) against `spec`; returns an error message or nullopt.
std::optional<std::string> ValidateParamText(const ParamSpec& spec, const std::string& value);

}  // namespace lastro::plugins
