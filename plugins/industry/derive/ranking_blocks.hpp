// The ranking as it is answered, stored in blocks of consecutive ranks (model: RankingBlock):
// written with each month's ManagerMonth rows, so that a page of ranks over a period reads one
// block or a few per month and copies their text (src/ranking.cpp), instead of a row per rank.
#pragma once

#include "industry_model.hxx"

#include <odb/database.hxx>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lastro::industry {

// Managers per block: a page of up to 100 ranks reads up to 11 blocks a month. Ten managers'
// objects (about 310 bytes each) keep a block's row within one 4 KB page of SQLite's file: a
// longer row spills into overflow pages, which Debian's SQLite reads with a read(2) of its own
// each time, past its page cache and its memory map (industry schema 3; 25 a block before: 5.6
// KB, 18 reads a call; docs/performance.md, "Tenth round").
inline constexpr std::int64_t kRanksPerBlock = 10;

// One order_by value and the ManagerMonth members it ranks by.
struct RankOrdering {
    const char* name;
    std::int64_t ManagerMonth::* rank;
    std::optional<std::int64_t> ManagerMonth::* rank_12m_ago;
};

inline constexpr std::array<RankOrdering, 4> kRankOrderings{{
    {"pl", &ManagerMonth::rank_pl, &ManagerMonth::rank_pl_12m_ago},
    {"vehicles", &ManagerMonth::rank_vehicles, &ManagerMonth::rank_vehicles_12m_ago},
    {"net_flow", &ManagerMonth::rank_net_flow, &ManagerMonth::rank_net_flow_12m_ago},
    {"share_change", &ManagerMonth::rank_share_change, &ManagerMonth::rank_share_change_12m_ago},
}};

// The blocks of every ordering of one month and universe: `managers` are that month's rows of
// that universe, their `json` written.
std::vector<RankingBlock> RankingBlocksOf(const std::string& month, bool include_fic_fidc,
                                          const std::vector<ManagerMonth>& managers);

// Replaces the stored blocks of one month and universe with those of `managers`.
void ReplaceRankingBlocks(odb::database& db, const std::string& month, bool include_fic_fidc,
                          const std::vector<ManagerMonth>& managers);

// Writes every stored month's blocks again from its ManagerMonth rows (the migration to
// industry schema 3 runs it); returns how many months and universes it wrote.
std::size_t RebuildRankingBlocks(odb::database& db);

}  // namespace lastro::industry
