#include "ingest/eventual_fi/documents_ingester.hpp"

#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/eventual_fi/documents_category.hpp"
#include "layouts/eventual_fi.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/ingest/snapshot.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

namespace {

constexpr std::string_view kDataset = "cvm.eventual_fi";

using DocumentQuery = odb::query<FundDocument>;

// ---------------------------------------------------------------------------------------------
// Inputs: eventual_fi_YYYY.csv or eventual_fi_YYYY.zip (member eventual_fi_YYYY.csv).

const sdk::DatasetLayout& DocumentsLayout() {
    static const sdk::DatasetLayout layout = [] {
        sdk::DatasetLayout l;
        l.dataset = std::string(kDataset);
        l.expected = "eventual_fi_YYYY.csv or eventual_fi_YYYY.zip";
        l.tables = {{"eventual_fi", sdk::NamePattern("eventual_fi_{YYYY}.csv")}};
        l.archive = sdk::NamePattern("eventual_fi_{YYYY}.zip");
        l.archive_name_required = true;
        return l;
    }();
    return layout;
}

// ---------------------------------------------------------------------------------------------
// One row of the index.

bool IsTwoDigits(std::string_view text, int max) {
    return text.size() == 2 && sdk::AllDigits(text) && (text[0] - '0') * 10 + (text[1] - '0') <= max;
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

consteval std::string_view Column(std::string_view name) {
    return ColumnOf(kEventualColumns, name);
}

class DocumentRow {
public:
    DocumentRow(const sdk::CsvReader& reader, int source_year)
        : reader_(reader),
          source_year_(source_year),
          // CNPJ_FUNDO / TP_FUNDO: the names before RCVM 175.
          cnpj_(reader.RequireAny({Column("CNPJ_FUNDO_CLASSE"), "CNPJ_FUNDO"})),
          name_(reader.Require(Column("DENOM_SOCIAL"))),
          document_date_(reader.Require(Column("DT_COMPTC"))),
          received_at_(reader.Require(Column("DT_RECEB"))),
          document_type_(reader.Require(Column("TP_DOC"))),
          file_name_(reader.Require(Column("NM_ARQ"))),
          id_(reader.Require(Column("ID_DOC"))),
          source_url_(reader.Require(Column("LINK_ARQ"))),
          // Later additions to the layout: read when present.
          filer_type_(reader.FindAny({Column("TP_FUNDO_CLASSE"), "TP_FUNDO"})),
          subclass_(reader.Find(Column("ID_SUBCLASSE"))),
          audit_result_(reader.Find(Column("RESULTADO_AUDITORIA"))) {}

    FundDocument Parse() const {
        FundDocument d;
        d.document_id = reader_.RequiredText(id_);
        const auto cnpj = reader_.Cnpj(cnpj_);
        if (!cnpj) {
            reader_.Fail(cnpj_, "is empty");
        }
        d.cnpj = *cnpj;
        d.filer_type = Text(filer_type_);
        d.subclass_code = Text(subclass_);
        d.name = reader_.Text(name_);
        if (const auto date = reader_.DateValue(document_date_)) {
            d.document_date = date->ToString();
            d.reference_year = date->year;
        }
        d.received_at = reader_.Text(received_at_);
        if (d.received_at && !IsDateOrDateTime(*d.received_at)) {
            reader_.Fail(received_at_, "is not a YYYY-MM-DD date (or YYYY-MM-DD HH:MM:SS)", *d.received_at);
        }
        d.document_type = reader_.RequiredText(document_type_);
        d.document_type_slug = DocumentTypeSlug(d.document_type);
        if (d.document_type_slug.empty()) {
            reader_.Fail(document_type_, "has no letter or digit", d.document_type);
        }
        d.category = DocumentCategory(d.document_type_slug);
        d.file_name = reader_.Text(file_name_);
        d.source_url = reader_.Text(source_url_);
        d.audit_result = Text(audit_result_);
        d.source_year = source_year_;
        return d;
    }

private:
    std::optional<std::string> Text(std::optional<std::size_t> column) const {
        return column ? reader_.Text(*column) : std::nullopt;
    }

    const sdk::CsvReader& reader_;
    int source_year_;
    std::size_t cnpj_, name_, document_date_, received_at_, document_type_, file_name_, id_, source_url_;
    std::optional<std::size_t> filer_type_, subclass_, audit_result_;
};

// Every stored field, to tell an unchanged document from an updated one.
std::uint64_t Fingerprint(const FundDocument& d) {
    return sdk::FingerprintOf(d.document_id, d.cnpj, d.filer_type, d.subclass_code, d.name, d.document_date,
                              d.received_at, d.reference_year, d.document_type, d.document_type_slug,
                              d.category, d.file_name, d.source_url, d.audit_result, d.source_year);
}

// ---------------------------------------------------------------------------------------------
// Applying one year's file.

class YearReplacer {
public:
    YearReplacer(const sdk::IngestContext& context, const sdk::IngestInputs& inputs,
                 sdk::IngestSummary& summary)
        : context_(context),
          inputs_(inputs),
          summary_(summary),
          rows_(context.progress, summary),
          rejections_(summary) {}

    void Replace(const sdk::TableFile& file) {
        const int year = file.period->year;
        // Pass 1: validate every row and find the line that holds each ID_DOC (the last).
        sdk::KeepOnePerKey<> by_id;
        std::string source_name;
        {
            sdk::CvmCsvReader reader(inputs_.Open(file.file));
            source_name = reader.SourceName();
            rows_.Stage(source_name);
            const DocumentRow row(reader, year);
            while (reader.Next()) {
                rows_.Row();
                reader.RequireFieldCount();
                by_id.Add(row.Parse().document_id, reader.Line());
            }
        }
        by_id.Resolve([&](std::size_t line, const std::string& id, std::size_t kept) {
            rejections_.Reject(source_name, line,
                               "duplicate ID_DOC " + id + " (kept line " + std::to_string(kept) + ")");
        });

        // Pass 2: write the kept rows against what the year holds.
        odb::database& db = context_.db;
        sdk::SnapshotApplier<FundDocument> snapshot(
            summary_,
            {[&db](const FundDocument& d) { db.persist(d); }, [&db](const FundDocument& d) { db.update(d); },
             [&db](const std::string& id) { db.erase<FundDocument>(id); }});
        {
            odb::result<FundDocument> rows(
                db.query<FundDocument>(DocumentQuery::source_year == std::int64_t{year}));
            for (const FundDocument& document : rows) {
                snapshot.AddStored(document.document_id, Fingerprint(document));
            }
        }
        rows_.Stage(source_name + ": saving");
        sdk::CvmCsvReader reader(inputs_.Open(file.file));
        const DocumentRow row(reader, year);
        while (reader.Next()) {
            reader.RequireFieldCount();
            if (!by_id.IsKept(reader.Line())) {
                continue;
            }
            const FundDocument document = row.Parse();
            if (!snapshot.IsStored(document.document_id) &&
                TakenByAnotherYear(document, source_name, reader.Line())) {
                continue;
            }
            snapshot.Apply(document.document_id, document, Fingerprint(document));
        }
        // The file is the year's full snapshot: what it no longer lists goes.
        snapshot.RemoveUnseen();
    }

private:
    // An ID_DOC listed by another year's file too: the later year holds it. True when this
    // file's row was dealt with here (skipped, or moved from an earlier year).
    bool TakenByAnotherYear(const FundDocument& document, const std::string& source_name, std::size_t line) {
        const std::unique_ptr<FundDocument> other(context_.db.find<FundDocument>(document.document_id));
        if (!other) {
            return false;
        }
        if (other->source_year > document.source_year) {
            rejections_.Reject(source_name, line,
                               "ID_DOC " + document.document_id + " is kept from the later eventual_fi_" +
                                   std::to_string(other->source_year));
            return true;
        }
        context_.db.update(document);
        ++summary_.updated;
        return true;
    }

    const sdk::IngestContext& context_;
    const sdk::IngestInputs& inputs_;
    sdk::IngestSummary& summary_;
    sdk::RowCounter rows_;
    sdk::RejectionLog rejections_;
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
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, DocumentsLayout());
    std::vector<const sdk::TableFile*> years;
    for (const sdk::TableFile& file : files.Tables()) {
        for (const sdk::TableFile* other : years) {
            if (other->period == file.period) {
                throw sdk::IngestError(inputs.FileName(file.file.input), 0,
                                       file.period->Describe() + " given twice (also " +
                                           inputs.FileName(other->file.input) + ")");
            }
        }
        years.push_back(&file);
    }
    files.RequireComplete();
    // Ascending years, so a document listed by two files ends in the later one either way.
    std::sort(years.begin(), years.end(), [](const auto* a, const auto* b) { return a->period < b->period; });

    sdk::IngestSummary summary;
    YearReplacer replacer(context, inputs, summary);
    for (const sdk::TableFile* file : years) {
        replacer.Replace(*file);
    }
    if (auto latest = LatestReceivedDate(context.db)) {
        summary.release_label = "eventual_fi-" + *latest;
        summary.as_of = *latest;
    } else {
        summary.release_label = "eventual_fi-" + std::to_string(years.back()->period->year);
    }
    return summary;
}

}  // namespace lastro::funds
