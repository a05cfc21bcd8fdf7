// Parameters bound by reference for cached queries (<lastro/sdk/cached_query.hpp>) where ODB's
// `_ref` does not reach: a list of keys, and a parameter inside native SQL text.
//
// `column IN (?, ..., ?)`: the keys are parameters bound by reference, so a statement that lists
// keys is prepared once per connection and list size. `column.in_range(begin, end)` writes the
// values into the statement's text, which is then prepared on every call: on SQLite its parsing
// and planning (about 80,000 instructions a statement), on PostgreSQL three round trips
// (prepare, execute, deallocate) where one would do.
//
// A list is padded to the next power of two by repeating its last key (an IN list with a key
// twice matches the same rows), so one call site has at most log2(N) + 1 statements, each named
// by KeyListName:
//
//   struct OfCnpjs { sdk::KeyList<std::string, 256> cnpjs; std::string last; };
//   const std::size_t terms = sdk::KeyListTerms(cnpjs.size());
//   auto q = sdk::CachedQuery<Report, OfCnpjs>(db, sdk::KeyListName("funds.reports_of", terms),
//       [terms](const OfCnpjs& p) {
//           return sdk::InKeys(ReportQuery::cnpj, p.cnpjs, terms) &&
//                  ReportQuery::month <= ReportQuery::_ref(p.last);
//       });
//   q.params.cnpjs.Assign(cnpjs.begin(), cnpjs.end(), terms);
//
// The key type is the column's C++ type (the reference is read as that type when the statement
// runs).
#pragma once

#include <boost/config.hpp>
#include <odb/query-dynamic.hxx>

#include <array>
#include <cstddef>
#include <iterator>
#include <stdexcept>

namespace lastro::sdk {

// The smallest power of two that holds `count` keys (1 for none).
BOOST_SYMBOL_VISIBLE std::size_t KeyListTerms(std::size_t count);

// "base_<terms>", kept for the life of the process: ODB keeps a cached query's name by pointer.
BOOST_SYMBOL_VISIBLE const char* KeyListName(const char* base, std::size_t terms);

template <typename T, std::size_t N>
struct KeyList {
    static_assert((N & (N - 1)) == 0, "a key list holds a power of two keys");
    std::array<T, N> keys;

    // The keys [begin, end), then the last one repeated up to `terms` (KeyListTerms of their
    // number). Throws std::length_error beyond N keys or for an empty range.
    template <typename It>
    void Assign(It begin, It end, std::size_t terms) {
        const auto count = static_cast<std::size_t>(std::distance(begin, end));
        if (count == 0 || count > terms || terms > N) {
            throw std::length_error("a key list holds 1 to " + std::to_string(N) + " keys");
        }
        std::size_t i = 0;
        for (It it = begin; it != end; ++it) {
            keys[i++] = *it;
        }
        for (; i < terms; ++i) {
            keys[i] = keys[count - 1];
        }
    }
};

// `column IN (the first `terms` keys of `list`)`, each a parameter bound by reference.
template <typename T, std::size_t N>
odb::query_base InKeys(const odb::query_column<T>& column, const KeyList<T, N>& list, std::size_t terms) {
    if (terms == 0 || terms > N) {
        throw std::length_error("a key list holds 1 to " + std::to_string(N) + " keys");
    }
    // What query_column<T>::in() builds for values, with references: the column, its
    // parameters, then the IN operator over them.
    odb::query_base q(column.native_info);
    for (std::size_t i = 0; i < terms; ++i) {
        q.append_ref(&list.keys[i], column.native_info);
    }
    q.append(odb::query_base::clause_part::op_in, terms);
    return q;
}

// A parameter bound by reference to `value`, typed as `column` (ODB's dynamic queries type a
// parameter by a column), to place inside native SQL text where `column == _ref(x)` does not fit:
//
//   ReportQuery("(") + sdk::Bound(ReportQuery::id, p.wanted) + "<> 0 AND" + ReportQuery::nav + "IS NOT NULL)"
template <typename T>
odb::query_base Bound(const odb::query_column<T>& column, const T& value) {
    odb::query_base q;
    q.append_ref(&value, column.native_info);
    return q;
}

}  // namespace lastro::sdk
