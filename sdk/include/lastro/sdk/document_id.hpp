// What a CNPJ cell of a CVM or B3 file really holds. Registry and report columns named CNPJ_*
// carry, besides CNPJs, CPFs (people), CVM's all-zero placeholder, a lone '0' or ',', two ids in
// one cell and numbers that fail their check digits (docs/ingest-kit.md, "Document cells"). A
// cell is classified, never repaired: only a valid CNPJ becomes a company's number, so a CPF or
// a typo can never be joined to the wrong company, and the published text is kept beside.
#pragma once

#include <boost/config.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk {

enum class DocumentKind {
    kBlank,        // empty or blanks only
    kCnpj,         // 14 digits with valid check digits (masked or bare)
    kCpf,          // 11 digits with valid CPF check digits (masked or bare)
    kPlaceholder,  // only zeros (of any length): CVM's "no CNPJ"
    kTwoIds,       // two or more documents in one cell ("12.345.678/0001-95 / 98.765...")
    kInvalid,      // anything else: wrong length, check digits, characters
};

struct BOOST_SYMBOL_VISIBLE DocumentCell {
    DocumentKind kind = DocumentKind::kBlank;
    std::optional<std::string> cnpj;  // the 14 digits, only for kCnpj
    std::string published;            // the cell as published, blanks around it trimmed
};

BOOST_SYMBOL_VISIBLE DocumentCell ClassifyDocument(std::string_view cell);

// "cnpj", "cpf", "placeholder", "two_ids", "invalid", "blank": how answers and notices name it.
BOOST_SYMBOL_VISIBLE std::string_view DocumentKindName(DocumentKind kind);

// True when `digits` (11 digits) carries valid CPF check digits (all-equal digits are not).
BOOST_SYMBOL_VISIBLE bool IsValidCpf(std::string_view digits);

}  // namespace lastro::sdk
