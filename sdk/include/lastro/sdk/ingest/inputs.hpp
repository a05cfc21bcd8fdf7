// Input discovery (docs/ingest-kit.md): the files of an ingest arrive as zip archives, as the
// archives' members given loose, or as a mix. IngestInputs opens the archives and lists every
// data file; DatasetFiles recognises the dataset's tables among them by file-name pattern, reads
// the period (month or year) from the names, and refuses with the file named what is not the
// dataset's, given twice or missing.
#pragma once

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <boost/config.hpp>

#include <compare>
#include <cstddef>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk {

// The period a file name carries: a month, or a whole year (month 0).
struct BOOST_SYMBOL_VISIBLE Period {
    int year = 0;
    int month = 0;  // 1..12; 0 for the year

    bool IsYear() const { return month == 0; }
    std::string ToString() const;  // "2024-06" or "2024"
    std::string Digits() const;    // "202406" or "2024", as file names write it
    // "month 2024-06" or "year 2024", for messages.
    std::string Describe() const;
    auto operator<=>(const Period&) const = default;
};

// A file-name pattern. Literal text matches ignoring ASCII case; placeholders:
//   {YYYYMM}  a month (six digits, month 01..12)    {YYYY}    a year (four digits)
//   {PERIOD}  either of the two                     {NAME}    one or more characters, captured
// "inf_mensal_fidc_tab_{NAME}_{PERIOD}.csv" matches "inf_mensal_fidc_tab_X_1_202401.csv" with
// NAME "X_1" and period 2024-01. Only the last component of a path is matched ("DADOS/x.csv").
class BOOST_SYMBOL_VISIBLE NamePattern {
public:
    struct Match {
        std::string name;  // what {NAME} matched, as written; empty without {NAME}
        std::optional<Period> period;
    };

    // Throws std::invalid_argument for an unknown placeholder or two periods.
    explicit NamePattern(std::string pattern);

    const std::string& Text() const { return text_; }
    bool HasPeriod() const;
    std::optional<Match> Matches(std::string_view file_name) const;
    // The file name the pattern gives for `period` and `name`: "cda_fi_PL_202406.csv". A
    // {PERIOD} is written as the period is (month or year).
    std::string Format(const std::optional<Period>& period = std::nullopt, std::string_view name = {}) const;

private:
    enum class Kind { kLiteral, kMonth, kYear, kPeriod, kName };
    struct Part {
        Kind kind;
        std::string text;  // kLiteral
    };
    bool MatchFrom(std::size_t part, std::string_view rest, Match& match) const;

    std::string text_;
    std::vector<Part> parts_;
};

// One data file of an ingest: a loose input, or a member of an input archive.
struct BOOST_SYMBOL_VISIBLE InputFile {
    std::size_t input = 0;  // index into the ingest's inputs
    std::string member;     // path inside the archive; empty for a loose file
    std::string name;       // last path component: what patterns match
    std::string display;    // "archive.zip:member.csv" or "member.csv": the name messages and
                            // the opened ByteSource use
};

class BOOST_SYMBOL_VISIBLE IngestInputs {
public:
    // Opens every input named *.zip (any case) as an archive: IngestError naming it when it is
    // missing, not a zip or truncated.
    explicit IngestInputs(const std::vector<std::filesystem::path>& inputs);
    ~IngestInputs();
    IngestInputs(const IngestInputs&) = delete;
    IngestInputs& operator=(const IngestInputs&) = delete;

    std::size_t Size() const { return paths_.size(); }
    const std::filesystem::path& Path(std::size_t input) const { return paths_[input]; }
    std::string FileName(std::size_t input) const { return paths_[input].filename().string(); }
    bool IsArchive(std::size_t input) const { return archives_[input] != nullptr; }
    // Every loose input and every member of every archive (directories left out), in input
    // order, each archive's members in archive order.
    const std::vector<InputFile>& Files() const { return files_; }

