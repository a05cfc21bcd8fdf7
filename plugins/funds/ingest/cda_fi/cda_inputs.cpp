#include "ingest/cda_fi/cda_inputs.hpp"

#include <lastro/sdk/problem.hpp>

namespace lastro::funds {

namespace {

struct MemberTable {
    CdaMemberKind kind;
    int block;
};

// The tables in reading order: PL first (it names the holders), then the blocks. The table ids
// are the member names' own words.
const sdk::DatasetLayout& CdaLayout() {
    static const sdk::DatasetLayout layout = [] {
        sdk::DatasetLayout l;
        l.dataset = "cvm.cda_fi";
        l.expected =
            "cda_fi_YYYYMM.zip or its members cda_fi_BLC_1_YYYYMM.csv ... cda_fi_BLC_8_YYYYMM.csv, "
            "cda_fi_PL_YYYYMM.csv, cda_fie_YYYYMM.csv, cda_fi_CONFID_YYYYMM.csv, cda_fie_CONFID_YYYYMM.csv";
        l.tables.push_back({"PL", sdk::NamePattern("cda_fi_PL_{YYYYMM}.csv")});
        for (int block = 1; block <= 8; ++block) {
            const std::string id = "BLC_" + std::to_string(block);
            l.tables.push_back({id, sdk::NamePattern("cda_fi_" + id + "_{YYYYMM}.csv")});
        }
        l.tables.push_back({"fie", sdk::NamePattern("cda_fie_{YYYYMM}.csv"), false});
        l.tables.push_back({"CONFID", sdk::NamePattern("cda_fi_CONFID_{YYYYMM}.csv"), false});
        l.tables.push_back({"fie_CONFID", sdk::NamePattern("cda_fie_CONFID_{YYYYMM}.csv"), false});
        // A name such as cda_fi_202406.zip promises its month; other names are taken as is.
        l.archive = sdk::NamePattern("cda_fi_{YYYYMM}.zip");
        return l;
    }();
    return layout;
}

// The member kind of CdaLayout().tables[table].
MemberTable KindOf(std::size_t table) {
    if (table == 0) {
        return {CdaMemberKind::kPl, 0};
    }
    if (table <= 8) {
        return {CdaMemberKind::kBlock, static_cast<int>(table)};
    }
    if (table == 9) {
        return {CdaMemberKind::kFie, 9};
    }
    return {table == 10 ? CdaMemberKind::kConfidential : CdaMemberKind::kFieConfidential, 0};
}

CdaMember MemberOf(const sdk::TableFile& table) {
    const MemberTable kind = KindOf(table.table);
    return {table.file, kind.kind, kind.block, {table.period->year, table.period->month}};
}

}  // namespace

std::optional<CdaMember> ParseCdaMemberName(std::string_view name) {
    const auto& tables = CdaLayout().tables;
    for (std::size_t i = 0; i < tables.size(); ++i) {
        if (auto match = tables[i].pattern.Matches(name)) {
            sdk::InputFile file;
            file.name = file.display = std::string(name);
            return MemberOf({i, std::move(file), match->period, {}});
        }
    }
    return std::nullopt;
}

std::string CdaPositionBlock(const CdaMember& member) {
    return member.kind == CdaMemberKind::kFie ? "FIE" : "BLC_" + std::to_string(member.block);
}

CdaInputs::CdaInputs(const std::vector<std::filesystem::path>& inputs) : inputs_(inputs) {
    const sdk::DatasetFiles files(inputs_, CdaLayout());
    files.RefuseRepeats();
    files.RequireComplete();
    for (const sdk::Period& period : files.Periods()) {
        std::vector<CdaMember>& members = months_[{period.year, period.month}];
        for (const sdk::TableFile* table : files.TablesOf(period)) {
            members.push_back(MemberOf(*table));
        }
    }
}

}  // namespace lastro::funds
