// Test support for cvm.cad_fi_hist: the legacy history's members written in CVM's real formats
// (ISO-8859-1, ';', the published headers), the funds plugin's sample universe the sample writer
// builds on, the plugin database with the industry schema, and the ingester run as the host runs it.
#pragma once

#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "ingest/cad_fi_hist/cad_fi_hist_layout.hpp"
#include "ingest/cad_fi_hist/manager_history_ingester.hpp"

#include <lastro/funds/sample_universe.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lastro::industry::testing {

namespace fs = std::filesystem;
using sdk::testing::AllRows;

class IndustryDatabase : public sdk::testing::PluginDatabase {
public:
    IndustryDatabase() : PluginDatabase("industry") {}
};

// A local wall-clock time (zip members store local time; the release is dated in the local
// calendar).
inline std::time_t LocalTime(int year, int month, int day, int hour = 10) {
    std::tm local{};
    local.tm_year = year - 1900;
    local.tm_mon = month - 1;
    local.tm_mday = day;
    local.tm_hour = hour;
    local.tm_isdst = -1;
    return std::mktime(&local);
}

// The ingest's clock: later than every file the tests write.
inline std::time_t IngestClock() {
    return LocalTime(2026, 11, 2, 12);
}

// Runs the manager history ingester in one write transaction, as the host does.
inline sdk::IngestSummary Ingest(odb::database& db, const std::vector<fs::path>& inputs,
                                 sdk::IngestProgress* progress = nullptr) {
    ManagerHistoryIngester ingester;
    return sdk::testing::RunIngest(ingester, db, std::string(kManagerHistoryDataset), inputs, IngestClock(),
                                   progress);
}

template <std::size_t N>
std::string JoinColumns(const std::array<std::string_view, N>& columns) {
    std::string line;
    for (std::string_view column : columns) {
        line += (line.empty() ? "" : ";") + std::string(column);
    }
    return line;
}

// The lines of a CSV file (UTF-8 text) as CVM's bytes: ISO-8859-1, CRLF line ends.
inline std::string CvmBytes(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) {
        text += line + "\r\n";
    }
    return sdk::Utf8ToLatin1(text);
}

using Fields = std::map<std::string, std::string>;

// One line in `header`'s order; columns not given are empty.
inline std::string Line(const std::vector<std::string>& header, const Fields& fields) {
    std::string line;
    std::size_t used = 0;
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (i > 0) {
            line += ';';
        }
        if (auto it = fields.find(header[i]); it != fields.end()) {
            line += it->second;
            ++used;
        }
    }
    EXPECT_EQ(used, fields.size()) << "a field name is not in the header: " << line;
    return line;
}

// cad_fi_hist_gestor.csv as lines (UTF-8), header first; `header` defaults to the published one.
struct ManagerFile {
    std::vector<std::string> header{kManagerColumns.begin(), kManagerColumns.end()};
    std::vector<std::string> lines{JoinColumns(kManagerColumns)};

    void Spell(const Fields& fields) { lines.push_back(Line(header, fields)); }
    std::string Bytes() const { return CvmBytes(lines); }
};

// Another member of the zip, with rows that are no manager spells.
inline std::string AdministratorBytes() {
    return CvmBytes({JoinColumns(kAdministratorColumns),
                     "12.345.678/0001-95;2015-03-02;11.111.111/0001-91;ADMINISTRADORA BETA S.A.;2015-03-02;",
                     "33.333.333/0001-91;2010-01-04;11.111.111/0001-91;ADMINISTRADORA BETA S.A.;2010-01-04;"
                     "2020-01-01"});
}
inline std::string SituationBytes() {
    return CvmBytes({JoinColumns(kSituationColumns),
                     "12.345.678/0001-95;2015-03-02;EM FUNCIONAMENTO NORMAL;2015-03-02;",
                     "33.333.333/0001-91;2010-01-04;CANCELADA;2021-05-03;"});
}

// Writes `bytes` to dir/name with its modification time at `modified`.
inline fs::path WriteLoose(const fs::path& dir, const std::string& name, const std::string& bytes,
                           std::time_t modified = LocalTime(2026, 10, 14, 6)) {
    const fs::path path = dir / name;
    sdk::testing::WriteFile(path, bytes);
    fs::last_write_time(path, std::chrono::clock_cast<std::chrono::file_clock>(
                                  std::chrono::system_clock::from_time_t(modified)));
    return path;
}

// A zip of (name, bytes) members, each stamped `modified`.
inline fs::path WriteZip(const fs::path& dir, const std::string& name,
                         const std::vector<std::pair<std::string, std::string>>& members,
                         std::time_t modified = LocalTime(2026, 10, 14, 6)) {
    const fs::path path = dir / name;
    sdk::ZipWriter zip(path);
    for (const auto& [member, bytes] : members) {
        zip.Add(member, bytes, modified);
    }
    zip.Close();
    return path;
}

// ---------------------------------------------------------------------------------------------
// The funds plugin's sample universe, for the sample writer: the registry's funds as the funds
// sample writer publishes them (<lastro/funds/sample_universe.hpp>), merged by CNPJ.

