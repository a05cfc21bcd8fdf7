// Money in a response: amounts exact to the cent, never binary-float noise (docs/api.md,
// "Numbers"). An amount as published (a double parsed from a decimal text) is already the double
// nearest to that decimal, and the host prints every double in its shortest round-trip form, so
// it reads as published: leave it alone. What a handler or an ingester computes from amounts
// goes through integer cents here: a sum of 1337255484.58 and 0.02 is 1337255484.6, never
// 1337255484.6000001, whatever the order of the parts.
//
//   sdk::MoneySum total;
//   for (const Row& row : rows) total.Add(row.value);  // a missing amount is remembered, never 0
//   {"total_brl", sdk::JsonOrNull(total.Total())}                 // null when any part is missing
//   {"total_partial_brl", sdk::JsonOrNull(total.PartialTotal())}  // the parts present
//   {"change_brl", sdk::JsonOrNull(sdk::MoneyDifference(now, before))}
//   {"nav_brl", sdk::JsonOrNull(sdk::RoundToCents(Product(quotas, quota_value)))}
#pragma once

#include <boost/config.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>

namespace lastro::sdk {

// The largest magnitude in cents served exactly: 15 significant digits (R$ 9,999,999,999,999.99),
// the most a double keeps for every decimal (DBL_DIG); beyond it neighbouring cents can share a
// double.
inline constexpr std::int64_t kMaxCents = 999'999'999'999'999;

// `amount` in whole cents, rounded half away from zero at the second decimal of the decimal the
// double stands for (its shortest round-trip text, so 0.285 gives 29, as the decimal does, even
// though the double is a little below 0.285). Throws std::domain_error for NaN, infinities and
// magnitudes beyond kMaxCents.
BOOST_SYMBOL_VISIBLE std::int64_t ToCents(double amount);

// The double nearest to cents / 100: it prints with at most two decimals. Never -0. Throws
// std::domain_error beyond kMaxCents.
BOOST_SYMBOL_VISIBLE double FromCents(std::int64_t cents);

// An amount computed by multiplying or dividing (a quota count times a quota value) to the cent.
BOOST_SYMBOL_VISIBLE double RoundToCents(double amount);
BOOST_SYMBOL_VISIBLE std::optional<double> RoundToCents(const std::optional<double>& amount);

// a − b in exact cents; null when either is missing.
BOOST_SYMBOL_VISIBLE std::optional<double> MoneyDifference(const std::optional<double>& a,
                                                           const std::optional<double>& b);

// A sum of amounts in exact integer cents that keeps count of its missing parts, so that a total
// is never a number when a part is unknown (contract 2.1: missing is null, never zero), and the
// sum of the parts present can still be served under a name of its own.
class BOOST_SYMBOL_VISIBLE MoneySum {
public:
    // Adds a part; nullopt is a missing part. Throws std::domain_error when the total would
    // leave kMaxCents.
    MoneySum& Add(const std::optional<double>& amount);
    MoneySum& Add(const MoneySum& other);  // the parts of `other`, present and missing

    std::size_t Parts() const { return present_ + missing_; }
    std::size_t Present() const { return present_; }
    std::size_t Missing() const { return missing_; }
    bool Complete() const { return missing_ == 0; }

    // The sum of every part; null when a part is missing or no part was added.
    std::optional<double> Total() const;
    // The sum of the parts present; null when none is.
    std::optional<double> PartialTotal() const;

private:
    std::int64_t cents_ = 0;
    std::size_t present_ = 0;
    std::size_t missing_ = 0;
};

// MoneySum of `parts`, Total(): null when any part is missing or there is none.
BOOST_SYMBOL_VISIBLE std::optional<double> SumOfAmounts(std::span<const std::optional<double>> parts);
inline std::optional<double> SumOfAmounts(std::initializer_list<std::optional<double>> parts) {
    return SumOfAmounts(std::span<const std::optional<double>>(parts.begin(), parts.size()));
}

}  // namespace lastro::sdk
