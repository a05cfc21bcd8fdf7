// The credit ledger's rules (contract section 3), applied to a batch of calls inside one write
// transaction: admission (the per-minute limit, then the reservation of the price against the
// monthly allowance) and settlement (charge or refund by the HTTP status). The group committer
// (ledger_writer.hpp) decides when a batch runs; this file decides what it does. Months are
// calendar months in UTC; minutes are UTC minutes. docs/billing.md.
#pragma once

#include "core/billing/precondition.hpp"
#include "core/billing/settlement.hpp"
#include "core/storage/pgsql_statements.hpp"

#include <odb/database.hxx>

#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lastro::storage {
struct CreditUsage;
struct RateWindow;
struct LedgerEntry;
}  // namespace lastro::storage

namespace lastro::billing {

struct CreditState {
    std::int64_t limit = 0;      // the month's allowance
    std::int64_t remaining = 0;  // allowance - charged - reserved
    std::time_t reset_at = 0;    // epoch seconds of the next month's start (UTC)
};

struct RateDecision {
    bool allowed = false;
    std::int64_t limit = 0;
    std::int64_t remaining = 0;
    std::time_t reset_at = 0;  // epoch seconds when the minute window ends
};

struct Reservation {
    std::string request_id;
    std::int64_t key_id = 0;
    std::int64_t price = 0;
    std::string month;  // YYYY-MM (UTC) of the reservation
    std::string operation;
    std::time_t reserved_at = 0;
};

// One call asking to run: counted in its key's minute, then its price reserved.
struct AdmissionRequest {
    std::string request_id;
    std::int64_t key_id = 0;
    std::string operation;
    std::int64_t price = 0;  // 0: nothing to reserve (an included page), only counted
    std::int64_t allowance = 0;
    std::int64_t calls_per_minute = 0;
    std::time_t now = 0;
};

struct Admission {
    RateDecision rate;
    bool reserved = false;  // false with rate.allowed: the allowance cannot cover the price
    CreditState credits;
    std::optional<Reservation> reservation;  // set when a price > 0 was reserved
};

struct SettlementRequest {
    Reservation reservation;
    std::int64_t allowance = 0;
    int status = 0;
    std::time_t now = 0;
    // Set when the answer depended on a version its call did not read itself: the ledger writer
    // settles the call only if the version still reads the same in the call's batch, which
    // begins after the call arrived; otherwise nothing is written and the result says
    // `outdated`, so that the call is answered anew and settled again (LedgerWriter).
    std::optional<Precondition> only_if{};
    // A refund owed for a call answered 503 after its batch failed: if that batch's commit
    // reached the database anyway (the server answered too late, or its reply was lost), the
    // call's entry is charged, and this takes the charge back (LedgerWriter::Fail).
    bool reverse_charge = false;
};

struct SettleResult {
    // False when the reservation is not in the ledger: its admission's transaction failed to
    // commit after the call was let in, so the call cannot be billed (it is answered 503).
    bool recorded = true;
    std::int64_t charged = 0;  // 0 also when the reservation was no longer open
    CreditState credits;       // the month of `now`
    // Not settled: the version the answer depended on changed (SettlementRequest::only_if).
    bool outdated = false;
};

// A key's credits for the headers: what the allowance leaves after the charged and reserved
// credits, and when the month of `now` ends.
CreditState CreditStateOf(std::int64_t charged, std::int64_t reserved, std::int64_t allowance,
                          std::time_t now);

// "YYYY-MM" of `now` in UTC, and the epoch second the next month starts.
std::string MonthOf(std::time_t now);
std::time_t NextMonthStart(std::time_t now);

// Applies calls to the ledger in order, inside the caller's write transaction. Rows are read
// once per batch and written once at Flush(), so a batch of N calls costs a few statements per
// key rather than per call. On PostgreSQL, where each statement is a round trip to another
// process, a batch is four round trips whatever its size: BEGIN, Lock() (every row the batch
// needs, locked and read), Flush() (every row it changed, written) and COMMIT; the ...OnPostgres
// members build those statements (docs/performance.md, "On PostgreSQL").
class LedgerBatch {
public:
    LedgerBatch(odb::database& db, std::string instance);
    ~LedgerBatch();

