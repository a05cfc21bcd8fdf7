// Fuzz target: the series plugin's reader of CVM's daily fund report
// (plugins/series/domain/daily/inf_diario_reader.cpp); the input is the file, handed out in chunks
// of a size its length picks. Only IngestError may come out, at a line inside the file. Every
// record must end as a row that keeps the reader's promises (14-digit CNPJ with valid check
// digits, a real day, decimals in the published form, a count up to 10^12, UTF-8 text without
// surrounding blanks, lines inside the file and ascending) or as a rejection naming its line.
#include "fuzz_support.hpp"

#include "domain/daily/inf_diario_reader.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

using namespace lastro;

namespace {

constexpr const char* kTarget = "inf_diario_reader";
constexpr const char* kName = "inf_diario_fi_202410.csv";

[[noreturn]] void Broken(std::size_t line, const std::string& what) {
    fuzz::Broken(kTarget, line, what);
}

bool IsBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Published text: UTF-8, without the blanks the reader trims.
void CheckText(std::size_t line, std::string_view text, const char* what) {
    if (!sdk::IsValidUtf8(text)) {
        Broken(line, std::string(what) + " is not UTF-8");
    }
    if (!text.empty() && (IsBlank(text.front()) || IsBlank(text.back()))) {
        Broken(line, std::string(what) + " has blanks around it: '" + std::string(text) + "'");
    }
}

void CheckDecimal(std::size_t line, const std::optional<std::string>& value, const char* what) {
    if (value && !series::IsPublishedDecimal(*value)) {
        Broken(line, std::string(what) + " is not a published decimal: '" + *value + "'");
    }
}

void CheckRow(const series::InfDiarioReader& reader, const series::DailyReportRow& row) {
    const std::size_t line = row.line;
    const auto parsed = sdk::ParseCnpj(row.cnpj);
    if (row.cnpj.size() != 14 || !parsed.digits || *parsed.digits != row.cnpj) {
        Broken(line, "CNPJ '" + row.cnpj + "' is not 14 digits with valid check digits");
    }
    if (sdk::Date::Parse(row.day.ToString()) != row.day) {
        Broken(line, "the day is not a real YYYY-MM-DD day");
    }
    CheckDecimal(line, row.total, "VL_TOTAL");
    CheckDecimal(line, row.quota, "VL_QUOTA");
    CheckDecimal(line, row.net_worth, "VL_PATRIM_LIQ");
    CheckDecimal(line, row.subscriptions, "CAPTC_DIA");
    CheckDecimal(line, row.redemptions, "RESG_DIA");
    if (row.investors && (*row.investors < 0 || *row.investors > 1'000'000'000'000)) {
        Broken(line, "NR_COTST " + std::to_string(*row.investors) + " out of range");
    }
    CheckText(line, row.fund_type, "the type");
    CheckText(line, row.subclass, "the subclass");
    if (reader.Layout() == series::DailyReportLayout::kEarly && !row.fund_type.empty()) {
        Broken(line, "a type in the early layout");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::ReadEveryRecord<series::InfDiarioReader, series::DailyReportRow>(
        kTarget, kName, data, size, &CheckRow,
        [](const series::DailyReportRow& row, const std::string& problem) {
            const std::string prefix = "line " + std::to_string(row.line) + ": ";
            if (!problem.starts_with(prefix) || problem.size() == prefix.size()) {
                Broken(row.line, "rejection not naming its line: " + problem);
            }
            if (!sdk::IsValidUtf8(problem)) {
                Broken(row.line, "rejection message is not UTF-8");
            }
        });
    return 0;
}
