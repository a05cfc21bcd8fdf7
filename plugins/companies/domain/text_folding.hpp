// Case- and accent-folding of filter values and of the columns they are compared with, below the
// registry's and the documents' rules alike.
#pragma once

#include <optional>
#include <string>

namespace lastro::companies {

// A filter's folded text (sdk::FoldForSearch, blanks around removed); nullopt when absent or blank.
std::optional<std::string> FoldedFilter(const std::optional<std::string>& value);

}  // namespace lastro::companies
