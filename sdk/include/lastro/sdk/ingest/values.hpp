// Values of a data file's fields (docs/ingest-kit.md): trimming, strict numbers and dates, and
// the error that names the file, the line and the column of a malformed value. An empty (or
// all-blank) field is a missing value: kEmpty here, std::optional's nullopt in the readers,
// never 0.
#pragma once

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/problem.hpp>

#include <boost/config.hpp>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk {

// Without the blanks (space, tab, CR, LF) at both ends.
BOOST_SYMBOL_VISIBLE std::string_view TrimBlanks(std::string_view text);
// One or more ASCII digits and nothing else.
BOOST_SYMBOL_VISIBLE bool AllDigits(std::string_view text);
// ASCII letters lowered; other bytes are left alone.
BOOST_SYMBOL_VISIBLE std::string LowerAscii(std::string_view text);
// A value echoed in a message: quoted and cut at `max` bytes, so one field cannot flood it.
BOOST_SYMBOL_VISIBLE std::string Quoted(std::string_view value, std::size_t max = 60);

enum class ValueStatus { kEmpty, kValue, kInvalid };

template <typename T>
struct Parsed {
    ValueStatus status = ValueStatus::kEmpty;
    T value{};
};

enum class Sign { kAny, kNonNegative };

// A plain decimal: an optional '-' (unless kNonNegative), digits, and optionally the point
// followed by digits. No '+', thousands separator, exponent, leading or trailing point, NaN or
// infinity. Surrounding blanks are not part of the value. "-1234.56" (point '.') and "1234,56"
// (point ',') are decimals; "1.234,56", "1e5", ".5", "5." are not.
struct DecimalFormat {
    char point = '.';
    Sign sign = Sign::kAny;
};

BOOST_SYMBOL_VISIBLE Parsed<double> ParseDecimal(std::string_view text, DecimalFormat format = {});
// ParseDecimal(text, format).status without converting when no conversion can fail (a plain
// decimal of up to 300 characters is always a finite double): for checking every field of a
// row and converting later.
BOOST_SYMBOL_VISIBLE ValueStatus CheckDecimal(std::string_view text, DecimalFormat format = {});

// An optional '-' (unless kNonNegative) and digits that fit in 64 bits: "42", "-7", "007".
BOOST_SYMBOL_VISIBLE Parsed<std::int64_t> ParseInteger(std::string_view text, Sign sign = Sign::kAny);

enum class DateFormat {
    kIso,        // 2024-06-30
    kBrazilian,  // 30/06/2024
    kCompact,    // 20240630 (B3's files)
};

// A real calendar day in `format` (years 1900..2999, as sdk::Date::Parse).
BOOST_SYMBOL_VISIBLE Parsed<Date> ParseDate(std::string_view text, DateFormat format = DateFormat::kIso);
// How messages name the format: "a YYYY-MM-DD date", "a DD/MM/YYYY date", "a YYYYMMDD date".
BOOST_SYMBOL_VISIBLE std::string_view DateFormatName(DateFormat format);

// A secondary document (an administrator's, an auditor's...): its 14 digits when it is a valid
// CNPJ, otherwise the trimmed text as published (a CPF, or a value the source got wrong);
// nullopt when blank.
BOOST_SYMBOL_VISIBLE std::optional<std::string> DocumentOrText(std::string_view text);

// "YYYY-MM-DD" of `time` in the local calendar (zip members carry local wall-clock times).
BOOST_SYMBOL_VISIBLE std::string LocalDate(std::time_t time);

// A malformed value: what() is "file:line: COLUMN problem: 'value'" (or without the value);
// Reason() is the part after "file:line: ", for a rejected row's message.
class BOOST_SYMBOL_VISIBLE FieldError : public IngestError {
public:
    FieldError(std::string file, std::size_t line, std::string column, std::string problem,
               std::optional<std::string_view> value = std::nullopt);

    const std::string& Column() const noexcept { return column_; }
    const std::string& Reason() const noexcept { return reason_; }

private:
    std::string column_;
    std::string reason_;
};

}  // namespace lastro::sdk
