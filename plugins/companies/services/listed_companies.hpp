// The implementation of <lastro/companies/services.hpp> over the plugin's tables.
#pragma once

#include <lastro/companies/services.hpp>

namespace lastro::companies {

class ListedCompaniesReader : public ListedCompanies {
public:
    std::vector<ListedCompany> ByCnpj(odb::database& db, const std::string& cnpj) const override;
    std::optional<ListedCompany> ByCvmCode(odb::database& db, std::int64_t cvm_code) const override;
    std::vector<CompanySecurity> Securities(odb::database& db, std::int64_t cvm_code) const override;
    std::vector<CompanySecurity> ByTicker(odb::database& db, const std::string& ticker) const override;
    std::vector<SharesFigure> SharesOutstanding(odb::database& db, std::int64_t cvm_code,
                                                const std::optional<std::string>& day) const override;
};

}  // namespace lastro::companies
