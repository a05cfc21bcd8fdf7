// Reading one SGS answer (sgs_reader.hpp): the format told by the content, JSON through
// Boost.JSON's SAX parser, CSV split here, and the rules both share (dates, values, order).
#include "domain/sgs_reader.hpp"

// Boost.JSON's basic_parser rather than a tokenizer of our own: it hands over the raw text of
// numbers and strings (values never pass through double), and fed a line at a time it tells the line.
#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>
#include <utility>

namespace lastro::series {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::size_t kShownBytes = 60;
constexpr std::size_t kSgsMessageBytes = 200;
constexpr std::string_view kExpected =
    " (expected a JSON array of {\"data\", \"valor\"} or the CSV header \"data\";\"valor\")";

[[noreturn]] void Fail(const std::string& file, std::size_t line, const std::string& message) {
    throw sdk::IngestError(file, line, message);
}

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}
// JSON's whitespace; also what may surround a CSV answer's lines.
bool IsBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool AllBlank(std::string_view text) {
    return std::all_of(text.begin(), text.end(), IsBlank);
}

void AppendEscaped(std::string& out, unsigned char byte) {
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02X", byte);
    out += hex;
}

// Offending text in a message: quoted and cut at 60 bytes, so one value cannot flood it, and
// every byte outside printable ASCII as \xNN, so a binary file cannot garble a terminal.
std::string Shown(std::string_view text) {
    std::string out = "'";
    for (const char c : text.substr(0, kShownBytes)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte > 0x7E) {
            AppendEscaped(out, byte);
        } else {
            out += c;
        }
    }
    out += text.size() > kShownBytes ? "...'" : "'";
    return out;
}

// The message of an SGS error answer: UTF-8 already checked by the parser, kept (it is
// Portuguese), cut at 200 bytes on a character boundary; control characters as \xNN.
std::string SgsMessage(std::string_view text) {
    std::size_t cut = std::min(text.size(), kSgsMessageBytes);
    while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    std::string out;
    for (const char c : text.substr(0, cut)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F) {
            AppendEscaped(out, byte);
        } else {
            out += c;
        }
    }
    return cut < text.size() ? out + "..." : out;
}

std::size_t LineAt(std::string_view bytes, std::size_t pos) {
    return 1 + static_cast<std::size_t>(std::count(bytes.begin(), bytes.begin() + pos, '\n'));
}

std::size_t LastLine(std::string_view bytes) {
    const std::size_t newlines = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n'));
    return bytes.empty() || bytes.back() == '\n' ? std::max<std::size_t>(newlines, 1) : newlines + 1;
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size()) {
        return false;
    }
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
        if (c != prefix[i]) {
            return false;
        }
    }
    return true;
}

bool EqualsNoCase(std::string_view text, std::string_view lower) {
    return text.size() == lower.size() && StartsWithNoCase(text, lower);
}

// dd/MM/yyyy naming a real calendar day, years 1900..2999 (sdk::Date::Parse's rule).
std::optional<sdk::Date> ParseSgsDate(std::string_view text) {
    if (text.size() != 10 || text[2] != '/' || text[5] != '/') {
        return std::nullopt;
    }
    static constexpr std::size_t kDigits[] = {0, 1, 3, 4, 6, 7, 8, 9};
    for (const std::size_t i : kDigits) {
        if (!IsDigit(text[i])) {
            return std::nullopt;
        }
    }
    std::string iso;
    iso.append(text.substr(6, 4)).append("-").append(text.substr(3, 2)).append("-").append(text.substr(0, 2));
    return sdk::Date::Parse(iso);
}

std::string DateText(const sdk::Date& date) {
    char text[16];
    std::snprintf(text, sizeof text, "%02d/%02d/%04d", date.day, date.month, date.year);
    return text;
}

std::string BadDate(std::string_view text) {
    return "data " + Shown(text) + " is not a dd/MM/yyyy date naming a real day (years 1900..2999)";
}

