// The inputs of cvm.cda_fi: CVM's monthly CDA archives (cda_fi_YYYYMM.zip) or their member
// CSVs given loose, grouped by month, with the rule that a month needs its PL member and the
// eight blocks (docs/datasets/cda_fi.md). Discovery is the ingest kit's (sdk::DatasetFiles).
#pragma once

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

enum class CdaMemberKind { kPl, kBlock, kFie, kConfidential, kFieConfidential };

struct CdaMember {
    sdk::InputFile file;  // where it is; file.name is "cda_fi_BLC_2_202406.csv"
    CdaMemberKind kind = CdaMemberKind::kPl;
    int block = 0;  // 1..8 for kBlock, 9 for kFie: the block number of CdaPosition::ordinal
    sdk::Month month;
};

// The member a file name denotes (cda_fi_BLC_N_YYYYMM.csv, cda_fi_PL_, cda_fie_, cda_fi_CONFID_,
// cda_fie_CONFID_, in any case); nullopt for any other name.
std::optional<CdaMember> ParseCdaMemberName(std::string_view name);

// "BLC_1".."BLC_8" or "FIE": CdaPosition::block.
std::string CdaPositionBlock(const CdaMember& member);

class CdaInputs {
public:
    // Throws IngestError for an unknown loose file, a member given twice, an archive member of
    // another month than its archive's name, an archive without CDA members, and a month that
    // lacks its PL member or one of BLC_1..BLC_8 (naming the month and every missing member).
    explicit CdaInputs(const std::vector<std::filesystem::path>& inputs);

    // Ascending months, each with its members in reading order: PL, BLC_1..BLC_8, fie, CONFID,
    // fie CONFID.
    const std::map<sdk::Month, std::vector<CdaMember>>& Months() const { return months_; }

    std::unique_ptr<sdk::ByteSource> Open(const CdaMember& member) const { return inputs_.Open(member.file); }

private:
    sdk::IngestInputs inputs_;
    std::map<sdk::Month, std::vector<CdaMember>> months_;
};

}  // namespace lastro::funds