    std::unique_ptr<ByteSource> Open(const InputFile& file) const;
    // The member's time stored in the archive, or the loose file's modification time.
    std::optional<std::time_t> ModifiedAt(const InputFile& file) const;

private:
    std::vector<std::filesystem::path> paths_;
    std::vector<std::unique_ptr<ZipArchive>> archives_;  // null for a loose file
    std::vector<InputFile> files_;
};

// A loose file's modification time; nullopt when it cannot be read.
BOOST_SYMBOL_VISIBLE std::optional<std::time_t> FileModifiedAt(const std::filesystem::path& path);

// One table of a dataset and how its files are named.
struct BOOST_SYMBOL_VISIBLE TableSpec {
    std::string id;        // the ingester's name for it: "PL", "BLC_1", "registro_fundo"
    NamePattern pattern;   // "cda_fi_PL_{YYYYMM}.csv"
    bool required = true;  // every period found (or the ingest, without a period) needs it
};

// What a dataset's inputs may hold.
struct BOOST_SYMBOL_VISIBLE DatasetLayout {
    std::string dataset;  // "cvm.cda_fi", for messages
    std::vector<TableSpec> tables;
    // What the dataset's files are, for messages: "cda_fi_YYYYMM.zip or its members ...".
    std::string expected;
    // Loose files of these names belong to the dataset but hold no table we read: they are
    // listed in Ignored() instead of refused.
    std::vector<NamePattern> ignored;
    // An archive named so promises its period: it must hold tables of that period and no other.
    std::optional<NamePattern> archive;
    // Archives must be named by `archive`; another name is refused like an unknown loose file.
    bool archive_name_required = false;
    // What a loose file (or an archive, with archive_name_required) that is not the dataset's is
    // told; default "not a file of <dataset> (expected <expected>)".
    std::string refusal;
};

// A file recognised as a table.
struct BOOST_SYMBOL_VISIBLE TableFile {
    std::size_t table = 0;  // index into DatasetLayout::tables
    InputFile file;
    std::optional<Period> period;
    std::string name;  // what the pattern's {NAME} matched
};

class BOOST_SYMBOL_VISIBLE DatasetFiles {
public:
    // Classifies every file of `inputs`. IngestError (naming the file) for a loose file that is
    // neither a table nor ignored, an archive holding no table, and an archive whose name
    // promises a period it does not hold or whose tables are of another period. Archive members
    // that are no table are ignored (Ignored()).
    DatasetFiles(const IngestInputs& inputs, DatasetLayout layout);

    const DatasetLayout& Layout() const { return layout_; }
    const TableSpec& Spec(const TableFile& file) const { return layout_.tables[file.table]; }
    // In input order, each archive's in archive order.
    const std::vector<TableFile>& Tables() const { return tables_; }
    // Display names of the ignored files.
    const std::vector<std::string>& Ignored() const { return ignored_; }
    // The periods found, ascending (empty when no pattern has a period).
    std::vector<Period> Periods() const;
    // The tables of `period` in the layout's table order (nullopt: the tables without period).
    std::vector<const TableFile*> TablesOf(const std::optional<Period>& period) const;

    // IngestError "<file>: given twice (in A and B)" when a table of one period is given twice.
    void RefuseRepeats() const;
    // IngestError when nothing was given ("no input files"), or when a period (or, without
    // periods, the ingest) lacks a required table, naming every missing file:
    // "cda_fi_202406.zip: month 2024-06 is incomplete: missing cda_fi_PL_202406.csv, ...".
    void RequireComplete() const;

private:
    void AddArchive(const IngestInputs& inputs, std::size_t input);
    std::optional<TableFile> Recognise(const InputFile& file) const;
    std::string Refusal() const;
    std::string MissingList(const std::optional<Period>& period,
                            const std::vector<const TableFile*>& present) const;

    DatasetLayout layout_;
    const IngestInputs& inputs_;
    std::vector<TableFile> tables_;
    std::vector<std::string> ignored_;
};

}  // namespace lastro::sdk
