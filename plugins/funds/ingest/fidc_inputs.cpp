#include "ingest/fidc_inputs.hpp"

#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

namespace lastro::funds {

namespace {

bool IsZipName(const std::string& name) {
    if (name.size() < 4) {
        return false;
    }
    std::string suffix = name.substr(name.size() - 4);
    std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return suffix == ".zip";
}

}  // namespace

FidcInputs::FidcInputs(const std::vector<std::filesystem::path>& inputs) {
    for (const std::filesystem::path& path : inputs) {
        const std::size_t input = paths_.size();
        const std::string file = path.filename().string();
        paths_.push_back(path);
        if (IsZipName(file)) {
            archives_.push_back(std::make_unique<sdk::ZipArchive>(path));
            std::size_t tables = 0;
            for (const std::string& entry : archives_.back()->Members()) {
                const FidcMemberName name = ParseMemberName(entry);
                const std::string display = file + ":" + entry;
                if (name.kind == FidcMemberName::Kind::kTable) {
                    members_.push_back({input, entry, display, name});
                    ++tables;
                } else {
                    ignored_.push_back(display);
                }
            }
            if (tables == 0) {
                throw sdk::IngestError(
                    file, 0, "no member inf_mensal_fidc_tab_<T>_YYYYMM.csv (or _YYYY.csv) in the archive");
            }
            continue;
        }
        archives_.push_back(nullptr);
        const FidcMemberName name = ParseMemberName(file);
        switch (name.kind) {
            case FidcMemberName::Kind::kTable:
                members_.push_back({input, std::string(), file, name});
                break;
            case FidcMemberName::Kind::kUnknownTable:
                ignored_.push_back(file);
                break;
            case FidcMemberName::Kind::kOther:
                throw sdk::IngestError(
                    file, 0,
                    "not a file of cvm.inf_mensal_fidc (expected inf_mensal_fidc_YYYYMM.zip, "
                    "inf_mensal_fidc_YYYY.zip or inf_mensal_fidc_tab_<T>_YYYYMM.csv)");
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
            group.input_name = paths_[member.input].filename().string();
        }
        group.members.push_back(&member);
    }
    std::vector<FidcMemberGroup> ordered;
    for (auto& [period, group] : groups) {
        ordered.push_back(std::move(group));
    }
    return ordered;
}

std::unique_ptr<sdk::ByteSource> FidcInputs::Open(const FidcMember& member) const {
    if (const auto& archive = archives_[member.input]) {
        return archive->Open(member.entry);
    }
    return sdk::OpenFile(paths_[member.input]);
}

}  // namespace lastro::funds
