// Applying one registry snapshot: read every row (a registry is a few thousand companies; more
// than kMaxRows is not one), keep one row per CVM code, diff against the stored companies
// (sdk::SnapshotApplier), record each situation seen, write the changed companies' items.
#include "ingest/cad_cia_aberta/registry_ingester.hpp"

#include "companies_model-odb.hxx"
#include "companies_model.hxx"
#include "domain/registry/cad_reader.hpp"
#include "domain/registry/company_item.hpp"
#include "domain/registry/registry_rules.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/ingest/snapshot.hpp>
#include <lastro/sdk/problem.hpp>

#include <odb/database.hxx>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

// Ten times the companies CVM has ever registered: a bigger file is not this registry.
constexpr std::size_t kMaxRows = 100'000;

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kRegistryDataset);
    layout.tables.push_back({"cad_cia_aberta", sdk::NamePattern("cad_cia_aberta.csv"), false});
    // A dated copy kept by the user (cad_cia_aberta_2021-06.csv) is the same file.
    layout.tables.push_back({"cad_cia_aberta", sdk::NamePattern("cad_cia_aberta_{NAME}.csv"), false});
    layout.expected =
        "cad_cia_aberta.csv (or a dated copy, cad_cia_aberta_<anything>.csv), as CVM publishes it";
    return layout;
}

std::string Text(const std::optional<std::string>& value) {
    return value.value_or("");
}

class RegistryWriter {
public:
    RegistryWriter(odb::database& db, std::int64_t snapshot, std::string ingested_at, std::string seen_day)
        : sql_(db),
          snapshot_(snapshot),
          ingested_at_(std::move(ingested_at)),
          seen_day_(std::move(seen_day)) {}

    std::map<std::string, std::uint64_t> Stored() {
        std::map<std::string, std::uint64_t> stored;
        for (const auto& row : sql_.Query("SELECT cvm_code, fingerprint FROM companies_company")) {
            stored.emplace(*row[0], std::stoull(*row[1]));
        }
        return stored;
    }

    // The situation the snapshot shows, added to the company's history or marked seen again.
    void NoteSituation(const CompanyRecord& record) {
        const std::string code = std::to_string(record.cvm_code);
        const std::string snapshot = std::to_string(snapshot_);
        sql_.Execute(
            "INSERT INTO companies_situation (cvm_code, situation, since, first_snapshot, last_snapshot)"
            " VALUES ($1, $2, $3, $4, $4) ON CONFLICT (cvm_code, situation, since)"
            " DO UPDATE SET last_snapshot = excluded.last_snapshot",
            {code, Text(record.situation), Text(record.situation_since), snapshot});
    }

    void Insert(const CompanyRecord& record, std::uint64_t fingerprint) {
        Write(record, fingerprint, ingested_at_, std::to_string(snapshot_), true);
    }

    void Update(const CompanyRecord& record, std::uint64_t fingerprint) {
        const sdk::SqlRows first = sql_.Query(
            "SELECT s.ingested_at, c.first_snapshot FROM companies_company c"
            " JOIN companies_registry_snapshot s ON s.id = c.first_snapshot WHERE c.cvm_code = $1",
            {std::to_string(record.cvm_code)});
        Write(record, fingerprint, first.empty() ? ingested_at_ : *first[0][0],
              first.empty() ? std::to_string(snapshot_) : *first[0][1], false);
    }

    void Remove(const std::string& code) {
        sql_.Execute("DELETE FROM companies_company WHERE cvm_code = $1", {code});
    }

private:
    std::vector<SituationSeen> History(std::int64_t cvm_code) {
        std::vector<SituationSeen> history;
        const sdk::SqlRows rows = sql_.Query(
            "SELECT h.situation, h.since, COALESCE(substr(s.written_at, 1, 10), substr(s.ingested_at, 1, 10),"
            " $2) FROM companies_situation h LEFT JOIN companies_registry_snapshot s ON s.id = "
            "h.first_snapshot"
            " WHERE h.cvm_code = $1 ORDER BY h.since, h.first_snapshot, h.situation",
            {std::to_string(cvm_code), seen_day_});
        for (const auto& row : rows) {
            SituationSeen seen;
            seen.situation = row[0]->empty() ? std::nullopt : row[0];
            seen.since = row[1]->empty() ? std::nullopt : row[1];
            seen.first_seen_at = *row[2];
            history.push_back(std::move(seen));
        }
        return history;
    }

