// Rules over the registry's values, below both the ingester and the handlers
// (docs/datasets/cad_cia_aberta.md).
#pragma once

#include "domain/registry/company_record.hpp"
#include "domain/text_folding.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::companies {

inline constexpr std::string_view kRegistryDataset = "cvm.cad_cia_aberta";

// CEP as CVM should have written it: the file stores it as a number, so 01310-100 became
// 1310100. One to eight digits (a '-' between them is accepted) are left-padded with zeros to
// eight; anything else (letters, more than eight digits) is not a Brazilian postal code and
// gives nullopt (the published text is kept beside).
std::optional<std::string> RestorePostalCode(std::string_view published);

// Which of two rows with the same CD_CVM the registry keeps (exact duplicates exist: Petrobras is
// listed twice in several real files): the one whose situation started later (DT_INI_SIT), then
// whose registration category started later, then the later line. The rank of a row; the
// greater wins (sdk::KeepOnePerKey).
std::string DuplicateRank(const CompanyRecord& record);

// The text `q` matches: the legal and trade names, case- and accent-folded, one per line.
std::string CompanySearchText(const CompanyRecord& record);

// Every stored column of a record reduced to a number: a changed company is one whose
// fingerprint changed (sdk::SnapshotDiff).
std::uint64_t RecordFingerprint(const CompanyRecord& record);

}  // namespace lastro::companies
