// The reader of CVM's daily fund report files (`inf_diario_fi_YYYYMM.csv`, daily_report.hpp) on
// the SDK's CvmCsvReader: ISO-8859-1, ';', no quoting, LF or CRLF, columns found by header name in
// any of the three layouts CVM has published. It streams: memory does not grow with the file.
// A malformed record is rejected with its line, column and value, and reading goes on; only what
// makes the whole file unreadable is thrown.
#pragma once

#include "domain/daily/daily_report.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/cvm_csv.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::series {

enum class ReadOutcome { kRow, kRejected, kEnd };

class InfDiarioReader {
public:
    // Reads the header and tells the layout: CNPJ_FUNDO_CLASSE makes it kClasses (its type column
    // TP_FUNDO_CLASSE, or TP_FUNDO, required), else TP_FUNDO kLegacy (with CNPJ_FUNDO), else
    // CNPJ_FUNDO kEarly; TP_FUNDO_CLASSE without CNPJ_FUNDO_CLASSE is refused. ID_SUBCLASSE is
    // read whenever the header has it. DT_COMPTC, VL_TOTAL, VL_QUOTA, VL_PATRIM_LIQ, CAPTC_DIA,
    // RESG_DIA and NR_COTST are required in every layout; other columns are ignored, whatever
    // their order. Throws sdk::IngestError naming the file and line 1 ("missing column VL_QUOTA",
    // "missing columns CAPTC_DIA, RESG_DIA") for a header that is not the format's, and for what
    // CvmCsvReader refuses (an empty file, a BOM, bytes that are not ISO-8859-1 text).
    explicit InfDiarioReader(std::unique_ptr<sdk::ByteSource> source);

    DailyReportLayout Layout() const { return layout_; }
    const std::string& SourceName() const { return csv_.SourceName(); }

    // kRow: `row` holds the next record (its strings reused from the last call). kRejected: the
    // record is malformed and skipped; `problem` names its line, the column and the value
    // ("line 12: VL_QUOTA is not a decimal number: '1,5'"), `row.line` is that line and the rest
    // of `row` unspecified; call again for the next one. kEnd: no more records.
    // Rejected: another field count than the header's; a blank or invalid CNPJ (check digits
    // verified); a blank DT_COMPTC or one that is not a real YYYY-MM-DD day; a value that is not
    // IsPublishedDecimal; an NR_COTST that is not a non-negative integer up to 10^12. Blank values
    // are nullopt. Throws sdk::IngestError for what makes the whole file unreadable: bytes that
    // are not ISO-8859-1 text, a truncated last line (no line end and fewer fields than the header).
    ReadOutcome Next(DailyReportRow& row, std::string& problem);

private:
    void Reject(std::string& problem, std::size_t column, std::string_view what,
                std::optional<std::string_view> value = std::nullopt) const;
    // Reads decimal column `column` into `value`; false (and `problem` set) when malformed.
    bool ReadDecimal(std::size_t column, std::optional<std::string>& value, std::string& problem) const;

    sdk::CvmCsvReader csv_;
    DailyReportLayout layout_ = DailyReportLayout::kEarly;
    std::optional<std::size_t> fund_type_;
    std::size_t cnpj_ = 0;
    std::optional<std::size_t> subclass_;
    std::size_t day_ = 0;
    std::size_t total_ = 0;
    std::size_t quota_ = 0;
    std::size_t net_worth_ = 0;
    std::size_t subscriptions_ = 0;
    std::size_t redemptions_ = 0;
    std::size_t investors_ = 0;
};

// A decimal as CVM writes it: an optional '-', 1 to 24 integer digits, and optionally '.' and 1
// to 16 decimals; nothing else (no '+', exponent, comma, blanks, leading or trailing '.').
bool IsPublishedDecimal(std::string_view text);

}  // namespace lastro::series
