// Test support for cvm.cda_fi: CDA members written in CVM's real format (ISO-8859-1, ';', CRLF,
// the headers of FORMATS section 4), as a cda_fi_YYYYMM.zip or loose CSVs, and the ingester run
// in one write transaction as the host runs it.
#pragma once

#include "ingest/cda_fi/cda_ingester.hpp"
#include "layouts/cda_fi.hpp"
#include "registry_fixture.hpp"
#include "src/class_reports.hpp"

#include <lastro/sdk/text.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds::testing {

inline std::vector<std::string> Concat(std::initializer_list<std::vector<std::string_view>> parts) {
    std::vector<std::string> all;
    for (const auto& part : parts) {
        all.insert(all.end(), part.begin(), part.end());
    }
    return all;
}

// The header of each member kind, by the member's prefix ("cda_fi_BLC_4"): the published ones
// (layouts/cda_fi.hpp).
inline std::map<std::string, std::vector<std::string>> CdaHeaders() {
    std::map<std::string, std::vector<std::string>> headers;
    for (int block = 1; block <= 8; ++block) {
        const std::string member = "BLC_" + std::to_string(block);
        headers["cda_fi_" + member] = Concat({CdaColumns(member)});
    }
    // BLC_1 in another column order than the others: columns are found by name.
    headers["cda_fi_BLC_1"] = Concat({{kCdaBlc1Columns.begin(), kCdaBlc1Columns.end()},
                                      {kCdaPositionColumns.begin(), kCdaPositionColumns.end()},
                                      {kCdaKeyColumns.begin(), kCdaKeyColumns.end()}});
    headers["cda_fi_PL"] = Concat({CdaColumns("PL")});
    headers["cda_fie"] = Concat({CdaColumns("fie")});
    headers["cda_fi_CONFID"] = Concat({CdaColumns("CONFID")});
    headers["cda_fie_CONFID"] = Concat({CdaColumns("CONFID")});
    return headers;
}

// One month of CDA members as text lines (UTF-8), header first; written as ISO-8859-1 + CRLF.
class CdaMonth {
public:
    // `yyyymm` as in the file names: "202406". Every required member starts with its header
    // only; fie and the CONFID members exist once a row is added.
    explicit CdaMonth(std::string yyyymm) : yyyymm_(std::move(yyyymm)) {
        for (const char* prefix :
             {"cda_fi_PL", "cda_fi_BLC_1", "cda_fi_BLC_2", "cda_fi_BLC_3", "cda_fi_BLC_4", "cda_fi_BLC_5",
              "cda_fi_BLC_6", "cda_fi_BLC_7", "cda_fi_BLC_8"}) {
            Ensure(prefix);
        }
    }

    const std::string& Digits() const { return yyyymm_; }
    std::string MemberName(const std::string& prefix) const { return prefix + "_" + yyyymm_ + ".csv"; }

    // Adds a row to the member `prefix` ("cda_fi_BLC_4"); columns not given are empty.
    void Row(const std::string& prefix, const Fields& fields) {
        Ensure(prefix);
        members_[prefix].push_back(Line(CdaHeaders().at(prefix), fields));
    }
    // Adds a line as is (a wrong field count, a repeated line).
    void RawLine(const std::string& prefix, const std::string& line) {
        Ensure(prefix);
        members_[prefix].push_back(line);
    }
    // Replaces the member's header (a missing or renamed column).
    void SetHeader(const std::string& prefix, const std::vector<std::string>& header) {
        Ensure(prefix);
        members_[prefix].front() = Join(header);
    }
    void Remove(const std::string& prefix) { members_.erase(prefix); }
    const std::vector<std::string>& Lines(const std::string& prefix) const { return members_.at(prefix); }

    static std::string Bytes(const std::vector<std::string>& lines) {
        std::string text;
        for (const std::string& line : lines) {
            text += line + "\r\n";
        }
        return sdk::Utf8ToLatin1(text);
    }

    fs::path WriteZip(const fs::path& dir) const {
        const fs::path path = dir / ("cda_fi_" + yyyymm_ + ".zip");
        sdk::ZipWriter zip(path);
        for (const auto& [prefix, lines] : members_) {
            zip.Add(MemberName(prefix), Bytes(lines), SnapshotTime());
        }
        zip.Close();
        return path;
    }

    std::vector<fs::path> WriteLoose(const fs::path& dir) const {
        std::vector<fs::path> paths;
        for (const auto& [prefix, lines] : members_) {
            paths.push_back(dir / MemberName(prefix));
            WriteFile(paths.back(), Bytes(lines));
        }
        return paths;
    }

private:
    void Ensure(const std::string& prefix) {
        if (members_.count(prefix) == 0) {
            members_[prefix] = {Join(CdaHeaders().at(prefix))};
        }
    }

    std::string yyyymm_;
    std::map<std::string, std::vector<std::string>> members_;
};

// Runs the CDA ingester in one write transaction, as the host does: a throw rolls it back.
inline sdk::IngestSummary IngestCda(odb::database& db, const std::vector<fs::path>& inputs,
                                    sdk::IngestProgress* progress = nullptr) {
    CdaIngester ingester;
    return sdk::testing::RunIngest(ingester, db, std::string(kCdaDataset), inputs, SnapshotTime(), progress);
}

}  // namespace lastro::funds::testing
