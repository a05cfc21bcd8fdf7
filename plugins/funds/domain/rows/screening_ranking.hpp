// One month of /v1/screening in memory: its classes' filter and sort keys, compact, built from
// the month's ScreeningRows (domain/rows/screening_rows.hpp). A call filters and pages it without
// reading the month again; the handler keeps the rankings of recent months in a cache bounded
// in bytes, keyed by (month, generation), so a rebuilt month is never answered from an older
// ranking.
#pragma once

#include "funds_model.hxx"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

enum class ScreeningSort { kNav, kDelinquency, kSubordination, kPdd, kName };
inline constexpr std::size_t kScreeningSorts = 5;

// Texts of a ranking, each stored once.
class TextPool {
public:
    static constexpr std::uint32_t kNone = 0xffffffffu;
    std::uint32_t Add(const std::optional<std::string>& text);
    std::string_view At(std::uint32_t index) const {
        return std::string_view(data_).substr(offsets_[index], offsets_[index + 1] - offsets_[index]);
    }
    std::size_t Bytes() const { return data_.capacity() + offsets_.capacity() * sizeof(std::uint32_t); }
    void Shrink();
    std::size_t Size() const { return offsets_.size() - 1; }
    const std::string& Data() const { return data_; }
    const std::vector<std::uint32_t>& Offsets() const { return offsets_; }
    // Texts as Data() and Offsets() gave them; false (and the pool unchanged) when the offsets do
    // not cut `data` from its start to its end in order.
    bool Assign(std::string data, std::vector<std::uint32_t> offsets);

private:
    std::string data_;
    std::vector<std::uint32_t> offsets_{0};
};

// A keyset position: the sort value (absent for null) and the class_id.
struct ScreeningKey {
    bool present = false;
    double number = 0;
    std::string_view text;  // the name sort's value
    std::string_view class_id;
};

// The filters of one call (texts already folded where the API folds them).
struct ScreeningFilters {
    struct Bounds {
        std::optional<double> min;
        std::optional<double> max;
    };
    std::optional<std::string> fund_type;
    Bounds nav;
    Bounds delinquency;
    Bounds subordination;
    std::optional<std::string> segment;
    std::optional<std::string> manager;        // folded
    std::optional<std::string> administrator;  // folded
    std::optional<std::string> status;         // folded
};

class ScreeningRanking {
public:
    // From the month's rows, stored (ScreeningRankRow: the keys only) or built (ScreeningRow).
    template <typename Row>
    explicit ScreeningRanking(const std::vector<Row>& rows);

    struct Page {
        std::size_t match_count = 0;
        std::vector<std::size_t> rows;  // indexes into the rows the ranking was built from
        bool more = false;              // matches follow the page's last row
    };
    // The matches of `filters` in the order of `sort` (nulls last in both orders, then class_id
    // ascending), the `limit` first after `after`.
    Page Select(const ScreeningFilters& filters, ScreeningSort sort, bool descending,
                const std::optional<ScreeningKey>& after, std::size_t limit) const;

    // The ranking as bytes (little-endian, fixed widths: entries, texts, orders) and back; Load
    // gives nullopt for bytes that are not a whole ranking of this format, and the caller ranks
    // the month from its rows instead.
    std::vector<char> Serialize() const;
    static std::optional<ScreeningRanking> Load(std::string_view bytes);

    ScreeningKey KeyOf(std::size_t row, ScreeningSort sort) const;
    std::string_view ClassId(std::size_t row) const { return texts_.At(entries_[row].class_id); }
    // The stored row's id (ScreeningRow::id): a page's texts are read back by it.
    std::int64_t RowId(std::size_t row) const { return entries_[row].id; }
    std::size_t Bytes() const;

private:
    ScreeningRanking() = default;

    struct Entry {
        double number[4] = {0, 0, 0, 0};  // nav, delinquency, subordination (with mezzanine), pdd
        std::int64_t id = 0;
        std::uint32_t class_id = TextPool::kNone;
        std::uint32_t name = TextPool::kNone;  // folded fund name
        std::uint32_t fund_type = TextPool::kNone;
        std::uint32_t segment = TextPool::kNone;
        std::uint32_t manager = TextPool::kNone;
        std::uint32_t administrator = TextPool::kNone;
        std::uint32_t status = TextPool::kNone;
        std::uint8_t present = 0;  // bit i: number[i] is known
    };
    // Which entries the filters keep (1) and how many: each active filter scans its column.
    std::size_t Kept(const ScreeningFilters& filters, std::vector<char>& kept) const;
    void MakeFilterColumns();
    const std::vector<std::uint32_t>& Order(ScreeningSort sort, bool descending) const {
        return orders_[static_cast<std::size_t>(sort) * 2 + (descending ? 1 : 0)];
    }

    std::vector<Entry> entries_;
    TextPool texts_;
    // The entries in the order of each sort and direction, made with the ranking: a page walks
    // its order from the position on, instead of sorting the month's matches on every call.
    std::array<std::vector<std::uint32_t>, kScreeningSorts * 2> orders_;
    // The filtered fields again, a column each, made from the entries (not stored): a filter
    // scans 4 or 8 bytes an entry instead of the 72 of each entry, and decides each of the pool's
    // shared texts once (a month of 2,800 classes has a few hundred managers, statuses, ...).
    struct FilterColumns {
        std::vector<std::uint32_t> fund_type, segment, manager, administrator, status;
        std::array<std::vector<double>, 3> number;  // nav, delinquency, subordination
        std::vector<std::uint8_t> present;
    } columns_;
};

// Whether `a` comes before `b` in the order of a sort: a known value before null, then the value
// (descending or ascending), then class_id ascending.
bool ScreeningPrecedes(const ScreeningKey& a, const ScreeningKey& b, bool descending);

}  // namespace lastro::funds
