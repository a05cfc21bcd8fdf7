#include "domain/rows/screening_ranking.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

namespace lastro::funds {
namespace {

constexpr int kNav = 0;
constexpr int kDelinquency = 1;
constexpr int kSubordination = 2;
constexpr int kPdd = 3;

int NumberOf(ScreeningSort sort) {
    switch (sort) {
        case ScreeningSort::kNav:
            return kNav;
        case ScreeningSort::kDelinquency:
            return kDelinquency;
        case ScreeningSort::kSubordination:
            return kSubordination;
        case ScreeningSort::kPdd:
            return kPdd;
        case ScreeningSort::kName:
            break;
    }
    return -1;
}

bool Bounded(const ScreeningFilters::Bounds& bounds) {
    return bounds.min || bounds.max;
}

// Whether any filter narrows the month: without one every row matches.
bool Narrows(const ScreeningFilters& f) {
    return f.fund_type || Bounded(f.nav) || Bounded(f.delinquency) || Bounded(f.subordination) || f.segment ||
           f.manager || f.administrator || f.status;
}

// A metric filter keeps rows whose value is known and inside the bounds (inclusive).
bool Within(const ScreeningFilters::Bounds& bounds, bool present, double value) {
    if (!bounds.min && !bounds.max) {
        return true;
    }
    return present && (!bounds.min || value >= *bounds.min) && (!bounds.max || value <= *bounds.max);
}

}  // namespace

std::uint32_t TextPool::Add(const std::optional<std::string>& text) {
    if (!text) {
        return kNone;
    }
    data_ += *text;
    offsets_.push_back(static_cast<std::uint32_t>(data_.size()));
    return static_cast<std::uint32_t>(offsets_.size() - 2);
}

bool TextPool::Assign(std::string data, std::vector<std::uint32_t> offsets) {
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != data.size() ||
        !std::is_sorted(offsets.begin(), offsets.end())) {
        return false;
    }
    data_ = std::move(data);
    offsets_ = std::move(offsets);
    return true;
}

void TextPool::Shrink() {
    data_.shrink_to_fit();
    offsets_.shrink_to_fit();
}

bool ScreeningPrecedes(const ScreeningKey& a, const ScreeningKey& b, bool descending) {
    if (a.present != b.present) {
        return a.present;
    }
    if (a.present) {
        if (a.number != b.number) {
            return descending ? a.number > b.number : a.number < b.number;
        }
        if (a.text != b.text) {
            return descending ? a.text > b.text : a.text < b.text;
        }
    }
    return a.class_id < b.class_id;
}

