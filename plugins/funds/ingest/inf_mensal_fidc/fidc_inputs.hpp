// The files given to an ingest of cvm.inf_mensal_fidc: monthly zips inf_mensal_fidc_YYYYMM.zip,
// yearly history zips inf_mensal_fidc_YYYY.zip and loose members
// inf_mensal_fidc_tab_<T>_YYYYMM.csv, in any mix. Members are recognised by name (the ingest
// kit's discovery, then the table catalog); they are read in groups of one period (a month, or
// a whole year when a yearly member is given), so memory holds one month's rows (a year's when
// a yearly member spans it).
#pragma once

#include "domain/fidc/fidc_tables.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/ingest/inputs.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace lastro::funds {

struct FidcMember {
    sdk::InputFile file;  // file.display: "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_I_202401.csv"
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
    std::unique_ptr<sdk::ByteSource> Open(const FidcMember& member) const {
        return inputs_.Open(member.file);
    }

private:
    sdk::IngestInputs inputs_;
    std::vector<FidcMember> members_;
    std::vector<std::string> ignored_;
};

}  // namespace lastro::funds
