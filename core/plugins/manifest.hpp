// A plugin manifest (docs/plugins.md): the public facts of a plugin's operations and datasets.
// Parsed and validated strictly before the library is opened.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lastro::plugins {

enum class ParamType { kString, kInteger, kNumber, kBoolean, kMonth, kDate, kUuid, kCnpj };
enum class ParamLocation { kQuery, kPath };
enum class Pagination { kNone, kCursor, kOffset };

const char* ToString(ParamType type);
const char* ToString(Pagination pagination);

struct ParamSpec {
    std::string name;
    ParamLocation in = ParamLocation::kQuery;
    ParamType type = ParamType::kString;
    bool required = false;
    std::optional<std::int64_t> min;
    std::optional<std::int64_t> max;
    std::optional<std::size_t> max_length;
    std::vector<std::string> enum_values;
    std::optional<std::string> default_value;  // as text; validated like a request value
    std::string description;
};

struct FieldSpec {
    std::string name;
    std::string type;  // string integer number boolean date month timestamp uuid object array
    bool nullable = false;
    std::string unit;
    std::string description;
    // Where the value comes from ("registro_fundo.CNPJ_Fundo", "derived: ..."); top-level fields
    // only. The host answers them as meta.field_sources.
    std::optional<std::string> source;
    std::vector<FieldSpec> fields;  // for object and array-of-object fields
};

struct ResponseSpec {
    std::string entity;
    std::string shape;  // array | object
    std::vector<FieldSpec> fields;
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

struct DatasetSpec {
    std::string id;
    std::string provider;
    std::string description;
    std::vector<std::string> files;
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
    std::string version;
    std::string description;
    std::string library;
    int sdk = 0;
    std::vector<OperationSpec> operations;
    std::vector<DatasetSpec> datasets;
    std::vector<EntitySpec> entities;
    std::vector<PlannedSpec> planned;
};

// Parses and validates one manifest; throws config::YamlError "file:line:col: path: message".
Manifest ParseManifest(const std::string& text, const std::filesystem::path& file);
Manifest LoadManifest(const std::filesystem::path& file);

// Validates `value` (raw request text) against `spec`; returns an error message or nullopt.
std::optional<std::string> ValidateParamText(const ParamSpec& spec, const std::string& value);

}  // namespace lastro::plugins
