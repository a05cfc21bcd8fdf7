// What a handler returns: the `data` of the envelope and the parts of `meta` only the plugin
// knows. The host adds request_id, row_count and pagination (contract section 2.2).
#pragma once

#include <boost/config.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lastro::sdk {

struct BOOST_SYMBOL_VISIBLE Source {
    std::string provider;  // "cvm", "bcb", "anbima"
    std::string dataset;   // "registro_fundo_classe"
};

struct BOOST_SYMBOL_VISIBLE Meta {
    std::optional<std::string> data_release;
    std::optional<std::string> as_of;
    std::vector<Source> sources;
    // When `data` is an object, the number of rows it stands for (an array counts itself).
    std::optional<std::size_t> row_count;
    // Where the next page starts, for cursor-paginated operations; nullopt on the last page.
    // The host signs it into an opaque cursor bound to the request's filters, and hands it
    // back decoded as RequestContext::cursor_position.
    std::optional<boost::json::value> next_position;
    // Further meta members of the contract (identity_status, universe_filter, field_sources...).
    boost::json::object extra;
};

struct BOOST_SYMBOL_VISIBLE Result {
    boost::json::value data;
    Meta meta;
    // `data` already written as JSON text by the plugin (one valid JSON value), for answers
    // assembled from JSON the plugin stored (the industry plugin's precomputed items): the host
    // answers this text as is instead of writing `data`, which must then stay null. Set
    // meta.row_count with it.
    std::optional<std::string> data_json;
};

}  // namespace lastro::sdk
