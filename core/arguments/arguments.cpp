#include "core/arguments/arguments.hpp"

#include "core/catalog/catalog.hpp"
#include "core/plugins/param_conversion.hpp"
#include "core/request/percent_decoding.hpp"
#include "core/request/safe_text.hpp"

#include <lastro/sdk/text.hpp>

#include <openssl/evp.h>

#include <cctype>
#include <charconv>

namespace lastro::arguments {
namespace {

constexpr std::size_t kMaxQueryParams = 32;

// A digest of the filters (every parameter but cursor and limit), binding a cursor to them. A
// text the operation matches folded (ParamSpec::folded) is digested folded: two spellings that
// find the same rows take each other's cursors.
std::string FiltersDigest(const plugins::OperationSpec& op, const sdk::Params& params) {
    std::string canonical;
    for (const auto& [name, value] : params.All()) {
        if (name == "cursor" || name == "limit")
            continue;
        std::string text = ParamText(value);
        if (const plugins::ParamSpec* spec = op.FindParam(name); spec && spec->folded) {
            std::string_view trimmed = text;
            while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) {
                trimmed.remove_prefix(1);
            }
            while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) {
                trimmed.remove_suffix(1);
            }
            text = sdk::FoldForSearch(trimmed);
        }
        canonical += name + "=" + text + "\n";
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(canonical.data(), canonical.size(), digest, &size, EVP_sha256(), nullptr);
    return Base64UrlEncode(std::string(reinterpret_cast<char*>(digest), 12));
}

struct ParamsOutcome {
    sdk::Params params;
    std::optional<std::pair<std::string, std::string>> error;  // parameter, detail (422)
};

ParamsOutcome ValidateParams(const plugins::OperationSpec& op, const std::map<std::string, std::string>& path,
                             const std::vector<std::pair<std::string, std::string>>& query) {
    ParamsOutcome out;
    std::map<std::string, std::string> given;
    for (const auto& [name, value] : query) {
        const plugins::ParamSpec* spec = op.FindParam(name);
        if (!spec || spec->in != plugins::ParamLocation::kQuery) {
            std::string shown = sdk::IsValidUtf8(name) ? name : request::SafeText(name);
            out.error = {shown, "unknown parameter '" + shown + "' for " + op.path};
            return out;
        }
        given[name] = value;
    }
    for (const plugins::ParamSpec& spec : op.params) {
        std::optional<std::string> raw;
        if (spec.in == plugins::ParamLocation::kPath) {
            auto it = path.find(spec.name);
            if (it != path.end())
                raw = it->second;
        } else if (auto it = given.find(spec.name); it != given.end()) {
            raw = it->second;
        }
        if (raw) {
            // One spelling of each text (NFC): "E" + combining acute is "É" for every check,
            // search and cursor after this. A value that shows nothing is refused like an
            // empty one, so that a filter that went blank never widens a query.
            *raw = sdk::NormalizeNfc(*raw);
            if (sdk::IsBlank(*raw)) {
                out.error = {spec.name, spec.name + (raw->empty() ? " must not be empty"
                                                                  : " must not be blank (white space only)")};
                return out;
            }
        }
        if (!raw) {
            if (spec.required) {
                out.error = {spec.name, spec.name + " is required"};
                return out;
            }
            if (!spec.default_value)
                continue;
            raw = spec.default_value;
        }
        auto converted = plugins::ConvertParam(spec, *raw);
        if (auto* error = std::get_if<plugins::ParamError>(&converted)) {
            out.error = {spec.name, error->detail};
            return out;
        }
        out.params.Set(spec.name, std::get<sdk::ParamValue>(std::move(converted)));
    }
    return out;
}

}  // namespace

std::string ParamText(const sdk::ParamValue& value) {
    struct Visitor {
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const {
            char buffer[32];
            auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
            return ec == std::errc() ? std::string(buffer, end) : std::string();
        }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(const sdk::Month& m) const { return m.ToString(); }
        std::string operator()(const sdk::Date& d) const { return d.ToString(); }
    };
    return std::visit(Visitor{}, value);
}

