#include "domain/daily/filing_rule.hpp"

namespace lastro::series {

int FilingRank(std::string_view fund_type) {
    return fund_type.starts_with("CLASSES") ? 2 : 1;
}

}  // namespace lastro::series
