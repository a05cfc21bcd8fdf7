#include "domain/text_folding.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/text.hpp>

namespace lastro::companies {

std::optional<std::string> FoldedFilter(const std::optional<std::string>& value) {
    if (!value) {
        return std::nullopt;
    }
    const std::string folded = sdk::FoldForSearch(sdk::TrimBlanks(*value));
    const std::string_view trimmed = sdk::TrimBlanks(folded);
    if (trimmed.empty()) {
        return std::nullopt;
    }
    return std::string(trimmed);
}

}  // namespace lastro::companies