template <typename Row>
ScreeningRanking::ScreeningRanking(const std::vector<Row>& rows) {
    // Registry texts repeat across a month's classes (a manager, a status): each kept once.
    std::unordered_map<std::string, std::uint32_t> seen;
    auto shared = [&](const std::optional<std::string>& text) {
        if (!text) {
            return TextPool::kNone;
        }
        auto [it, inserted] = seen.try_emplace(*text, 0);
        if (inserted) {
            it->second = texts_.Add(text);
        }
        return it->second;
    };
    entries_.reserve(rows.size());
    for (const Row& row : rows) {
        Entry entry;
        const std::optional<double> numbers[4] = {row.nav, row.delinquency_ratio,
                                                  row.subordination_with_mezzanine_ratio, row.pdd_ratio};
        for (int i = 0; i < 4; ++i) {
            if (numbers[i]) {
                entry.present |= static_cast<std::uint8_t>(1u << i);
                entry.number[i] = *numbers[i];
            }
        }
        entry.id = row.id;
        entry.class_id = texts_.Add(row.class_id);
        entry.name = shared(row.name_folded);
        entry.fund_type = shared(row.fund_type);
        entry.segment = shared(row.primary_segment_code);
        entry.manager = shared(row.manager_folded);
        entry.administrator = shared(row.administrator_folded);
        entry.status = shared(row.status_folded);
        entries_.push_back(entry);
    }
    texts_.Shrink();

    // Every sort breaks ties by class_id ascending: each entry's rank in that order (the rows come
    // ordered by class_id, so it is usually their own).
    const std::size_t n = entries_.size();
    std::vector<std::uint32_t> rank(n);
    {
        std::vector<std::uint32_t> by_id(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            by_id[i] = i;
        }
        auto id_before = [this](std::uint32_t a, std::uint32_t b) {
            return texts_.At(entries_[a].class_id) < texts_.At(entries_[b].class_id);
        };
        if (!std::is_sorted(by_id.begin(), by_id.end(), id_before)) {
            std::sort(by_id.begin(), by_id.end(), id_before);
        }
        for (std::uint32_t k = 0; k < n; ++k) {
            rank[by_id[k]] = k;
        }
    }
    std::vector<std::string_view> names(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (entries_[i].name != TextPool::kNone) {
            names[i] = texts_.At(entries_[i].name);
        }
    }
    for (std::size_t s = 0; s < kScreeningSorts; ++s) {
        const auto sort = static_cast<ScreeningSort>(s);
        const int number = NumberOf(sort);
        const std::uint8_t bit = number < 0 ? 0 : static_cast<std::uint8_t>(1u << number);
        auto present = [&](std::uint32_t i) {
            return number < 0 ? entries_[i].name != TextPool::kNone : (entries_[i].present & bit) != 0;
        };
        // The value's order alone: -1, 0 or 1, both known.
        auto compare = [&](std::uint32_t a, std::uint32_t b) {
            if (number < 0) {
                return names[a] < names[b] ? -1 : names[b] < names[a] ? 1 : 0;
            }
            const double x = entries_[a].number[number];
            const double y = entries_[b].number[number];
            return x < y ? -1 : y < x ? 1 : 0;
        };
        // Ascending (ScreeningPrecedes): known values first, by value, then by class_id; nulls
        // by class_id.
        std::vector<std::uint32_t>& ascending = orders_[s * 2];
        ascending.resize(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            ascending[i] = i;
        }
        std::sort(ascending.begin(), ascending.end(), [&](std::uint32_t a, std::uint32_t b) {
            const bool pa = present(a);
            if (pa != present(b)) {
                return pa;
            }
            if (pa) {
                if (const int c = compare(a, b); c != 0) {
                    return c < 0;
                }
            }
            return rank[a] < rank[b];
        });
        // Descending from it: the known values reversed, each run of equal values back in
        // class_id order; the nulls stay last in class_id order.
        std::vector<std::uint32_t>& descending = orders_[s * 2 + 1];
        descending = ascending;
        const auto known_end = std::partition_point(descending.begin(), descending.end(), present);
        std::reverse(descending.begin(), known_end);
        for (auto first = descending.begin(); first != known_end;) {
            auto last = first + 1;
            while (last != known_end && compare(*last, *first) == 0) {
                ++last;
            }
            std::reverse(first, last);
            first = last;
        }
    }
    MakeFilterColumns();
}

template ScreeningRanking::ScreeningRanking(const std::vector<ScreeningRow>&);
template ScreeningRanking::ScreeningRanking(const std::vector<ScreeningRankRow>&);

namespace {

// The stored ranking's format: "LSR1", then each part with its count. Numbers little-endian.
constexpr char kFormat[4] = {'L', 'S', 'R', '1'};

class Writer {
public:
    explicit Writer(std::size_t reserve) { bytes_.reserve(reserve); }
    void Raw(const char* data, std::size_t size) { bytes_.insert(bytes_.end(), data, data + size); }
    template <typename Unsigned>
    void Number(Unsigned value) {
        for (std::size_t i = 0; i < sizeof(Unsigned); ++i) {
            bytes_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
        }
    }
    std::vector<char> Take() { return std::move(bytes_); }

private:
    std::vector<char> bytes_;
};

class Reader {
public:
    explicit Reader(std::string_view bytes) : bytes_(bytes) {}
    bool Raw(char* out, std::size_t size) {
        if (bytes_.size() - at_ < size) {
            return false;
        }
        std::memcpy(out, bytes_.data() + at_, size);
        at_ += size;
        return true;
    }
    template <typename Unsigned>
    bool Number(Unsigned& value) {
        if (bytes_.size() - at_ < sizeof(Unsigned)) {
            return false;
        }
        value = 0;
        for (std::size_t i = 0; i < sizeof(Unsigned); ++i) {
            value |= static_cast<Unsigned>(static_cast<unsigned char>(bytes_[at_ + i])) << (8 * i);
        }
        at_ += sizeof(Unsigned);
        return true;
    }
    // A count of items of `size` bytes each that the rest can hold.
    bool Count(std::uint32_t& count, std::size_t size) {
        return Number(count) && static_cast<std::uint64_t>(count) * size <= bytes_.size() - at_;
    }
    bool AtEnd() const { return at_ == bytes_.size(); }

private:
    std::string_view bytes_;
    std::size_t at_ = 0;
};

}  // namespace

