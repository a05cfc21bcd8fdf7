#include "core/billing/lease_book.hpp"

#include "core/billing/admission_rule.hpp"

#include <algorithm>

namespace lastro::billing {
namespace {

std::string UsageIdOf(std::int64_t key_id, const std::string& month) {
    return std::to_string(key_id) + ":" + month;
}

}  // namespace

std::int64_t CreditBlock(std::int64_t allowance, std::int64_t needed) {
    return std::max(needed, (allowance + 31) / 32);
}

std::int64_t TokenBlock(std::int64_t calls_per_minute, std::int64_t needed) {
    return std::max(needed, (calls_per_minute + 15) / 16);
}

CreditState LeaseBook::StateOf(const std::string& usage_id, std::int64_t allowance, std::time_t now) const {
    // What the database had used at the last lease, less what this instance holds unspent:
    // exact with one instance; with several, other instances' spending since is not seen.
    auto it = credits_.find(usage_id);
    const std::int64_t used = it == credits_.end() ? 0 : it->second.used - it->second.free;
    return CreditStateOf(used, 0, allowance, now);
}

std::optional<Admission> LeaseBook::Admit(const AdmissionRequest& request, bool may_lease,
                                          Clock::time_point now) {
    const std::time_t minute = MinuteOf(request.now);
    const std::string usage_id = UsageIdOf(request.key_id, MonthOf(request.now));
    std::lock_guard lock(mutex_);
    Tokens& tokens = tokens_[request.key_id];
    if (tokens.minute != minute) {
        tokens = Tokens{minute};  // an older minute's tokens decide nothing any more
    }
    // Whether to wait for the writer to lease what this instance lacks, instead of refusing.
    const auto ask = [&](bool short_of_need, Clock::time_point recheck_at) {
        return may_lease && !(short_of_need && now < recheck_at);
    };
    if (tokens.free == 0 && ask(tokens.short_of_need, tokens.recheck_at)) {
        return std::nullopt;
    }
    // The room here is what was leased: free tokens of the minute, free credits of a valid lease.
    Credits* credits = nullptr;
    if (request.price > 0 && tokens.free > 0) {
        Credits& c = credits_[usage_id];
        const bool valid = c.held && now < c.valid_until;
        if ((!valid || c.free < request.price) && ask(c.short_of_need, c.recheck_at)) {
            return std::nullopt;
        }
        credits = valid ? &c : nullptr;
    }
    const AdmissionVerdict verdict = DecideAdmission(request, {tokens.free, credits ? credits->free : 0});
    if (verdict.counted) {
        --tokens.free;
        tokens.last_call = now;
    }
    if (verdict.reservation) {
        credits->free -= request.price;
        credits->in_flight += request.price;
        credits->last_call = now;
        in_flight_[request.request_id] = InFlight{usage_id, request.price, credits->since};
    }
    // The minute's calls left across every instance: its count at the last lease, less what
    // this instance spent of its tokens.
    return AdmissionOf(request, verdict, request.calls_per_minute - tokens.calls + tokens.free,
                       StateOf(usage_id, request.allowance, request.now));
}

LeaseBook::Lack LeaseBook::LackOf(const AdmissionRequest& request, Clock::time_point now) {
    Lack lack;
    const std::time_t minute = request.now - request.now % 60;
    std::lock_guard lock(mutex_);
    auto t = tokens_.find(request.key_id);
    lack.tokens = t == tokens_.end() || t->second.minute != minute || t->second.free == 0;
    if (request.price > 0) {
        auto c = credits_.find(UsageIdOf(request.key_id, MonthOf(request.now)));
        lack.credits = c == credits_.end() || !c->second.held || now >= c->second.valid_until ||
                       c->second.free < request.price;
    }
    return lack;
}

void LeaseBook::CreditsLeased(std::int64_t key_id, const std::string& month, std::int64_t granted,
                              std::int64_t used, std::int64_t since, Clock::time_point sent,
                              bool short_of_need) {
    const auto now = Clock::now();
    std::lock_guard lock(mutex_);
    Credits& c = credits_[UsageIdOf(key_id, month)];
    if (granted > 0) {
        if (c.held && c.since != since) {
            // Another row: the one the book held was reclaimed meanwhile. Its calls in flight
            // are not covered any more; the book starts from the grant.
            Drop(c);
        }
        c.held = true;
        c.since = since;
        c.free += granted;
        c.valid_until = sent + settings_.ttl - settings_.margin;
        c.renew_at = sent + settings_.ttl / 3;
        c.last_call = now;
    }
    c.used = used;
    c.short_of_need = short_of_need;
    c.recheck_at = now + settings_.recheck;
}

void LeaseBook::TokensLeased(std::int64_t key_id, std::time_t minute, std::int64_t granted,
                             std::int64_t calls, Clock::time_point now, bool short_of_need) {
    std::lock_guard lock(mutex_);
    Tokens& t = tokens_[key_id];
    if (t.minute != minute) {
        t = Tokens{minute};
    }
    t.free += granted;
    t.calls = calls;
    t.short_of_need = short_of_need;
    t.recheck_at = now + settings_.recheck;
    t.last_call = now;
}

void LeaseBook::Drop(Credits& c) {
    c.used -= c.free;
    c.free = 0;
    c.held = false;
    c.since = 0;
}

CreditState LeaseBook::Settled(const Reservation& reservation, bool charged, bool from_lease,
                               std::int64_t allowance, std::time_t now) {
    std::lock_guard lock(mutex_);
    if (auto it = in_flight_.find(reservation.request_id); it != in_flight_.end()) {
        Credits& c = credits_[it->second.usage_id];
        const bool same_lease = c.held && c.since == it->second.since;
        if (from_lease) {
            c.in_flight -= it->second.price;
            if (!charged && same_lease) {
                c.free += it->second.price;  // a refund stays in the lease
            } else if (charged && !same_lease && c.held) {
                // Charged to a lease row that may be the one held now: count it spent there.
                c.free = std::max<std::int64_t>(0, c.free - it->second.price);
            }
        }
        in_flight_.erase(it);
    }
    return StateOf(UsageIdOf(reservation.key_id, MonthOf(now)), allowance, now);
}

std::optional<std::int64_t> LeaseBook::LeaseOf(const Reservation& reservation) {
    std::lock_guard lock(mutex_);
    auto it = in_flight_.find(reservation.request_id);
    if (it == in_flight_.end()) {
        return std::nullopt;  // lost (its batch failed): nothing of it is known to be held
    }
    const Credits& c = credits_[it->second.usage_id];
    if (c.held && c.since == it->second.since) {
        return c.since;
    }
    return std::nullopt;
}

void LeaseBook::Written(const Reservation& reservation) {
    std::lock_guard lock(mutex_);
    if (auto it = in_flight_.find(reservation.request_id); it != in_flight_.end()) {
        credits_[it->second.usage_id].in_flight -= it->second.price;
        it->second.price = 0;  // settled from `reserved` now, not from the lease
    }
}

void LeaseBook::Lost(const Reservation& reservation) {
    std::lock_guard lock(mutex_);
    if (auto it = in_flight_.find(reservation.request_id); it != in_flight_.end()) {
        credits_[it->second.usage_id].in_flight -= it->second.price;
        in_flight_.erase(it);
    }
}

LeaseBook::Upkeep LeaseBook::Due(Clock::time_point now, std::time_t wall_now) {
    Upkeep due;
    const std::time_t minute = wall_now - wall_now % 60;
    std::lock_guard lock(mutex_);
    for (auto it = credits_.begin(); it != credits_.end();) {
        Credits& c = it->second;
        if (c.held && c.in_flight == 0 && now - c.last_call >= settings_.idle) {
            due.returned.push_back(it->first);
            Drop(c);
        } else if (c.held && now >= c.renew_at) {
            due.renewed.push_back(it->first);
            c.renew_at = now + settings_.ttl / 3;  // once per period, whatever the answer
        }
        // A month no call touches any more is forgotten once nothing of it is in flight.
        if (!c.held && c.in_flight == 0 && now - c.last_call >= 10 * settings_.idle) {
            it = credits_.erase(it);
        } else {
            ++it;
        }
    }
    for (auto it = tokens_.begin(); it != tokens_.end();) {
        Tokens& t = it->second;
        if (t.minute != minute) {
            it = tokens_.erase(it);  // what an older minute held expired with it
            continue;
        }
        if (t.free > 0 && now - t.last_call >= settings_.idle) {
            due.tokens.emplace_back(std::to_string(it->first) + ":" + std::to_string(t.minute), t.free);
            t.calls -= t.free;
            t.free = 0;
        }
        ++it;
    }
    return due;
}

void LeaseBook::Renewed(const std::vector<std::string>& asked, const std::vector<std::string>& kept,
                        Clock::time_point sent) {
    std::lock_guard lock(mutex_);
    for (const std::string& id : asked) {
        auto it = credits_.find(id);
        if (it == credits_.end() || !it->second.held) {
            continue;
        }
        if (std::find(kept.begin(), kept.end(), id) != kept.end()) {
            it->second.valid_until = sent + settings_.ttl - settings_.margin;
        } else {
            Drop(it->second);  // reclaimed: past its expiry in the database
        }
    }
}

std::vector<std::pair<std::string, std::int64_t>> LeaseBook::TokensHeld(std::time_t wall_now) {
    const std::time_t minute = wall_now - wall_now % 60;
    std::vector<std::pair<std::string, std::int64_t>> held;
    std::lock_guard lock(mutex_);
    for (auto& [key, t] : tokens_) {
        if (t.minute == minute && t.free > 0) {
            held.emplace_back(std::to_string(key) + ":" + std::to_string(t.minute), t.free);
            t.free = 0;
        }
    }
    return held;
}

}  // namespace lastro::billing
