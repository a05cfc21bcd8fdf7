#include "ingest/documents_ingester.hpp"
#include "ingest/field_text.hpp"

#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/documents_category.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lastro::funds {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxRejections = 20;
constexpr std::size_t kProgressEvery = 5000;

using DocumentQuery = odb::query<FundDocument>;

// ---------------------------------------------------------------------------------------------
// Inputs: eventual_fi_YYYY.csv or eventual_fi_YYYY.zip (member eventual_fi_YYYY.csv).

class YearFile {
public:
    explicit YearFile(const fs::path& path) : path_(path) {
        const std::string name = path.filename().string();
        const std::string lower = LowerAscii(name);
        constexpr std::string_view kPrefix = "eventual_fi_";
        const bool zip = lower.ends_with(".zip");
        const std::string_view stem =
            std::string_view(lower).substr(0, lower.size() >= 4 ? lower.size() - 4 : 0);
        const std::string_view digits = stem.starts_with(kPrefix) ? stem.substr(kPrefix.size()) : "";
        if (!(zip || lower.ends_with(".csv")) || digits.size() != 4 || !AllDigits(digits) ||
            !sdk::Month::Parse(std::string(digits) + "-01")) {
            throw sdk::IngestError(name, 0,
                                   "the file name carries no year (expected eventual_fi_YYYY.csv or "
                                   "eventual_fi_YYYY.zip)");
        }
        year_ = std::stoi(std::string(digits));
        if (zip) {
            member_ = "eventual_fi_" + std::string(digits) + ".csv";
            zip_ = std::make_unique<sdk::ZipArchive>(path);
            if (!zip_->Has(member_)) {
                throw sdk::IngestError(name, 0, "missing member " + member_);
            }
        }
    }

    int Year() const { return year_; }
    std::string Name() const { return path_.filename().string(); }
    std::unique_ptr<sdk::ByteSource> Open() const {
        return zip_ ? zip_->Open(member_) : sdk::OpenFile(path_);
    }

private:
    fs::path path_;
    int year_ = 0;
    std::string member_;
    std::unique_ptr<sdk::ZipArchive> zip_;
};

// ---------------------------------------------------------------------------------------------
// One row of the index.

bool IsTwoDigits(std::string_view text, int max) {
    return text.size() == 2 && AllDigits(text) && (text[0] - '0') * 10 + (text[1] - '0') <= max;
}

// "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS" (DT_RECEB carries the time in some files).
bool IsDateOrDateTime(std::string_view text) {
    if (!sdk::Date::Parse(text.substr(0, 10))) {
        return false;
    }
    if (text.size() == 10) {
        return true;
    }
    return text.size() == 19 && text[10] == ' ' && IsTwoDigits(text.substr(11, 2), 23) && text[13] == ':' &&
           IsTwoDigits(text.substr(14, 2), 59) && text[16] == ':' && IsTwoDigits(text.substr(17, 2), 59);
}

class DocumentRow {
public:
    DocumentRow(const sdk::CvmCsvReader& reader, int source_year)
        : reader_(reader),
          source_year_(source_year),
          cnpj_(Require({"CNPJ_FUNDO_CLASSE", "CNPJ_FUNDO"})),
          name_(Require({"DENOM_SOCIAL"})),
          document_date_(Require({"DT_COMPTC"})),
          received_at_(Require({"DT_RECEB"})),
          document_type_(Require({"TP_DOC"})),
          file_name_(Require({"NM_ARQ"})),
          id_(Require({"ID_DOC"})),
          source_url_(Require({"LINK_ARQ"})),
          // Later additions to the layout: read when present.
          filer_type_(Find({"TP_FUNDO_CLASSE", "TP_FUNDO"})),
          subclass_(Find({"ID_SUBCLASSE"})),
          audit_result_(Find({"RESULTADO_AUDITORIA"})) {}

    // Checks the field count; IngestError(file, line) when it differs from the header's.
    void CheckFieldCount() const {
        const std::size_t expected = reader_.Header().size();
        if (reader_.FieldCount() != expected) {
            throw sdk::IngestError(reader_.SourceName(), reader_.Line(),
                                   "expected " + std::to_string(expected) + " fields, found " +
                                       std::to_string(reader_.FieldCount()));
        }
    }

    std::string Id() const { return Required(id_); }

