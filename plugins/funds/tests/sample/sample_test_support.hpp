// Test helpers: the default sample rendered once per test process, files and zip members read
// back, and exact decimal parsing for recomputing the identities from the printed text.
#pragma once

#include "csv_test_support.hpp"
#include "sample/anbima_writer.hpp"
#include "sample/cda_writer.hpp"
#include "sample/documents_writer.hpp"
#include "sample/fidc_report_writer.hpp"
#include "sample/monthly_history.hpp"
#include "sample/registry_writer.hpp"
#include "sample/sample.hpp"
#include "sample/universe.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lastro::funds::sample::testing {

namespace fs = std::filesystem;

inline std::string ReadBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline std::string ReadAll(sdk::ByteSource& source) {
    std::string bytes;
    char buffer[1 << 16];
    while (const std::size_t n = source.Read(buffer, sizeof buffer)) {
        bytes.append(buffer, n);
    }
    return bytes;
}

inline std::string ReadMember(const fs::path& zip_path, const std::string& member) {
    sdk::ZipArchive zip(zip_path);
    auto source = zip.Open(member);
    return ReadAll(*source);
}

inline std::string Yyyymm(const sdk::Month& month) {
    char text[16];
    std::snprintf(text, sizeof text, "%04d%02d", month.year, month.month);
    return text;
}

// A decimal as printed ("-12.3400"), scaled to `decimals` places; nullopt for an empty field.
// Throws on anything else, so a malformed number fails the test that reads it.
inline std::optional<__int128> Fixed(std::string_view text, int decimals) {
    if (text.empty()) {
        return std::nullopt;
    }
    bool negative = false;
    if (text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    __int128 value = 0;
    int fraction = -1;
    for (char c : text) {
        if (c == '.' && fraction < 0) {
            fraction = 0;
            continue;
        }
        if (c < '0' || c > '9') {
            throw std::invalid_argument("not a decimal: " + std::string(text));
        }
        if (fraction >= decimals) {
            throw std::invalid_argument("more than " + std::to_string(decimals) +
                                        " decimals: " + std::string(text));
        }
        value = value * 10 + (c - '0');
        if (fraction >= 0) {
            ++fraction;
        }
    }
    for (int i = fraction < 0 ? 0 : fraction; i < decimals; ++i) {
        value *= 10;
    }
    return negative ? -value : value;
}

// Cents of a money field (0 when empty: for sums where an empty part adds nothing).
inline __int128 Cents(std::string_view text) {
    return Fixed(text, 2).value_or(0);
}

// The default sample's files, rendered in memory on first use (the same bytes WriteSample
// writes, without the zips; sample_test.cpp checks that the written files hold them).
class DefaultSample {
public:
    static DefaultSample& Get() {
        static DefaultSample sample;
        return sample;
    }

    const Universe& TheUniverse() const { return universe_; }
    const History& TheHistory() const { return history_; }

    // A plain file of the sample (registro_*.csv, eventual_fi_YYYY.csv): raw bytes.
    const std::string& Bytes(const std::string& name) {
        if (files_.empty()) {
            RegistryFiles registry = RenderRegistry(universe_);
            files_["registro_fundo.csv"] = std::move(registry.funds);
            files_["registro_classe.csv"] = std::move(registry.classes);
            files_["registro_subclasse.csv"] = std::move(registry.subclasses);
            DocumentFiles documents = RenderDocuments(universe_);
            documents_ = documents.documents;
            for (ArchiveMember& file : documents.files) {
                files_[file.name] = std::move(file.bytes);
            }
            AnbimaFile anbima = RenderAnbimaSubclasses(universe_);
            anbima_rows_ = anbima.rows;
            files_[std::string(kAnbimaFileName)] = std::move(anbima.bytes);
        }
        return files_.at(name);
    }
    // The same, parsed as ISO-8859-1.
    const ParsedCsv& File(const std::string& name) {
        auto found = parsed_.find(name);
        if (found == parsed_.end()) {
            found = parsed_.emplace(name, ParseLatin1Csv(Bytes(name))).first;
        }
        return found->second;
    }
    std::size_t Documents() {
        Bytes("registro_fundo.csv");
        return documents_;
    }
    std::size_t AnbimaRows() {
        Bytes("registro_fundo.csv");
        return anbima_rows_;
    }

    // A FIDC monthly report table ("I", "X_1_1", ...) of a month: raw bytes, and parsed.
    const std::string& FidcBytes(std::string_view table, const sdk::Month& month) {
        const std::string name = "inf_mensal_fidc_tab_" + std::string(table) + "_" + Yyyymm(month) + ".csv";
        if (!members_.count(name)) {
            for (ArchiveMember& member : RenderFidcMonth(history_, universe_.administrators, month).members) {
                members_[member.name] = std::move(member.bytes);
            }
        }
        return members_.at(name);
    }
    const ParsedCsv& Fidc(std::string_view table, const sdk::Month& month) {
        const std::string name = "inf_mensal_fidc_tab_" + std::string(table) + "_" + Yyyymm(month) + ".csv";
        auto found = parsed_.find(name);
        if (found == parsed_.end()) {
            found = parsed_.emplace(name, ParseLatin1Csv(FidcBytes(table, month))).first;
        }
        return found->second;
    }

    // A member already rendered (by FidcBytes or Cda), by its name in the zip.
    const std::string& Member(const std::string& name) const { return members_.at(name); }
    bool HasMember(const std::string& name) const { return members_.count(name) > 0; }

    // A CDA member ("BLC_2", "PL", "CONFID", "fie") of a month, parsed.
    const ParsedCsv& Cda(std::string_view member, const sdk::Month& month) {
        const std::string name = member == "fie"
                                     ? "cda_fie_" + Yyyymm(month) + ".csv"
                                     : "cda_fi_" + std::string(member) + "_" + Yyyymm(month) + ".csv";
        if (!members_.count(name)) {
            for (CdaMonth& rendered : RenderCda(universe_, history_)) {
                for (ArchiveMember& file : rendered.members) {
                    members_[file.name] = std::move(file.bytes);
                }
            }
        }
        auto found = parsed_.find(name);
        if (found == parsed_.end()) {
            found = parsed_.emplace(name, ParseLatin1Csv(members_.at(name))).first;
        }
        return found->second;
    }

    DefaultSample(const DefaultSample&) = delete;
    DefaultSample& operator=(const DefaultSample&) = delete;

private:
    DefaultSample() : universe_(BuildUniverse(kDefaultSeed)), history_(BuildHistory(universe_)) {}

    Universe universe_;
    History history_;
    std::map<std::string, std::string> files_;
    std::map<std::string, std::string> members_;
    std::map<std::string, ParsedCsv> parsed_;
    std::size_t documents_ = 0;
    std::size_t anbima_rows_ = 0;
};

}  // namespace lastro::funds::sample::testing
