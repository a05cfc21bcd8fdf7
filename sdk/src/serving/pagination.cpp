#include <lastro/sdk/serving/pagination.hpp>

#include <lastro/sdk/problem.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>

namespace lastro::sdk {

std::size_t PageLimit(const Params& params, std::size_t fallback) {
    const std::int64_t limit = params.Integer("limit").value_or(static_cast<std::int64_t>(fallback));
    return static_cast<std::size_t>(std::max<std::int64_t>(1, limit));
}

void RejectCursor(std::string_view issuer) {
    throw BadRequest("the cursor was not issued by " + std::string(issuer), "cursor");
}

OffsetPage ReadOffsetPage(const Params& params, std::size_t fallback_limit) {
    OffsetPage page;
    page.limit = PageLimit(params, fallback_limit);
    page.offset = static_cast<std::size_t>(std::max<std::int64_t>(0, params.Integer("offset").value_or(0)));
    return page;
}

void SetOffsetPagination(Meta& meta, const OffsetPage& page, bool has_more) {
    meta.extra["pagination"] = boost::json::object{
        {"limit", static_cast<std::int64_t>(page.limit)},
        {"offset", static_cast<std::int64_t>(page.offset)},
        {"has_more", has_more},
    };
}

}  // namespace lastro::sdk
