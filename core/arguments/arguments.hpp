// The arguments part of the request pipeline: a call's query and path parameters percent-decoded,
// checked and converted by its operation's manifest (plugins/param_conversion), digested to bind
// a cursor, and its cursor read (signed, bound to the operation, filters and key; a later page
// within the included-pages window costs nothing). Owns the cursor codec, so it also issues the
// next page's cursor. A problem found here (400, 422) is answered once the call is admitted: the
// contract refunds it. Shared by every request thread; it holds no per-request state.
#pragma once

#include "core/arguments/cursor_codec.hpp"
#include "core/plugins/manifest.hpp"
#include "core/request/refusal.hpp"

#include <lastro/sdk/params.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lastro::arguments {

// The representation `format` asks for. The host's own parameter, on every operation, never
// among `params` (the handler's answer is the same either way); json and csv (docs/api.md).
enum class Format { kJson, kCsv };

struct Arguments {
    sdk::Params params;
    std::optional<Format> format;  // when the query names one; else Accept decides
    std::string filters;           // digest of every parameter but cursor and limit: binds a cursor
    std::optional<boost::json::value> position;  // decoded from the cursor
    // An included later page: when the page that paid for it was answered, and that page's limit.
    std::optional<std::pair<std::time_t, std::int64_t>> included_by;
    // The first problem found, in the contract's order (the query's encoding, then the
    // parameters, then the cursor).
    std::optional<request::Refusal> problem;
};

class ArgumentReader {
public:
    // `cursor_secrets`: the first signs cursors, every one verifies (runtime/cursor_secret.hpp).
    explicit ArgumentReader(std::vector<std::string> cursor_secrets) : cursors_(std::move(cursor_secrets)) {}

    // The arguments of a call of `op` by key `key_id` at `now`: `path` as the route matched it,
    // `query` the raw name/value pairs.
    Arguments Read(const plugins::OperationSpec& op, const std::map<std::string, std::string>& path,
                   const std::vector<std::pair<std::string, std::string>>& query, std::int64_t key_id,
                   std::time_t now) const;

    // The cursor of the page after `next_position`: an included page hands on the time and limit
    // of the page that paid; any other page paid itself.
    std::string NextCursor(const plugins::OperationSpec& op, const Arguments& arguments, std::int64_t key_id,
                           std::time_t now, const boost::json::value& next_position) const;

private:
    void ReadCursor(const plugins::OperationSpec& op, Arguments& arguments, std::int64_t key_id,
                    std::time_t now) const;

    CursorCodec cursors_;
};

// A parameter's value as text (the digest's and the response cache's key).
std::string ParamText(const sdk::ParamValue& value);

}  // namespace lastro::arguments
