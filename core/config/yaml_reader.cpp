#include "core/config/yaml_reader.hpp"

#include <charconv>
#include <map>

namespace lastro::config {
namespace {

std::string Position(const std::string& file, const YAML::Mark& mark) {
    if (mark.is_null()) {
        return file;
    }
    return file + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

std::string Describe(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Null:
            return "nothing";
        case YAML::NodeType::Scalar:
            return "'" + node.Scalar() + "'";
        case YAML::NodeType::Sequence:
            return "a list";
        case YAML::NodeType::Map:
            return "a mapping";
        default:
            return "an undefined value";
    }
}

}  // namespace

YAML::Node ParseYamlText(const std::string& text, const std::string& file) {
    try {
        return YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw YamlError(Position(file, e.mark) + ": malformed YAML: " + e.msg);
    }
}

std::string YamlNode::Where() const {
    return Position(file_, node_.Mark());
}

void YamlNode::Fail(const std::string& message) const {
    throw YamlError(Where() + ": " + (path_.empty() ? "" : path_ + ": ") + message);
}

std::string YamlNode::AsString() const {
    if (!node_.IsScalar()) {
        Fail("expected a string, found " + Describe(node_));
    }
    return node_.Scalar();
}

std::int64_t YamlNode::AsInteger() const {
    if (!node_.IsScalar()) {
        Fail("expected an integer, found " + Describe(node_));
    }
    const std::string& text = node_.Scalar();
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        Fail("expected an integer, found '" + text + "'");
    }
    return value;
}

double YamlNode::AsNumber() const {
    if (!node_.IsScalar()) {
        Fail("expected a number, found " + Describe(node_));
    }
    const std::string& text = node_.Scalar();
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        Fail("expected a number, found '" + text + "'");
    }
    return value;
}

bool YamlNode::AsBoolean() const {
    if (node_.IsScalar()) {
        const std::string& text = node_.Scalar();
        if (text == "true") {
            return true;
        }
        if (text == "false") {
            return false;
        }
    }
    Fail("expected true or false, found " + Describe(node_));
}

std::vector<YamlNode> YamlNode::AsSequence() const {
    if (!node_.IsSequence()) {
        Fail("expected a list, found " + Describe(node_));
    }
    std::vector<YamlNode> items;
    std::size_t index = 0;
    for (const YAML::Node& item : node_) {
        items.emplace_back(item, file_, path_ + "[" + std::to_string(index++) + "]");
    }
    return items;
}

std::vector<std::string> YamlNode::AsStringList() const {
    std::vector<std::string> values;
    for (const YamlNode& item : AsSequence()) {
        values.push_back(item.AsString());
    }
    return values;
}

YamlMap::YamlMap(const YamlNode& node, std::set<std::string> allowed) : node_(node) {
    if (!node.Raw().IsMap()) {
        node.Fail("expected a mapping, found " + Describe(node.Raw()));
    }
    std::map<std::string, int> seen;
    for (auto it = node.Raw().begin(); it != node.Raw().end(); ++it) {
        const YAML::Node key = it->first;  // a copy: the iterator hands out a temporary pair
        YamlNode key_node(key, node.File(), node.Path());
        if (!key.IsScalar()) {
            key_node.Fail("keys must be strings");
        }
        const std::string name = key.Scalar();
        const std::string child_path = node.Path().empty() ? name : node.Path() + "." + name;
        YamlNode located(key, node.File(), child_path);
        if (!seen.emplace(name, key.Mark().line + 1).second) {
            located.Fail("duplicate key (first at line " + std::to_string(seen[name]) + ")");
        }
        if (!allowed.count(name)) {
            std::string known;
            for (const auto& a : allowed) {
                known += (known.empty() ? "" : ", ") + a;
            }
            located.Fail("unknown key (known keys: " + known + ")");
        }
    }
}

bool YamlMap::Has(const std::string& key) const {
    return Find(key).has_value();
}

std::optional<YamlNode> YamlMap::Find(const std::string& key) const {
    const YAML::Node& raw = node_.Raw();
    for (auto it = raw.begin(); it != raw.end(); ++it) {
        if (it->first.Scalar() == key) {
            return YamlNode(it->second, node_.File(), node_.Path().empty() ? key : node_.Path() + "." + key);
        }
    }
    return std::nullopt;
}

YamlNode YamlMap::Get(const std::string& key) const {
    auto found = Find(key);
    if (!found) {
        node_.Fail("missing required key '" + key + "'");
    }
    return *found;
}

std::optional<std::string> YamlMap::OptionalString(const std::string& key) const {
    auto found = Find(key);
    if (!found || found->IsNull()) {
        return std::nullopt;
    }
    return found->AsString();
}

std::optional<std::int64_t> YamlMap::OptionalInteger(const std::string& key) const {
    auto found = Find(key);
    if (!found || found->IsNull()) {
        return std::nullopt;
    }
    return found->AsInteger();
}

std::optional<bool> YamlMap::OptionalBoolean(const std::string& key) const {
    auto found = Find(key);
    if (!found || found->IsNull()) {
        return std::nullopt;
    }
    return found->AsBoolean();
}

}  // namespace lastro::config
