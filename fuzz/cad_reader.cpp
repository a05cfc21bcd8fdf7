// Fuzz target: the companies plugin's reader of CVM's registry of listed companies
// (plugins/companies/domain/registry/cad_reader.cpp); the input is cad_cia_aberta.csv, handed out
// in chunks of a size its length picks. Only IngestError may come out, at a line inside the file.
// Every record must end as a company that keeps the reader's promises (a positive CVM code, a
// CNPJ only when the cell is a valid one, real YYYY-MM-DD dates, an 8-digit CEP or none, UTF-8
// text) or as a rejection, lines inside the file and ascending.
#include "fuzz_support.hpp"

#include "domain/registry/cad_reader.hpp"

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

constexpr const char* kTarget = "cad_reader";
constexpr const char* kName = "cad_cia_aberta.csv";

[[noreturn]] void Broken(std::size_t line, const std::string& what) {
    fuzz::Broken(kTarget, line, what);
}

void CheckText(std::size_t line, const std::optional<std::string>& text, const char* what) {
    fuzz::ExpectText(kTarget, line, text, what);
}

void CheckDate(std::size_t line, const std::optional<std::string>& date, const char* what) {
    fuzz::ExpectIsoDate(kTarget, line, date, what);
}

void CheckDocument(std::size_t line, const sdk::DocumentCell& cell, const char* what) {
    if (cell.cnpj.has_value() != (cell.kind == sdk::DocumentKind::kCnpj)) {
        Broken(line, std::string(what) + ": a CNPJ without the kind, or the kind without a CNPJ");
    }
    if (cell.cnpj && sdk::ParseCnpj(*cell.cnpj).digits != cell.cnpj) {
        Broken(line, std::string(what) + " '" + *cell.cnpj + "' is not 14 digits with valid check digits");
    }
    if (!sdk::IsValidUtf8(cell.published)) {
        Broken(line, std::string(what) + " as published is not UTF-8");
    }
}

void CheckPostalCode(std::size_t line, const companies::PostalAddress& address) {
    if (address.postal_code && (address.postal_code->size() != 8 ||
                                address.postal_code->find_first_not_of("0123456789") != std::string::npos)) {
        Broken(line, "CEP '" + *address.postal_code + "' is not 8 digits");
    }
    if (address.postal_code && !address.postal_code_published) {
        Broken(line, "a CEP restored from nothing");
    }
    CheckText(line, address.street, "LOGRADOURO");
    CheckText(line, address.email, "EMAIL");
}

void CheckCompany(const companies::CompanyRecord& c) {
    if (c.cvm_code <= 0) {
        Broken(c.line, "CVM code " + std::to_string(c.cvm_code));
    }
    CheckDocument(c.line, c.cnpj, "CNPJ_CIA");
    CheckDocument(c.line, c.auditor_cnpj, "CNPJ_AUDITOR");
    CheckText(c.line, c.legal_name, "DENOM_SOCIAL");
    CheckText(c.line, c.situation, "SIT");
    CheckText(c.line, c.sector, "SETOR_ATIV");
    for (const auto* date : {&c.registered_at, &c.constituted_at, &c.cancelled_at, &c.situation_since,
                             &c.category_since, &c.issuer_phase_since, &c.officer_since}) {
        CheckDate(c.line, *date, "a date");
    }
    CheckPostalCode(c.line, c.address);
    CheckPostalCode(c.line, c.officer_address);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::ReadEveryRecord<companies::CadReader, companies::CompanyRecord>(
        kTarget, kName, data, size,
        [](const companies::CadReader&, const companies::CompanyRecord& c) { CheckCompany(c); },
        [](const companies::CompanyRecord& c, const std::string& problem) {
            if (problem.empty() || !sdk::IsValidUtf8(problem)) {
                Broken(c.line, "a rejection without a reason, or not UTF-8: [" + problem + "]");
            }
        });
    return 0;
}
