// Fuzz target: the ingest kit's fixed-width reader (sdk/src/ingest/fixed_width.cpp) on B3's
// COTAHIST layout (header 00, quotes 01, trailer 99), every field of every record read as its
// declared type. The first byte chooses the encoding and the chunk size; the rest is the file.
// Only IngestError (FieldError included) may come out.
#include "fuzz_support.hpp"

#include <lastro/sdk/ingest/fixed_width.hpp>
#include <lastro/sdk/problem.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

using namespace lastro;

namespace {

// SeriesHistoricas_Layout, as sdk/tests/ingest_fixed_width_test.cpp declares it.
std::vector<sdk::RecordLayout> CotahistLayouts() {
    using enum sdk::FieldType;
    return {
        sdk::RecordLayout("00",
                          {{"TIPREG", 1, 2}, {"NOMARQ", 3, 13}, {"CODORI", 16, 8}, {"DATGER", 24, 8, kDate}}),
        sdk::RecordLayout("01", {{"TIPREG", 1, 2},
                                 {"DATPRE", 3, 8, kDate},
                                 {"CODBDI", 11, 2},
                                 {"CODNEG", 13, 12},
                                 {"TPMERC", 25, 3, kInteger},
                                 {"NOMRES", 28, 12},
                                 {"ESPECI", 40, 10},
                                 {"PRAZOT", 50, 3},
                                 {"MODREF", 53, 4},
                                 {"PREABE", 57, 13, kDecimal, 2},
                                 {"PREMAX", 70, 13, kDecimal, 2},
                                 {"PREMIN", 83, 13, kDecimal, 2},
                                 {"PREMED", 96, 13, kDecimal, 2},
                                 {"PREULT", 109, 13, kDecimal, 2},
                                 {"PREOFC", 122, 13, kDecimal, 2},
                                 {"PREOFV", 135, 13, kDecimal, 2},
                                 {"TOTNEG", 148, 5, kInteger},
                                 {"QUATOT", 153, 18, kInteger},
                                 {"VOLTOT", 171, 18, kDecimal, 2},
                                 {"PREEXE", 189, 13, kDecimal, 2},
                                 {"INDOPC", 202, 1},
                                 {"DATVEN", 203, 8, kDate, 0, "99991231"},
                                 {"FATCOT", 211, 7, kInteger},
                                 {"PTOEXE", 218, 13, kDecimal, 6},
                                 {"CODISI", 231, 12},
                                 {"DISMES", 243, 3, kInteger}}),
        sdk::RecordLayout("99", {{"TIPREG", 1, 2},
                                 {"NOMARQ", 3, 13},
                                 {"CODORI", 16, 8},
                                 {"DATGER", 24, 8, kDate},
                                 {"TOTREG", 32, 11, kInteger}}),
    };
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    static const std::vector<sdk::RecordLayout> layouts = CotahistLayouts();
    const std::uint8_t control = data[0];
    const auto encoding = (control & 1) ? sdk::TextEncoding::kUtf8 : sdk::TextEncoding::kLatin1;
    static constexpr std::array<std::size_t, 4> kChunks{1 << 16, 1, 13, 4096};
    const std::size_t chunk = kChunks[(control >> 1) & 3];

    fuzz::ExpectOnly<sdk::IngestError>("fixed_width_reader", [&] {
        sdk::FixedWidthReader reader(
            std::make_unique<fuzz::MemorySource>(data + 1, size - 1, chunk, "COTAHIST_FUZZ.TXT"), 1, 2,
            layouts, encoding);
        while (reader.Next()) {
            const auto& fields = reader.Layout().Fields();
            for (std::size_t i = 0; i < fields.size(); ++i) {
                (void)reader.Raw(i);
                fuzz::ExpectOnly<sdk::IngestError>("fixed_width_reader", [&] {
                    switch (fields[i].type) {
                        case sdk::FieldType::kText:
                            (void)reader.Text(i);
                            break;
                        case sdk::FieldType::kInteger:
                            (void)reader.Integer(i);
                            break;
                        case sdk::FieldType::kDecimal:
                            (void)reader.Decimal(i);
                            break;
                        case sdk::FieldType::kDate:
                            (void)reader.DateValue(i);
                            break;
                    }
                });
            }
        }
    });
    return 0;
}