    // Locks, in one global order, every usage and window row these calls will touch. Optional
    // (rows are also locked when first touched) but it prevents deadlocks between instances.
    void Lock(const std::vector<AdmissionRequest>& admissions,
              const std::vector<SettlementRequest>& settlements);
    Admission Admit(const AdmissionRequest& request);
    SettleResult Settle(const SettlementRequest& request);
    // Settle for each request, in order. On PostgreSQL the entries were read by Lock() and
    // are written by Flush(), each in one round trip for the whole batch (docs/performance.md).
    std::vector<SettleResult> SettleAll(const std::vector<SettlementRequest>& requests);
    // Where the process decides admission (AccountBook): writes a reservation it already made
    // (write-behind, so a crash leaves it for the start-up recovery rule) ...
    void Reserve(const Reservation& reservation);
    // ... or, when its settlement arrived before that write, the settled entry in one go.
    SettleResult Record(const SettlementRequest& request);
    // Writes what the batch changed: the usage and window rows and, on PostgreSQL, the
    // reservations and settlements too (one round trip).
    void Flush();
    // Whether the batch changed anything (a call counted, reserved or settled).
    bool Wrote() const { return wrote_; }

private:
    storage::CreditUsage& Usage(std::int64_t key_id, const std::string& month);
    storage::RateWindow& Window(std::int64_t key_id, std::time_t minute);
    CreditState StateOf(const storage::CreditUsage& usage, std::int64_t allowance, std::time_t now) const;
    storage::LedgerEntry EntryOf(const Reservation& reservation) const;  // in state "reserved"
    // The usage side of settling an open entry of `price` credits in `month`; returns the
    // credits charged.
    std::int64_t ApplySettlement(std::int64_t key_id, const std::string& month, std::int64_t price,
                                 bool charge);
    // The usage side of taking back a charged entry (SettlementRequest::reverse_charge).
    void ReverseCharge(std::int64_t key_id, const std::string& month, std::int64_t price);
    void LockOnPostgres(const std::map<std::string, std::pair<std::int64_t, std::string>>& usages,
                        const std::map<std::string, std::pair<std::int64_t, std::time_t>>& windows,
                        const std::vector<SettlementRequest>& settlements);
    std::string EntriesForUpdateSql(const std::vector<std::string>& ids) const;
    void ReadEntries(const storage::PgRows& rows);
    void FlushOnPostgres();

    struct Row;  // a locked row and whether it must be written back
    odb::database& db_;
    std::string instance_;
    bool wrote_ = false;
    std::map<std::string, std::unique_ptr<Row>> usage_;
    std::map<std::string, std::unique_ptr<Row>> windows_;
    // PostgreSQL: what Lock() read of the settlements' entries (state empty: not in the
    // ledger), and what Flush() writes in one round trip.
    struct LockedEntry {
        std::int64_t price = 0;
        std::string month;
        std::string state;
    };
    std::map<std::string, LockedEntry> locked_entries_;
    std::string settled_values_;
    std::vector<storage::LedgerEntry> pending_entries_;
};

// A key's month as its usage row stores it (0 and 0 when there is no row). Own read transaction.
struct StoredCredits {
    std::int64_t charged = 0;
    std::int64_t reserved = 0;
};
StoredCredits StoredCreditsOf(odb::database& db, std::int64_t key_id, const std::string& month);

// Refunds every open reservation made before `stale_before`, whoever made it (no call runs that
// long: its instance is gone), and, when `own_instance` is given, every open reservation that
// instance made (it is starting, so it cannot have answered them); with `all_open`, every open
// reservation (the process owns the database: whoever made them is gone). Returns how many were
// refunded. Runs in its own write transaction.
std::size_t RefundOpenReservations(odb::database& db, const std::optional<std::string>& own_instance,
                                   std::time_t stale_before, std::time_t now, bool all_open = false);
// The same inside the caller's write transaction.
std::size_t RefundOpenReservationsIn(odb::database& db, const std::optional<std::string>& own_instance,
                                     std::time_t stale_before, std::time_t now, bool all_open = false);

// Drops per-minute windows that ended before `before` (they decide nothing any more), in its own
// write transaction, or in the caller's.
void ForgetRateWindows(odb::database& db, std::time_t before);
void ForgetRateWindowsIn(odb::database& db, std::time_t before);

// A key's month as stored: charged and reserved credits, and the ledger's own sums.
struct MonthUsage {
    std::int64_t charged = 0;  // the usage row's, plus what leases spent and hold yet
    std::int64_t reserved = 0;
    std::int64_t leased = 0;           // held unspent by instances (PostgreSQL)
    std::int64_t ledger_charged = 0;   // sum of the prices of the month's charged entries
    std::int64_t ledger_reserved = 0;  // ... of its open reservations
    std::int64_t calls = 0;            // ledger entries (charged, refunded or open)
};
MonthUsage UsageOf(odb::database& db, std::int64_t key_id, const std::string& month);

// The month's ledger entries of one key (all keys when key_id is nullopt), by reservation time.
std::vector<storage::LedgerEntry> EntriesOf(odb::database& db, const std::string& month,
                                            std::optional<std::int64_t> key_id);

}  // namespace lastro::billing
