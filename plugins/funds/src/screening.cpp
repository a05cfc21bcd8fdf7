#include "src/screening.hpp"

#include "domain/fidc/fidc_values.hpp"
#include "domain/registry/registry_rules.hpp"
#include "domain/rows/screening_ranking.hpp"
#include "domain/rows/screening_rows.hpp"
#include "funds_model-odb.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/query_params.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/serving/remembered.hpp>
#include <lastro/sdk/uuid.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace lastro::funds {

namespace {

using SortField = ScreeningSort;
using Bounds = ScreeningFilters::Bounds;

// The shortest text that reads back as exactly `value` (std::to_chars).
std::string ShortestText(double value) {
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ec == std::errc() ? end : buffer);
}

Bounds ReadBounds(const sdk::Params& params, const std::string& min_name, const std::string& max_name) {
    Bounds bounds{params.Number(min_name), params.Number(max_name)};
    if (bounds.min && bounds.max && *bounds.min > *bounds.max) {
        throw sdk::BadRequest("'" + min_name + "' (" + ShortestText(*bounds.min) + ") is greater than '" +
                                  max_name + "' (" + ShortestText(*bounds.max) + ")",
                              min_name);
    }
    return bounds;
}

// A keyset position as read from the cursor; the key's texts point into it.
struct Position {
    std::string month;
    bool present = false;
    double number = 0;
    std::string text;  // for the name sort
    std::string class_id;

    ScreeningKey Key() const { return ScreeningKey{present, number, text, class_id}; }
};

constexpr std::string_view kIssuer = "/v1/screening";

// A position as it travels in the cursor: the screened month, the sort value of the page's last
// row (null when it has none) and its class_id. Numbers travel as their shortest round-trip
// text: a JSON number read back by the host's parser may differ in the last bit, and the keyset
// compares values exactly.
struct ScreeningAfter {
    std::string month;
    std::optional<std::string> value;
    std::string class_id;
    bool Valid() const { return sdk::Month::Parse(month) && sdk::IsUuid(class_id); }
};
BOOST_DESCRIBE_STRUCT(ScreeningAfter, (), (month, value, class_id))

std::optional<Position> PositionFrom(const std::optional<boost::json::value>& position, SortField sort) {
    std::optional<ScreeningAfter> read = sdk::ReadPosition<ScreeningAfter>(position, kIssuer);
    if (!read) {
        return std::nullopt;
    }
    Position out;
    out.month = std::move(read->month);
    out.class_id = std::move(read->class_id);
    if (read->value) {
        out.present = true;
        const std::string_view text = *read->value;
        if (sort == SortField::kName) {
            out.text = std::string(text);
        } else {
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out.number);
            if (ec != std::errc() || end != text.data() + text.size()) {
                sdk::RejectCursor(kIssuer);
            }
        }
    }
    return out;
}

boost::json::value PositionJson(const std::string& month, const ScreeningKey& key, SortField sort) {
    std::optional<std::string> value;
    if (key.present) {
        value = sort == SortField::kName ? std::string(key.text) : ShortestText(key.number);
    }
    return sdk::PositionValue(ScreeningAfter{month, std::move(value), std::string(key.class_id)});
}

SortField SortFrom(const std::optional<std::string>& sort) {
    const std::string name = sort.value_or("nav_brl");
    if (name == "delinquency_ratio") {
        return SortField::kDelinquency;
    }
    if (name == "subordination_ratio") {
        return SortField::kSubordination;
    }
    if (name == "pdd_ratio") {
        return SortField::kPdd;
    }
    if (name == "name") {
        return SortField::kName;
    }
    if (name != "nav_brl") {
        throw sdk::InvalidParameter("sort",
                                    "sort must be one of nav_brl, delinquency_ratio, subordination_ratio, "
                                    "pdd_ratio, name");
    }
    return SortField::kNav;
}

// The month to screen: the one asked (404 when no report has it), the cursor's, or the latest.
struct OfMonth {
    std::string month;
};
struct NoParams {};

