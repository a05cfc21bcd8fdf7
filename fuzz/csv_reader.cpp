// Fuzz target: the ingest kit's CSV reader (sdk/src/ingest/csv.cpp) and its typed reads.
// The first byte chooses the format (encoding, separator, decimal point, date format) and the
// chunk size the bytes are handed out in; the rest is the file. Every field is read, typed in
// each of the ways an ingester may read it in turn. Only IngestError (FieldError included) may come out.
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
                // One typed read per field, a different one on the next line, so every read
                // meets every column without a throw per read and field (slow under ASan).
                // A refused value is a FieldError; the next field is still read.
                fuzz::ExpectOnly<sdk::IngestError>("csv_reader", [&] {
                    switch ((i + reader.Line()) % 9) {
                        case 0:
                            (void)reader.Text(i);
                            break;
                        case 1:
                            (void)reader.RequiredText(i);
                            break;
                        case 2:
                            (void)reader.Decimal(i);
                            break;
                        case 3:
                            (void)reader.Decimal(i, sdk::Sign::kNonNegative);
                            break;
                        case 4:
                            (void)reader.Integer(i);
                            break;
                        case 5:
                            (void)reader.DateValue(i);
                            break;
                        case 6:
                            (void)reader.IsoDate(i);
                            break;
                        case 7:
                            (void)reader.Cnpj(i);
                            break;
                        default:
                            (void)reader.Document(i);
                            break;
                    }
                });
            }
        }
    });
    return 0;
}
