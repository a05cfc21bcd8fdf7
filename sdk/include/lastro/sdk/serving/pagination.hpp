// Pagination of a collection (contract 4.2 and 4.4; docs/api.md, "Pagination").
//
// Keyset (`pagination: cursor` in the manifest): a page ends where the next one starts, named by
// the key of its last row. The handler returns that key as Meta::next_position; the host signs it
// into the opaque `cursor`, bound to the operation and its filters, and hands it back decoded as
// RequestContext::cursor_position on the next call. A position is a struct described with
// Boost.Describe whose members Boost.JSON converts (strings, integers, std::optional for null,
// sdk::Month, sdk::Date), with `bool Valid() const` for what the types alone cannot say:
//
//   struct FundsAfter {
//       std::string after;  // fund_id of the last row of the previous page
//       bool Valid() const { return sdk::IsUuid(after); }
//   };
//   BOOST_DESCRIBE_STRUCT(FundsAfter, (), (after))
//
//   const std::size_t limit = sdk::PageLimit(context.params, 25);
//   const auto from = sdk::ReadPosition<FundsAfter>(context.cursor_position, "/v1/fundos");
//   ... read limit + 1 rows after from->after: the row past the page says another page exists ...
//   if (sdk::CutToPage(rows, limit)) {
//       result.meta.next_position = sdk::PositionValue(FundsAfter{rows.back().fund_id});
//   }
//
// Offset (`pagination: offset`): `limit` and `offset` parameters, and meta.pagination
// {"limit", "offset", "has_more"} set by OffsetSlice or SetOffsetPagination.
#pragma once

#include <lastro/sdk/params.hpp>
#include <lastro/sdk/result.hpp>
#include <lastro/sdk/serving/json_values.hpp>

#include <boost/config.hpp>
#include <boost/describe/members.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>
#include <boost/mp11/algorithm.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace lastro::sdk {

// The request's `limit`, at least 1. The host sets it from the manifest's default when the caller
// gave none; `fallback` serves a direct caller such as a unit test.
BOOST_SYMBOL_VISIBLE std::size_t PageLimit(const Params& params, std::size_t fallback);

// ---- Keyset pagination

// sdk::BadRequest (400, refunded) naming `cursor`: "the cursor was not issued by <issuer>". For a
// position the host verified (so signed by this API) that is not one this operation issues,
// e.g. after a change of its shape, or of another page's month.
[[noreturn]] BOOST_SYMBOL_VISIBLE void RejectCursor(std::string_view issuer);

template <typename Position>
concept KeysetPosition = boost::describe::has_describe_members<Position>::value &&
                         std::default_initializable<Position> && requires(const Position& position) {
                             { position.Valid() } -> std::convertible_to<bool>;
                         };

namespace detail {

// True when `json` is an object with a member for every described member of Position (Boost.JSON
// would take a missing std::optional member as null; a position always writes them all).
template <typename Position>
bool HasEveryMember(const boost::json::value& json) {
    const boost::json::object* object = json.if_object();
    if (!object) {
        return false;
    }
    bool every = true;
    using Members = boost::describe::describe_members<Position, boost::describe::mod_public |
                                                                    boost::describe::mod_inherited>;
    boost::mp11::mp_for_each<Members>([&](auto member) { every = every && object->contains(member.name); });
    return every;
}

}  // namespace detail

// The position a page starts after: nullopt on a first page (no cursor), else the decoded
// position, which must have exactly Position's members, each of its type, and be Valid();
// anything else is RejectCursor(issuer), never a crash or a default.
template <KeysetPosition Position>
std::optional<Position> ReadPosition(const std::optional<boost::json::value>& position,
                                     std::string_view issuer) {
    if (!position) {
        return std::nullopt;
    }
    if (!detail::HasEveryMember<Position>(*position)) {
        RejectCursor(issuer);
    }
    boost::json::result<Position> read = boost::json::try_value_to<Position>(*position);
    if (!read || !read->Valid()) {
        RejectCursor(issuer);
    }
    return std::move(*read);
}

// Meta::next_position for `position`: a JSON object of its members, in declaration order.
template <KeysetPosition Position>
boost::json::value PositionValue(const Position& position) {
    return boost::json::value_from(position);
}

// `rows` were read with one row past the page (limit + 1): cuts them to `limit` and says whether
// a row was cut, i.e. whether another page follows.
template <typename Row>
bool CutToPage(std::vector<Row>& rows, std::size_t limit) {
    if (rows.size() <= limit) {
        return false;
    }
    rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(limit), rows.end());
    return true;
}

// ---- Offset pagination

struct BOOST_SYMBOL_VISIBLE OffsetPage {
    std::size_t limit = 0;
    std::size_t offset = 0;
};

// The request's `limit` (as PageLimit) and `offset` (at least 0; 0 when absent).
BOOST_SYMBOL_VISIBLE OffsetPage ReadOffsetPage(const Params& params, std::size_t fallback_limit);

// meta.pagination of an offset page: {"limit", "offset", "has_more"}.
BOOST_SYMBOL_VISIBLE void SetOffsetPagination(Meta& meta, const OffsetPage& page, bool has_more);

// The rows [offset, offset + limit) of `rows` (none past the end), and their meta.pagination.
template <typename Row>
std::span<const Row> OffsetSlice(const std::vector<Row>& rows, const OffsetPage& page, Meta& meta) {
    const std::size_t begin = std::min(page.offset, rows.size());
    const std::size_t count = std::min(page.limit, rows.size() - begin);
    SetOffsetPagination(meta, page, begin + count < rows.size());
    return std::span<const Row>(rows).subspan(begin, count);
}

}  // namespace lastro::sdk