// The latest month with reports, or whether `month` has any (prepared once per connection).
std::optional<std::string> LatestReportMonth(odb::database& db, const std::optional<std::string>& month) {
    using MonthQuery = odb::query<FidcReport>;
    FidcLatestMonth latest;
    if (month) {
        auto q = sdk::CachedQuery<FidcLatestMonth, OfMonth>(
            db, "funds.screening_month_reported", [](const OfMonth& p) {
                return odb::query<FidcLatestMonth>(MonthQuery::month == MonthQuery::_ref(p.month));
            });
        q.params.month = *month;
        q.ExecuteOne(latest);
    } else {
        auto q = sdk::CachedQuery<FidcLatestMonth, NoParams>(
            db, "funds.screening_latest_month",
            [](const NoParams&) { return odb::query<FidcLatestMonth>(true); });
        q.ExecuteOne(latest);
    }
    return latest.month;
}

// What a screening reads of its month before the page, which changes only with an ingest: the
// latest month reported, whether a month was, and the generation of its stored rows. Kept per
// release (sdk::Remembered) and filled as months with reports are asked: two statements a call
// fewer (docs/performance.md, "Thirteenth round").
class MonthFacts {
public:
    struct Month {
        bool reported = false;
        std::optional<std::int64_t> stored_generation;  // ScreeningMonth's, when stored
    };

    std::optional<std::string> Latest(odb::database& db) const {
        {
            std::lock_guard lock(mutex_);
            if (latest_) {
                return *latest_;
            }
        }
        std::optional<std::string> latest = LatestReportMonth(db, std::nullopt);
        std::lock_guard lock(mutex_);
        latest_ = latest;
        return latest;
    }

    Month Of(odb::database& db, const std::string& month) const {
        {
            std::lock_guard lock(mutex_);
            if (auto it = months_.find(month); it != months_.end()) {
                return it->second;
            }
        }
        Month facts;
        facts.reported = LatestReportMonth(db, month).has_value();
        if (ScreeningMonth stored; db.find<ScreeningMonth>(month, stored)) {
            facts.stored_generation = stored.generation;
        }
        if (facts.reported || facts.stored_generation) {  // kept: bounded by the data, not the asks
            std::lock_guard lock(mutex_);
            months_.insert_or_assign(month, facts);
        }
        return facts;
    }

private:
    mutable std::mutex mutex_;
    mutable std::optional<std::optional<std::string>> latest_;
    mutable std::map<std::string, Month> months_;
};

std::string ScreenedMonth(odb::database& db, const MonthFacts& facts,
                          const std::optional<sdk::Month>& requested,
                          const std::optional<Position>& position) {
    if (requested) {
        const std::string month = requested->ToString();
        if (position && position->month != month) {
            sdk::RejectCursor(kIssuer);
        }
        if (!facts.Of(db, month).reported) {
            throw sdk::NotFound("no FIDC monthly report was filed for " + month, "month");
        }
        return month;
    }
    if (position) {
        return position->month;  // later pages stay on the first page's month
    }
    const auto latest = facts.Latest(db);
    if (!latest) {
        throw sdk::Unavailable("no FIDC monthly report (" + std::string(kFidcReportDataset) +
                               ") has been ingested yet");
    }
    return *latest;
}

// The rankings of recent months, shared by every request thread. Bounded in bytes (a full-size
// month is about 0.45 MB: 2,900 classes); the least recently used goes first.
class RankingCache {
public:
    static constexpr std::size_t kBudgetBytes = std::size_t{64} << 20;

    std::shared_ptr<const ScreeningRanking> Find(const std::string& month, std::int64_t generation) {
        std::lock_guard lock(mutex_);
        auto it = entries_.find(month);
        if (it == entries_.end() || it->second.generation != generation) {
            return nullptr;
        }
        recent_.splice(recent_.begin(), recent_, it->second.place);
        return it->second.ranking;
    }

