// The event model's rules (corporate_actions.hpp): classes, factors, matching and ids.
#include "domain/corporate_actions/corporate_actions.hpp"

#include <lastro/sdk/ingest/values.hpp>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace lastro::stocks {
namespace {

std::string UpperTrimmed(std::string_view text) {
    std::string upper(sdk::TrimBlanks(text));
    for (char& c : upper) {
        if (c >= 'a' && c <= 'z') {
            c = static_cast<char>(c - 'a' + 'A');
        }
    }
    return upper;
}

// A canonical decimal divided by `shares` when that is a power of ten (the point moved), so an
// amount per thousand shares compares with one per share; another divisor is written "/n".
std::string PerShare(const std::string& canonical, std::optional<std::int64_t> shares) {
    if (!shares || *shares == 1) {
        return canonical;
    }
    std::int64_t n = *shares;
    int zeros = 0;
    while (n % 10 == 0) {
        n /= 10;
        ++zeros;
    }
    if (n != 1) {
        return canonical + "/" + std::to_string(*shares);
    }
    const bool negative = canonical.starts_with("-");
    std::string digits = negative ? canonical.substr(1) : canonical;
    std::size_t point = digits.find('.');
    if (point == std::string::npos) {
        point = digits.size();
    } else {
        digits.erase(point, 1);
    }
    while (point < static_cast<std::size_t>(zeros) + 1) {
        digits.insert(digits.begin(), '0');
        ++point;
    }
    point -= static_cast<std::size_t>(zeros);
    digits.insert(point, ".");
    return CanonicalDecimal((negative ? "-" : "") + digits);
}

std::string DateText(const std::optional<sdk::Date>& date) {
    return date ? date->ToString() : std::string();
}

struct Draft {
    CorporateEvent event;
    std::string amount_key;  // the amount part of the key (per share, canonical)
    std::optional<std::string> share_class;
    bool matched = false;  // a cash record already joined by a supplement record
};

}  // namespace

std::string_view EventKindName(EventKind kind) {
    switch (kind) {
        case EventKind::kCash:
            return "cash";
        case EventKind::kStock:
            return "stock";
        case EventKind::kSubscription:
            return "subscription";
    }
    return "cash";
}

std::optional<std::string> ShareClassOfIsin(std::string_view isin) {
    const std::string upper = UpperTrimmed(isin);
    if (upper.size() != 12) {
        return std::nullopt;
    }
    static const std::pair<std::string_view, std::string_view> kClasses[] = {
        {"ACNOR", "ON"},  {"ACNPR", "PN"},  {"ACNPA", "PNA"}, {"ACNPB", "PNB"},
        {"ACNPC", "PNC"}, {"ACNPD", "PND"}, {"CDAM", "UNIT"}};
    const std::string_view body = std::string_view(upper).substr(6);
    for (const auto& [code, share_class] : kClasses) {
        if (body.starts_with(code)) {
            return std::string(share_class);
        }
    }
    return std::nullopt;
}

std::string ShareClassOfTypeStock(std::string_view type_stock) {
    std::string upper = UpperTrimmed(type_stock);
    return upper == "UNT" ? "UNIT" : upper;
}

std::optional<double> CashPriceFactor(const PtBrDecimal& corporate_action_price) {
    const std::string canonical = CanonicalDecimal(corporate_action_price.decimal);
    if (canonical.starts_with("-")) {
        return std::nullopt;
    }
    const std::size_t point = canonical.find('.');
    const std::string whole = canonical.substr(0, point);
    const std::string fraction = point == std::string::npos ? std::string() : canonical.substr(point + 1);
    if (whole.size() > 2) {
        return std::nullopt;  // 100 % or more: no price would remain
    }
    // percent / 100 = digits / 10^scale; 1 - that = (10^scale - digits) / 10^scale, exactly.
    const std::size_t scale = fraction.size() + 2;
    if (scale > 36) {
        const double factor = 1 - corporate_action_price.value / 100;
        return factor > 0 ? std::optional<double>(factor) : std::nullopt;
    }
    unsigned __int128 digits = 0;
    for (char c : whole + fraction) {
        digits = digits * 10 + static_cast<unsigned>(c - '0');
    }
    unsigned __int128 one = 1;
    for (std::size_t i = 0; i < scale; ++i) {
        one *= 10;
    }
    if (digits >= one) {
        return std::nullopt;
    }
    if (digits == 0) {
        return 1.0;  // "0,000000": nothing distributed per price
    }
    unsigned __int128 rest = one - digits;
    std::string text(scale, '0');
    for (std::size_t i = scale; i-- > 0;) {
        text[i] = static_cast<char>('0' + static_cast<int>(rest % 10));
        rest /= 10;
    }
    text = "0." + text;
    double factor = 0;
    std::from_chars(text.data(), text.data() + text.size(), factor);
    return factor;
}

