#include <lastro/sdk/serving/money.hpp>

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <system_error>

namespace lastro::sdk {

namespace {

[[noreturn]] void OutOfRange(double amount) {
    throw std::domain_error("amount " + std::to_string(amount) + " is not a finite number of at most " +
                            std::to_string(kMaxCents) + " cents");
}

void CheckCents(std::int64_t cents) {
    if (cents > kMaxCents || cents < -kMaxCents) {
        throw std::domain_error(std::to_string(cents) + " cents is beyond the " + std::to_string(kMaxCents) +
                                " served exactly");
    }
}

}  // namespace

std::int64_t ToCents(double amount) {
    // Beyond kMaxCents / 100 (with room for the rounding): refused here, before any text.
    if (!std::isfinite(amount) || std::fabs(amount) >= 1e13) {
        OutOfRange(amount);
    }
    if (std::fabs(amount) < 0.001) {
        return 0;  // far below half a cent (and its fixed text would be long)
    }
    // The shortest decimal that reads back as `amount`, in fixed notation ("-1234.5678").
    char text[64];
    const std::to_chars_result written =
        std::to_chars(text, text + sizeof text, amount, std::chars_format::fixed);
    if (written.ec != std::errc()) {
        OutOfRange(amount);
    }
    const char* p = text;
    const bool negative = *p == '-';
    if (negative) {
        ++p;
    }
    std::int64_t cents = 0;
    for (; p != written.ptr && *p != '.'; ++p) {
        cents = cents * 10 + (*p - '0');
    }
    int decimals = 0;
    bool round_up = false;
    if (p != written.ptr) {
        for (++p; p != written.ptr; ++p, ++decimals) {
            if (decimals < 2) {
                cents = cents * 10 + (*p - '0');
            } else if (decimals == 2) {
                round_up = *p >= '5';  // half away from zero: the digits after it only add
            }
        }
    }
    for (; decimals < 2; ++decimals) {
        cents *= 10;
    }
    if (round_up) {
        ++cents;
    }
    CheckCents(cents);
    return negative ? -cents : cents;
}

double FromCents(std::int64_t cents) {
    CheckCents(cents);
    if (cents == 0) {
        return 0.0;
    }
    // Both operands are exact and IEEE division rounds correctly: the nearest double to the decimal.
    return static_cast<double>(cents) / 100.0;
}

double RoundToCents(double amount) {
    return FromCents(ToCents(amount));
}

std::optional<double> RoundToCents(const std::optional<double>& amount) {
    if (!amount) {
        return std::nullopt;
    }
    return RoundToCents(*amount);
}

std::optional<double> MoneyDifference(const std::optional<double>& a, const std::optional<double>& b) {
    if (!a || !b) {
        return std::nullopt;
    }
    return FromCents(ToCents(*a) - ToCents(*b));
}

MoneySum& MoneySum::Add(const std::optional<double>& amount) {
    if (!amount) {
        ++missing_;
        return *this;
    }
    const std::int64_t total = cents_ + ToCents(*amount);  // both within kMaxCents: no overflow
    CheckCents(total);
    cents_ = total;
    ++present_;
    return *this;
}

MoneySum& MoneySum::Add(const MoneySum& other) {
    const std::int64_t total = cents_ + other.cents_;
    CheckCents(total);
    cents_ = total;
    present_ += other.present_;
    missing_ += other.missing_;
    return *this;
}

std::optional<double> MoneySum::Total() const {
    if (missing_ > 0 || present_ == 0) {
        return std::nullopt;
    }
    return FromCents(cents_);
}

std::optional<double> MoneySum::PartialTotal() const {
    if (present_ == 0) {
        return std::nullopt;
    }
    return FromCents(cents_);
}

std::optional<double> SumOfAmounts(std::span<const std::optional<double>> parts) {
    MoneySum sum;
    for (const std::optional<double>& part : parts) {
        sum.Add(part);
    }
    return sum.Total();
}

}  // namespace lastro::sdk
