// The reader of CVM's registry of listed companies (cad_cia_aberta.csv) on the SDK's
// CvmCsvReader: ISO-8859-1, ';', no quoting, CRLF or LF, columns found by header name (other
// columns ignored, in any order). It streams one company at a time.
#pragma once

#include "domain/read_outcome.hpp"
#include "domain/registry/company_record.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/cvm_csv.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::companies {

class CadReader {
public:
    // The columns every file must have; the address, officer and auditor columns are read when
    // present. Throws sdk::IngestError naming the file and line 1 ("missing columns CD_CVM, SIT")
    // for another header, and for what CvmCsvReader refuses (empty file, not ISO-8859-1 text).
    static constexpr std::array<std::string_view, 12> kRequired{
        "CNPJ_CIA",   "DENOM_SOCIAL", "DENOM_COMERC", "DT_REG",  "DT_CANCEL", "SIT",
        "DT_INI_SIT", "CD_CVM",       "SETOR_ATIV",   "TP_MERC", "CATEG_REG", "SIT_EMISSOR"};

    explicit CadReader(std::unique_ptr<sdk::ByteSource> source);

    const std::string& SourceName() const { return csv_.SourceName(); }

    // kRow: `record` holds the next company. kRejected: the line is skipped; `problem` says why
    // ("CD_CVM is not an integer: 'x'", "DT_REG is not a YYYY-MM-DD date: '31/12/2020'", "expected
    // 47 fields, found 12") and `record.line` is its line. kEnd: no more lines. Throws
    // sdk::IngestError for what makes the file unreadable (bytes that are not text, a truncated
    // last line).
    ReadOutcome Next(CompanyRecord& record, std::string& problem);

private:
    std::optional<std::string> Text(const std::optional<std::size_t>& column) const;
    std::optional<std::string> Date(const std::optional<std::size_t>& column) const;
    PostalAddress Address(std::string_view suffix) const;
    std::optional<std::size_t> Column(std::string_view name) const { return csv_.Find(name); }

    sdk::CvmCsvReader csv_;
};

}  // namespace lastro::companies