    void Write(const CompanyRecord& r, std::uint64_t fingerprint, const std::string& first_seen_at,
               const std::string& first_snapshot, bool insert) {
        const std::string item = CompanyItemJson(r, History(r.cvm_code), {first_seen_at, ingested_at_});
        const std::string code = std::to_string(r.cvm_code);
        const std::optional<std::string> situation_folded = FoldedFilter(r.situation);
        // The values are views: every string they see lives until the statement has run.
        const std::string search_text = CompanySearchText(r);
        const std::string fingerprint_text = std::to_string(fingerprint);
        const std::string snapshot = std::to_string(snapshot_);
        const std::vector<sdk::SqlValue> values{
            code,
            r.cnpj.cnpj ? sdk::SqlValue(*r.cnpj.cnpj) : std::nullopt,
            r.cnpj.published,
            sdk::DocumentKindName(r.cnpj.kind),
            r.legal_name ? sdk::SqlValue(*r.legal_name) : std::nullopt,
            r.trade_name ? sdk::SqlValue(*r.trade_name) : std::nullopt,
            r.situation ? sdk::SqlValue(*r.situation) : std::nullopt,
            situation_folded ? sdk::SqlValue(*situation_folded) : std::nullopt,
            r.registered_at ? sdk::SqlValue(*r.registered_at) : std::nullopt,
            r.cancelled_at ? sdk::SqlValue(*r.cancelled_at) : std::nullopt,
            search_text,
            fingerprint_text,
            first_snapshot,
            snapshot,
            item,
        };
        if (insert) {
            sql_.Execute(
                "INSERT INTO companies_company (cvm_code, cnpj, cnpj_published, cnpj_kind, legal_name,"
                " trade_name, situation, situation_folded, registered_at, cancelled_at, search_text, "
                "fingerprint,"
                " first_snapshot, changed_snapshot, item)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
                values);
        } else {
            sql_.Execute(
                "UPDATE companies_company SET cnpj = $2, cnpj_published = $3, cnpj_kind = $4, legal_name = "
                "$5,"
                " trade_name = $6, situation = $7, situation_folded = $8, registered_at = $9, cancelled_at = "
                "$10,"
                " search_text = $11, fingerprint = $12, first_snapshot = $13, changed_snapshot = $14, item = "
                "$15"
                " WHERE cvm_code = $1",
                values);
        }
    }

    sdk::SqlSession sql_;
    std::int64_t snapshot_;
    std::string ingested_at_;
    std::string seen_day_;
};

// The date a file's name gives (cad_cia_aberta_2021-06_first60.csv: 2021-06), for the order of
// several snapshots; "" for the undated cad_cia_aberta.csv, which is the current one.
std::string NamedDate(const std::string& name) {
    std::string date;
    for (char c : name) {
        if ((c >= '0' && c <= '9') || (c == '-' && !date.empty())) {
            date.push_back(c);
        } else {
            break;
        }
    }
    while (!date.empty() && date.back() == '-') {
        date.pop_back();
    }
    return date;
}

