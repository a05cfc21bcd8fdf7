#include "core/answering/csv_table.hpp"

#include <lastro/sdk/serving/json_text.hpp>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lastro::answering {
namespace {

// A JSON value with each number kept as the text the answer printed it with, so that the CSV
// prints it alike (Boost.JSON's value keeps only the double, which prints shorter when the
// answer printed 17 digits).
struct Node {
    enum class Kind { kNull, kTrue, kFalse, kNumber, kString, kArray, kObject };
    Kind kind = Kind::kNull;
    std::string text;                                   // a number's text, a string's value
    std::vector<std::pair<std::string, Node>> members;  // an object's, in order
    std::vector<Node> elements;                         // an array's
};

// Builds a Node from Boost.JSON's push parser (RFC 8259 syntax is Boost's).
class TreeBuilder {
public:
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    Node root;

    bool on_document_begin(boost::system::error_code&) { return true; }
    bool on_document_end(boost::system::error_code&) { return true; }
    bool on_object_begin(boost::system::error_code&) { return Open(Node::Kind::kObject); }
    bool on_object_end(std::size_t, boost::system::error_code&) { return Close(); }
    bool on_array_begin(boost::system::error_code&) { return Open(Node::Kind::kArray); }
    bool on_array_end(std::size_t, boost::system::error_code&) { return Close(); }
    bool on_key_part(boost::json::string_view s, std::size_t, boost::system::error_code&) {
        key_.append(s.data(), s.size());
        return true;
    }
    bool on_key(boost::json::string_view s, std::size_t, boost::system::error_code&) {
        key_.append(s.data(), s.size());
        return true;
    }
    bool on_string_part(boost::json::string_view s, std::size_t, boost::system::error_code&) {
        text_.append(s.data(), s.size());
        return true;
    }
    bool on_string(boost::json::string_view s, std::size_t, boost::system::error_code&) {
        text_.append(s.data(), s.size());
        return Leaf(Node::Kind::kString);
    }
    bool on_number_part(boost::json::string_view s, boost::system::error_code&) {
        text_.append(s.data(), s.size());
        return true;
    }
    bool on_int64(std::int64_t, boost::json::string_view s, boost::system::error_code&) { return Number(s); }
    bool on_uint64(std::uint64_t, boost::json::string_view s, boost::system::error_code&) {
        return Number(s);
    }
    bool on_double(double, boost::json::string_view s, boost::system::error_code&) { return Number(s); }
    bool on_bool(bool b, boost::system::error_code&) {
        return Leaf(b ? Node::Kind::kTrue : Node::Kind::kFalse);
    }
    bool on_null(boost::system::error_code&) { return Leaf(Node::Kind::kNull); }
    bool on_comment_part(boost::json::string_view, boost::system::error_code&) { return true; }
    bool on_comment(boost::json::string_view, boost::system::error_code&) { return true; }

private:
    // Where the next value goes: the root, an array's next element or an object's member.
    Node& Slot() {
        if (open_.empty()) {
            return root;
        }
        Node& parent = *open_.back();
        if (parent.kind == Node::Kind::kArray) {
            return parent.elements.emplace_back();
        }
        return parent.members.emplace_back(std::move(key_), Node{}).second;
    }
    bool Open(Node::Kind kind) {
        Node& node = Slot();
        key_.clear();
        node.kind = kind;
        open_.push_back(&node);
        return true;
    }
    bool Close() {
        open_.pop_back();
        return true;
    }
    bool Leaf(Node::Kind kind) {
        Node& node = Slot();
        key_.clear();
        node.kind = kind;
        node.text = std::move(text_);
        text_.clear();
        return true;
    }
    bool Number(boost::json::string_view rest) {
        text_.append(rest.data(), rest.size());
        return Leaf(Node::Kind::kNumber);
    }