Arguments ArgumentReader::Read(const plugins::OperationSpec& op,
                               const std::map<std::string, std::string>& path,
                               const std::vector<std::pair<std::string, std::string>>& raw_query,
                               std::int64_t key_id, std::time_t now) const {
    Arguments arguments;
    std::vector<std::pair<std::string, std::string>> query;
    for (const auto& [raw_name, raw_value] : raw_query) {
        auto name = request::PercentDecode(raw_name, true);
        auto value = request::PercentDecode(raw_value, true);
        if (!name || !value) {
            std::string shown = name && sdk::IsValidUtf8(*name) ? *name : request::SafeText(raw_name);
            arguments.problem =
                request::Refusal{422, "parameter '" + shown + "' is not validly percent-encoded", shown};
            return arguments;
        }
        if (*name == "format" && !arguments.format) {
            if (*value == "json") {
                arguments.format = Format::kJson;
            } else if (*value == "csv" && op.response.OffersCsv()) {
                arguments.format = Format::kCsv;
            } else if (*value == "csv") {
                arguments.problem = request::Refusal{
                    422,
                    "format=csv is offered where data is a list of rows; " + op.path + " answers one object",
                    "format"};
                return arguments;
            } else {
                arguments.problem = request::Refusal{422, "format must be json or csv", "format"};
                return arguments;
            }
            continue;
        }
        query.emplace_back(std::move(*name), std::move(*value));
    }
    if (raw_query.size() > kMaxQueryParams) {  // a parameter badly encoded is named first
        arguments.problem = request::Refusal{
            400, "too many query parameters (at most " + std::to_string(kMaxQueryParams) + ")"};
        return arguments;
    }
    ParamsOutcome checked = ValidateParams(op, path, query);
    arguments.params = std::move(checked.params);
    if (checked.error) {
        arguments.problem = request::Refusal{422, checked.error->second, checked.error->first};
        return arguments;
    }
    arguments.filters = FiltersDigest(op, arguments.params);
    ReadCursor(op, arguments, key_id, now);
    return arguments;
}

// The position a cursor carries, bound to the operation, filters and key it was issued for. A
// later page within the included-pages window of the page that paid, asking for no more rows than
// it did, costs nothing; its own cursor carries that paid page's time and limit on, so a chain of
// included pages never outlasts the window nor grows its pages (docs/billing.md).
void ArgumentReader::ReadCursor(const plugins::OperationSpec& op, Arguments& arguments, std::int64_t key_id,
                                std::time_t now) const {
    if (op.pagination != plugins::Pagination::kCursor) {
        return;
    }
    auto cursor = arguments.params.String("cursor");
    if (!cursor) {
        return;
    }
    auto decoded = cursors_.Decode(*cursor, op.id, arguments.filters, key_id, now);
    if (auto* payload = std::get_if<CursorPayload>(&decoded)) {
        arguments.position = payload->position;
        const std::int64_t limit = arguments.params.Integer("limit").value_or(0);
        if (op.included_pages && payload->paid_limit && limit <= *payload->paid_limit &&
            payload->issued_at >= now - catalog::kIncludedPagesWindowSeconds) {
            arguments.included_by = std::make_pair(payload->issued_at, *payload->paid_limit);
        }
        return;
    }
    std::string detail;
    switch (std::get<CursorError>(decoded)) {
        case CursorError::kMalformed:
            detail = "the cursor is not one this API issued, or it was altered";
            break;
        case CursorError::kOtherOperation:
            detail = "the cursor belongs to another operation";
            break;
        case CursorError::kOtherFilters:
            detail = "the cursor was issued for other filters; repeat the first page's filters";
            break;
        case CursorError::kOtherKey:
            detail =
                "the cursor was issued to another API key; start again from the first page with this key";
            break;
        case CursorError::kFuture:
            detail = "the cursor's issue time is in the future; it was not issued by this API";
            break;
    }
    arguments.problem = request::Refusal{400, detail, std::string("cursor")};
}

std::string ArgumentReader::NextCursor(const plugins::OperationSpec& op, const Arguments& arguments,
                                       std::int64_t key_id, std::time_t now,
                                       const boost::json::value& next_position) const {
    const std::int64_t limit = arguments.params.Integer("limit").value_or(0);
    const auto [paid_at, paid_limit] = arguments.included_by.value_or(std::make_pair(now, limit));
    return cursors_.Encode({op.id, arguments.filters, key_id, paid_at, paid_limit, next_position});
}

}  // namespace lastro::arguments