// Applies one snapshot file as the registry's current state; adds its counts to `summary`.
std::int64_t ApplySnapshot(const sdk::IngestContext& context, const sdk::IngestInputs& inputs,
                           const sdk::TableFile& table, sdk::IngestSummary& summary, sdk::RowCounter& counter,
                           sdk::RejectionLog& log) {
    counter.Stage(table.file.display);

    // Every row, then one per CVM code.
    std::vector<CompanyRecord> records;
    sdk::KeepOnePerKey<std::string> keep;
    {
        CadReader reader(inputs.Open(table.file));
        CompanyRecord record;
        std::string problem;
        for (ReadOutcome outcome; (outcome = reader.Next(record, problem)) != ReadOutcome::kEnd;) {
            counter.Row();
            if (outcome == ReadOutcome::kRejected) {
                log.Reject(table.file.display, record.line, problem);
                continue;
            }
            if (records.size() == kMaxRows) {
                throw sdk::IngestError(table.file.display, record.line,
                                       "more than " + std::to_string(kMaxRows) +
                                           " companies: not CVM's registry of listed companies");
            }
            keep.Add(std::to_string(record.cvm_code), record.line, DuplicateRank(record));
            records.push_back(std::move(record));
        }
    }
    std::int64_t duplicates = 0;
    keep.Resolve([&](std::size_t line, const std::string& code, std::size_t kept) {
        ++duplicates;
        log.Notice(table.file.display + " line " + std::to_string(line) + ": CD_CVM " + code +
                   " listed again at line " + std::to_string(kept) +
                   ", which is kept (the later DT_INI_SIT, then DT_INI_CATEG, then the later line)");
    });

    // The snapshot's record.
    sdk::SqlSession sql(context.db);
    const sdk::SqlRows last = sql.Query("SELECT COALESCE(MAX(id), 0) FROM companies_registry_snapshot");
    RegistrySnapshot snapshot;
    snapshot.id = std::stoll(*last[0][0]) + 1;
    snapshot.ingested_at = sdk::Rfc3339Utc(context.now);
    snapshot.source = table.file.display;
    if (const auto written = inputs.ModifiedAt(table.file)) {
        snapshot.written_at = sdk::Rfc3339Utc(*written);
    }
    snapshot.companies = static_cast<std::int64_t>(keep.Keys());
    snapshot.duplicates = duplicates;
    context.db.persist(snapshot);

    RegistryWriter writer(context.db, snapshot.id, snapshot.ingested_at,
                          (snapshot.written_at ? *snapshot.written_at : snapshot.ingested_at).substr(0, 10));
    counter.Stage(table.file.display + ": applying");
    sdk::SnapshotDiff diff(summary);
    for (const auto& [code, fingerprint] : writer.Stored()) {
        diff.AddStored(code, fingerprint);
    }
    for (const CompanyRecord& record : records) {
        if (!keep.IsKept(record.line)) {
            continue;
        }
        writer.NoteSituation(record);
        const std::uint64_t fingerprint = RecordFingerprint(record);
        switch (diff.Offer(std::to_string(record.cvm_code), fingerprint)) {
            case sdk::SnapshotChange::kInserted:
                writer.Insert(record, fingerprint);
                break;
            case sdk::SnapshotChange::kUpdated:
                writer.Update(record, fingerprint);
                break;
            case sdk::SnapshotChange::kUnchanged:
                break;
        }
    }
    for (const std::string& code : diff.TakeRemoved()) {
        writer.Remove(code);
    }
    return snapshot.id;
}

}  // namespace

sdk::IngestSummary RegistryIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    files.RequireComplete();
    if (files.Tables().empty()) {
        throw sdk::IngestError("", 0, "no registry snapshot given (expected " + Layout().expected + ")");
    }
    // Several snapshots are applied oldest first: dated names in date order, the undated
    // cad_cia_aberta.csv (CVM's current file) last; two files of one date are refused.
    std::vector<const sdk::TableFile*> tables;
    for (const sdk::TableFile& table : files.Tables()) {
        tables.push_back(&table);
    }
    auto order = [](const sdk::TableFile* table) {
        const std::string date = NamedDate(table->name);
        return date.empty() ? std::string("~") : date;  // '~' sorts after every digit
    };
    std::stable_sort(tables.begin(), tables.end(),
                     [&](const sdk::TableFile* a, const sdk::TableFile* b) { return order(a) < order(b); });
    for (std::size_t i = 1; i < tables.size(); ++i) {
        if (order(tables[i]) == order(tables[i - 1])) {
            throw sdk::IngestError(tables[i]->file.display, 0,
                                   "is a snapshot of the same date as " + tables[i - 1]->file.display +
                                       ": which one is newer cannot be told; give one of them");
        }
    }

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    sdk::RejectionLog log(summary);
    std::int64_t last = 0;
    for (const sdk::TableFile* table : tables) {
        last = ApplySnapshot(context, inputs, *table, summary, counter, log);
    }
    summary.release_label = "cad-cia-aberta-" + std::to_string(last);
    const std::string newest = NamedDate(tables.back()->name);
    if (const auto written = inputs.ModifiedAt(tables.back()->file)) {
        summary.as_of = sdk::Rfc3339Utc(*written).substr(0, 10);
    } else if (!newest.empty()) {
        summary.as_of = newest;
    }
    return summary;
}

}  // namespace lastro::companies