    // Pointers stay valid: a container's children are added only while it is the innermost open.
    std::vector<Node*> open_;
    std::string key_, text_;
};

Node Parse(std::string_view json) {
    boost::json::basic_parser<TreeBuilder> parser(boost::json::parse_options{});
    boost::system::error_code ec;
    parser.write_some(false, json.data(), json.size(), ec);
    if (ec) {
        throw std::runtime_error("the answer's data is not JSON: " + ec.message());
    }
    return std::move(parser.handler().root);
}

// `node` as JSON text: numbers as the answer printed them, strings written by the SDK.
void WriteJsonText(const Node& node, std::string& out) {
    switch (node.kind) {
        case Node::Kind::kNull:
            out += "null";
            break;
        case Node::Kind::kTrue:
            out += "true";
            break;
        case Node::Kind::kFalse:
            out += "false";
            break;
        case Node::Kind::kNumber:
            out += node.text;
            break;
        case Node::Kind::kString:
            out += sdk::WriteJson(boost::json::value(node.text));
            break;
        case Node::Kind::kArray:
            out += '[';
            for (std::size_t i = 0; i < node.elements.size(); ++i) {
                if (i > 0)
                    out += ',';
                WriteJsonText(node.elements[i], out);
            }
            out += ']';
            break;
        case Node::Kind::kObject:
            out += '{';
            for (std::size_t i = 0; i < node.members.size(); ++i) {
                if (i > 0)
                    out += ',';
                out += sdk::WriteJson(boost::json::value(node.members[i].first));
                out += ':';
                WriteJsonText(node.members[i].second, out);
            }
            out += '}';
            break;
    }
}

// The columns met so far, in the order met, and one row's fields by column.
class Columns {
public:
    std::size_t IndexOf(const std::string& name) {
        auto [it, added] = index_.try_emplace(name, names_.size());
        if (added) {
            names_.push_back(name);
        }
        return it->second;
    }
    const std::vector<std::string>& Names() const { return names_; }

private:
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<std::string> names_;
};

using Fields = std::vector<std::pair<std::size_t, std::string>>;  // column, text

std::string Scalar(const Node& node) {
    switch (node.kind) {
        case Node::Kind::kNull:
            return "";
        case Node::Kind::kString:
        case Node::Kind::kNumber:
            return node.text;
        default: {
            std::string text;  // booleans, arrays and empty objects as JSON text
            WriteJsonText(node, text);
            return text;
        }
    }
}

// The fields of `object`, flattened under `prefix` ("" at the top).
void Flatten(const Node& object, const std::string& prefix, Columns& columns, Fields& fields) {
    for (const auto& [key, value] : object.members) {
        std::string name = prefix.empty() ? key : prefix + "." + key;
        if (value.kind == Node::Kind::kObject && !value.members.empty()) {
            Flatten(value, name, columns, fields);
        } else {
            fields.emplace_back(columns.IndexOf(name), Scalar(value));
        }
    }
}

void AppendField(std::string& out, std::string_view field) {
    if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += field;
        return;
    }
    out += '"';
    for (char c : field) {
        if (c == '"') {
            out += '"';
        }
        out += c;
    }
    out += '"';
}

}  // namespace

CsvTable RenderCsv(std::string_view data_json, const std::string& rows_field) {
    const Node data = Parse(data_json);
    const Node* rows = &data;
    if (!rows_field.empty()) {
        rows = nullptr;
        for (const auto& [key, value] : data.members) {
            rows = key == rows_field ? &value : rows;
        }
    }
    if (!rows || rows->kind != Node::Kind::kArray) {
        throw std::runtime_error("the answer's data holds no array " +
                                 (rows_field.empty() ? std::string("of rows") : "'" + rows_field + "'"));
    }
    // First every row's fields (the columns are known only once every row is read), then the text.
    Columns columns;
    std::vector<Fields> table;
    table.reserve(rows->elements.size());
    for (const Node& row : rows->elements) {
        Fields fields;
        if (row.kind == Node::Kind::kObject) {
            Flatten(row, "", columns, fields);
        } else {
            fields.emplace_back(columns.IndexOf("value"), Scalar(row));
        }
        table.push_back(std::move(fields));
    }

    CsvTable csv;
    csv.rows = table.size();
    const std::vector<std::string>& names = columns.Names();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) {
            csv.text += ',';
        }
        AppendField(csv.text, names[i]);
    }
    csv.text += "\r\n";
    std::vector<const std::string*> record(names.size());
    for (const Fields& fields : table) {
        std::fill(record.begin(), record.end(), nullptr);
        for (const auto& [column, text] : fields) {
            record[column] = &text;
        }
        for (std::size_t i = 0; i < record.size(); ++i) {
            if (i > 0) {
                csv.text += ',';
            }
            if (record[i] != nullptr && !record[i]->empty()) {
                AppendField(csv.text, *record[i]);
            } else if (record.size() == 1) {
                csv.text += "\"\"";  // a lone empty field: a blank line would read as no record
            }
        }
        csv.text += "\r\n";
    }
    return csv;
}

}  // namespace lastro::answering