// A CNPJ (14 digits) made from a number: its 12 first digits and their check digits.
inline std::string TestCnpj(std::uint64_t n) {
    std::string twelve = std::to_string(n);
    twelve.insert(0, 12 - twelve.size(), '0');
    return sdk::CnpjWithCheckDigits(twelve);
}

// A universe of `fidc_funds` FIDC-family funds (FIDC, FIDC-NP, FIC-FIDC in turn) and 12 of other
// types, drawn by formula: registrations 2008..2023, most adapted to RCVM 175 between 2023-10-02
// and 2025-06-30, some cancelled before it, some in liquidation never adapted, some registered
// under RCVM 175; fund 7 has no manager; six managers, one a natural person. The registry's day
// is 2026-10-14 and the FIDC reports cover 2023-09 .. 2026-08, as in the funds sample by default.
inline std::shared_ptr<funds::SampleUniverse> TestUniverse(std::size_t fidc_funds) {
    static constexpr std::array<std::array<std::string_view, 3>, 6> kManagers{{
        {"PJ", "22222222000191", "GESTORA AÇÃO LTDA"},
        {"PJ", "13131313000120", "ÉPSILON GESTÃO DE RECURSOS S.A."},
        {"PJ", "12121212000106", "GESTORA SIGMA"},
        {"PF", "12345678909", "Maria da Conceição"},
        {"PJ", "10101010000177", "OMEGA CAPITAL"},
        {"PJ", "20202020000152", "KAPPA INVESTIMENTOS LTDA"},
    }};
    static constexpr std::array<std::string_view, 3> kTypes{"FIDC", "FIDC-NP", "FIC-FIDC"};
    auto universe = std::make_shared<funds::SampleUniverse>();
    universe->reference_day = sdk::Date{2026, 10, 14};
    universe->first_report_month = sdk::Month{2023, 9};
    universe->last_report_month = sdk::Month{2026, 8};
    const std::size_t total = fidc_funds + 12;
    for (std::size_t i = 0; i < total; ++i) {
        const bool fidc = i < fidc_funds;
        const auto& manager = kManagers[(i * 5 + i / 7) % kManagers.size()];
        funds::SampleFund fund;
        fund.cnpj = TestCnpj(100000000000ULL + i * 7919);
        fund.fund_type = fidc ? std::string(kTypes[i % 3]) : (i % 2 ? "FI" : "FII");
        fund.name = "FUNDO " + std::to_string(i) + (fidc ? " DE DIREITOS CREDITÓRIOS" : "");
        fund.administrator_cnpj = "11111111000191";
        fund.administrator = "ADMINISTRADORA BETA S.A.";
        if (!(fidc && i == 7)) {
            fund.manager_person_type = std::string(manager[0]);
            fund.manager_document = std::string(manager[1]);
            fund.manager = std::string(manager[2]);
        }
        const int year = 2008 + static_cast<int>(i % 16);  // 2008..2023
        const int month = 1 + static_cast<int>(i % 9);     // January..September
        fund.registered = sdk::Date{year, month, 20};
        if (i % 13 == 6) {  // registered under RCVM 175
            fund.registered = sdk::Date{2024, 3, 11};
        } else if (i % 10 == 3 && year < 2020) {
            fund.cancelled = sdk::Date{year + 3, 4, 15};
        } else if (i % 17 == 5) {
            // in liquidation, never adapted
        } else {
            const auto days = static_cast<std::int64_t>((i * 37) % 637);  // to 2025-06-30
            fund.adapted = sdk::sample::AddDays(sdk::Date{2023, 10, 2}, days);
        }
        universe->funds.push_back(std::move(fund));
    }
    std::sort(universe->funds.begin(), universe->funds.end(),
              [](const funds::SampleFund& a, const funds::SampleFund& b) { return a.cnpj < b.cnpj; });
    return universe;
}

// The sample writer's request for `dir`, carrying `universe` as `lastro sample` passes funds'.
inline sdk::SampleRequest SampleRequestWith(const fs::path& dir, std::uint64_t seed, sdk::SampleScale scale,
                                            std::shared_ptr<const sdk::SampleUniverse> universe) {
    sdk::SampleRequest request{dir, seed, scale};
    if (universe) {
        request.universes.push_back(std::move(universe));
    }
    return request;
}

// Every record of a CSV member of `zip` (CVM's format) as column -> text, in file order.
inline std::vector<Fields> MemberRows(const fs::path& zip, const std::string& member) {
    const sdk::ZipArchive archive(zip);
    sdk::CvmCsvReader reader(archive.Open(member));
    std::vector<Fields> rows;
    while (reader.Next()) {
        EXPECT_FALSE(reader.FieldCountProblem().has_value()) << member << " line " << reader.Line();
        Fields row;
        for (std::size_t i = 0; i < reader.Header().size(); ++i) {
            row[reader.Header()[i]] = std::string(reader.Field(i));
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

// The header of a CSV member of `zip`.
inline std::vector<std::string> MemberHeader(const fs::path& zip, const std::string& member) {
    const sdk::ZipArchive archive(zip);
    const sdk::CvmCsvReader reader(archive.Open(member));
    return reader.Header();
}

}  // namespace lastro::industry::testing