// A plain decimal with `point` as its separator (optional '-', digits, optionally the point and
// digits) as JSON-number text: the point '.', the integer part without redundant leading zeros,
// the fraction as published ("0.000000" is a published zero). Text only: never through double.
std::optional<std::string> NormalizedDecimal(std::string_view text, char point) {
    const bool negative = !text.empty() && text.front() == '-';
    std::size_t i = negative ? 1 : 0;
    const std::size_t integer_begin = i;
    while (i < text.size() && IsDigit(text[i])) {
        ++i;
    }
    std::string_view integer = text.substr(integer_begin, i - integer_begin);
    std::string_view fraction;
    if (integer.empty()) {
        return std::nullopt;
    }
    if (i < text.size()) {
        if (text[i] != point) {
            return std::nullopt;
        }
        const std::size_t fraction_begin = ++i;
        while (i < text.size() && IsDigit(text[i])) {
            ++i;
        }
        fraction = text.substr(fraction_begin, i - fraction_begin);
        if (fraction.empty() || i != text.size()) {
            return std::nullopt;
        }
    }
    while (integer.size() > 1 && integer.front() == '0') {
        integer.remove_prefix(1);
    }
    std::string normalized = negative ? "-" : "";
    normalized.append(integer);
    if (!fraction.empty()) {
        normalized.append(".").append(fraction);
    }
    return normalized;
}

std::string BadValue(std::string_view text, SgsFormat format) {
    std::string message = "valor " + Shown(text) + " is not a plain decimal";
    if (format == SgsFormat::kCsv && text.find('.') != std::string_view::npos) {
        message += " (SGS's CSV writes a decimal comma, not a point)";
    } else if (format == SgsFormat::kJson && text.find(',') != std::string_view::npos) {
        message += " (SGS's JSON writes a decimal point, not a comma)";
    } else {
        message += " (an optional '-', digits, optionally the decimal separator and digits)";
    }
    return message;
}

// The observations in file order, each date after the one before: SGS answers ascending, one
// observation per date, so a repeat or a step back means a damaged or concatenated file.
class Observations {
public:
    explicit Observations(const std::string& file) : file_(file) {}

    void Add(sdk::Date date, std::optional<std::string> value, std::size_t line, std::size_t date_line) {
        if (!list_.empty()) {
            const SgsObservation& last = list_.back();
            if (date == last.date) {
                Fail(file_, date_line,
                     "date " + DateText(date) + " twice (also at line " + std::to_string(last.line) + ")");
            }
            if (date < last.date) {
                Fail(file_, date_line,
                     "date " + DateText(date) + " after " + DateText(last.date) + " (line " +
                         std::to_string(last.line) + "): SGS answers in ascending date order");
            }
        }
        list_.push_back({date, std::move(value), line});
    }

    std::vector<SgsObservation> Take() { return std::move(list_); }

private:
    const std::string& file_;
    std::vector<SgsObservation> list_;
};

// ---- JSON ----------------------------------------------------------------------------------

using boost::system::error_code;

// basic_parser's handler: keeps the answer's shape (an array of flat objects; or an error
// object), reads data and valor, and throws IngestError at the line being fed.
class JsonHandler {
public:
    static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

    JsonHandler(const std::string& file, Observations& observations)
        : file_(file), observations_(observations) {}

    std::size_t line = 1;  // the line being fed to the parser

    bool Closed() const { return closed_; }
    bool RootIsArray() const { return root_ == Root::kArray; }

    bool on_document_begin(error_code&) { return true; }
    bool on_document_end(error_code&) { return true; }

    bool on_array_begin(error_code&) {
        if (depth_ == 0) {
            root_ = Root::kArray;
        } else if (root_ == Root::kArray && depth_ == 1) {
            Fail(file_, line, "an element is an array, not an object {\"data\", \"valor\"}");
        } else {
            Open();
        }
        ++depth_;
        return true;
    }

    bool on_array_end(std::size_t, error_code&) {
        Close();
        return true;
    }

    bool on_object_begin(error_code&) {
        if (depth_ == 0) {
            root_ = Root::kObject;
        } else {
            Open();
            if (root_ == Root::kArray) {
                keys_.clear();
                element_line_ = line;
                has_data_ = has_valor_ = false;
                value_.reset();
            }
        }
        ++depth_;
        return true;
    }

