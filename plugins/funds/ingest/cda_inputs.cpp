#include "ingest/cda_inputs.hpp"
#include "ingest/field_text.hpp"

#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

namespace lastro::funds {

namespace {

namespace fs = std::filesystem;

// "202406" -> 2024-06.
std::optional<sdk::Month> MonthOfDigits(std::string_view yyyymm) {
    if (yyyymm.size() != 6 || !AllDigits(yyyymm)) {
        return std::nullopt;
    }
    return sdk::Month::Parse(std::string(yyyymm.substr(0, 4)) + "-" + std::string(yyyymm.substr(4)));
}

// The month of "<prefix>_YYYYMM.<extension>" (lower case), with the prefix split off.
std::optional<std::pair<std::string, sdk::Month>> SplitMonth(std::string_view lower,
                                                             std::string_view extension) {
    if (!lower.ends_with(extension)) {
        return std::nullopt;
    }
    const std::string_view stem = lower.substr(0, lower.size() - extension.size());
    if (stem.size() < 8 || stem[stem.size() - 7] != '_') {
        return std::nullopt;
    }
    auto month = MonthOfDigits(stem.substr(stem.size() - 6));
    if (!month) {
        return std::nullopt;
    }
    return std::make_pair(std::string(stem.substr(0, stem.size() - 7)), *month);
}

std::string Digits(const sdk::Month& month) {
    std::string text = month.ToString();
    text.erase(4, 1);
    return text;
}

// Reading order within a month: PL first (it names the holders), then the blocks.
int Rank(const CdaMember& member) {
    switch (member.kind) {
        case CdaMemberKind::kPl:
            return 0;
        case CdaMemberKind::kBlock:
            return member.block;
        case CdaMemberKind::kFie:
            return 9;
        case CdaMemberKind::kConfidential:
            return 10;
        case CdaMemberKind::kFieConfidential:
            return 11;
    }
    return 12;
}

}  // namespace

std::optional<CdaMember> ParseCdaMemberName(std::string_view name) {
    auto split = SplitMonth(LowerAscii(name), ".csv");
    if (!split) {
        return std::nullopt;
    }
    const auto& [prefix, month] = *split;
    CdaMember member;
    member.name = std::string(name);
    member.month = month;
    if (prefix == "cda_fi_pl") {
        member.kind = CdaMemberKind::kPl;
    } else if (prefix == "cda_fie") {
        member.kind = CdaMemberKind::kFie;
        member.block = 9;
    } else if (prefix == "cda_fi_confid") {
        member.kind = CdaMemberKind::kConfidential;
    } else if (prefix == "cda_fie_confid") {
        member.kind = CdaMemberKind::kFieConfidential;
    } else if (prefix.size() == 12 && prefix.starts_with("cda_fi_blc_") && prefix[11] >= '1' &&
               prefix[11] <= '8') {
        member.kind = CdaMemberKind::kBlock;
        member.block = prefix[11] - '0';
    } else {
        return std::nullopt;
    }
    return member;
}

std::string CdaPositionBlock(const CdaMember& member) {
    return member.kind == CdaMemberKind::kFie ? "FIE" : "BLC_" + std::to_string(member.block);
}

CdaInputs::CdaInputs(const std::vector<fs::path>& inputs) {
    for (const fs::path& path : inputs) {
        const std::string name = path.filename().string();
        const std::size_t index = inputs_.size();
        if (LowerAscii(name).ends_with(".zip")) {
            inputs_.push_back({path, std::make_unique<sdk::ZipArchive>(path)});
            // A name such as cda_fi_202406.zip promises its month; other names are taken as is.
            const auto named = SplitMonth(LowerAscii(name), ".zip");
            const std::optional<sdk::Month> archive_month =
                named && named->first == "cda_fi" ? std::optional(named->second) : std::nullopt;
            bool any = false;
            for (const std::string& entry : inputs_.back().zip->Members()) {
                // Other members (none today) are not CDA data and are left alone.
                auto member = ParseCdaMemberName(fs::path(entry).filename().string());
                if (!member) {
                    continue;
                }
                if (archive_month && member->month != *archive_month) {
                    throw sdk::IngestError(name, 0,
                                           "member " + entry + " is not of month " +
                                               archive_month->ToString() + " of the archive");
                }
                member->name = entry;
                member->input = index;
                Add(std::move(*member));
                any = true;
            }
            if (!any) {
                throw sdk::IngestError(name, 0, "no CDA member (cda_fi_BLC_1_YYYYMM.csv ...) in the archive");
            }
            continue;
        }
        auto member = ParseCdaMemberName(name);
        if (!member) {
            throw sdk::IngestError(
                name, 0,
                "not a file of cvm.cda_fi (expected cda_fi_YYYYMM.zip or its members "
                "cda_fi_BLC_1_YYYYMM.csv ... cda_fi_BLC_8_YYYYMM.csv, cda_fi_PL_YYYYMM.csv, "
                "cda_fie_YYYYMM.csv, cda_fi_CONFID_YYYYMM.csv, cda_fie_CONFID_YYYYMM.csv)");
        }
        inputs_.push_back({path, nullptr});
        member->input = index;
        Add(std::move(*member));
    }
    if (months_.empty()) {
        throw sdk::IngestError("cvm.cda_fi", 0, "no input files");
    }
    for (auto& [month, members] : months_) {
        std::sort(members.begin(), members.end(),
                  [](const CdaMember& a, const CdaMember& b) { return Rank(a) < Rank(b); });
    }
    CheckComplete();
}

void CdaInputs::Add(CdaMember member) {
    std::vector<CdaMember>& members = months_[member.month];
    for (const CdaMember& other : members) {
        if (other.kind == member.kind && other.block == member.block) {
            throw sdk::IngestError(fs::path(member.name).filename().string(), 0,
                                   "given twice (in " + inputs_[other.input].path.filename().string() +
                                       " and " + inputs_[member.input].path.filename().string() + ")");
        }
    }
    members.push_back(std::move(member));
}

void CdaInputs::CheckComplete() const {
    for (const auto& [month, members] : months_) {
        std::set<int> present;
        for (const CdaMember& member : members) {
            if (member.kind == CdaMemberKind::kPl) {
                present.insert(0);
            } else if (member.kind == CdaMemberKind::kBlock) {
                present.insert(member.block);
            }
        }
        std::string missing;
        const std::string digits = Digits(month);
        for (int block = 0; block <= 8; ++block) {
            if (present.count(block) == 0) {
                missing += (missing.empty() ? "" : ", ") +
                           (block == 0 ? "cda_fi_PL_" + digits + ".csv"
                                       : "cda_fi_BLC_" + std::to_string(block) + "_" + digits + ".csv");
            }
        }
        if (!missing.empty()) {
            const std::string source = inputs_[members.front().input].path.filename().string();
            throw sdk::IngestError(source, 0,
                                   "month " + month.ToString() + " is incomplete: missing " + missing);
        }
    }
}

std::unique_ptr<sdk::ByteSource> CdaInputs::Open(const CdaMember& member) const {
    const Input& input = inputs_[member.input];
    return input.zip ? input.zip->Open(member.name) : sdk::OpenFile(input.path);
}

}  // namespace lastro::funds
