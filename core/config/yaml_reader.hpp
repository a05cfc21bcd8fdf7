// Strict reading of YAML documents (the server config and plugin manifests). yaml-cpp is
// lenient: it accepts duplicate keys, and reading through a non-const node writes. Every read
// here goes through const nodes, rejects unknown and duplicate keys, checks types, and reports
// errors as "file:line:column: path: message".
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::config {

class YamlError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Parses YAML text; a syntax error becomes YamlError "file:line:column: malformed YAML: ...".
YAML::Node ParseYamlText(const std::string& text, const std::string& file);

// A position-aware view of one YAML node.
class YamlNode {
public:
    YamlNode(const YAML::Node& node, std::string file, std::string path)
        : node_(node), file_(std::move(file)), path_(std::move(path)) {}

    const YAML::Node& Raw() const { return node_; }
    const std::string& Path() const { return path_; }
    const std::string& File() const { return file_; }
    [[noreturn]] void Fail(const std::string& message) const;
    std::string Where() const;

    std::string AsString() const;
    std::int64_t AsInteger() const;
    bool AsBoolean() const;
    double AsNumber() const;
    std::vector<YamlNode> AsSequence() const;
    std::vector<std::string> AsStringList() const;
    bool IsNull() const { return node_.IsNull(); }
    bool IsScalar() const { return node_.IsScalar(); }
    bool IsMap() const { return node_.IsMap(); }
    bool IsSequence() const { return node_.IsSequence(); }

private:
    const YAML::Node node_;
    std::string file_;
    std::string path_;
};

// A mapping whose keys are declared up front: unknown and duplicate keys are errors.
class YamlMap {
public:
    // Fails unless `node` is a mapping; checks duplicates and that every key is in `allowed`.
    YamlMap(const YamlNode& node, std::set<std::string> allowed);

    bool Has(const std::string& key) const;
    YamlNode Get(const std::string& key) const;  // fails when absent
    std::optional<YamlNode> Find(const std::string& key) const;

    std::string String(const std::string& key) const { return Get(key).AsString(); }
    std::optional<std::string> OptionalString(const std::string& key) const;
    std::int64_t Integer(const std::string& key) const { return Get(key).AsInteger(); }
    std::optional<std::int64_t> OptionalInteger(const std::string& key) const;
    std::optional<bool> OptionalBoolean(const std::string& key) const;
    const YamlNode& Node() const { return node_; }

private:
    YamlNode node_;
};

}  // namespace lastro::config
