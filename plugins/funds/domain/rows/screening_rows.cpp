#include "domain/rows/screening_rows.hpp"

#include "domain/fidc/fidc_values.hpp"
#include "domain/registry/registry_rules.hpp"
#include "domain/rows/screening_ranking.hpp"
#include "funds_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/data_migration.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/json_values.hpp>

#include <boost/json/object.hpp>

#include <odb/query.hxx>
#include <odb/result.hxx>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <utility>

namespace lastro::funds {
namespace {

using sdk::JsonOrNull;

template <typename Row>
ScreeningRow FromView(const std::string& month, const Row& row) {
    ScreeningRow out;
    out.month = month;
    out.class_id = row.class_id;
    out.report_id = row.report_id;
    out.cnpj = row.cnpj;
    out.class_name = row.class_name;
    out.fund_id = row.fund_id;
    out.fund_name = row.fund_name;
    out.fund_type =
        row.fund_type ? CanonicalFidcType(*row.fund_type).value_or(*row.fund_type) : row.fund_type;
    out.manager = row.manager;
    out.administrator = row.administrator;
    out.status = row.status;
    if (row.fund_name) {
        out.name_folded = FoldedText(*row.fund_name);
    }
    out.manager_folded = row.manager_folded;
    out.administrator_folded = row.administrator_folded;
    out.status_folded = row.status_folded;
    out.nav = row.nav;
    out.investor_count = row.investor_count;
    out.delinquency_ratio = row.delinquency_ratio;
    out.pdd_ratio = row.pdd_ratio;
    out.subordination_with_mezzanine_ratio = row.subordination_with_mezzanine_ratio;
    out.subordination_without_mezzanine_ratio = row.subordination_without_mezzanine_ratio;
    out.primary_segment_code = row.primary_segment_code;
    out.primary_segment_ratio = row.primary_segment_ratio;
    return out;
}

// A build's generation: random, so that no two builds, of one database or of two, share one.
std::int64_t NewGeneration() {
    static thread_local std::mt19937_64 random{std::random_device{}() ^
                                               (std::uint64_t{std::random_device{}()} << 32)};
    return static_cast<std::int64_t>(random());
}

// Whether two rows of a class and month are the same, their ids aside.
bool SameRow(const ScreeningRow& a, const ScreeningRow& b) {
    auto fields = [](const ScreeningRow& r) {
        return std::tie(r.month, r.class_id, r.report_id, r.cnpj, r.class_name, r.fund_id, r.fund_name,
                        r.fund_type, r.manager, r.administrator, r.status, r.name_folded, r.manager_folded,
                        r.administrator_folded, r.status_folded, r.nav, r.investor_count, r.delinquency_ratio,
                        r.pdd_ratio, r.subordination_with_mezzanine_ratio,
                        r.subordination_without_mezzanine_ratio, r.primary_segment_code,
                        r.primary_segment_name, r.primary_segment_ratio, r.json);
    };
    return fields(a) == fields(b);
}

void FillOnMigration(odb::database& db) {
    RebuildAllScreening(db, StoredRankings::kSkip);  // funds 12 stores them
}

// The month's ranking, stored under the generation of the rows it was made from (the rows carry
// their ids: a page's texts are read back by them).
void StoreRanking(odb::database& db, const std::string& month, std::int64_t generation,
                  const ScreeningRanking& ranking) {
    // Replaced without loading the one stored (its bytes are a few hundred KB).
    db.erase_query<ScreeningRankingRecord>(odb::query<ScreeningRankingRecord>::month == month);
    ScreeningRankingRecord record{month, generation, ranking.Serialize()};
    db.persist(record);
}

// funds 12: every stored month gets the ranking of its stored rows, under its generation (the
// rows are as they were).
void StoreRankingsOnMigration(odb::database& db) {
    std::vector<ScreeningMonth> months;
    for (const ScreeningMonth& month : db.query<ScreeningMonth>()) {
        months.push_back(month);
    }
    for (const ScreeningMonth& month : months) {
        StoreRanking(db, month.month, month.generation, ScreeningRanking(StoredRankKeys(db, month.month)));
    }
}

// The rows are built by the code of the newest schema, so they are filled once the tables have
// their last column: a database at funds 4 (reports, no screening tables; version 5 creates them
// empty) or at funds 5 (rows without their JSON text) is rebuilt whole by the migration to 6.
const sdk::DataMigration<6> kFillOnMigration("funds", &FillOnMigration);
const sdk::DataMigration<12> kStoreRankingsOnMigration("funds", &StoreRankingsOnMigration);

}  // namespace

std::string ScreeningAnswerJson(const ScreeningRow& c) {
    std::string json = sdk::WriteJson(boost::json::object{
        {"class_id", c.class_id},
        {"fund_id", c.fund_id},
        {"cnpj", c.cnpj},
        {"class_name", JsonOrNull(c.class_name)},
        {"fund_name", JsonOrNull(c.fund_name)},
        {"fund_type", JsonOrNull(c.fund_type)},
        {"manager", JsonOrNull(c.manager)},
        {"administrator", JsonOrNull(c.administrator)},
        {"status", JsonOrNull(c.status)},
        {"month", c.month},
        {"nav_brl", JsonOrNull(c.nav)},
        {"investor_count", JsonOrNull(c.investor_count)},
        {"delinquency_ratio", JsonOrNull(c.delinquency_ratio)},
        {"pdd_ratio", JsonOrNull(c.pdd_ratio)},
        {"subordination_with_mezzanine_ratio", JsonOrNull(c.subordination_with_mezzanine_ratio)},
        {"subordination_without_mezzanine_ratio", JsonOrNull(c.subordination_without_mezzanine_ratio)},
        {"primary_segment_code", JsonOrNull(c.primary_segment_code)},
        {"primary_segment_name", JsonOrNull(c.primary_segment_name)},
        {"primary_segment_ratio", JsonOrNull(c.primary_segment_ratio)},
    });
    json.shrink_to_fit();
    return json;
}

std::vector<ScreeningRow> BuildScreeningRows(odb::database& db, const std::string& month) {
    std::map<std::string, ScreeningRow> by_class;
    using OwnQuery = odb::query<ScreeningByClassCnpj>;
    odb::result<ScreeningByClassCnpj> own(db.query<ScreeningByClassCnpj>(
        OwnQuery::FidcReport::month == month && OwnQuery::Fund::fidc_universe == true));
    for (const ScreeningByClassCnpj& row : own) {
        by_class.try_emplace(row.class_id, FromView(month, row));
    }

    using FundQuery = odb::query<ScreeningByFundCnpj>;
    std::vector<ScreeningByFundCnpj> through_fund;
    odb::result<ScreeningByFundCnpj> rows(db.query<ScreeningByFundCnpj>(
        FundQuery::FidcReport::month == month && FundQuery::Fund::fidc_universe == true));
    for (const ScreeningByFundCnpj& row : rows) {
        through_fund.push_back(row);
    }
    // The join yields every class of the fund: a report of a fund with one class only.
    std::map<std::pair<std::int64_t, std::string>, int> classes_of_fund;
    for (const ScreeningByFundCnpj& row : through_fund) {
        ++classes_of_fund[{row.report_id, row.fund_id}];
    }
    for (const ScreeningByFundCnpj& row : through_fund) {
        if (classes_of_fund[{row.report_id, row.fund_id}] == 1) {
            by_class.try_emplace(row.class_id, FromView(month, row));  // the class's own report wins
        }
    }

    // The segment's name, as the report's table II names it.
    std::map<std::int64_t, std::optional<std::string>> segments;
    for (const auto& [class_id, row] : by_class) {
        if (row.primary_segment_code) {
            segments.try_emplace(row.report_id);
        }
    }
    if (!segments.empty()) {
        using SegmentsQuery = odb::query<FidcReport>;
        odb::result<FidcReportSegments> documents(
            db.query<FidcReportSegments>(SegmentsQuery::month == month));
        for (const FidcReportSegments& document : documents) {
            if (auto it = segments.find(document.report_id); it != segments.end()) {
                it->second = document.segments_json;
            }
        }
    }

    std::vector<ScreeningRow> out;
    out.reserve(by_class.size());
    for (auto& [class_id, row] : by_class) {
        if (row.primary_segment_code) {
            row.primary_segment_name = SegmentName(segments[row.report_id], *row.primary_segment_code);
        }
        row.json = ScreeningAnswerJson(row);
        out.push_back(std::move(row));
    }
    return out;
}

std::size_t RebuildScreening(odb::database& db, const std::vector<std::string>& months,
                             StoredRankings rankings) {
    using RowQuery = odb::query<ScreeningRow>;
    std::size_t written = 0;
    for (const std::string& month : months) {
        std::vector<ScreeningRow> rows = BuildScreeningRows(db, month);
        std::map<std::string, ScreeningRow> stored;
        {
            odb::result<ScreeningRow> result(db.query<ScreeningRow>(RowQuery::month == month));
            for (ScreeningRow& row : result) {
                std::string class_id = row.class_id;
                stored.emplace(std::move(class_id), std::move(row));
            }
        }
        // Only what differs is written: a registry change touches the rows of a few classes in
        // each month, not the month.
        std::size_t changed = 0;
        for (ScreeningRow& row : rows) {
            auto it = stored.find(row.class_id);
            if (it == stored.end()) {
                db.persist(row);
                ++changed;
                continue;
            }
            row.id = it->second.id;
            if (!SameRow(row, it->second)) {
                db.update(row);
                ++changed;
            }
            stored.erase(it);
        }
        for (const auto& [class_id, row] : stored) {
            db.erase<ScreeningRow>(row.id);
            ++changed;
        }
        written += changed;
        ScreeningMonth built;
        const bool known = db.find<ScreeningMonth>(month, built);
        if (known && changed == 0) {
            continue;  // the month's rows as they were: its ranking stays good
        }
        built = ScreeningMonth{month, NewGeneration(), static_cast<std::int64_t>(rows.size())};
        if (known) {
            db.update(built);
        } else {
            db.persist(built);
        }
        if (rankings == StoredRankings::kWrite) {
            StoreRanking(db, month, built.generation, ScreeningRanking(rows));
        }
    }
    return written;
}

std::size_t RebuildAllScreening(odb::database& db, StoredRankings rankings) {
    std::vector<std::string> months;
    odb::result<FidcReportMonth> reported(db.query<FidcReportMonth>());
    for (const FidcReportMonth& row : reported) {
        months.push_back(row.month);
    }
    // A month that lost its reports keeps its ScreeningMonth, with no classes.
    const std::set<std::string> with_reports(months.begin(), months.end());
    std::vector<std::string> emptied;
    odb::result<ScreeningMonth> built(db.query<ScreeningMonth>());
    for (const ScreeningMonth& row : built) {
        if (!with_reports.count(row.month)) {
            emptied.push_back(row.month);
        }
    }
    months.insert(months.end(), emptied.begin(), emptied.end());
    return RebuildScreening(db, months, rankings);
}

std::vector<ScreeningRankRow> StoredRankKeys(odb::database& db, const std::string& month) {
    using Query = odb::query<ScreeningRankRow>;
    struct OfMonth {
        std::string month;
    };
    auto q = sdk::CachedQuery<ScreeningRankRow, OfMonth>(
        db, "funds.screening_keys_of_month", [](const OfMonth& p) {
            return Query((Query::month == Query::_ref(p.month)) + "ORDER BY" + Query::class_id);
        });
    q.params.month = month;
    std::vector<ScreeningRankRow> rows;
    for (const ScreeningRankRow& row : q.Execute()) {
        rows.push_back(row);
    }
    return rows;
}

}  // namespace lastro::funds
