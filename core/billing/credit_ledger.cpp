#include "core/billing/credit_ledger.hpp"

#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core_model-odb.hxx"

#include <odb/transaction.hxx>

#include <algorithm>
#include <memory>

namespace lastro::billing {
namespace {

std::string UsageId(std::int64_t key_id, const std::string& month) {
    return std::to_string(key_id) + ":" + month;
}

CreditState StateOf(const storage::CreditUsage* usage, std::int64_t allowance, std::time_t reset_at) {
    CreditState s;
    s.limit = allowance;
    const std::int64_t used = usage ? usage->charged + usage->reserved : 0;
    s.remaining = std::max<std::int64_t>(0, allowance - used);
    s.reset_at = reset_at;
    return s;
}

}  // namespace

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

ReserveResult CreditLedger::Reserve(const std::string& request_id, std::int64_t key_id,
                                    std::int64_t allowance, const std::string& operation, std::int64_t price,
                                    std::time_t now) {
    const std::string month = MonthOf(now);
    const std::time_t reset = NextMonthStart(now);
    ReserveResult result;
    storage::WithWriteTransaction(db_, [&] {
        result = ReserveResult{};
        std::unique_ptr<storage::CreditUsage> usage(db_.find<storage::CreditUsage>(UsageId(key_id, month)));
        const std::int64_t used = usage ? usage->charged + usage->reserved : 0;
        if (used + price > allowance) {
            result.reserved = false;
            result.state = StateOf(usage.get(), allowance, reset);
            return;
        }
        if (!usage) {
            usage = std::make_unique<storage::CreditUsage>();
            usage->key_month = UsageId(key_id, month);
            usage->key_id = key_id;
            usage->month = month;
            usage->reserved = price;
            db_.persist(*usage);
        } else {
            usage->reserved += price;
            db_.update(*usage);
        }
        storage::LedgerEntry entry;
        entry.request_id = request_id;
        entry.key_id = key_id;
        entry.operation = operation;
        entry.price = price;
        entry.month = month;
        entry.state = "reserved";
        entry.reserved_at = storage::Rfc3339(now);
        db_.persist(entry);
        result.reserved = true;
        result.state = StateOf(usage.get(), allowance, reset);
        result.reservation = Reservation{request_id, key_id, operation, price, month};
    });
    return result;
}

SettleResult CreditLedger::Settle(const Reservation& reservation, std::int64_t allowance, int status,
                                  std::time_t now) {
    const bool charge = SettlementFor(status) == Settlement::kCharge;
    SettleResult result;
    storage::WithWriteTransaction(db_, [&] {
        std::unique_ptr<storage::CreditUsage> usage(
            db_.find<storage::CreditUsage>(UsageId(reservation.key_id, reservation.month)));
        if (usage) {
            usage->reserved = std::max<std::int64_t>(0, usage->reserved - reservation.price);
            if (charge) {
                usage->charged += reservation.price;
            }
            db_.update(*usage);
        }
        std::unique_ptr<storage::LedgerEntry> entry(db_.find<storage::LedgerEntry>(reservation.request_id));
        if (entry) {
            entry->state = charge ? "charged" : "refunded";
            entry->status = status;
            entry->settled_at = storage::Rfc3339(now);
            db_.update(*entry);
        }
        result.charged = charge ? reservation.price : 0;
        // Report the month of the call now; after a month boundary the new month is what counts.
        if (MonthOf(now) == reservation.month) {
            result.state = StateOf(usage.get(), allowance, NextMonthStart(now));
        } else {
            std::unique_ptr<storage::CreditUsage> current(
                db_.find<storage::CreditUsage>(UsageId(reservation.key_id, MonthOf(now))));
            result.state = StateOf(current.get(), allowance, NextMonthStart(now));
        }
    });
    return result;
}

CreditState CreditLedger::State(std::int64_t key_id, std::int64_t allowance, std::time_t now) {
    odb::transaction t(db_.begin());
    std::unique_ptr<storage::CreditUsage> usage(
        db_.find<storage::CreditUsage>(UsageId(key_id, MonthOf(now))));
    CreditState s = StateOf(usage.get(), allowance, NextMonthStart(now));
    t.commit();
    return s;
}

}  // namespace lastro::billing
