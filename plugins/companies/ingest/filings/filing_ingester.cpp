// A year of a form at a time: the index member first (DocumentIndexStage, the documents answer),
// then every table member streamed into one stage, each row checked against the index, then the
// stored year's rows replaced as a set-based diff and its catalog rewritten, on both backends.
#include "ingest/filings/filing_ingester.hpp"

#include "domain/filings/filing_index_reader.hpp"
#include "domain/filings/filing_table_reader.hpp"
#include "ingest/document_index/document_index_stage.hpp"
#include "ingest/staged_diff.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/ingest/snapshot.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/json_text.hpp>

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace lastro::companies {
namespace {

constexpr std::size_t kIndexTable = 0;  // the layout's index member; 1 is any table member

sdk::DatasetLayout Layout(const FilingKind& kind) {
    const std::string prefix(kind.prefix);
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kind.dataset);
    layout.tables.push_back({"index", sdk::NamePattern(prefix + "_{YYYY}.csv")});
    layout.tables.push_back({"table", sdk::NamePattern(prefix + "_{NAME}_{YYYY}.csv"), false});
    layout.archive = sdk::NamePattern(prefix + "_{YYYY}.zip");
    layout.expected = prefix + "_YYYY.zip or its members (" + prefix + "_YYYY.csv, " + prefix +
                      "_<table>_YYYY.csv), as CVM publishes them";
    return layout;
}

// What the index says of a document, for its rows.
struct IndexedDocument {
    std::int64_t version = 0;
};

// A year's files: the index member and the table members by table key.
struct YearFiles {
    const sdk::TableFile* index = nullptr;
    std::map<std::string, const sdk::TableFile*> tables;
};

std::map<int, YearFiles> GroupByYear(const sdk::DatasetFiles& files, const sdk::IngestInputs& inputs) {
    std::map<int, YearFiles> years;
    for (const sdk::TableFile& table : files.Tables()) {
        YearFiles& year = years[table.period->year];
        if (table.table == kIndexTable) {
            if (year.index) {
                throw sdk::IngestError(table.file.name, 0,
                                       "given twice (in " + inputs.FileName(year.index->file.input) +
                                           " and " + inputs.FileName(table.file.input) + ")");
            }
            year.index = &table;
            continue;
        }
        if (!IsTableSegment(table.name)) {
            throw sdk::IngestError(
                table.file.name, 0,
                "'" + table.name + "' is not a table name (letters, digits and '_', at most 64)");
        }
        const auto [it, is_new] = year.tables.try_emplace(TableKey(table.name), &table);
        if (!is_new) {
            throw sdk::IngestError(table.file.name, 0,
                                   "table " + table.name + " of " + std::to_string(table.period->year) +
                                       " given twice (as " + it->second->file.display + " and " +
                                       table.file.display + ")");
        }
    }
    for (const auto& [year, found] : years) {
        if (!found.index) {
            const sdk::TableFile& any = *found.tables.begin()->second;
            throw sdk::IngestError(any.file.display, 0,
                                   "year " + std::to_string(year) + " has no index member (" +
                                       files.Layout().tables[kIndexTable].pattern.Format(any.period) +
                                       "), which every row joins by ID_Documento");
        }
    }
    return years;
}

class YearIngest {
public:
    YearIngest(const sdk::IngestContext& context, const sdk::IngestInputs& inputs, const FilingKind& kind,
               int year, const std::string& seen_at, sdk::RowCounter& counter, sdk::RejectionLog& log,
               sdk::IngestSummary& summary)
        : context_(context),
          inputs_(inputs),
          kind_(kind),
          year_(year),
          seen_at_(seen_at),
          counter_(counter),
          log_(log),
          summary_(summary) {}

    void Run(const YearFiles& files) {
        ReadIndex(*files.index);
        sdk::SqlSession sql(context_.db);
        // A year stored for the first time is loaded straight into its table: every row is new,
        // nothing to compare (the rows' key starts with the year, so no other year's row is hit).
        const std::string kind(kind_.kind);
        const std::string year = std::to_string(year_);
        direct_ = sql.Query(
                         "SELECT 1 FROM companies_filing_row WHERE kind = $1 AND year = CAST($2 AS INTEGER) "
                         "LIMIT 1",
                         {kind, year})
                      .empty();
        if (!direct_) {
            sql.Execute("DROP TABLE IF EXISTS companies_filing_row_stage");
            sql.Execute(
                "CREATE TEMP TABLE companies_filing_row_stage (year INTEGER NOT NULL, table_key TEXT NOT "
                "NULL,"
                " document_id BIGINT NOT NULL, ordinal INTEGER NOT NULL, cnpj TEXT, cnpj_published TEXT, "
                "reference_date TEXT,"
                " version BIGINT NOT NULL, cells TEXT NOT NULL, fingerprint TEXT NOT NULL)");
        }
        for (const auto& [key, table] : files.tables) {
            ReadTable(key, *table);
        }
        if (!direct_) {
            ApplyRows(sql);
            sql.Execute("DROP TABLE companies_filing_row_stage");
        }
        WriteCatalog(sql);
    }

private:
    void ReadIndex(const sdk::TableFile& file) {
        counter_.Stage(file.file.display);
        DocumentIndexStage stage(context_.db, kind_.kind, year_);
        FilingIndexReader reader(inputs_.Open(file.file));
        DocumentRecord record;
        std::string problem;
        for (ReadOutcome outcome; (outcome = reader.Next(record, problem)) != ReadOutcome::kEnd;) {
            counter_.Row();
            if (outcome == ReadOutcome::kRejected) {
                log_.Reject(file.file.display, record.line, problem);
                continue;
            }
            documents_[FilingDocumentId(record)] = IndexedDocument{record.version};
            stage.Add(record, FilingDelivery(record.cvm_code, record.reference_date));
        }
        if (stage.NotCnpj() > 0) {
            log_.Notice(
                file.file.display + ": " + std::to_string(stage.NotCnpj()) +
                " documents whose CNPJ_CIA is not a valid CNPJ: kept with cnpj null and cnpj_kind saying"
                " what the cell holds");
        }
        stage.Apply(file.file.display, seen_at_, log_, summary_);
    }

    void ReadTable(const std::string& key, const sdk::TableFile& file) {
        counter_.Stage(file.file.display);
        FilingTableReader reader(inputs_.Open(file.file));
        ColumnTypes types(reader.Columns());
        std::vector<std::string> columns{"year",  "table_key",      "document_id",    "ordinal",
                                         "cnpj",  "cnpj_published", "reference_date", "version",
                                         "cells", "fingerprint"};
        if (direct_) {
            columns.insert(columns.end(), {"kind", "first_seen_at"});
        }
        sdk::BulkLoader load(context_.db, direct_ ? "companies_filing_row" : "companies_filing_row_stage",
                             columns);
        const std::string kind(kind_.kind);
        const std::string year = std::to_string(year_);
        std::unordered_map<std::int64_t, std::int64_t> ordinals;
        std::size_t rows = 0;
        FilingRow row;
        std::string problem;
        sdk::JsonText json;
        for (ReadOutcome outcome; (outcome = reader.Next(row, problem)) != ReadOutcome::kEnd;) {
            counter_.Row();
            if (outcome == ReadOutcome::kRejected) {
                log_.Reject(file.file.display, row.line, problem);
                continue;
            }
            const auto document = documents_.find(row.document_id);
            if (document == documents_.end()) {
                log_.Reject(file.file.display, row.line,
                            "ID_Documento " + std::to_string(row.document_id) +
                                " is not in the year's index (" + std::string(kind_.prefix) + "_" +
                                std::to_string(year_) + ".csv)");
                continue;
            }
            if (document->second.version != row.version) {
                log_.Reject(file.file.display, row.line,
                            "Versao " + std::to_string(row.version) + " is not the index's VERSAO " +
                                std::to_string(document->second.version) + " of document " +
                                std::to_string(row.document_id));
                continue;
            }
            json.BeginArray();
            for (std::size_t i = 0; i < row.cells.size(); ++i) {
                json.Value(row.cells[i]);
                if (row.cells[i]) {
                    types.See(i, *row.cells[i]);
                }
            }
            json.EndArray();
            const std::string cells = json.Take();
            sdk::Fingerprint fingerprint;
            fingerprint << row.cnpj.published << row.reference_date << row.version << cells;
            const std::string document_id = std::to_string(row.document_id);
            const std::string ordinal = std::to_string(++ordinals[row.document_id]);
            const std::string version = std::to_string(row.version);
            const std::string print = std::to_string(fingerprint.Value());
            const sdk::SqlValue values[] = {
                year,
                key,
                document_id,
                ordinal,
                row.cnpj.cnpj ? sdk::SqlValue(*row.cnpj.cnpj) : std::nullopt,
                row.cnpj.published.empty() ? std::nullopt : sdk::SqlValue(row.cnpj.published),
                row.reference_date ? sdk::SqlValue(*row.reference_date) : std::nullopt,
                version,
                cells,
                print,
                kind,
                seen_at_};
            load.Add(std::span<const sdk::SqlValue>(values, direct_ ? 12 : 10));
            ++rows;
        }
        load.Finish();
        if (direct_) {
            summary_.inserted += rows;
        }
        sdk::JsonText described;
        described.BeginArray();
        const std::vector<CellType> kinds = types.Types();
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            described.BeginObject();
            described.Key("name").Value(reader.Columns()[i]);
            described.Key("type").Value(CellTypeName(kinds[i]));
            described.EndObject();
        }
        described.EndArray();
        catalog_.push_back({key, file.name, described.Take(), rows});
    }

    void ApplyRows(sdk::SqlSession& sql) {
        sql.Execute(
            "CREATE INDEX companies_filing_row_stage_key ON companies_filing_row_stage"
            " (year, table_key, document_id, ordinal)");
        const std::string kind(kind_.kind);
        const std::string year = std::to_string(year_);
        const StagedDiff diff{"companies_filing_row",
                              "companies_filing_row_stage",
                              {"year", "table_key", "document_id", "ordinal"},
                              kind,
                              "year = " + year,
                              "o.fingerprint = n.fingerprint"};
        if (CountAndRemoveGone(sql, diff, summary_) > 0) {
            sql.Execute(
                "INSERT INTO companies_filing_row (kind, table_key, document_id, ordinal, year, cnpj, "
                "cnpj_published,"
                " reference_date, version, cells, fingerprint, first_seen_at)"
                " SELECT '" +
                    kind +
                    "', table_key, document_id, ordinal, year"
                    ", cnpj, cnpj_published, reference_date, version, cells, fingerprint, $1"
                    " FROM companies_filing_row_stage WHERE true"
                    " ON CONFLICT (kind, year, table_key, document_id, ordinal) DO UPDATE SET"
                    " cnpj = excluded.cnpj, cnpj_published = excluded.cnpj_published,"
                    " reference_date = excluded.reference_date, version = excluded.version, cells = "
                    "excluded.cells,"
                    " fingerprint = excluded.fingerprint"
                    " WHERE companies_filing_row.fingerprint <> excluded.fingerprint",
                {std::string_view(seen_at_)});
        }
    }

    void WriteCatalog(sdk::SqlSession& sql) {
        const std::string kind(kind_.kind);
        const std::string year = std::to_string(year_);
        sql.Execute("DELETE FROM companies_filing_table WHERE kind = $1 AND year = CAST($2 AS INTEGER)",
                    {kind, year});
        for (const CatalogEntry& entry : catalog_) {
            const std::string rows = std::to_string(entry.rows);
            sql.Execute(
                "INSERT INTO companies_filing_table (kind, table_key, table_name, year, columns, row_count)"
                " VALUES ($1, $2, $3, CAST($4 AS INTEGER), $5, CAST($6 AS BIGINT))",
                {kind, entry.key, entry.name, year, entry.columns, rows});
        }
    }

    struct CatalogEntry {
        std::string key;
        std::string name;
        std::string columns;
        std::size_t rows = 0;
    };

    const sdk::IngestContext& context_;
    const sdk::IngestInputs& inputs_;
    const FilingKind& kind_;
    int year_;
    const std::string& seen_at_;
    sdk::RowCounter& counter_;
    sdk::RejectionLog& log_;
    sdk::IngestSummary& summary_;
    std::unordered_map<std::int64_t, IndexedDocument> documents_;
    bool direct_ = false;  // the year's rows go straight into companies_filing_row
    std::vector<CatalogEntry> catalog_;
};

}  // namespace

sdk::IngestSummary FilingIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout(kind_));
    files.RequireComplete();
    const std::map<int, YearFiles> years = GroupByYear(files, inputs);

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    sdk::RejectionLog log(summary);
    const std::string seen_at = sdk::Rfc3339Utc(context.now);
    std::vector<std::string> periods;
    for (const auto& [year, year_files] : years) {
        YearIngest(context, inputs, kind_, year, seen_at, counter, log, summary).Run(year_files);
        periods.push_back(std::to_string(year));
    }

    const std::string prefix(kind_.prefix);
    std::string label = prefix;
    std::replace(label.begin(), label.end(), '_', '-');
    summary.release_label = label + "-" + periods.front() +
                            (periods.size() > 1 ? ".." + periods.back() : std::string()) + "-" +
                            seen_at.substr(0, 10);
    sdk::SqlSession sql(context.db);
    const sdk::SqlRows last = sql.Query("SELECT MAX(delivered_at) FROM companies_document WHERE kind = $1",
                                        {std::string(kind_.kind)});
    if (!last.empty() && last[0][0]) {
        summary.as_of = *last[0][0];
    }
    summary.periods = periods;
    return summary;
}

}  // namespace lastro::companies
