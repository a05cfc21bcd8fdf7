// Fuzz target: the companies plugin's reader of CVM's IPE document index
// (plugins/companies/domain/documents/ipe_reader.cpp); the input is ipe_cia_aberta_YYYY.csv,
// handed out in chunks of a size its length picks. Only IngestError may come out, at a line inside
// the file. Every record must end as a delivery that keeps the reader's promises (a protocol, a
// version, a positive CVM code, a CNPJ only when the cell is a valid one, real YYYY-MM-DD dates,
// an http(s) link, UTF-8 text) or as a rejection with a reason, lines inside the file and ascending.
#include "fuzz_support.hpp"

#include "domain/documents/ipe_reader.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

using namespace lastro;

namespace {

constexpr const char* kTarget = "ipe_reader";
constexpr const char* kName = "ipe_cia_aberta_2025.csv";

[[noreturn]] void Broken(std::size_t line, const std::string& what) {
    std::fprintf(stderr, "%s: line %zu: %s\n", kTarget, line, what.c_str());
    std::abort();
}

std::size_t LineCount(std::string_view bytes) {
    const auto newlines = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n'));
    return bytes.empty() || bytes.back() == '\n' ? newlines : newlines + 1;
}

void CheckText(std::size_t line, const std::optional<std::string>& text, const char* what) {
    if (text && (text->empty() || !sdk::IsValidUtf8(*text))) {
        Broken(line, std::string(what) + " is empty or not UTF-8");
    }
}

void CheckDate(std::size_t line, const std::optional<std::string>& date, const char* what) {
    if (date && (!sdk::Date::Parse(*date) || sdk::Date::Parse(*date)->ToString() != *date)) {
        Broken(line, std::string(what) + " is not a real YYYY-MM-DD day: '" + *date + "'");
    }
}

void CheckDelivery(const companies::DocumentRecord& d) {
    if (d.protocol.empty() || !sdk::IsValidUtf8(d.protocol) || d.version < 0 || d.cvm_code <= 0) {
        Broken(d.line, "a delivery without its key or company");
    }
    if (d.cnpj.cnpj.has_value() != (d.cnpj.kind == sdk::DocumentKind::kCnpj) ||
        (d.cnpj.cnpj && sdk::ParseCnpj(*d.cnpj.cnpj).digits != d.cnpj.cnpj)) {
        Broken(d.line, "a CNPJ that is not a valid one, or a valid one not kept");
    }
    CheckDate(d.line, d.reference_date, "Data_Referencia");
    CheckDate(d.line, d.delivered_at, "Data_Entrega");
    CheckText(d.line, d.company_name, "Nome_Companhia");
    CheckText(d.line, d.category, "Categoria");
    CheckText(d.line, d.subject, "Assunto");
    CheckText(d.line, d.link, "Link_Download");
    if (d.link && !d.link->starts_with("https://") && !d.link->starts_with("http://")) {
        Broken(d.line, "a link that is not http(s): " + *d.link);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::size_t lines = std::max<std::size_t>(LineCount(bytes), 1);
    static constexpr std::array<std::size_t, 4> kChunks{1 << 16, 3, 4096, 1 << 16};
    const std::size_t chunk = kChunks[size % kChunks.size()];
    try {
        companies::IpeReader reader(std::make_unique<fuzz::MemorySource>(data, size, chunk, kName));
        companies::DocumentRecord record;
        std::string problem;
        std::size_t last_line = 1;  // the header's
        for (;;) {
            const companies::ReadOutcome outcome = reader.Next(record, problem);
            if (outcome == companies::ReadOutcome::kEnd) {
                break;
            }
            if (record.line <= last_line || record.line > lines) {
                Broken(record.line,
                       "record out of order or outside the file's " + std::to_string(lines) + " lines");
            }
            last_line = record.line;
            if (outcome == companies::ReadOutcome::kRow) {
                CheckDelivery(record);
            } else if (problem.empty() || !sdk::IsValidUtf8(problem)) {
                Broken(record.line, "a rejection without a reason, or not UTF-8");
            }
        }
        if (reader.Next(record, problem) != companies::ReadOutcome::kEnd) {
            Broken(last_line, "a record after the end");
        }
    } catch (const sdk::IngestError& e) {
        if (e.File() != kName || e.Line() > lines) {
            Broken(e.Line(), std::string("refusal outside the file: ") + e.what());
        }
    } catch (const std::exception& e) {
        fuzz::UnexpectedException(kTarget, e);
    }
    return 0;
}
