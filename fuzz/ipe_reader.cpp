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

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

using namespace lastro;

namespace {

constexpr const char* kTarget = "ipe_reader";
constexpr const char* kName = "ipe_cia_aberta_2025.csv";

[[noreturn]] void Broken(std::size_t line, const std::string& what) {
    fuzz::Broken(kTarget, line, what);
}

void CheckText(std::size_t line, const std::optional<std::string>& text, const char* what) {
    fuzz::ExpectText(kTarget, line, text, what);
}

void CheckDate(std::size_t line, const std::optional<std::string>& date, const char* what) {
    fuzz::ExpectIsoDate(kTarget, line, date, what);
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
    fuzz::ReadEveryRecord<companies::IpeReader, companies::DocumentRecord>(
        kTarget, kName, data, size,
        [](const companies::IpeReader&, const companies::DocumentRecord& d) { CheckDelivery(d); },
        [](const companies::DocumentRecord& d, const std::string& problem) {
            if (problem.empty() || !sdk::IsValidUtf8(problem)) {
                Broken(d.line, "a rejection without a reason, or not UTF-8: [" + problem + "]");
            }
        });
    return 0;
}