    FundDocument Parse() const {
        FundDocument d;
        d.document_id = Required(id_);
        const std::string cnpj = Required(cnpj_);
        auto parsed = sdk::ParseCnpj(cnpj);
        if (!parsed.digits) {
            Fail(cnpj_, "is not a valid CNPJ", cnpj);
        }
        d.cnpj = *parsed.digits;
        d.filer_type = Text(filer_type_);
        d.subclass_code = Text(subclass_);
        d.name = Text(name_);
        d.document_date = Text(document_date_);
        if (d.document_date) {
            const auto date = sdk::Date::Parse(*d.document_date);
            if (!date) {
                Fail(document_date_, "is not a YYYY-MM-DD date", *d.document_date);
            }
            d.reference_year = date->year;
        }
        d.received_at = Text(received_at_);
        if (d.received_at && !IsDateOrDateTime(*d.received_at)) {
            Fail(received_at_, "is not a YYYY-MM-DD date (or YYYY-MM-DD HH:MM:SS)", *d.received_at);
        }
        d.document_type = Required(document_type_);
        d.document_type_slug = DocumentTypeSlug(d.document_type);
        if (d.document_type_slug.empty()) {
            Fail(document_type_, "has no letter or digit", d.document_type);
        }
        d.category = DocumentCategory(d.document_type_slug);
        d.file_name = Text(file_name_);
        d.source_url = Text(source_url_);
        d.audit_result = Text(audit_result_);
        d.source_year = source_year_;
        return d;
    }

private:
    std::optional<std::size_t> Find(std::initializer_list<std::string_view> names) const {
        for (std::string_view name : names) {
            if (auto column = reader_.Find(name)) {
                return column;
            }
        }
        return std::nullopt;
    }

    std::size_t Require(std::initializer_list<std::string_view> names) const {
        if (auto column = Find(names)) {
            return *column;
        }
        std::string message = "missing column " + std::string(*names.begin());
        if (names.size() > 1) {
            message += " (or " + std::string(*(names.begin() + 1)) + ")";
        }
        throw sdk::IngestError(reader_.SourceName(), 1, message);
    }

    std::optional<std::string> Text(std::optional<std::size_t> column) const {
        if (!column) {
            return std::nullopt;
        }
        const std::string_view text = TrimBlanks(reader_.Field(*column));
        return text.empty() ? std::nullopt : std::optional<std::string>(text);
    }

    std::string Required(std::size_t column) const {
        auto text = Text(column);
        if (!text) {
            Fail(column, "is empty", "");
        }
        return *text;
    }

    [[noreturn]] void Fail(std::size_t column, std::string_view problem, std::string_view value) const {
        throw sdk::IngestError(reader_.SourceName(), reader_.Line(),
                               reader_.Header()[column] + " " + std::string(problem) +
                                   (value.empty() ? "" : ": " + Quoted(value)));
    }

    const sdk::CvmCsvReader& reader_;
    int source_year_;
    std::size_t cnpj_, name_, document_date_, received_at_, document_type_, file_name_, id_, source_url_;
    std::optional<std::size_t> filer_type_, subclass_, audit_result_;
};

// Every stored field, to tell an unchanged document from an updated one.
std::size_t Fingerprint(const FundDocument& d) {
    std::string text;
    auto add = [&text](const std::optional<std::string>& value) {
        if (value) {
            text += 's' + std::to_string(value->size()) + ':' + *value;
        } else {
            text += 'n';
        }
    };
    add(d.document_id);
    add(d.cnpj);
    add(d.filer_type);
    add(d.subclass_code);
    add(d.name);
    add(d.document_date);
    add(d.received_at);
    add(d.reference_year ? std::optional(std::to_string(*d.reference_year)) : std::nullopt);
    add(d.document_type);
    add(d.document_type_slug);
    add(d.category);
    add(d.file_name);
    add(d.source_url);
    add(d.audit_result);
    add(std::to_string(d.source_year));
    return std::hash<std::string>{}(text);
}

// ---------------------------------------------------------------------------------------------
// Applying one year's file.

class YearReplacer {
public:
    YearReplacer(const sdk::IngestContext& context, sdk::IngestSummary& summary)
        : context_(context), summary_(summary) {}

