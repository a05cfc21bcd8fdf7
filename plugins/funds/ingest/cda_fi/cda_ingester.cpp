#include "ingest/cda_fi/cda_ingester.hpp"

#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/cda_fi/cda_inputs.hpp"
#include "ingest/cda_fi/cda_member_reader.hpp"
#include "ingest/cda_fi/cda_seen_lines.hpp"

#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lastro::funds {

namespace {

using HolderQuery = odb::query<CdaHolder>;
using PositionQuery = odb::query<CdaPosition>;

// What one month's files say about one holder, gathered while its positions are written.
struct HolderTally {
    std::optional<std::string> filer_type;
    std::optional<std::string> name;
    std::optional<double> nav;
    std::int64_t positions = 0;
    std::int64_t confidential_rows = 0;
};

class MonthReplacer {
public:
    MonthReplacer(const sdk::IngestContext& context, const CdaInputs& inputs, sdk::IngestSummary& summary)
        : context_(context),
          inputs_(inputs),
          summary_(summary),
          rows_(context.progress, summary),
          rejections_(summary) {}

    void Replace(const sdk::Month& month, const std::vector<CdaMember>& members) {
        const std::string text = month.ToString();
        DeleteMonth(text);
        // Ordered by CNPJ, so holders are written in the same order on every ingest.
        std::map<std::string, HolderTally> holders;
        for (const CdaMember& member : members) {
            ReadMember(member, holders);
        }
        for (const auto& [cnpj, tally] : holders) {
            CdaHolder holder;
            holder.cnpj = cnpj;
            holder.month = text;
            holder.filer_type = tally.filer_type;
            holder.name = tally.name;
            holder.nav = tally.nav;
            holder.positions = tally.positions;
            holder.confidential_rows = tally.confidential_rows;
            context_.db.persist(holder);
            ++summary_.inserted;
        }
    }

private:
    // Positions are deleted holder by holder, through the (cnpj, month) index.
    void DeleteMonth(const std::string& month) {
        std::vector<std::string> cnpjs;
        odb::result<CdaHolder> rows(context_.db.query<CdaHolder>(HolderQuery::month == month));
        for (const CdaHolder& holder : rows) {
            cnpjs.push_back(holder.cnpj);
        }
        for (const std::string& cnpj : cnpjs) {
            summary_.removed += context_.db.erase_query<CdaPosition>(PositionQuery::cnpj == cnpj &&
                                                                     PositionQuery::month == month);
        }
        summary_.removed += context_.db.erase_query<CdaHolder>(HolderQuery::month == month);
    }

    void ReadMember(const CdaMember& member, std::map<std::string, HolderTally>& holders) {
        CdaMemberReader reader(inputs_.Open(member), member);
        rows_.Stage(reader.SourceName());
        SeenLines seen;
        while (reader.Next()) {
            rows_.Row();
            if (!seen.Insert(reader.Digest())) {
                rejections_.Reject(reader.SourceName(), reader.Line(),
                                   "repeats an earlier identical line (collapsed)");
                continue;
            }
            auto [it, is_new] = holders.try_emplace(reader.Cnpj());
            HolderTally& tally = it->second;
            if (is_new || member.kind == CdaMemberKind::kPl) {
                // The PL names the holder (read first; a later PL line of the same holder
                // wins); otherwise the first row that mentions it.
                tally.filer_type = reader.FilerType();
                tally.name = reader.Name();
            }
            switch (member.kind) {
                case CdaMemberKind::kPl:
                    tally.nav = reader.Nav();
                    break;
                case CdaMemberKind::kBlock:
                case CdaMemberKind::kFie: {
                    CdaPosition position = reader.Position();
                    context_.db.persist(position);
                    ++tally.positions;
                    ++summary_.inserted;
                    break;
                }
                case CdaMemberKind::kConfidential:
                case CdaMemberKind::kFieConfidential:
                    ++tally.confidential_rows;
                    break;
            }
        }
    }

    const sdk::IngestContext& context_;
    const CdaInputs& inputs_;
    sdk::IngestSummary& summary_;
    sdk::RowCounter rows_;
    sdk::RejectionLog rejections_;
};

// The latest month stored, after this ingest's writes.
std::optional<std::string> LatestStoredMonth(odb::database& db) {
    odb::result<CdaHolder> rows(
        db.query<CdaHolder>(HolderQuery("ORDER BY" + HolderQuery::month + "DESC LIMIT 1")));
    for (const CdaHolder& holder : rows) {
        return holder.month;
    }
    return std::nullopt;
}

}  // namespace

sdk::IngestSummary CdaIngester::Run(const sdk::IngestContext& context) {
    const CdaInputs inputs(context.inputs);
    sdk::IngestSummary summary;
    MonthReplacer replacer(context, inputs, summary);
    for (const auto& [month, members] : inputs.Months()) {
        replacer.Replace(month, members);
    }
    // A month whose files carry no row leaves no holder, yet it was ingested.
    std::string latest = inputs.Months().rbegin()->first.ToString();
    if (auto stored = LatestStoredMonth(context.db); stored && *stored > latest) {
        latest = *stored;
    }
    summary.release_label = latest;
    summary.as_of = latest;
    return summary;
}

}  // namespace lastro::funds