std::vector<char> ScreeningRanking::Serialize() const {
    const std::size_t n = entries_.size();
    Writer out(16 + n * 69 + texts_.Data().size() + texts_.Offsets().size() * 4 + orders_.size() * n * 4);
    out.Raw(kFormat, sizeof kFormat);
    out.Number(static_cast<std::uint32_t>(n));
    for (const Entry& e : entries_) {
        for (const double number : e.number) {
            out.Number(std::bit_cast<std::uint64_t>(number));
        }
        out.Number(static_cast<std::uint64_t>(e.id));
        for (const std::uint32_t text :
             {e.class_id, e.name, e.fund_type, e.segment, e.manager, e.administrator, e.status}) {
            out.Number(text);
        }
        out.Number(e.present);
    }
    out.Number(static_cast<std::uint32_t>(texts_.Data().size()));
    out.Raw(texts_.Data().data(), texts_.Data().size());
    out.Number(static_cast<std::uint32_t>(texts_.Offsets().size()));
    for (const std::uint32_t offset : texts_.Offsets()) {
        out.Number(offset);
    }
    for (const std::vector<std::uint32_t>& order : orders_) {
        for (const std::uint32_t i : order) {
            out.Number(i);
        }
    }
    return out.Take();
}

std::optional<ScreeningRanking> ScreeningRanking::Load(std::string_view bytes) {
    Reader in(bytes);
    char format[sizeof kFormat];
    std::uint32_t n = 0;
    if (!in.Raw(format, sizeof format) || std::memcmp(format, kFormat, sizeof kFormat) != 0 ||
        !in.Count(n, 69)) {
        return std::nullopt;
    }
    ScreeningRanking ranking;
    ranking.entries_.resize(n);
    for (Entry& e : ranking.entries_) {
        for (double& number : e.number) {
            std::uint64_t bits = 0;
            in.Number(bits);
            number = std::bit_cast<double>(bits);
        }
        std::uint64_t id = 0;
        in.Number(id);
        e.id = static_cast<std::int64_t>(id);
        for (std::uint32_t* text :
             {&e.class_id, &e.name, &e.fund_type, &e.segment, &e.manager, &e.administrator, &e.status}) {
            in.Number(*text);
        }
        if (!in.Number(e.present)) {
            return std::nullopt;
        }
    }
    std::uint32_t text_bytes = 0;
    std::uint32_t offset_count = 0;
    if (!in.Count(text_bytes, 1)) {
        return std::nullopt;
    }
    std::string data(text_bytes, '\0');
    std::vector<std::uint32_t> offsets;
    if (!in.Raw(data.data(), data.size()) || !in.Count(offset_count, 4)) {
        return std::nullopt;
    }
    offsets.resize(offset_count);
    for (std::uint32_t& offset : offsets) {
        in.Number(offset);
    }
    if (!ranking.texts_.Assign(std::move(data), std::move(offsets))) {
        return std::nullopt;
    }
    const std::size_t texts = ranking.texts_.Size();
    for (const Entry& e : ranking.entries_) {
        if (e.class_id >= texts) {
            return std::nullopt;  // every entry has a class_id
        }
        for (const std::uint32_t text :
             {e.name, e.fund_type, e.segment, e.manager, e.administrator, e.status}) {
            if (text != TextPool::kNone && text >= texts) {
                return std::nullopt;
            }
        }
    }
    for (std::vector<std::uint32_t>& order : ranking.orders_) {
        order.resize(n);
        std::vector<bool> seen(n, false);
        for (std::uint32_t& i : order) {
            if (!in.Number(i) || i >= n || seen[i]) {
                return std::nullopt;  // each order is a permutation of the entries
            }
            seen[i] = true;
        }
    }
    if (!in.AtEnd()) {
        return std::nullopt;
    }
    ranking.MakeFilterColumns();
    return ranking;
}

void ScreeningRanking::MakeFilterColumns() {
    FilterColumns& c = columns_;
    const std::size_t n = entries_.size();
    for (std::vector<std::uint32_t>* column :
         {&c.fund_type, &c.segment, &c.manager, &c.administrator, &c.status}) {
        column->resize(n);
    }
    for (std::vector<double>& column : c.number) {
        column.resize(n);
    }
    c.present.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Entry& e = entries_[i];
        c.fund_type[i] = e.fund_type;
        c.segment[i] = e.segment;
        c.manager[i] = e.manager;
        c.administrator[i] = e.administrator;
        c.status[i] = e.status;
        for (std::size_t m = 0; m < c.number.size(); ++m) {
            c.number[m][i] = e.number[m];
        }
        c.present[i] = e.present;
    }
}

