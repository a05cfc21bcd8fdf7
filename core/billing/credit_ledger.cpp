#include "core/billing/credit_ledger.hpp"

#include "billing_model-odb.hxx"
#include "core/billing/admission_rule.hpp"
#include "core/storage/billing_model.hxx"
#include "core/storage/database.hpp"
#include "core/storage/pgsql_statements.hpp"

#include <odb/transaction.hxx>

#include <algorithm>
#include <map>
#include <variant>

namespace lastro::billing {
namespace {

using storage::SqlText;

constexpr const char* kReserved = "reserved";
constexpr const char* kCharged = "charged";
constexpr const char* kRefunded = "refunded";

std::string UsageId(std::int64_t key_id, const std::string& month) {
    return std::to_string(key_id) + ":" + month;
}

std::string WindowId(std::int64_t key_id, std::time_t minute) {
    return std::to_string(key_id) + ":" + std::to_string(minute);
}

// SQLite: a usage or window row for this batch's update, made from `fresh` when missing. The
// batch's write transaction already excludes every other writer, so the row is found by its id
// and persisted when missing, with statements ODB prepares once per connection. (PostgreSQL
// makes and locks rows with LockOnPostgres, where instances create the same rows at once.)
template <typename T>
T FindOrPersist(odb::database& db, const std::string& id, const T& fresh) {
    T row;
    if (!db.find<T>(id, row)) {
        row = fresh;
        db.persist(row);
    }
    return row;
}

}  // namespace

struct LedgerBatch::Row {
    std::variant<storage::CreditUsage, storage::RateWindow> value;
    bool dirty = false;
};

std::string MonthOf(std::time_t now) {
    return storage::FormatUtc(now, "%Y-%m");
}

std::time_t NextMonthStart(std::time_t now) {
    std::tm tm{};
    gmtime_r(&now, &tm);
    tm.tm_mday = 1;
    tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
    tm.tm_mon += 1;
    if (tm.tm_mon == 12) {
        tm.tm_mon = 0;
        tm.tm_year += 1;
    }
    return timegm(&tm);
}

LedgerBatch::LedgerBatch(odb::database& db, std::string instance) : db_(db), instance_(std::move(instance)) {}

LedgerBatch::~LedgerBatch() = default;

storage::CreditUsage& LedgerBatch::Usage(std::int64_t key_id, const std::string& month) {
    const std::string id = UsageId(key_id, month);
    if (!usage_.contains(id)) {
        if (db_.id() == odb::id_pgsql) {
            LockOnPostgres({{id, {key_id, month}}}, {}, {});
        } else {
            auto slot = std::make_unique<Row>();
            slot->value = FindOrPersist(db_, id, storage::CreditUsage{id, key_id, month, 0, 0, 0});
            usage_[id] = std::move(slot);
        }
    }
    return std::get<storage::CreditUsage>(usage_.at(id)->value);
}

storage::RateWindow& LedgerBatch::Window(std::int64_t key_id, std::time_t minute) {
    const std::string id = WindowId(key_id, minute);
    if (!windows_.contains(id)) {
        if (db_.id() == odb::id_pgsql) {
            LockOnPostgres({}, {{id, {key_id, minute}}}, {});
        } else {
            auto slot = std::make_unique<Row>();
            slot->value = FindOrPersist(db_, id, storage::RateWindow{id, key_id, minute, 0});
            windows_[id] = std::move(slot);
        }
    }
    return std::get<storage::RateWindow>(windows_.at(id)->value);
}

void LedgerBatch::Lock(const std::vector<AdmissionRequest>& admissions,
                       const std::vector<SettlementRequest>& settlements) {
    // One order for every instance (the ids sort the same everywhere): two batches that need
    // the same rows wait for each other instead of deadlocking.
    std::map<std::string, std::pair<std::int64_t, std::string>> usages;
    std::map<std::string, std::pair<std::int64_t, std::time_t>> windows;
    for (const AdmissionRequest& a : admissions) {
        usages[UsageId(a.key_id, MonthOf(a.now))] = {a.key_id, MonthOf(a.now)};
        windows[WindowId(a.key_id, MinuteOf(a.now))] = {a.key_id, MinuteOf(a.now)};
    }
    for (const SettlementRequest& s : settlements) {
        const std::int64_t key = s.reservation.key_id;
        usages[UsageId(key, s.reservation.month)] = {key, s.reservation.month};
        usages[UsageId(key, MonthOf(s.now))] = {key, MonthOf(s.now)};
    }
    if (db_.id() == odb::id_pgsql) {
        LockOnPostgres(usages, windows, settlements);
        return;
    }
    for (const auto& [id, usage] : usages) {
        Usage(usage.first, usage.second);
    }
    for (const auto& [id, window] : windows) {
        Window(window.first, window.second);
    }
}

// One round trip: every usage and window row made to exist and locked (an upsert that changes
// nothing but locks and returns the row, in id order; every instance may create the same row
// at once), and the settlements' entries read with a row lock. Also how Usage() and Window()
// lock a row the batch did not name in Lock().
void LedgerBatch::LockOnPostgres(const std::map<std::string, std::pair<std::int64_t, std::string>>& usages,
                                 const std::map<std::string, std::pair<std::int64_t, std::time_t>>& windows,
                                 const std::vector<SettlementRequest>& settlements) {
    std::string sql;
    std::string rows;
    for (const auto& [id, usage] : usages) {
        rows += (rows.empty() ? "(" : ", (") + SqlText(id) + ", " + std::to_string(usage.first) + ", " +
                SqlText(usage.second) + ", 0, 0, 0)";
    }
    if (!rows.empty()) {
        sql +=
            "INSERT INTO billing_credit_usage (key_month, key_id, month, reserved, charged, leased) VALUES " +
            rows +
            " ON CONFLICT (key_month) DO UPDATE SET key_month = EXCLUDED.key_month"
            " RETURNING key_month, key_id, month, reserved, charged, leased;";
    }
    rows.clear();
    for (const auto& [id, window] : windows) {
        rows += (rows.empty() ? "(" : ", (") + SqlText(id) + ", " + std::to_string(window.first) + ", " +
                std::to_string(window.second) + ", 0)";
    }
    if (!rows.empty()) {
        sql += "INSERT INTO billing_rate_window (key_minute, key_id, minute, calls) VALUES " + rows +
               " ON CONFLICT (key_minute) DO UPDATE SET key_minute = EXCLUDED.key_minute"
               " RETURNING key_minute, key_id, minute, calls;";
    }
    std::vector<std::string> ids;
    for (const SettlementRequest& s : settlements) {
        ids.push_back(s.reservation.request_id);
    }
    sql += EntriesForUpdateSql(ids);
    if (sql.empty()) {
        return;
    }
    const std::vector<storage::PgRows> results = storage::RunPgStatements(sql);
    std::size_t next = 0;
    auto number = [](const std::optional<std::string>& text) { return std::stoll(text.value_or("0")); };
    if (!usages.empty()) {
        for (const auto& row : results.at(next++)) {
            auto slot = std::make_unique<Row>();
            slot->value = storage::CreditUsage{*row.at(0),        number(row.at(1)), *row.at(2),
                                               number(row.at(3)), number(row.at(4)), number(row.at(5))};
            usage_[*row.at(0)] = std::move(slot);
        }
    }
    if (!windows.empty()) {
        for (const auto& row : results.at(next++)) {
            auto slot = std::make_unique<Row>();
            slot->value =
                storage::RateWindow{*row.at(0), number(row.at(1)), number(row.at(2)), number(row.at(3))};
            windows_[*row.at(0)] = std::move(slot);
        }
    }
    if (!ids.empty()) {
        ReadEntries(results.at(next++));
    }
}

// The entries named by `ids`, locked, in id order (one global order for every instance).
std::string LedgerBatch::EntriesForUpdateSql(const std::vector<std::string>& ids) const {
    std::string list;
    for (const std::string& id : ids) {
        list += (list.empty() ? "" : ", ") + SqlText(id);
    }
    if (list.empty()) {
        return "";
    }
    return "SELECT request_id, price, month, state FROM billing_ledger WHERE request_id IN (" + list +
           ") ORDER BY request_id FOR UPDATE;";
}

void LedgerBatch::ReadEntries(const storage::PgRows& rows) {
    for (const auto& row : rows) {
        locked_entries_[*row.at(0)] =
            LockedEntry{std::stoll(row.at(1).value_or("0")), *row.at(2), *row.at(3)};
    }
}

CreditState CreditStateOf(std::int64_t charged, std::int64_t reserved, std::int64_t allowance,
                          std::time_t now) {
    CreditState s;
    s.limit = allowance;
    s.remaining = std::max<std::int64_t>(0, allowance - charged - reserved);
    s.reset_at = NextMonthStart(now);
    return s;
}

CreditState LedgerBatch::StateOf(const storage::CreditUsage& usage, std::int64_t allowance,
                                 std::time_t now) const {
    return CreditStateOf(usage.charged, usage.reserved, allowance, now);
}

storage::LedgerEntry LedgerBatch::EntryOf(const Reservation& reservation) const {
    storage::LedgerEntry entry;
    entry.request_id = reservation.request_id;
    entry.key_id = reservation.key_id;
    entry.operation = reservation.operation;
    entry.price = reservation.price;
    entry.month = reservation.month;
    entry.state = kReserved;
    entry.reserved_at = storage::Rfc3339(reservation.reserved_at);
    entry.instance = instance_;
    return entry;
}

Admission LedgerBatch::Admit(const AdmissionRequest& request) {
    storage::RateWindow& window = Window(request.key_id, MinuteOf(request.now));
    storage::CreditUsage& usage = Usage(request.key_id, MonthOf(request.now));
    const AdmissionVerdict verdict = DecideAdmission(
        request,
        {request.calls_per_minute - window.calls, request.allowance - usage.charged - usage.reserved});
    if (verdict.counted) {
        ++window.calls;
        windows_[window.key_minute]->dirty = true;
        wrote_ = true;
    }
    if (verdict.reservation) {
        Reserve(*verdict.reservation);
    }
    return AdmissionOf(request, verdict, request.calls_per_minute - window.calls,
                       StateOf(usage, request.allowance, request.now));
}

std::int64_t LedgerBatch::ApplySettlement(std::int64_t key_id, const std::string& month, std::int64_t price,
                                          bool charge) {
    storage::CreditUsage& usage = Usage(key_id, month);
    usage.reserved = std::max<std::int64_t>(0, usage.reserved - price);
    if (charge) {
        usage.charged += price;
    }
    usage_[usage.key_month]->dirty = true;
    wrote_ = true;
    return charge ? price : 0;
}

void LedgerBatch::ReverseCharge(std::int64_t key_id, const std::string& month, std::int64_t price) {
    storage::CreditUsage& usage = Usage(key_id, month);
    usage.charged = std::max<std::int64_t>(0, usage.charged - price);
    usage_[usage.key_month]->dirty = true;
    wrote_ = true;
}

SettleResult LedgerBatch::Settle(const SettlementRequest& request) {
    const Reservation& r = request.reservation;
    const bool charge = SettlementFor(request.status) == Settlement::kCharge;
    SettleResult result;
    std::unique_ptr<storage::LedgerEntry> entry(db_.find<storage::LedgerEntry>(r.request_id));
    result.recorded = entry != nullptr;
    // Only an open reservation is settled: one refunded by the recovery rule stays refunded.
    if (entry && entry->state == kReserved) {
        result.charged = ApplySettlement(r.key_id, entry->month, entry->price, charge);
        entry->state = charge ? kCharged : kRefunded;
        entry->status = request.status;
        entry->settled_at = storage::Rfc3339(request.now);
        db_.update(*entry);
    } else if (entry && entry->state == kCharged && request.reverse_charge) {
        ReverseCharge(r.key_id, entry->month, entry->price);
        entry->state = kRefunded;
        entry->status = request.status;
        entry->settled_at = storage::Rfc3339(request.now);
        db_.update(*entry);
    }
    // The headers describe the month of the answer: after a month boundary, the new month.
    result.credits = StateOf(Usage(r.key_id, MonthOf(request.now)), request.allowance, request.now);
    return result;
}

std::vector<SettleResult> LedgerBatch::SettleAll(const std::vector<SettlementRequest>& requests) {
    std::vector<SettleResult> results;
    results.reserve(requests.size());
    if (db_.id() != odb::id_pgsql) {
        for (const SettlementRequest& request : requests) {
            results.push_back(Settle(request));
        }
        return results;
    }
    // The entries Lock() did not read yet, read now; the updates wait for Flush().
    std::vector<std::string> unread;
    for (const SettlementRequest& request : requests) {
        if (!locked_entries_.contains(request.reservation.request_id)) {
            unread.push_back(request.reservation.request_id);
        }
    }
    if (const std::string sql = EntriesForUpdateSql(unread); !sql.empty()) {
        ReadEntries(storage::RunPgStatements(sql).at(0));
        for (const std::string& id : unread) {
            locked_entries_.try_emplace(id);  // absent from the ledger: state stays empty
        }
    }
    for (const SettlementRequest& request : requests) {
        const Reservation& r = request.reservation;
        SettleResult result;
        auto it = locked_entries_.find(r.request_id);
        result.recorded = it != locked_entries_.end() && !it->second.state.empty();
        // Only an open reservation is settled, once: one refunded by the recovery rule stays
        // refunded, and a request id given twice is settled by the first.
        const std::string was = result.recorded ? it->second.state : std::string();
        if (was == kReserved) {
            const bool charge = SettlementFor(request.status) == Settlement::kCharge;
            result.charged = ApplySettlement(r.key_id, it->second.month, it->second.price, charge);
            it->second.state = charge ? kCharged : kRefunded;
        } else if (was == kCharged && request.reverse_charge) {
            ReverseCharge(r.key_id, it->second.month, it->second.price);
            it->second.state = kRefunded;
        }
        if (it != locked_entries_.end() && it->second.state != was) {
            settled_values_ += settled_values_.empty() ? "(" : ", (";
            settled_values_ += SqlText(r.request_id) + ", " + SqlText(was) + ", " +
                               SqlText(it->second.state) + ", " + std::to_string(request.status) + ", " +
                               SqlText(storage::Rfc3339(request.now)) + ")";
        }
        result.credits = StateOf(Usage(r.key_id, MonthOf(request.now)), request.allowance, request.now);
        results.push_back(result);
    }
    return results;
}

void LedgerBatch::Reserve(const Reservation& reservation) {
    storage::CreditUsage& usage = Usage(reservation.key_id, reservation.month);
    usage.reserved += reservation.price;
    usage_[usage.key_month]->dirty = true;
    storage::LedgerEntry entry = EntryOf(reservation);
    if (db_.id() == odb::id_pgsql) {
        pending_entries_.push_back(std::move(entry));  // one INSERT for the batch, at Flush()
    } else {
        db_.persist(entry);
    }
    wrote_ = true;
}

SettleResult LedgerBatch::Record(const SettlementRequest& request) {
    const Reservation& r = request.reservation;
    const bool charge = SettlementFor(request.status) == Settlement::kCharge;
    SettleResult result;
    if (charge) {
        storage::CreditUsage& usage = Usage(r.key_id, r.month);
        usage.charged += r.price;
        usage_[usage.key_month]->dirty = true;
        result.charged = r.price;
    }
    storage::LedgerEntry entry = EntryOf(r);
    entry.state = charge ? kCharged : kRefunded;
    entry.status = request.status;
    entry.settled_at = storage::Rfc3339(request.now);
    db_.persist(entry);
    wrote_ = true;
    return result;  // credits: the caller's AccountBook knows them
}

void LedgerBatch::Flush() {
    if (db_.id() == odb::id_pgsql) {
        FlushOnPostgres();
        return;
    }
    for (auto& [id, row] : usage_) {
        if (row->dirty) {
            db_.update(std::get<storage::CreditUsage>(row->value));
            row->dirty = false;
        }
    }
    for (auto& [id, row] : windows_) {
        if (row->dirty) {
            db_.update(std::get<storage::RateWindow>(row->value));
            row->dirty = false;
        }
    }
}

// One round trip: the settled entries, the new reservations, and the usage and window rows
// the batch changed, each kind in one statement.
void LedgerBatch::FlushOnPostgres() {
    std::string sql;
    if (!settled_values_.empty()) {
        sql +=
            "UPDATE billing_ledger AS l SET state = v.state, status = v.status, settled_at = v.settled_at"
            " FROM (VALUES " +
            settled_values_ +
            ") AS v (request_id, was, state, status, settled_at)"
            " WHERE l.request_id = v.request_id AND l.state = v.was;";
        settled_values_.clear();
    }
    std::string rows;
    for (const storage::LedgerEntry& e : pending_entries_) {
        rows += (rows.empty() ? "(" : ", (") + SqlText(e.request_id) + ", " + std::to_string(e.key_id) +
                ", " + SqlText(e.operation) + ", " + std::to_string(e.price) + ", " + SqlText(e.month) +
                ", " + SqlText(e.state) + ", " + SqlText(e.reserved_at) + ", " +
                (e.instance ? SqlText(*e.instance) : "NULL") + ")";
    }
    if (!rows.empty()) {
        sql +=
            "INSERT INTO billing_ledger (request_id, key_id, operation, price, month, state, reserved_at, "
            "instance) VALUES " +
            rows + ";";
        pending_entries_.clear();
    }
    rows.clear();
    for (auto& [id, row] : usage_) {
        if (row->dirty) {
            const auto& u = std::get<storage::CreditUsage>(row->value);
            rows += (rows.empty() ? "(" : ", (") + SqlText(id) + ", " + std::to_string(u.reserved) + ", " +
                    std::to_string(u.charged) + ")";
            row->dirty = false;
        }
    }
    if (!rows.empty()) {
        sql +=
            "UPDATE billing_credit_usage AS u SET reserved = v.reserved, charged = v.charged FROM (VALUES " +
            rows + ") AS v (key_month, reserved, charged) WHERE u.key_month = v.key_month;";
    }
    rows.clear();
    for (auto& [id, row] : windows_) {
        if (row->dirty) {
            rows += (rows.empty() ? "(" : ", (") + SqlText(id) + ", " +
                    std::to_string(std::get<storage::RateWindow>(row->value).calls) + ")";
            row->dirty = false;
        }
    }
    if (!rows.empty()) {
        sql += "UPDATE billing_rate_window AS w SET calls = v.calls FROM (VALUES " + rows +
               ") AS v (key_minute, calls) WHERE w.key_minute = v.key_minute;";
    }
    if (!sql.empty()) {
        storage::RunPgStatements(sql);
    }
}

StoredCredits StoredCreditsOf(odb::database& db, std::int64_t key_id, const std::string& month) {
    StoredCredits stored;
    odb::transaction t(db.begin());
    storage::CreditUsage usage;
    if (db.find<storage::CreditUsage>(UsageId(key_id, month), usage)) {
        stored.charged = usage.charged;
        stored.reserved = usage.reserved;
    }
    t.commit();
    return stored;
}

std::size_t RefundOpenReservationsIn(odb::database& db, const std::optional<std::string>& own_instance,
                                     std::time_t stale_before, std::time_t now, bool all_open) {
    using Query = odb::query<storage::LedgerEntry>;
    std::size_t refunded = 0;
    std::vector<storage::LedgerEntry> open;
    Query which = Query::reserved_at < storage::Rfc3339(stale_before);
    if (own_instance) {
        which = which || Query::instance == *own_instance;
    }
    auto result = db.query<storage::LedgerEntry>(all_open ? Query(Query::state == kReserved)
                                                          : Query::state == kReserved && (which));
    for (const auto& e : result) {
        open.push_back(e);
    }
    for (storage::LedgerEntry& e : open) {
        // Relative, not read and written back: on PostgreSQL other instances change the row's
        // other columns meanwhile without locking it first (their leases).
        const std::string price = std::to_string(e.price);
        db.execute("UPDATE billing_credit_usage SET reserved = CASE WHEN reserved > " + price +
                   " THEN reserved - " + price +
                   " ELSE 0 END WHERE key_month = " + SqlText(UsageId(e.key_id, e.month)));
        e.state = kRefunded;
        e.settled_at = storage::Rfc3339(now);
        db.update(e);
        ++refunded;
    }
    return refunded;
}

std::size_t RefundOpenReservations(odb::database& db, const std::optional<std::string>& own_instance,
                                   std::time_t stale_before, std::time_t now, bool all_open) {
    std::size_t refunded = 0;
    storage::WithWriteTransaction(
        db, [&] { refunded = RefundOpenReservationsIn(db, own_instance, stale_before, now, all_open); });
    return refunded;
}

void ForgetRateWindowsIn(odb::database& db, std::time_t before) {
    db.erase_query<storage::RateWindow>(odb::query<storage::RateWindow>::minute < before);
}

void ForgetRateWindows(odb::database& db, std::time_t before) {
    storage::WithWriteTransaction(db, [&] { ForgetRateWindowsIn(db, before); });
}

MonthUsage UsageOf(odb::database& db, std::int64_t key_id, const std::string& month) {
    MonthUsage m;
    odb::transaction t(db.begin());
    std::unique_ptr<storage::CreditUsage> usage(db.find<storage::CreditUsage>(UsageId(key_id, month)));
    if (usage) {
        m.charged = usage->charged;
        m.reserved = usage->reserved;
        m.leased = usage->leased;
    }
    // Charges spent from instances' leases reach the usage row when the lease returns; until then
    // the lease holds them (docs/billing.md, "Several instances").
    using LeaseQuery = odb::query<storage::CreditLease>;
    for (const auto& lease :
         db.query<storage::CreditLease>(LeaseQuery::key_month == UsageId(key_id, month))) {
        m.charged += lease.charged;
        m.leased -= lease.charged;
    }
    using Query = odb::query<storage::LedgerEntry>;
    auto entries = db.query<storage::LedgerEntry>(Query::key_id == key_id && Query::month == month);
    for (const auto& e : entries) {
        ++m.calls;
        if (e.state == kCharged) {
            m.ledger_charged += e.price;
        } else if (e.state == kReserved) {
            m.ledger_reserved += e.price;
        }
    }
    t.commit();
    return m;
}

std::vector<storage::LedgerEntry> EntriesOf(odb::database& db, const std::string& month,
                                            std::optional<std::int64_t> key_id) {
    using Query = odb::query<storage::LedgerEntry>;
    Query q = Query::month == month;
    if (key_id) {
        q = q && Query::key_id == *key_id;
    }
    std::vector<storage::LedgerEntry> out;
    odb::transaction t(db.begin());
    auto result =
        db.query<storage::LedgerEntry>(q + "ORDER BY" + Query::reserved_at + "," + Query::request_id);
    for (const auto& e : result) {
        out.push_back(e);
    }
    t.commit();
    return out;
}

}  // namespace lastro::billing
