// funds.search — GET /v1/fundos: the FIDC universe of the registry, filtered and paged by a
// keyset on fund_id (contract 2.4, 4.2).
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/plugin.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

struct SearchFilters {
    std::optional<std::string> q;
    std::optional<std::string> cnpj;  // 14 digits (the host normalizes the parameter)
    std::optional<std::string> status;
    std::optional<std::string> manager;
    std::optional<std::string> administrator;
    std::size_t limit = 25;
    std::optional<std::string> after;  // fund_id the page starts after
};

struct SearchPage {
    std::vector<FundListPageRow> funds;  // each with its stored item
    bool has_more = false;
};

// What `q` is matched against search_text with: folded text, or the bare digits when `q` is
// written like a CNPJ (digits with . / - only). Empty when nothing is left to match.
std::string SearchNeedle(std::string_view q);
// The LIKE patterns' escape character (sdk::ContainsPattern's).
inline constexpr std::string_view kLikeEscape = "\\";

// Reads one page (fund_id ascending). Runs inside the caller's transaction.
SearchPage SearchFunds(odb::database& db, const SearchFilters& filters);

sdk::Result HandleSearch(const sdk::RequestContext& context);

}  // namespace lastro::funds
