#include "derive/ranking_blocks.hpp"

#include "industry_model-odb.hxx"

#include <lastro/sdk/data_migration.hpp>
#include <lastro/sdk/schema_sql.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

namespace lastro::industry {
namespace {

void AppendRank(std::string& out, const std::optional<std::int64_t>& rank) {
    if (!rank) {
        out += "null";
        return;
    }
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, *rank).ptr);
}

// A manager as the ranking answers it under `ordering`: the ordering's ranks first, then the
// stored figures (ManagerMonth::json's members after its "{").
void AppendManager(std::string& out, const ManagerMonth& m, const RankOrdering& ordering) {
    const std::int64_t rank = m.*ordering.rank;
    const std::optional<std::int64_t> before = m.*ordering.rank_12m_ago;
    out += R"({"rank":)";
    AppendRank(out, rank);
    out += R"(,"rank_12m_ago":)";
    AppendRank(out, before);
    out += R"(,"rank_change_12m":)";
    AppendRank(out, before ? std::optional<std::int64_t>(*before - rank) : std::nullopt);
    out += ',';
    out.append(m.json, 1);
}

}  // namespace

std::vector<RankingBlock> RankingBlocksOf(const std::string& month, bool include_fic_fidc,
                                          const std::vector<ManagerMonth>& managers) {
    std::vector<RankingBlock> blocks;
    std::vector<const ManagerMonth*> order;
    order.reserve(managers.size());
    for (const ManagerMonth& m : managers) {
        order.push_back(&m);
    }
    for (const RankOrdering& ordering : kRankOrderings) {
        std::sort(order.begin(), order.end(), [&](const ManagerMonth* a, const ManagerMonth* b) {
            return a->*ordering.rank < b->*ordering.rank;
        });
        for (const ManagerMonth* m : order) {
            const std::int64_t rank = m->*ordering.rank;
            const std::int64_t block = (rank - 1) / kRanksPerBlock;
            if (blocks.empty() || blocks.back().ordering != ordering.name || blocks.back().block != block) {
                RankingBlock next;
                next.include_fic_fidc = include_fic_fidc;
                next.ordering = ordering.name;
                next.month = month;
                next.block = block;
                next.first_rank = rank;
                blocks.push_back(std::move(next));
            }
            RankingBlock& b = blocks.back();
            if (b.ranks > 0) {
                b.managers_json += ',';
                b.ends += ',';
            }
            AppendManager(b.managers_json, *m, ordering);
            b.ends += std::to_string(b.managers_json.size());
            ++b.ranks;
        }
    }
    return blocks;
}

void ReplaceRankingBlocks(odb::database& db, const std::string& month, bool include_fic_fidc,
                          const std::vector<ManagerMonth>& managers) {
    using Query = odb::query<RankingBlock>;
    db.erase_query<RankingBlock>(Query::month == month && Query::include_fic_fidc == include_fic_fidc);
    for (RankingBlock& block : RankingBlocksOf(month, include_fic_fidc, managers)) {
        db.persist(block);
    }
}

std::size_t RebuildRankingBlocks(odb::database& db) {
    db.erase_query<RankingBlock>();
    std::map<std::pair<std::string, bool>, std::vector<ManagerMonth>> months;
    for (ManagerMonth& m : db.query<ManagerMonth>()) {
        months[{m.month, m.include_fic_fidc}].push_back(std::move(m));
    }
    for (const auto& [key, managers] : months) {
        for (RankingBlock& block : RankingBlocksOf(key.first, key.second, managers)) {
            db.persist(block);
        }
    }
    return months.size();
}

namespace {

void FillOnMigration(odb::database& db) {
    RebuildRankingBlocks(db);
}

// A database at industry 1 or 2 gets every stored month's blocks, of kRanksPerBlock ranks, on its
// way to 3 (a database at 1 gets its blocks at 3: the step to 2 writes none).
const sdk::DataMigration<3> kFillOnMigration("industry", &FillOnMigration);

// PostgreSQL compresses a row's text once the row passes 2 KB (its TOAST threshold), and a
// block's row is about 2.8 KB: every ranking call decompressed each block it read, a fifth of
// PostgreSQL's CPU for the call (docs/performance.md, "Thirteenth round"). Rows up to a page
// stay whole and plain; the blocks already stored are written again so that they are too.
const sdk::SchemaSql kPlainBlocksPgsql(
    "industry", 4, odb::id_pgsql,
    {
        "ALTER TABLE industry_ranking_block SET (toast_tuple_target = 8160)",
        "UPDATE industry_ranking_block SET managers_json = managers_json || ''",
    });

}  // namespace
}  // namespace lastro::industry
