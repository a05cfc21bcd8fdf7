// Rules over the document indexes, below both the ingesters and the handler
// (docs/datasets/ipe_cia_aberta.md).
#pragma once

#include "domain/documents/document_record.hpp"

#include <array>
#include <cstdint>
#include <string_view>

namespace lastro::companies {

inline constexpr std::string_view kIpeDataset = "cvm.ipe_cia_aberta";

// The kinds of document index a company's documents merge, as `kind` names them: "ipe" (periodic
// and occasional documents). The FRE, FCA, DFP and ITR indexes join as their datasets are served.
inline constexpr std::string_view kIpeKind = "ipe";

// Every column a delivery's row is compared on, reduced to a number: a changed delivery is one
// whose fingerprint changed (sdk::Fingerprint).
std::uint64_t DocumentFingerprint(const DocumentRecord& record);

}  // namespace lastro::companies
