// Fuzz target: the companies plugin's reader of a structured filing's index member
// (plugins/companies/domain/filings/filing_index_reader.cpp, fre_cia_aberta_YYYY.csv and
// fca_cia_aberta_YYYY.csv), handed out in chunks of a size its length picks. Only IngestError may
// come out, at a line inside the file. Every record must end as a document that keeps the
// reader's promises (a positive document id as digits, a version, a positive CVM code, a CNPJ only
// when the cell is a valid one, real YYYY-MM-DD dates, an http(s) link, UTF-8 text) or as a
// rejection with a reason, lines inside the file and ascending.
#include "fuzz_support.hpp"

#include "domain/filings/filing_index_reader.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>

using namespace lastro;

namespace {

constexpr const char* kTarget = "filing_index_reader";
constexpr const char* kName = "fre_cia_aberta_2025.csv";

void CheckDocument(const companies::DocumentRecord& d) {
    const bool digits = !d.protocol.empty() && d.protocol.size() <= 19 && d.protocol[0] != '0' &&
                        std::all_of(d.protocol.begin(), d.protocol.end(),
                                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!digits || companies::FilingDocumentId(d) <= 0 || d.version < 0 || d.cvm_code <= 0) {
        fuzz::Broken(kTarget, d.line, "a document without its id, version or company: [" + d.protocol + "]");
    }
    if (d.cnpj.cnpj.has_value() != (d.cnpj.kind == sdk::DocumentKind::kCnpj) ||
        (d.cnpj.cnpj && sdk::ParseCnpj(*d.cnpj.cnpj).digits != d.cnpj.cnpj)) {
        fuzz::Broken(kTarget, d.line, "a CNPJ that is not a valid one, or a valid one not kept");
    }
    fuzz::ExpectIsoDate(kTarget, d.line, d.reference_date, "DT_REFER");
    fuzz::ExpectIsoDate(kTarget, d.line, d.delivered_at, "DT_RECEB");
    fuzz::ExpectText(kTarget, d.line, d.company_name, "DENOM_CIA");
    fuzz::ExpectText(kTarget, d.line, d.category, "CATEG_DOC");
    fuzz::ExpectText(kTarget, d.line, d.link, "LINK_DOC");
    if (d.link && !d.link->starts_with("https://") && !d.link->starts_with("http://")) {
        fuzz::Broken(kTarget, d.line, "a link that is not http(s): " + *d.link);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::ReadEveryRecord<companies::FilingIndexReader, companies::DocumentRecord>(
        kTarget, kName, data, size,
        [](const companies::FilingIndexReader&, const companies::DocumentRecord& d) { CheckDocument(d); },
        [](const companies::DocumentRecord& d, const std::string& problem) {
            if (problem.empty() || !sdk::IsValidUtf8(problem)) {
                fuzz::Broken(kTarget, d.line,
                             "a rejection without a reason, or not UTF-8: [" + problem + "]");
            }
        });
    return 0;
}