    bool on_object_end(std::size_t, error_code&) {
        if (root_ == Root::kArray && depth_ == 2) {
            EndElement();
        } else if (root_ == Root::kObject && depth_ == 1) {
            if (error_key_seen_) {
                Fail(file_, line, "an SGS error answer, not data: (no message)");
            }
            Fail(file_, line, std::string("a JSON object, not an SGS answer") + std::string(kExpected));
        }
        Close();
        return true;
    }

    bool on_key_part(std::string_view s, std::size_t, error_code&) {
        text_.append(s);
        return true;
    }

    bool on_key(std::string_view s, std::size_t, error_code&) {
        text_.append(s);
        if (root_ == Root::kArray) {
            if (!keys_.insert(text_).second) {
                Fail(file_, line, "key " + Shown(text_) + " twice in one element");
            }
            field_ = text_ == "data" ? Field::kData : text_ == "valor" ? Field::kValor : Field::kOther;
        } else if (depth_ == 1) {
            in_error_ = text_ == "error" || text_ == "erro";
            error_key_seen_ = error_key_seen_ || in_error_;
        }
        text_.clear();
        return true;
    }

    bool on_string_part(std::string_view s, std::size_t, error_code&) {
        text_.append(s);
        return true;
    }
    bool on_string(std::string_view s, std::size_t, error_code&) {
        text_.append(s);
        return Scalar(Kind::kString);
    }
    bool on_number_part(std::string_view s, error_code&) {
        text_.append(s);
        return true;
    }
    bool on_int64(std::int64_t, std::string_view s, error_code&) {
        text_.append(s);
        return Scalar(Kind::kNumber);
    }
    bool on_uint64(std::uint64_t, std::string_view s, error_code&) {
        text_.append(s);
        return Scalar(Kind::kNumber);
    }
    bool on_double(double, std::string_view s, error_code&) {
        text_.append(s);
        return Scalar(Kind::kNumber);
    }
    bool on_bool(bool b, error_code&) {
        text_ = b ? "true" : "false";
        return Scalar(Kind::kLiteral);
    }
    bool on_null(error_code&) {
        text_ = "null";
        return Scalar(Kind::kNull);
    }
    bool on_comment_part(std::string_view, error_code&) { return true; }  // comments are refused
    bool on_comment(std::string_view, error_code&) { return true; }

private:
    enum class Root { kNone, kArray, kObject };
    enum class Field { kData, kValor, kOther };
    enum class Kind { kString, kNumber, kLiteral, kNull };

    // An answer has two levels (the array, its objects; an error object and its "erro"
    // object); a third is refused before the parser descends into it.
    void Open() const {
        if (depth_ >= 2) {
            Fail(file_, line,
                 "nested deeper than an SGS answer (an array of flat {\"data\", \"valor\"} objects)");
        }
    }

    void Close() {
        if (--depth_ == 0) {
            closed_ = true;
        }
    }

    bool Scalar(Kind kind) {
        if (root_ == Root::kObject) {
            // The first value under "error" or "erro" ({"erro": {"detail": ...}}) is the message.
            if (in_error_ && kind != Kind::kNull) {
                Fail(file_, line, "an SGS error answer, not data: " + SgsMessage(text_));
            }
        } else if (depth_ == 1) {
            Fail(file_, line, "element " + Shown(text_) + " is not an object {\"data\", \"valor\"}");
        } else if (field_ == Field::kData) {
            if (kind != Kind::kString) {
                Fail(file_, line, "data " + Shown(text_) + " is not a string (SGS writes \"dd/MM/yyyy\")");
            }
            const std::optional<sdk::Date> date = ParseSgsDate(text_);
            if (!date) {
                Fail(file_, line, BadDate(text_));
            }
            date_ = *date;
            date_line_ = line;
            has_data_ = true;
        } else if (field_ == Field::kValor) {
            if (kind == Kind::kLiteral) {
                Fail(file_, line, "valor " + Shown(text_) + " is not a number");
            }
            if (kind == Kind::kNull || text_.empty()) {
                value_.reset();  // SGS's empty valor: no value, never 0
            } else {
                value_ = NormalizedDecimal(text_, '.');
                if (!value_) {
                    Fail(file_, line, BadValue(text_, SgsFormat::kJson));
                }
            }
            has_valor_ = true;
        }
        text_.clear();
        return true;
    }