    // Keeps `ranking` as the month's; one of an older (or another database's) generation goes.
    void Keep(const std::string& month, std::int64_t generation,
              std::shared_ptr<const ScreeningRanking> ranking) {
        std::lock_guard lock(mutex_);
        if (auto it = entries_.find(month); it != entries_.end()) {
            Drop(it);
        }
        recent_.push_front(month);
        bytes_ += ranking->Bytes();
        entries_.emplace(month, Kept{generation, std::move(ranking), recent_.begin()});
        while (bytes_ > kBudgetBytes && recent_.size() > 1) {
            Drop(entries_.find(recent_.back()));
        }
    }

private:
    struct Kept {
        std::int64_t generation;
        std::shared_ptr<const ScreeningRanking> ranking;
        std::list<std::string>::iterator place;
    };
    void Drop(std::map<std::string, Kept>::iterator it) {
        bytes_ -= it->second.ranking->Bytes();
        recent_.erase(it->second.place);
        entries_.erase(it);
    }

    std::mutex mutex_;
    std::map<std::string, Kept> entries_;
    std::list<std::string> recent_;  // most recent first
    std::size_t bytes_ = 0;
};

RankingCache& Rankings() {
    static RankingCache cache;
    return cache;
}

// The month's ranking as the ingest stored it with the rows of `generation` (one read), else made
// from the rows' keys (a ranking of an older format, or none stored yet).
std::shared_ptr<const ScreeningRanking> StoredRanking(odb::database& db, const std::string& month,
                                                      std::int64_t generation) {
    if (ScreeningRankingRecord record;
        db.find<ScreeningRankingRecord>(month, record) && record.generation == generation) {
        if (std::optional<ScreeningRanking> loaded =
                ScreeningRanking::Load(std::string_view(record.bytes.data(), record.bytes.size()))) {
            return std::make_shared<const ScreeningRanking>(std::move(*loaded));
        }
    }
    return std::make_shared<const ScreeningRanking>(StoredRankKeys(db, month));
}

// The stored answer texts of a page's rows, by row id (ScreeningRow::id, which the ranking keeps):
// one statement of `id IN (...)` per 128 rows, prepared once per connection and list size
// (sdk::KeyList), each row found by the table's own key, not by the (month, class_id) index and
// then the table. One round trip on PostgreSQL.
struct OfPageRows {
    sdk::KeyList<std::int64_t, 128> ids;
};

std::map<std::int64_t, ScreeningRowJson> StoredPage(odb::database& db, const std::string& month,
                                                    const std::vector<std::int64_t>& ids) {
    using Query = odb::query<ScreeningRowJson>;
    std::map<std::int64_t, ScreeningRowJson> rows;
    for (std::size_t first = 0; first < ids.size(); first += 128) {
        const auto begin = ids.begin() + static_cast<std::ptrdiff_t>(first);
        const auto end = ids.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), first + 128));
        const std::size_t terms = sdk::KeyListTerms(static_cast<std::size_t>(end - begin));
        auto q = sdk::CachedQuery<ScreeningRowJson, OfPageRows>(
            db, sdk::KeyListName("funds.screening_page_rows", terms), [terms](const OfPageRows& p) {
                // By id alone: with the month too, SQLite (no statistics) would rather walk the
                // month's (month, class_id) index entries, every class of the month.
                return odb::query<ScreeningRowJson>(sdk::InKeys(Query::id, p.ids, terms));
            });
        q.params.ids.Assign(begin, end, terms);
        for (ScreeningRowJson& row : q.Execute()) {
            if (!row.json) {
                throw std::logic_error("screening: a stored row of " + month + " has no answer text");
            }
            const std::int64_t id = row.id;
            rows.emplace(id, std::move(row));
        }
    }
    return rows;
}

}  // namespace