std::optional<double> StockEventPriceFactor(std::string_view label, double factor) {
    if (!(factor > 0)) {
        return std::nullopt;
    }
    const std::string upper = UpperTrimmed(label);
    if (upper == "DESDOBRAMENTO" || upper == "BONIFICACAO") {
        return 1 / (1 + factor / 100);
    }
    if (upper == "GRUPAMENTO" && factor < 1) {
        return 1 / factor;
    }
    return std::nullopt;
}

std::string EventIdOf(std::string_view key) {
    std::uint64_t first = 14695981039346656037ull;
    std::uint64_t second = 1099511628211ull * 31;  // another start: two independent hashes
    for (unsigned char c : key) {
        first = (first ^ c) * 1099511628211ull;
        second = (second ^ c) * 1099511628211ull;
        second ^= second >> 29;
    }
    char text[36];
    std::snprintf(text, sizeof text, "ca_%016llx%016llx", static_cast<unsigned long long>(first),
                  static_cast<unsigned long long>(second));
    return text;
}

std::optional<std::string> IssuerOfTicker(std::string_view ticker) {
    const std::string upper = UpperTrimmed(ticker);
    if (upper.size() < 5) {
        return std::nullopt;
    }
    return upper.substr(0, 4);
}

std::vector<CorporateEvent> BuildIssuerEvents(const std::string& issuer, const CashDividendsAnswer* cash,
                                              const SupplementAnswer* supplement) {
    std::vector<Draft> drafts;
    if (cash) {
        for (const CashDividendRecord& r : cash->records) {
            Draft d;
            CorporateEvent& e = d.event;
            e.kind = EventKind::kCash;
            e.label = r.corporate_action;
            if (r.type_stock) {
                d.share_class = ShareClassOfTypeStock(*r.type_stock);
                e.share_type = *r.type_stock;
            }
            e.approved_on = r.approved_on;
            e.last_date_with_rights = r.last_date_prior_ex;
            e.quoted_per_shares = r.quoted_per_shares;
            if (r.value_cash) {
                e.amount_published = r.value_cash->published;
                e.amount = r.value_cash->value;
                d.amount_key = PerShare(CanonicalDecimal(r.value_cash->decimal), r.quoted_per_shares);
            }
            e.ratio_published = r.ratio;
            if (r.corporate_action_price) {
                e.price_factor = CashPriceFactor(*r.corporate_action_price);
                if (e.price_factor) {
                    e.factor_source = std::string(kCashFactorSource);
                }
            }
            e.published[kCashSource] = r.published;
            drafts.push_back(std::move(d));
        }
    }
    const std::size_t cash_drafts = drafts.size();
    if (supplement) {
        for (const SupplementCashRecord& s : supplement->cash) {
            const std::optional<std::string> share_class = s.isin ? ShareClassOfIsin(*s.isin) : std::nullopt;
            const std::string rate = s.rate ? CanonicalDecimal(s.rate->decimal) : std::string();
            Draft* match = nullptr;
            for (std::size_t i = 0; i < cash_drafts && !match; ++i) {
                Draft& d = drafts[i];
                const CorporateEvent& e = d.event;
                const bool same_amount =
                    s.rate && e.amount_published &&
                    (d.amount_key == rate ||
                     CanonicalDecimal(ParsePtBrDecimal(*e.amount_published)->decimal) == rate);
                if (!d.matched && UpperTrimmed(e.label) == UpperTrimmed(s.label) && d.share_class &&
                    share_class && *d.share_class == *share_class &&
                    e.last_date_with_rights == s.last_date_prior && same_amount) {
                    match = &d;
                }
            }
            if (match) {
                match->matched = true;
                CorporateEvent& e = match->event;
                e.isin = s.isin;
                e.payment_date = s.payment_date;
                if (!e.approved_on) {
                    e.approved_on = s.approved_on;
                }
                e.published[kSupplementCashSource] = s.published;
                continue;
            }
            Draft d;
            CorporateEvent& e = d.event;
            e.kind = EventKind::kCash;
            e.label = s.label;
            d.share_class = share_class ? share_class : s.isin;
            e.share_type = share_class;
            e.isin = s.isin;
            e.approved_on = s.approved_on;
            e.last_date_with_rights = s.last_date_prior;
            e.payment_date = s.payment_date;
            if (s.rate) {
                e.amount_published = s.rate->published;
                e.amount = s.rate->value;
                d.amount_key = rate;
            }
            e.published[kSupplementCashSource] = s.published;
            drafts.push_back(std::move(d));
        }
        for (const SupplementStockRecord& s : supplement->stock) {
            Draft d;
            CorporateEvent& e = d.event;
            e.kind = EventKind::kStock;
            e.label = s.label;
            const std::optional<std::string> share_class = s.isin ? ShareClassOfIsin(*s.isin) : std::nullopt;
            d.share_class = share_class ? share_class : s.isin;
            e.share_type = share_class;
            e.isin = s.isin;
            e.approved_on = s.approved_on;
            e.last_date_with_rights = s.last_date_prior;
            if (s.factor) {
                e.ratio_published = s.factor->published;
                d.amount_key = CanonicalDecimal(s.factor->decimal);
                e.price_factor = StockEventPriceFactor(s.label, s.factor->value);
                if (e.price_factor) {
                    e.factor_source = std::string(kStockFactorSource);
                }
            }
            e.published[kSupplementStockSource] = s.published;
            drafts.push_back(std::move(d));
        }
        for (const SupplementSubscriptionRecord& s : supplement->subscriptions) {
            Draft d;
            CorporateEvent& e = d.event;
            e.kind = EventKind::kSubscription;
            e.label = s.label;
            const std::optional<std::string> share_class = s.isin ? ShareClassOfIsin(*s.isin) : std::nullopt;
            d.share_class = share_class ? share_class : s.isin;
            e.share_type = share_class;
            e.isin = s.isin;
            e.approved_on = s.approved_on;
            e.last_date_with_rights = s.last_date_prior;
            // A subscription's cash is its unit price; its ratio the percentage subscribable.
            if (s.price_unit) {
                e.amount_published = s.price_unit->published;
                e.amount = s.price_unit->value;
            }
            if (s.percentage) {
                e.ratio_published = s.percentage->published;
            }
            d.amount_key = (s.percentage ? CanonicalDecimal(s.percentage->decimal) : std::string()) + "@" +
                           (s.price_unit ? CanonicalDecimal(s.price_unit->decimal) : std::string());
            e.published[kSupplementSubscriptionSource] = s.published;
            drafts.push_back(std::move(d));
        }
    }

    std::map<std::string, int> occurrences;
    std::vector<CorporateEvent> events;
    events.reserve(drafts.size());
    for (Draft& d : drafts) {
        CorporateEvent& e = d.event;
        e.issuer = issuer;
        const std::string base = issuer + "|" + std::string(EventKindName(e.kind)) + "|" +
                                 UpperTrimmed(e.label) + "|" + d.share_class.value_or("") + "|" +
                                 DateText(e.last_date_with_rights) + "|" + d.amount_key;
        e.key = base + "|" + std::to_string(++occurrences[base]);
        e.id = EventIdOf(e.key);
        events.push_back(std::move(e));
    }
    return events;
}

}  // namespace lastro::stocks