std::size_t ScreeningRanking::Bytes() const {
    const FilterColumns& c = columns_;
    std::size_t bytes = sizeof(*this) + entries_.capacity() * sizeof(Entry) + texts_.Bytes() +
                        c.present.capacity() +
                        (c.fund_type.capacity() + c.segment.capacity() + c.manager.capacity() +
                         c.administrator.capacity() + c.status.capacity()) *
                            sizeof(std::uint32_t);
    for (const auto& column : c.number) {
        bytes += column.capacity() * sizeof(double);
    }
    for (const auto& order : orders_) {
        bytes += order.capacity() * sizeof(std::uint32_t);
    }
    return bytes;
}

ScreeningKey ScreeningRanking::KeyOf(std::size_t row, ScreeningSort sort) const {
    const Entry& entry = entries_[row];
    ScreeningKey key;
    key.class_id = texts_.At(entry.class_id);
    if (sort == ScreeningSort::kName) {
        if (entry.name != TextPool::kNone) {
            key.present = true;
            key.text = texts_.At(entry.name);
        }
        return key;
    }
    const int i = NumberOf(sort);
    if (entry.present & (1u << i)) {
        key.present = true;
        key.number = entry.number[i];
    }
    return key;
}

std::size_t ScreeningRanking::Kept(const ScreeningFilters& f, std::vector<char>& kept) const {
    const std::size_t n = entries_.size();
    kept.assign(n, 1);
    // A text filter: each text of the pool decided once (-1 not yet), each entry by its text's id.
    std::vector<signed char> decided;
    auto text = [&](const std::vector<std::uint32_t>& column, const std::optional<std::string>& wanted,
                    bool substring) {
        if (!wanted) {
            return;
        }
        decided.assign(texts_.Size(), -1);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t id = column[i];
            if (id == TextPool::kNone) {
                kept[i] = 0;
                continue;
            }
            signed char& passes = decided[id];
            if (passes < 0) {
                const std::string_view value = texts_.At(id);
                passes =
                    (substring ? value.find(*wanted) != std::string_view::npos : value == *wanted) ? 1 : 0;
            }
            kept[i] &= passes;
        }
    };
    auto number = [&](int metric, const ScreeningFilters::Bounds& bounds) {
        if (!bounds.min && !bounds.max) {
            return;
        }
        const std::vector<double>& values = columns_.number[static_cast<std::size_t>(metric)];
        for (std::size_t i = 0; i < n; ++i) {
            kept[i] &= Within(bounds, (columns_.present[i] & (1u << metric)) != 0, values[i]) ? 1 : 0;
        }
    };
    text(columns_.fund_type, f.fund_type, false);
    number(kNav, f.nav);
    number(kDelinquency, f.delinquency);
    number(kSubordination, f.subordination);
    text(columns_.segment, f.segment, false);
    text(columns_.manager, f.manager, true);
    text(columns_.administrator, f.administrator, true);
    text(columns_.status, f.status, false);
    std::size_t count = 0;
    for (const char k : kept) {
        count += static_cast<std::size_t>(k);
    }
    return count;
}

ScreeningRanking::Page ScreeningRanking::Select(const ScreeningFilters& filters, ScreeningSort sort,
                                                bool descending, const std::optional<ScreeningKey>& after,
                                                std::size_t limit) const {
    Page page;
    const bool narrows = Narrows(filters);
    // Which entries the filters keep, tested once each: the count needs them all, and the walk
    // below tested them again (for a narrow filter, most of the month).
    std::vector<char> kept;
    if (!narrows) {
        page.match_count = entries_.size();
    } else {
        page.match_count = Kept(filters, kept);
    }
    // The page: the order's matches after the position (the order's first entries up to the
    // position are not after it), then whether one more follows.
    const std::vector<std::uint32_t>& order = Order(sort, descending);
    auto it = order.begin();
    if (after) {
        it = std::partition_point(order.begin(), order.end(), [&](std::uint32_t i) {
            return !ScreeningPrecedes(*after, KeyOf(i, sort), descending);
        });
    }
    page.rows.reserve(std::min(limit, page.match_count));
    for (; it != order.end(); ++it) {
        if (narrows && !kept[*it]) {
            continue;
        }
        if (page.rows.size() == limit) {
            page.more = true;
            break;
        }
        page.rows.push_back(*it);
    }
    return page;
}

}  // namespace lastro::funds