    void EndElement() {
        if (!has_data_ || !has_valor_) {
            Fail(file_, element_line_,
                 std::string("element without \"") + (has_data_ ? "valor" : "data") +
                     "\" (an SGS observation has both data and valor)");
        }
        observations_.Add(date_, std::move(value_), element_line_, date_line_);
        value_.reset();
    }

    const std::string& file_;
    Observations& observations_;
    Root root_ = Root::kNone;
    std::size_t depth_ = 0;
    bool closed_ = false;
    std::string text_;  // the key or value being read, over its parts
    // The element being read.
    std::set<std::string> keys_;
    Field field_ = Field::kOther;
    std::size_t element_line_ = 0;
    bool has_data_ = false;
    bool has_valor_ = false;
    sdk::Date date_;
    std::size_t date_line_ = 0;
    std::optional<std::string> value_;
    // An error object.
    bool in_error_ = false;
    bool error_key_seen_ = false;
};

std::vector<SgsObservation> ReadJson(std::string_view bytes, std::size_t start, const std::string& file) {
    Observations observations(file);
    boost::json::parse_options options;
    options.numbers = boost::json::number_precision::none;  // the text is kept, never converted
    options.max_depth = 8;  // the handler refuses a third level first, with its own message
    boost::json::basic_parser<JsonHandler> parser(options, file, observations);
    JsonHandler& handler = parser.handler();
    std::size_t line = 1;
    for (std::size_t pos = start; pos < bytes.size(); ++line) {
        const std::size_t newline = bytes.find('\n', pos);
        const std::size_t end = newline == std::string_view::npos ? bytes.size() : newline + 1;
        std::string_view rest = bytes.substr(pos, end - pos);
        pos = end;
        handler.line = line;
        if (!handler.Closed()) {
            error_code ec;
            const std::size_t used = parser.write_some(true, rest.data(), rest.size(), ec);
            rest.remove_prefix(std::min(used, rest.size()));
            if (ec) {
                Fail(file, line, "malformed JSON (" + ec.message() + ") at " + Shown(rest));
            }
        }
        if (handler.Closed() && !AllBlank(rest)) {
            while (IsBlank(rest.front())) {
                rest.remove_prefix(1);
            }
            while (IsBlank(rest.back())) {
                rest.remove_suffix(1);
            }
            Fail(file, line, "text after the closing ']' of the answer: " + Shown(rest));
        }
    }
    if (!handler.Closed()) {
        Fail(file, LastLine(bytes),
             std::string("truncated JSON: the ") + (handler.RootIsArray() ? "array" : "object") +
                 " is not closed when the file ends");
    }
    return observations.Take();
}

// ---- CSV -----------------------------------------------------------------------------------

// One line split at ';', each field possibly quoted ("" inside quotes is a quote). Only the first
// two fields are kept: a row has two, and a long line of ';' must not become a long vector.
struct CsvRow {
    std::size_t count = 0;
    std::string fields[2];
    const char* problem = nullptr;  // malformed quoting
};

CsvRow SplitCsvRow(std::string_view line) {
    CsvRow row;
    std::size_t i = 0;
    while (true) {
        std::string field;
        if (i < line.size() && line[i] == '"') {
            for (++i;; ++i) {
                if (i >= line.size()) {
                    row.problem = "a quote not closed";
                    return row;
                }
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        ++i;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += line[i];
            }
            if (i < line.size() && line[i] != ';') {
                row.problem = "text after a closing quote";
                return row;
            }
        } else {
            const std::size_t end = std::min(line.find(';', i), line.size());
            field = line.substr(i, end - i);
            i = end;
        }
        if (row.count < 2) {
            row.fields[row.count] = std::move(field);
        }
        ++row.count;
        if (i >= line.size()) {
            return row;
        }
        ++i;  // the ';'
    }
}

