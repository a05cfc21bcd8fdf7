#include "core/answering/csv_table.hpp"

#include <lastro/sdk/serving/json_text.hpp>

#include <boost/json/value.hpp>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lastro::answering {
namespace {

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

std::string Scalar(const boost::json::value& value) {
    if (value.is_null()) {
        return "";
    }
    if (value.is_string()) {
        return std::string(value.get_string());
    }
    return sdk::WriteJson(value);  // numbers, booleans and arrays as the answer's JSON prints them
}

// The fields of `object`, flattened under `prefix` ("" at the top).
void Flatten(const boost::json::object& object, const std::string& prefix, Columns& columns, Fields& fields) {
    for (const auto& member : object) {
        std::string name =
            prefix.empty() ? std::string(member.key()) : prefix + "." + std::string(member.key());
        if (member.value().is_object() && !member.value().get_object().empty()) {
            Flatten(member.value().get_object(), name, columns, fields);
        } else {
            fields.emplace_back(columns.IndexOf(name), Scalar(member.value()));
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

CsvTable RenderCsv(const boost::json::array& rows) {
    // First every row's fields (the columns are known only once every row is read), then the text.
    Columns columns;
    std::vector<Fields> table;
    table.reserve(rows.size());
    for (const boost::json::value& row : rows) {
        Fields fields;
        if (row.is_object()) {
            Flatten(row.get_object(), "", columns, fields);
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
