// Fuzz target: the ingest kit's CSV reader (sdk/src/ingest/csv.cpp) and its typed reads.
// The first byte chooses the format (encoding, separator, decimal point, date format) and the
// chunk size the bytes are handed out in; the rest is the file. Every column of every record is
// read every way an ingester may read it. Only IngestError (FieldError included) may come out.
#include "fuzz_support.hpp"

#include <lastro/sdk/ingest/csv.hpp>
#include <lastro/sdk/problem.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

using namespace lastro;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    const std::uint8_t control = data[0];
    sdk::CsvFormat format;
    format.encoding = (control & 1) ? sdk::TextEncoding::kUtf8 : sdk::TextEncoding::kLatin1;
    format.separator = (control & 2) ? ',' : ';';
    format.decimal_point = (control & 4) ? ',' : '.';
    static constexpr std::array kDates{sdk::DateFormat::kIso, sdk::DateFormat::kBrazilian,
                                       sdk::DateFormat::kCompact, sdk::DateFormat::kIso};
    format.date_format = kDates[(control >> 3) & 3];
    static constexpr std::array<std::size_t, 4> kChunks{1 << 16, 1, 7, 4096};
    const std::size_t chunk = kChunks[(control >> 5) & 3];

    fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] {
        sdk::CsvReader reader(std::make_unique<fuzz::MemorySource>(data + 1, size - 1, chunk, "fuzz.csv"),
                              format);
        (void)reader.Find("CNPJ_FUNDO");
        (void)reader.FindAny({"CNPJ_FUNDO_CLASSE", "CNPJ_FUNDO"});
        const std::size_t columns = reader.Header().size();
        while (reader.Next()) {
            (void)reader.FieldCountProblem();
            for (std::size_t i = 0; i <= columns; ++i) {  // one past the header: out of range
                (void)reader.Field(i);
                (void)reader.Optional(i);
                // Each typed read may refuse the value with a FieldError; the next still runs.
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] { (void)reader.Text(i); });
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] { (void)reader.RequiredText(i); });
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] { (void)reader.Decimal(i); });
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader",
                                                   [&] { (void)reader.Decimal(i, sdk::Sign::kNonNegative); });
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] { (void)reader.Integer(i); });
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] { (void)reader.DateValue(i); });
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] { (void)reader.IsoDate(i); });
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] { (void)reader.Cnpj(i); });
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] { (void)reader.Document(i); });
            }
        }
    });
    return 0;
}
