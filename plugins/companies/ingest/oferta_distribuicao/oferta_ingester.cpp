// Applying one snapshot of the offerings: both members read (only CRI and CRA rows are kept), one
// row per regime and key (the later line), diffed against the stored offerings with the SDK's
// snapshot kit (sdk::SnapshotApplier). A CRI or CRA line that cannot be read refuses the whole
// snapshot: skipping it would remove a stored offering the file still lists.
#include "ingest/oferta_distribuicao/oferta_ingester.hpp"

#include "domain/issuances/issuance_rules.hpp"
#include "domain/issuances/oferta_reader.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/ingest/snapshot.hpp>
#include <lastro/sdk/problem.hpp>

#include <string>
#include <vector>

namespace lastro::companies {
namespace {

// CRI and CRA offerings kept from one member: the real files have ~62,800 rows of every asset.
constexpr std::size_t kMaxOfferings = 1'000'000;

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kOfertaDataset);
    layout.tables.push_back({"legacy", sdk::NamePattern("oferta_distribuicao.csv")});
    layout.tables.push_back({"rcvm160", sdk::NamePattern("oferta_resolucao_160.csv")});
    layout.expected =
        "oferta_distribuicao.zip as CVM publishes it (or its members oferta_distribuicao.csv and "
        "oferta_resolucao_160.csv)";
    return layout;
}

std::string StoredKey(const OfferingRecord& o) {
    return std::string(RegimeName(o.regime)) + "\x1f" + o.key;
}

class OfferingWriter {
public:
    OfferingWriter(odb::database& db, std::string seen_at) : sql_(db), seen_at_(std::move(seen_at)) {}

    std::vector<std::pair<std::string, std::uint64_t>> Stored() {
        std::vector<std::pair<std::string, std::uint64_t>> stored;
        for (const auto& row :
             sql_.Query("SELECT regime, offering_key, fingerprint FROM companies_offering")) {
            stored.emplace_back(*row[0] + "\x1f" + *row[1], std::stoull(*row[2]));
        }
        return stored;
    }

    void Insert(const OfferingRecord& o) {
        const Values v(o);
        sql_.Execute(
            "INSERT INTO companies_offering (regime, offering_key, kind, issuer_cnpj, emission_key, item,"
            " fingerprint, first_seen_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            {v.regime, o.key, v.kind, v.cnpj, v.emission, v.item, v.fingerprint, seen_at_});
    }

    void Update(const OfferingRecord& o) {
        const Values v(o);
        sql_.Execute(
            "UPDATE companies_offering SET kind = $3, issuer_cnpj = $4, emission_key = $5, item = $6,"
            " fingerprint = $7 WHERE regime = $1 AND offering_key = $2",
            {v.regime, o.key, v.kind, v.cnpj, v.emission, v.item, v.fingerprint});
    }

    void Remove(const std::string& stored_key) {
        const std::size_t split = stored_key.find('\x1f');
        sql_.Execute("DELETE FROM companies_offering WHERE regime = $1 AND offering_key = $2",
                     {stored_key.substr(0, split), stored_key.substr(split + 1)});
    }

private:
    // The values are views: every string they see lives as long as this.
    struct Values {
        explicit Values(const OfferingRecord& o)
            : regime(RegimeName(o.regime)),
              kind(KindName(o.kind)),
              cnpj(o.issuer.cnpj),
              emission(EmissionKey(o.emission)),
              item(OfferingJson(o)),
              fingerprint(std::to_string(OfferingFingerprint(o))) {}
        std::string regime;
        std::string kind;
        std::optional<std::string> cnpj;
        std::optional<std::string> emission;
        std::string item;
        std::string fingerprint;
    };

    sdk::SqlSession sql_;
    std::string seen_at_;
};

}  // namespace