    void Replace(const YearFile& file) {
        // Pass 1: validate every row and find the line that holds each ID_DOC (the last).
        std::unordered_map<std::string, std::size_t> kept_line;
        std::vector<std::pair<std::size_t, std::string>> repeated;  // (earlier line, id)
        std::string source_name;
        {
            sdk::CvmCsvReader reader(file.Open());
            source_name = reader.SourceName();
            context_.progress.Stage(source_name);
            const DocumentRow row(reader, file.Year());
            while (reader.Next()) {
                if (++summary_.rows_read % kProgressEvery == 0) {
                    context_.progress.Rows(summary_.rows_read);
                }
                row.CheckFieldCount();
                const FundDocument document = row.Parse();
                auto [it, is_new] = kept_line.try_emplace(document.document_id, reader.Line());
                if (!is_new) {
                    repeated.emplace_back(it->second, document.document_id);
                    it->second = reader.Line();
                }
            }
        }
        for (const auto& [line, id] : repeated) {
            Reject(source_name, line,
                   "duplicate ID_DOC " + id + " (kept line " + std::to_string(kept_line.at(id)) + ")");
        }

        // Pass 2: write the kept rows against what the year holds.
        std::unordered_map<std::string, Stored> stored;
        {
            odb::result<FundDocument> rows(
                context_.db.query<FundDocument>(DocumentQuery::source_year == std::int64_t{file.Year()}));
            for (const FundDocument& document : rows) {
                stored.emplace(document.document_id, Stored{Fingerprint(document), false});
            }
        }
        context_.progress.Stage(source_name + ": saving");
        sdk::CvmCsvReader reader(file.Open());
        const DocumentRow row(reader, file.Year());
        while (reader.Next()) {
            row.CheckFieldCount();
            auto kept = kept_line.find(row.Id());
            if (kept == kept_line.end() || kept->second != reader.Line()) {
                continue;
            }
            Write(row.Parse(), stored, source_name, reader.Line());
        }
        // The file is the year's full snapshot: what it no longer lists goes.
        for (const auto& [id, state] : stored) {
            if (!state.seen) {
                context_.db.erase<FundDocument>(id);
                ++summary_.removed;
            }
        }
    }

private:
    struct Stored {
        std::size_t fingerprint = 0;
        bool seen = false;
    };

    void Write(const FundDocument& document, std::unordered_map<std::string, Stored>& stored,
               const std::string& source_name, std::size_t line) {
        if (auto it = stored.find(document.document_id); it != stored.end()) {
            it->second.seen = true;
            if (it->second.fingerprint == Fingerprint(document)) {
                ++summary_.unchanged;
            } else {
                context_.db.update(document);
                ++summary_.updated;
            }
            return;
        }
        // An ID_DOC listed by another year's file too: the later year holds it.
        if (const std::unique_ptr<FundDocument> other(context_.db.find<FundDocument>(document.document_id));
            other) {
            if (other->source_year > document.source_year) {
                Reject(source_name, line,
                       "ID_DOC " + document.document_id + " is kept from the later eventual_fi_" +
                           std::to_string(other->source_year));
                return;
            }
            context_.db.update(document);
            ++summary_.updated;
            return;
        }
        context_.db.persist(document);
        ++summary_.inserted;
    }

    void Reject(const std::string& file, std::size_t line, const std::string& why) {
        ++summary_.rejected;
        if (summary_.rejections.size() < kMaxRejections) {
            summary_.rejections.push_back(file + " line " + std::to_string(line) + ": " + why);
        }
    }

    const sdk::IngestContext& context_;
    sdk::IngestSummary& summary_;
};

// The latest DT_RECEB stored, after this ingest's writes: "YYYY-MM-DD".
std::optional<std::string> LatestReceivedDate(odb::database& db) {
    odb::result<FundDocument> rows(db.query<FundDocument>(
        DocumentQuery::received_at.is_not_null() + "ORDER BY" + DocumentQuery::received_at + "DESC LIMIT 1"));
    for (const FundDocument& document : rows) {
        return document.received_at->substr(0, 10);
    }
    return std::nullopt;
}

}  // namespace

sdk::IngestSummary DocumentsIngester::Run(const sdk::IngestContext& context) {
    std::vector<std::unique_ptr<YearFile>> files;
    for (const fs::path& path : context.inputs) {
        auto file = std::make_unique<YearFile>(path);
        for (const auto& other : files) {
            if (other->Year() == file->Year()) {
                throw sdk::IngestError(
                    file->Name(), 0,
                    "year " + std::to_string(file->Year()) + " given twice (also " + other->Name() + ")");
            }
        }
        files.push_back(std::move(file));
    }
    if (files.empty()) {
        throw sdk::IngestError("cvm.eventual_fi", 0, "no input files");
    }
    // Ascending years, so a document listed by two files ends in the later one either way.
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a->Year() < b->Year(); });

    sdk::IngestSummary summary;
    YearReplacer replacer(context, summary);
    for (const auto& file : files) {
        replacer.Replace(*file);
    }
    if (auto latest = LatestReceivedDate(context.db)) {
        summary.release_label = "eventual_fi-" + *latest;
        summary.as_of = *latest;
    } else {
        summary.release_label = "eventual_fi-" + std::to_string(files.back()->Year());
    }
    return summary;
}

}  // namespace lastro::funds
