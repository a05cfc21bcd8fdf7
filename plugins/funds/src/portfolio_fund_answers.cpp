#include "src/portfolio_fund_answers.hpp"

#include "funds_model-odb.hxx"
#include "src/portfolio_funds.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/data_migration.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace lastro::funds {

namespace {

using AnswerQuery = odb::query<PortfolioFundAnswer>;
using HolderQuery = odb::query<CdaHolder>;

void FillOnMigration(odb::database& db) {
    RebuildPortfolioFundAnswers(db);
}

const sdk::DataMigration<14> kFillOnMigration("funds", &FillOnMigration);

// The holders whose answers are stored: a registry class's or fund's CNPJ, with a BLC_2
// position naming an invested CNPJ in that month. Read whole before any answer is built (on
// PostgreSQL one connection runs one statement at a time).
std::vector<CdaHolder> HoldersWithFunds(odb::database& db) {
    const HolderQuery in_registry("(" + HolderQuery::cnpj +
                                  "IN (SELECT \"cnpj\" FROM \"funds_class\" WHERE \"cnpj\" IS NOT NULL) OR" +
                                  HolderQuery::cnpj + "IN (SELECT \"cnpj\" FROM \"funds_fund\"))");
    const HolderQuery holds_funds("EXISTS (SELECT 1 FROM \"funds_cda_position\" p WHERE p.\"cnpj\" =" +
                                  HolderQuery::cnpj + "AND p.\"month\" =" + HolderQuery::month +
                                  "AND p.\"block\" = 'BLC_2' AND p.\"invested_cnpj\" IS NOT NULL)");
    std::vector<CdaHolder> holders;
    for (const CdaHolder& holder : db.query<CdaHolder>((in_registry && holds_funds) + "ORDER BY" +
                                                       HolderQuery::cnpj + "," + HolderQuery::month)) {
        holders.push_back(holder);
    }
    return holders;
}

bool SameAnswer(const PortfolioFundAnswer& a, const PortfolioFundAnswer& b) {
    return a.previous_month_filed == b.previous_month_filed && a.outside_positions == b.outside_positions &&
           a.outside_position_brl == b.outside_position_brl && a.row_count == b.row_count &&
           a.data_json == b.data_json;
}

}  // namespace

std::optional<PortfolioFundAnswer> StoredPortfolioFundAnswer(odb::database& db,
                                                             const std::string& holder_cnpj,
                                                             const std::string& month) {
    struct OfHolderMonth {
        std::string cnpj;
        std::string month;
    };
    auto q = sdk::CachedQuery<PortfolioFundAnswer, OfHolderMonth>(
        db, "funds.portfolio_fund_answer", [](const OfHolderMonth& p) {
            return AnswerQuery::holder_cnpj == AnswerQuery::_ref(p.cnpj) &&
                   AnswerQuery::month == AnswerQuery::_ref(p.month);
        });
    q.params.cnpj = holder_cnpj;
    q.params.month = month;
    for (const PortfolioFundAnswer& answer : q.Execute()) {
        return answer;
    }
    return std::nullopt;
}

sdk::IngestSummary RebuildPortfolioFundAnswers(odb::database& db) {
    std::map<std::pair<std::string, std::string>, PortfolioFundAnswer> stored;
    for (const PortfolioFundAnswer& answer : db.query<PortfolioFundAnswer>()) {
        stored.emplace(std::make_pair(answer.holder_cnpj, answer.month), answer);
    }
    sdk::IngestSummary summary;
    std::set<std::string> months;
    for (const CdaHolder& holder : HoldersWithFunds(db)) {
        const std::optional<sdk::Month> month = sdk::Month::Parse(holder.month);
        if (!month) {
            continue;  // no call can ask for it
        }
        ++summary.rows_read;
        PortfolioFundAnswer built = BuildPortfolioFundAnswer(db, holder, *month);
        auto it = stored.find({holder.cnpj, holder.month});
        if (it == stored.end()) {
            db.persist(built);
            ++summary.inserted;
            months.insert(holder.month);
            continue;
        }
        if (SameAnswer(it->second, built)) {
            ++summary.unchanged;
        } else {
            built.id = it->second.id;
            db.update(built);
            ++summary.updated;
            months.insert(holder.month);
        }
        stored.erase(it);
    }
    for (const auto& [key, gone] : stored) {
        db.erase<PortfolioFundAnswer>(gone.id);
        ++summary.removed;
        months.insert(key.second);
    }
    summary.periods.emplace(months.begin(), months.end());
    return summary;
}

sdk::IngestSummary PortfolioFundAnswersDerivation::Run(const sdk::DerivationContext& context) {
    context.progress.Stage(kPortfolioFundAnswersDataset);
    sdk::IngestSummary summary = RebuildPortfolioFundAnswers(context.db);
    context.progress.Rows(summary.rows_read);
    std::string newest;
    for (const CdaHolder& holder :
         context.db.query<CdaHolder>(HolderQuery("ORDER BY") + HolderQuery::month + "DESC LIMIT 1")) {
        newest = holder.month;
    }
    summary.release_label = newest.empty() ? "empty" : newest;
    if (!newest.empty()) {
        summary.as_of = newest;
    }
    return summary;
}

}  // namespace lastro::funds