sdk::IngestSummary OfertaIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    files.RequireComplete();
    files.RefuseRepeats();

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    sdk::RejectionLog log(summary);
    const std::string seen_at = sdk::Rfc3339Utc(context.now);

    // Every CRI and CRA row of both members, then one per regime and key.
    std::vector<OfferingRecord> offerings;
    std::size_t others = 0;
    std::size_t not_cnpj = 0;
    for (const sdk::TableFile* table : files.TablesOf(std::nullopt)) {
        const OfferingRegime regime =
            files.Spec(*table).id == "legacy" ? OfferingRegime::kLegacy : OfferingRegime::kRcvm160;
        counter.Stage(table->file.display);
        OfferingReader reader(inputs.Open(table->file), regime);
        sdk::KeepOnePerKey<int> keep;
        std::vector<OfferingRecord> read;
        OfferingRecord offering;
        std::string problem;
        for (ReadOutcome outcome; (outcome = reader.Next(offering, problem)) != ReadOutcome::kEnd;) {
            counter.Row();
            if (outcome == ReadOutcome::kRejected) {
                throw sdk::IngestError(table->file.display, offering.line, problem);
            }
            if (read.size() == kMaxOfferings) {
                throw sdk::IngestError(
                    table->file.display, offering.line,
                    "more than " + std::to_string(kMaxOfferings) + " CRI and CRA offerings");
            }
            if (offering.issuer.kind != sdk::DocumentKind::kCnpj) {
                ++not_cnpj;
            }
            keep.Add(offering.key, offering.line);
            read.push_back(std::move(offering));
        }
        others += reader.OtherRows();
        std::size_t repeated = 0;
        keep.Resolve([&](std::size_t line, const std::string& key, std::size_t kept) {
            if (++repeated <= 3) {
                log.Notice(table->file.display + " line " + std::to_string(line) + ": offering " + key +
                           " is listed again at line " + std::to_string(kept) + ", which is kept");
            }
        });
        for (OfferingRecord& o : read) {
            if (keep.IsKept(o.line)) {
                offerings.push_back(std::move(o));
            }
        }
    }
    log.Notice(std::to_string(others) +
               " offerings of other assets (shares, debentures, fund quotas...) passed over");
    if (not_cnpj > 0) {
        log.Notice(
            std::to_string(not_cnpj) +
            " CRI/CRA offerings whose CNPJ_Emissor is not a valid CNPJ (a CPF, zeros, two ids...): kept with"
            " issuer_cnpj null and issuer_cnpj_kind saying what the cell holds, never matched to a "
            "certificate");
    }

    OfferingWriter writer(context.db, seen_at);
    sdk::SnapshotApplier<OfferingRecord> snapshot(summary,
                                                  {[&](const OfferingRecord& o) { writer.Insert(o); },
                                                   [&](const OfferingRecord& o) { writer.Update(o); },
                                                   [&](const std::string& key) { writer.Remove(key); }});
    for (const auto& [key, fingerprint] : writer.Stored()) {
        snapshot.AddStored(key, fingerprint);
    }
    counter.Stage("oferta_distribuicao: applying");
    for (const OfferingRecord& o : offerings) {
        snapshot.Apply(StoredKey(o), o, OfferingFingerprint(o));
    }
    snapshot.RemoveUnseen();

    // The counts by regime, for meta.coverage.
    sdk::SqlSession sql(context.db);
    const std::string prefix = std::string(kOfertaDataset) + ":";
    sql.Execute("DELETE FROM companies_issuance_coverage WHERE source LIKE $1", {prefix + "%"});
    sql.Execute(
        "INSERT INTO companies_issuance_coverage (source, month, row_count) SELECT CAST($1 AS TEXT) || "
        "regime, '', count(*)"
        " FROM companies_offering GROUP BY regime",
        {prefix});

    const std::optional<std::time_t> written = inputs.ModifiedAt(files.Tables().front().file);
    summary.as_of = sdk::Rfc3339Utc(written.value_or(context.now)).substr(0, 10);
    summary.release_label = "oferta-distribuicao-" + *summary.as_of + "-" + seen_at.substr(0, 10);
    return summary;
}

}  // namespace lastro::companies
