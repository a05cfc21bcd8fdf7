// Test support for cvm.eventual_fi: eventual_fi_YYYY files in CVM's real format (ISO-8859-1,
// ';', CRLF, the real header of ../shared/datasets/real/cvm_headers/eventual_fi_header.csv), as
// CSV or zip, and the ingester run in one write transaction as the host runs it.
#pragma once

#include "ingest/eventual_fi/documents_ingester.hpp"
#include "layouts/eventual_fi.hpp"
#include "registry_fixture.hpp"
#include "src/class_reports.hpp"

#include <string>
#include <vector>

namespace lastro::funds::testing {

inline const std::vector<std::string> kEventualHeader(kEventualColumns.begin(), kEventualColumns.end());

// One yearly file as text lines (UTF-8), header first.
struct EventualFile {
    std::vector<std::string> lines{Join(kEventualHeader)};

    void Row(const Fields& fields) { lines.push_back(Line(kEventualHeader, fields)); }

    std::string Bytes() const {
        std::string text;
        for (const std::string& line : lines) {
            text += line + "\r\n";
        }
        return sdk::Utf8ToLatin1(text);
    }

    fs::path WriteCsv(const fs::path& dir, const std::string& name) const {
        WriteFile(dir / name, Bytes());
        return dir / name;
    }

    // eventual_fi_YYYY.zip holding `member` (normally eventual_fi_YYYY.csv).
    fs::path WriteZip(const fs::path& dir, const std::string& name, const std::string& member) const {
        sdk::ZipWriter zip(dir / name);
        zip.Add(member, Bytes(), SnapshotTime());
        zip.Close();
        return dir / name;
    }
};

inline sdk::IngestSummary IngestDocuments(odb::database& db, const std::vector<fs::path>& inputs) {
    DocumentsIngester ingester;
    return sdk::testing::RunIngest(ingester, db, std::string(kDocumentsDataset), inputs, SnapshotTime());
}

}  // namespace lastro::funds::testing
