// Persistent model of the industry plugin (docs/ here):
// - cvm.cad_fi_hist: the dated manager spells of CVM's legacy registry (cad_fi_hist_gestor.csv).
// - industry.fidc_aggregates, derived from the FIDC monthly reports and the registries
//   (derive/): one row per reporting vehicle and month (the universe), and per month the
//   coverage, the quality warnings, each indicator's item and the managers' ranking rows, each
//   for both universes (with and without FIC-FIDC). A month's rows are replaced whole when the
//   month is derived again.
// Dates are "YYYY-MM-DD" text and months "YYYY-MM"; a missing value is NULL, never 0.
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <cstdint>
#include <optional>
#include <string>

#pragma db model version(1, 4)

namespace lastro::industry {

// cad_fi_hist_gestor.csv: one manager of one legacy fund over a span of dates.
#pragma db object table("industry_manager_spell")
struct ManagerSpell {
#pragma db id auto
    std::int64_t id = 0;
#pragma db index
    std::string fund_cnpj;                        // CNPJ_FUNDO, 14 digits
    std::optional<std::string> registered_at;     // DT_REG
    std::optional<std::string> person_type;       // PF_PJ_GESTOR: PF or PJ
    std::optional<std::string> manager_document;  // CPF_CNPJ_GESTOR (digits; a CPF when PF)
    std::optional<std::string> manager;           // GESTOR
    std::optional<std::string> started_at;        // DT_INI_GESTOR
    std::optional<std::string> ended_at;          // DT_FIM_GESTOR; NULL while current
};

// One reporting vehicle of one month, after the universe rules (docs/universe.md).
#pragma db object table("industry_vehicle_month")
struct VehicleMonth {
#pragma db id auto
    std::int64_t id = 0;
    std::string month;
    std::string cnpj;
    std::string kind;  // "class", "fund" (a fund that files for itself) or "unregistered"
    std::optional<std::string> fund_cnpj;
    std::optional<std::string> name;
    bool fic_fidc = false;
    std::optional<std::string> fic_fidc_reason;  // "registry_type", "name" or "fidc_quotas_share"
    std::optional<double> nav;                   // TAB_IV_A_VL_PL
    bool set_aside = false;                      // its report set aside by a sanity filter
    std::optional<double> net_flow;              // subscriptions - redemptions - amortizations (X_4)
    std::optional<std::string> manager_key;      // NULL: unknown
    std::optional<std::string> manager;
    std::string manager_source;  // "cad_fi_hist", "registry" or "unknown"
    std::optional<std::string> administrator;
#pragma db index("industry_vehicle_month_month_cnpj_i") unique members(month, cnpj)
};

// One month's facts that do not depend on the universe: who reported, who was expected, and
// the completeness judged from them (docs/coverage.md).
#pragma db object table("industry_month")
struct IndustryMonth {
#pragma db id
    std::string month;
    std::int64_t reported = 0;           // vehicles in the universe (both kinds)
    std::int64_t fund_rows_dropped = 0;  // fund-level reports dropped for their classes'
    std::optional<std::int64_t>
        expected;              // reporters of the month before still registered; NULL for the first month
    std::int64_t missing = 0;  // expected vehicles that did not report
    std::optional<double> missing_nav;   // their net worth in the month before
    std::optional<double> previous_nav;  // the universe's net worth in the month before
    std::int64_t vehicles_without_nav = 0;
    // "complete", "partial", "unknown_completeness" or "baseline" (no month before to compare)
    std::string completeness;
    std::string completeness_reason;
    std::string derived_at;  // RFC 3339 UTC
};

// One month of one universe: its by_month coverage element and its quality warnings, as JSON.
#pragma db object table("industry_month_universe")
struct UniverseMonth {
#pragma db id auto
    std::int64_t id = 0;
    std::string month;
    bool include_fic_fidc = true;
    std::string by_month_json;  // the coverage.by_month element (docs/coverage.md)
    std::string warnings_json;  // JSON array of quality warnings (docs/quality.md)
    std::int64_t warning_count = 0;
#pragma db index("industry_month_universe_i") unique members(include_fic_fidc, month)
};

// One indicator's item for one month of one universe (docs/indicators.md), as JSON.
#pragma db object table("industry_indicator_item")
struct IndicatorItem {
#pragma db id auto
    std::int64_t id = 0;
    std::string indicator;
    bool include_fic_fidc = true;
    std::string month;
    std::string item_json;
#pragma db index("industry_indicator_item_i") unique members(indicator, include_fic_fidc, month)
};

// One manager in one month of one universe (docs/ranking.md). Ranks are 1-based within the
// month and universe for each ordering, ties broken by manager_key.
#pragma db object table("industry_manager_month")
struct ManagerMonth {
#pragma db id auto
    std::int64_t id = 0;
    std::string month;
    bool include_fic_fidc = true;
    std::string manager_key;  // the manager's CNPJ or CPF digits, else its folded name
    std::optional<std::string> manager;
    std::optional<std::string> manager_document;
    double nav = 0;  // net worth of its vehicles that reported one
    std::int64_t vehicles = 0;
    std::optional<double> net_flow;             // NULL when no vehicle of it has a known net flow
    double share = 0;                           // of the month's net worth with a known manager
    std::optional<double> share_change_12m_pp;  // percentage points against 12 months before
    std::int64_t rank_pl = 0;
    std::int64_t rank_vehicles = 0;
    std::int64_t rank_net_flow = 0;
    std::int64_t rank_share_change = 0;
    std::optional<std::int64_t> rank_pl_12m_ago;
    std::optional<std::int64_t> rank_vehicles_12m_ago;
    std::optional<std::int64_t> rank_net_flow_12m_ago;
    std::optional<std::int64_t> rank_share_change_12m_ago;
    // The manager's figures as the ranking answers them, without the ranks of the ordering asked
    // (src/ranking.cpp puts those first): {"manager_id",...,"pl_rank"}.
    std::string json;
#pragma db index("industry_manager_month_i") unique members(include_fic_fidc, month, manager_key)
};

// A run of consecutive ranks of one month, universe and ordering as the ranking answers them
// (schema 2, written with the month's ManagerMonth rows by derive/ranking_blocks.hpp): a page of
// ranks over a period reads a block or a few per month, not a row per rank. Schema 3 changes no
// table: its migration writes every block again with ten ranks, not 25 (kRanksPerBlock). Schema
// 4 neither: on PostgreSQL it keeps the blocks' text uncompressed (derive/ranking_blocks.cpp).
#pragma db object table("industry_ranking_block")
struct RankingBlock {
#pragma db id auto
    std::int64_t id = 0;
    bool include_fic_fidc = true;
    std::string ordering;  // "pl", "vehicles", "net_flow" or "share_change"
    std::string month;
    std::int64_t block = 0;       // (first_rank - 1) / kRanksPerBlock
    std::int64_t first_rank = 0;  // 1-based
    std::int64_t ranks = 0;       // managers in the block: the month's last block may hold fewer
    // The block's managers as the answer writes them, {"rank":...} objects joined by commas, and
    // where each ends in that text ("312,640,..."), so that a page takes any run of them.
    std::string managers_json;
    std::string ends;
#pragma db index("industry_ranking_block_i") unique members(include_fic_fidc, ordering, month, block)
};

// What the neighbouring months' filters and same-store figures read of a month's vehicles.
#pragma db view object(VehicleMonth)
struct VehicleNav {
#pragma db column(VehicleMonth::cnpj)
    std::string cnpj;
#pragma db column(VehicleMonth::nav)
    std::optional<double> nav;
#pragma db column(VehicleMonth::fic_fidc)
    bool fic_fidc = false;
#pragma db column(VehicleMonth::set_aside)
    bool set_aside = false;
};

// The first and the last month with aggregates, in one statement (one round trip on PostgreSQL):
// each a subquery of its own, which SQLite answers from the end of the primary key (it serves a
// lone min() or max() from an index, not both in one select).
#pragma db view query(                                         \
    "SELECT (SELECT min(\"month\") FROM \"industry_month\"), " \
    "(SELECT max(\"month\") FROM \"industry_month\")")
struct IndustryMonthSpan {
    std::optional<std::string> first;
    std::optional<std::string> last;
};

// A month with aggregates as the period of an answer shows it (src/served_period.cpp): its
// completeness and one universe's stored coverage element and warnings, in one statement (one
// round trip on PostgreSQL). The derivation writes both universes' rows with the month's, in
// one transaction, so every derived month has them.
#pragma db view object(IndustryMonth) \
    object(UniverseMonth inner : IndustryMonth::month == UniverseMonth::month)
struct PeriodMonth {
#pragma db column(IndustryMonth::month)
    std::string month;
#pragma db column(IndustryMonth::completeness)
    std::string completeness;
#pragma db column(IndustryMonth::completeness_reason)
    std::string completeness_reason;
#pragma db column(UniverseMonth::by_month_json)
    std::string by_month_json;
#pragma db column(UniverseMonth::warnings_json)
    std::string warnings_json;
#pragma db column(UniverseMonth::warning_count)
    std::int64_t warning_count = 0;
};

}  // namespace lastro::industry