// Without its '\n' and the '\r' before it.
std::string_view LineText(std::string_view bytes, std::size_t begin, std::size_t end) {
    std::string_view text = bytes.substr(begin, end - begin);
    if (!text.empty() && text.back() == '\r') {
        text.remove_suffix(1);
    }
    return text;
}

bool IsCsvHeader(std::string_view text) {
    const CsvRow row = SplitCsvRow(text);
    return !row.problem && row.count == 2 && EqualsNoCase(row.fields[0], "data") &&
           EqualsNoCase(row.fields[1], "valor");
}

// The rows after the header (which ends at `pos`, at line `line`).
std::vector<SgsObservation> ReadCsvRows(std::string_view bytes, std::size_t pos, std::size_t line,
                                        const std::string& file) {
    Observations observations(file);
    std::size_t blank_line = 0;  // the first empty line: only more empty lines may follow it
    while (pos < bytes.size()) {
        ++line;
        const std::size_t end = std::min(bytes.find('\n', pos), bytes.size());
        const std::string_view text = LineText(bytes, pos, end);
        pos = end + 1;
        if (AllBlank(text)) {
            blank_line = blank_line ? blank_line : line;
            continue;
        }
        if (blank_line) {
            Fail(file, blank_line,
                 "an empty line among the rows (a row follows at line " + std::to_string(line) + ")");
        }
        const CsvRow row = SplitCsvRow(text);
        if (row.problem) {
            Fail(file, line, std::string(row.problem) + " in " + Shown(text));
        }
        if (row.count != 2) {
            Fail(file, line,
                 "expected 2 fields (data;valor), found " + std::to_string(row.count) + ": " + Shown(text));
        }
        const std::optional<sdk::Date> date = ParseSgsDate(row.fields[0]);
        if (!date) {
            Fail(file, line, BadDate(row.fields[0]));
        }
        std::optional<std::string> value;
        if (!row.fields[1].empty()) {  // SGS's empty valor: no value, never 0
            value = NormalizedDecimal(row.fields[1], ',');
            if (!value) {
                Fail(file, line, BadValue(row.fields[1], SgsFormat::kCsv));
            }
        }
        observations.Add(*date, std::move(value), line, line);
    }
    return observations.Take();
}

}  // namespace

SgsAnswer ReadSgsAnswer(std::string_view bytes, const std::string& file_name) {
    if (bytes.size() > kMaxSgsAnswerBytes) {
        Fail(file_name, 0,
             std::to_string(bytes.size()) + " bytes, more than the largest SGS answer read (" +
                 std::to_string(kMaxSgsAnswerBytes) + " bytes)");
    }
    if (bytes.empty()) {
        Fail(file_name, 0, "empty file: not an SGS answer");
    }
    const std::size_t start = bytes.starts_with(kBom) ? kBom.size() : 0;
    std::size_t first = start;
    while (first < bytes.size() && IsBlank(bytes[first])) {
        ++first;
    }
    if (first == bytes.size()) {
        Fail(file_name, 0, "empty file (only blanks): not an SGS answer");
    }
    const std::size_t line = LineAt(bytes, first);
    const std::size_t line_end = std::min(bytes.find('\n', first), bytes.size());
    switch (bytes[first]) {
        case '[':
        case '{':
            return {SgsFormat::kJson, ReadJson(bytes, start, file_name)};
        case '<':
            Fail(file_name, line,
                 std::string(StartsWithNoCase(bytes.substr(first), "<?xml") ? "an XML" : "an HTML") +
                     " page, not an SGS answer (the origin's error or maintenance page)");
        default:
            break;
    }
    const std::string_view first_line = LineText(bytes, first, line_end);
    if (!IsCsvHeader(first_line)) {
        Fail(file_name, line,
             "not an SGS answer: it starts with " + Shown(first_line) + std::string(kExpected));
    }
    return {SgsFormat::kCsv, ReadCsvRows(bytes, line_end + 1, line, file_name)};
}

}  // namespace lastro::series
