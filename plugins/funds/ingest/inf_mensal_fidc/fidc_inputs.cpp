#include "ingest/inf_mensal_fidc/fidc_inputs.hpp"

#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace lastro::funds {

namespace {

// Every name of the member pattern is the dataset's; which table it is (or none the catalog
// knows) is ParseMemberName's to say.
const sdk::DatasetLayout& FidcLayout() {
    static const sdk::DatasetLayout layout = [] {
        sdk::DatasetLayout l;
        l.dataset = "cvm.inf_mensal_fidc";
        l.expected = "inf_mensal_fidc_tab_<T>_YYYYMM.csv or inf_mensal_fidc_tab_<T>_YYYY.csv";
        l.refusal =
            "not a file of cvm.inf_mensal_fidc (expected inf_mensal_fidc_YYYYMM.zip, "
            "inf_mensal_fidc_YYYY.zip or "
            "inf_mensal_fidc_tab_<T>_YYYYMM.csv)";
        l.tables = {{"member", FidcMemberPattern()}};
        return l;
    }();
    return layout;
}

}  // namespace

FidcInputs::FidcInputs(const std::vector<std::filesystem::path>& inputs) : inputs_(inputs) {
    const sdk::DatasetLayout& layout = FidcLayout();
    const sdk::DatasetFiles files(inputs_, layout);
    ignored_ = files.Ignored();
    std::vector<std::size_t> tables_in_input(inputs_.Size(), 0);
    for (const sdk::TableFile& table : files.Tables()) {
        const FidcMemberName name = ParseMemberName(table.file.name);
        if (name.kind != FidcMemberName::Kind::kTable) {
            ignored_.push_back(table.file.display);
            continue;
        }
        members_.push_back({table.file, name});
        ++tables_in_input[table.file.input];
    }
    for (std::size_t input = 0; input < inputs_.Size(); ++input) {
        if (inputs_.IsArchive(input) && tables_in_input[input] == 0) {
            throw sdk::IngestError(
                inputs_.FileName(input), 0,
                "no member inf_mensal_fidc_tab_<T>_YYYYMM.csv (or _YYYY.csv) in the archive");
        }
    }
}

std::vector<FidcMemberGroup> FidcInputs::Groups() const {
    // A year with a yearly member is read as one group, so a month it spans is never split
    // between groups.
    std::set<int> yearly;
    for (const FidcMember& member : members_) {
        if (member.name.month == 0) {
            yearly.insert(member.name.year);
        }
    }
    std::map<std::pair<int, int>, FidcMemberGroup> groups;
    for (const FidcMember& member : members_) {
        const int month = yearly.contains(member.name.year) ? 0 : member.name.month;
        FidcMemberGroup& group = groups[{member.name.year, month}];
        if (group.members.empty()) {
            group.year = member.name.year;
            group.month = month;
            group.input_name = inputs_.FileName(member.file.input);
        }
        group.members.push_back(&member);
    }
    std::vector<FidcMemberGroup> ordered;
    for (auto& [period, group] : groups) {
        ordered.push_back(std::move(group));
    }
    return ordered;
}

}  // namespace lastro::funds
