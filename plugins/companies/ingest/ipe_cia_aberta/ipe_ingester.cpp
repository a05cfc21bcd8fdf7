// One year of the IPE index at a time, staged and applied by DocumentIndexStage: one row kept per
// (protocol, version) (the later line), then compared with the stored year and applied in a few
// set-based statements, on both backends.
#include "ingest/ipe_cia_aberta/ipe_ingester.hpp"

#include "domain/documents/document_rules.hpp"
#include "domain/documents/ipe_reader.hpp"
#include "ingest/document_index/document_index_stage.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kIpeDataset);
    layout.tables.push_back({"ipe_cia_aberta", sdk::NamePattern("ipe_cia_aberta_{YYYY}.csv")});
    layout.archive = sdk::NamePattern("ipe_cia_aberta_{YYYY}.zip");
    layout.expected = "ipe_cia_aberta_YYYY.zip or ipe_cia_aberta_YYYY.csv, as CVM publishes them";
    return layout;
}

// Stages one year's file and applies it; notes reported deliveries whose CNPJ cell is not a CNPJ.
void IngestYear(const sdk::IngestContext& context, const sdk::IngestInputs& inputs,
                const sdk::TableFile& table, const std::string& seen_at, sdk::RowCounter& counter,
                sdk::RejectionLog& log, sdk::IngestSummary& summary) {
    DocumentIndexStage stage(context.db, kIpeKind, table.period->year);
    IpeReader reader(inputs.Open(table.file));
    DocumentRecord record;
    std::string problem;
    for (ReadOutcome outcome; (outcome = reader.Next(record, problem)) != ReadOutcome::kEnd;) {
        counter.Row();
        if (outcome == ReadOutcome::kRejected) {
            log.Reject(table.file.display, record.line, problem);
            continue;
        }
        stage.Add(record, record.protocol);
    }
    if (stage.NotCnpj() > 0) {
        log.Notice(table.file.display + ": " + std::to_string(stage.NotCnpj()) +
                   " deliveries whose CNPJ_Companhia is not a valid CNPJ (a placeholder of zeros, a CPF...):"
                   " kept with cnpj null and cnpj_kind saying what the cell holds, never matched to a company"
                   " by it");
    }
    stage.Apply(table.file.display, seen_at, log, summary);
}

}  // namespace

sdk::IngestSummary IpeIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    files.RequireComplete();
    files.RefuseRepeats();
    std::vector<const sdk::TableFile*> years;
    for (const sdk::TableFile& table : files.Tables()) {
        years.push_back(&table);
    }
    std::sort(years.begin(), years.end(),
              [](const sdk::TableFile* a, const sdk::TableFile* b) { return *a->period < *b->period; });

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    sdk::RejectionLog log(summary);
    sdk::SqlSession sql(context.db);
    const std::string seen_at = sdk::Rfc3339Utc(context.now);
    std::vector<std::string> periods;
    for (const sdk::TableFile* table : years) {
        counter.Stage(table->file.display);
        IngestYear(context, inputs, *table, seen_at, counter, log, summary);
        periods.push_back(table->period->ToString());
    }

    summary.release_label = "ipe-cia-aberta-" + periods.front() +
                            (periods.size() > 1 ? ".." + periods.back() : std::string()) + "-" +
                            seen_at.substr(0, 10);
    const sdk::SqlRows last =
        sql.Query("SELECT MAX(delivered_at) FROM companies_document WHERE kind = 'ipe'");
    if (!last.empty() && last[0][0]) {
        summary.as_of = *last[0][0];
    }
    summary.periods = periods;
    return summary;
}

}  // namespace lastro::companies
