// Admission decided in this process against credits and per-minute tokens LEASED from
// PostgreSQL, where several instances share the usage rows (docs/billing.md, "Several
// instances"). A lease is a block of one key's month held by one instance (billing_credit_lease,
// counted in billing_credit_usage.leased); tokens are a block of one key's minute, counted in
// billing_rate_window.calls. A call that the instance's lease and tokens cover is decided here,
// under one mutex, without the database; one they cannot cover waits for the ledger writer to
// lease more (credit_lease.hpp), then is decided here again. The book never spends more than
// the database granted: whatever is uncertain (a failed batch) counts as spent until the lease
// returns, and the database's own figures are what returns.
#pragma once

#include "core/billing/credit_ledger.hpp"

#include <chrono>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace lastro::billing {

struct LeaseSettings {
    std::chrono::seconds ttl{30};  // the database's expiry: now() + ttl at each renewal
    // The instance stops spending a lease at (time it sent the renewal + ttl - margin), by its
    // own monotonic clock: the lease's calls settle or get their reservation written before the
    // database's expiry lets another instance reclaim the credits.
    std::chrono::steady_clock::duration margin = std::chrono::seconds(10);
    std::chrono::steady_clock::duration idle = std::chrono::seconds(3);  // then the lease returns
    // After the database could not cover a lease in full, calls it cannot cover are refused
    // here for this long before the database is asked again (credits freed elsewhere).
    std::chrono::steady_clock::duration recheck = std::chrono::seconds(1);
};

// The block sizes: a 32nd of the allowance (a 16th of the per-minute limit), at least what the
// waiting calls need; the database caps it at what is left.
std::int64_t CreditBlock(std::int64_t allowance, std::int64_t needed);
std::int64_t TokenBlock(std::int64_t calls_per_minute, std::int64_t needed);

class LeaseBook {
public:
    using Clock = std::chrono::steady_clock;
    explicit LeaseBook(LeaseSettings settings) : settings_(settings) {}

    // Decided in memory when the key's tokens and lease cover the call; nullopt when they do not
    // and `may_lease` (the writer must lease first). Without `may_lease`, refused instead.
    std::optional<Admission> Admit(const AdmissionRequest& request, bool may_lease, Clock::time_point now);
    // What a call Admit could not decide lacks: tokens of its minute, credits of its month.
    struct Lack {
        bool tokens = false;
        bool credits = false;
    };
    Lack LackOf(const AdmissionRequest& request, Clock::time_point now);
    // Leased, committed: `granted` credits of the key's month, the usage row then holding `used`
    // (charged + reserved + leased, every instance's), in the lease row made by transaction
    // `since`. `sent`: when the lease was asked. `short_of_need`: the database could not cover
    // the calls that asked.
    void CreditsLeased(std::int64_t key_id, const std::string& month, std::int64_t granted, std::int64_t used,
                       std::int64_t since, Clock::time_point sent, bool short_of_need);
    void TokensLeased(std::int64_t key_id, std::time_t minute, std::int64_t granted, std::int64_t calls,
                      Clock::time_point now, bool short_of_need);
    // A settlement committed. `from_lease`: the call's reservation was not written, so a refund
    // gives its credits back to the lease. Returns the key's credits in the month of `now`.
    CreditState Settled(const Reservation& reservation, bool charged, bool from_lease, std::int64_t allowance,
                        std::time_t now);
    // The lease row (its `since`) the call's credits are still in, if the book holds it yet:
    // nullopt when that lease left the book since (returned, reclaimed, or taken again as a new
    // row). A call not covered is written refunded: charging it could spend credits another
    // lease holds. The batch statement checks the row too (credit_lease.hpp).
    std::optional<std::int64_t> LeaseOf(const Reservation& reservation);
    // The reservation was written: its credits left the lease for the usage row's `reserved`.
    void Written(const Reservation& reservation);
    // Its batch failed: the call is answered 503; its credits count as spent until the lease
    // returns (the batch may have committed).
    void Lost(const Reservation& reservation);

    // What the writer's upkeep sends: leases idle for settings.idle (taken out of the book
    // now), leases to renew, and idle unused tokens of the current minute.
    struct Upkeep {
        std::vector<std::string> returned;  // usage ids "<key>:<YYYY-MM>"
        std::vector<std::string> renewed;
        std::vector<std::pair<std::string, std::int64_t>> tokens;  // window id, unused tokens
    };
    Upkeep Due(Clock::time_point now, std::time_t wall_now);
    // The renewal sent at `sent` found the `kept` leases of `asked`; the others were reclaimed.
    void Renewed(const std::vector<std::string>& asked, const std::vector<std::string>& kept,
                 Clock::time_point sent);
    // Whether the upkeep has leases or tokens in hand (at stop, everything returns).
    std::vector<std::pair<std::string, std::int64_t>> TokensHeld(std::time_t wall_now);

private:
    struct Credits {
        std::int64_t free = 0;       // leased, not promised to any call
        std::int64_t used = 0;       // the usage row at the last lease, all instances
        std::int64_t in_flight = 0;  // reserved by calls running, not written
        std::int64_t since = 0;      // the lease row's; 0 when none is held
        bool held = false;
        bool short_of_need = false;
        Clock::time_point valid_until{}, renew_at{}, last_call{}, recheck_at{};
    };
    struct Tokens {
        std::time_t minute = 0;
        std::int64_t free = 0;
        std::int64_t calls = 0;  // the window's count at the last lease, all instances
        bool short_of_need = false;
        Clock::time_point last_call{}, recheck_at{};
    };
    struct InFlight {
        std::string usage_id;
        std::int64_t price = 0;
        std::int64_t since = 0;  // the lease row it was admitted under
    };

    CreditState StateOf(const std::string& usage_id, std::int64_t allowance, std::time_t now) const;
    void Drop(Credits& credits);

    LeaseSettings settings_;
    std::mutex mutex_;
    std::unordered_map<std::string, Credits> credits_;  // by usage id
    std::unordered_map<std::int64_t, Tokens> tokens_;   // by key: its current minute
    std::unordered_map<std::string, InFlight> in_flight_;
};

}  // namespace lastro::billing
