// Reader for CVM open-data CSV files (docs/cvm-csv.md): the ingest kit's CsvReader in
// CVM's format — ISO-8859-1 (decoded as windows-1252, its WHATWG superset) converted to UTF-8,
// ';' separated, quoting OFF (a '"' is data), a header line, LF or CRLF line ends, empty field =
// missing value, decimals with a point, dates YYYY-MM-DD. Columns are found by header name,
// never by position. Streams: memory does not grow with the file.
#pragma once

#include <lastro/sdk/ingest/csv.hpp>

#include <boost/config.hpp>

#include <memory>

namespace lastro::sdk {

class BOOST_SYMBOL_VISIBLE CvmCsvReader : public CsvReader {
public:
    // Reads the header line. Throws IngestError (file, line 1) for an empty file, a header
    // that is not ';' separated text, or bytes that are not ISO-8859-1 text (UTF-8 input,
    // NUL or other control bytes).
    explicit CvmCsvReader(std::unique_ptr<ByteSource> source)
        : CsvReader(std::move(source), CsvFormat::Cvm()) {}
};

}  // namespace lastro::sdk