sdk::Result HandleScreening(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    ScreeningFilters filters;
    filters.fund_type = params.String("fund_type");
    filters.nav = ReadBounds(params, "min_nav_brl", "max_nav_brl");
    filters.delinquency = ReadBounds(params, "min_delinquency_ratio", "max_delinquency_ratio");
    filters.subordination = ReadBounds(params, "min_subordination_ratio", "max_subordination_ratio");
    filters.segment = params.String("segment");
    filters.manager = FoldedFilter(params.String("manager"));
    filters.administrator = FoldedFilter(params.String("administrator"));
    filters.status = FoldedFilter(params.String("status"));
    const SortField sort = SortFrom(params.String("sort"));
    const bool descending = params.String("order").value_or("desc") != "asc";
    const std::size_t limit = sdk::PageLimit(params, 25);
    const std::optional<Position> position = PositionFrom(context.cursor_position, sort);
    const std::shared_ptr<const MonthFacts> facts = sdk::Remembered<MonthFacts>(
        context.host, "funds.screening_months", [] { return std::make_shared<const MonthFacts>(); });
    const std::string month = ScreenedMonth(context.db, *facts, params.MonthValue("month"), position);

    // The month's ranking: from memory when its generation is the one stored, else from its
    // stored rows. A month without them (rows written outside an ingest) is built from the
    // reports for this call only.
    std::shared_ptr<const ScreeningRanking> ranking;
    std::vector<ScreeningRow> built;
    if (const std::optional<std::int64_t> generation = facts->Of(context.db, month).stored_generation) {
        ranking = Rankings().Find(month, *generation);
        if (!ranking) {
            ranking = StoredRanking(context.db, month, *generation);
            Rankings().Keep(month, *generation, ranking);
        }
    } else {
        built = BuildScreeningRows(context.db, month);
        ranking = std::make_shared<const ScreeningRanking>(built);
    }

    std::optional<ScreeningKey> after;
    if (position) {
        after = position->Key();
    }
    const ScreeningRanking::Page page = ranking->Select(filters, sort, descending, after, limit);

    // The page's rows as stored (ScreeningRow::json), in the page's order: the answer's `data`.
    std::string data = "[";
    auto append = [&data](const std::string& row) {
        if (data.size() > 1) {
            data += ',';
        }
        data += row;
    };
    if (!built.empty()) {
        for (std::size_t index : page.rows) {
            append(*built[index].json);
        }
    } else if (!page.rows.empty()) {
        std::vector<std::int64_t> ids;
        for (std::size_t index : page.rows) {
            ids.push_back(ranking->RowId(index));
        }
        const auto rows = StoredPage(context.db, month, ids);
        std::size_t bytes = 2;
        for (const auto& [id, row] : rows) {
            bytes += row.json->size() + 1;
        }
        data.reserve(bytes);
        for (std::size_t index : page.rows) {
            auto it = rows.find(ranking->RowId(index));
            if (it == rows.end() || it->second.class_id != ranking->ClassId(index)) {
                throw std::logic_error("screening: the stored rows of " + month +
                                       " changed within a generation");
            }
            append(*it->second.json);
        }
    }
    data += ']';

    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kFidcReportDataset, kRegistryDataset});
    result.meta.as_of = month;  // the month screened
    if (page.more) {
        result.meta.next_position = PositionJson(month, ranking->KeyOf(page.rows.back(), sort), sort);
    }
    result.meta.extra["universe_filter"] = boost::json::object{
        {"fund_type",
         filters.fund_type ? boost::json::value(*filters.fund_type) : boost::json::value("FIDC")},
        {"fund_types", filters.fund_type ? boost::json::array{boost::json::value(*filters.fund_type)}
                                         : boost::json::array{"FIDC", "FIDC-NP", "FIC-FIDC"}},
    };
    result.meta.extra["month_selection"] = params.MonthValue("month") ? "requested" : "latest_month";
    result.meta.extra["match_count"] = page.match_count;
    result.meta.row_count = page.rows.size();
    result.data_json = std::move(data);
    return result;
}

}  // namespace lastro::funds
