// The rows of an answer as a CSV table (issue 50, `format=csv`): RFC 4180, UTF-8, CRLF line
// ends, one header row named as the JSON fields. Owns no state: a pure rendering of JSON the
// answering part has already built, so the CSV and the JSON of one answer never disagree.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lastro::answering {

struct CsvTable {
    std::string text;      // the header row, then one record per row
    std::size_t rows = 0;  // records, the header not counted
};

// The rows of `data_json` (an answer's data: an array, or an object whose member `rows_field`
// is the array) as CSV. Each row is an object; its fields become columns in the order they first
// appear across the rows (a field a row lacks is an empty field there). Nested objects are
// flattened with dots ("gestor.cnpj"), arrays (and empty objects) are their JSON text, null is an
// empty field, numbers are the text the JSON has them in, booleans true and false, strings their
// text. A row that is not an object fills one column named "value". Fields holding a comma, a
// quote, CR or LF are quoted, their quotes doubled. Throws std::runtime_error when the text is not
// JSON or holds no such array.
CsvTable RenderCsv(std::string_view data_json, const std::string& rows_field = "");

}  // namespace lastro::answering
