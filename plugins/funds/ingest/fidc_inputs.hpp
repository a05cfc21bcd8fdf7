// The files given to an ingest of cvm.inf_mensal_fidc: monthly zips inf_mensal_fidc_YYYYMM.zip,
// yearly history zips inf_mensal_fidc_YYYY.zip and loose members
// inf_mensal_fidc_tab_<T>_YYYYMM.csv, in any mix. Members are recognised by name; they are
// read in groups of one period (a month, or a whole year when a yearly member is given), so
// memory holds one month's rows (a year's when a yearly member spans it).
#pragma once

#include "ingest/fidc_tables.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace lastro::funds {

struct FidcMember {
    std::size_t input = 0;  // index of the input file
    std::string entry;      // name inside the zip; empty for a loose CSV
    std::string display;    // "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_I_202401.csv"
    FidcMemberName name;
};

// Members whose rows are resolved and written together.
struct FidcMemberGroup {
    int year = 0;
    int month = 0;                           // 0: the whole year
    std::string input_name;                  // the input file of the group's first member, for messages
    std::vector<const FidcMember*> members;  // in input order, then archive order
};

class FidcInputs {
public:
    // Opens every zip (IngestError naming a missing, truncated or corrupt archive) and
    // classifies every member. A loose file that is not a member of the dataset, or a zip
    // without any, is an IngestError; unknown members of a zip are ignored (Ignored()).
    explicit FidcInputs(const std::vector<std::filesystem::path>& inputs);

    const std::vector<std::string>& Ignored() const { return ignored_; }
    // Groups in ascending period order.
    std::vector<FidcMemberGroup> Groups() const;
    std::unique_ptr<sdk::ByteSource> Open(const FidcMember& member) const;

private:
    std::vector<std::filesystem::path> paths_;
    std::vector<std::unique_ptr<sdk::ZipArchive>> archives_;  // null for a loose CSV
    std::vector<FidcMember> members_;
    std::vector<std::string> ignored_;
};

}  // namespace lastro::funds
