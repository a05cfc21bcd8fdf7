// The implementations of the services declared in <lastro/funds/services.hpp>, registered by
// the plugin (src/plugin.cpp) for the plugins that require funds.
#pragma once

#include <lastro/funds/services.hpp>

namespace lastro::funds {

class RegistryLocator : public FundLocator {
public:
    Located ByCnpj(odb::database& db, const std::string& cnpj) const override;
    Located ByCvmCode(odb::database& db, std::int64_t code) const override;
};

class FidcMonthlyFactsReader : public FidcMonthlyFacts {
public:
    std::vector<std::string> Months(odb::database& db) const override;
    void ForEachReport(odb::database& db, const std::string& month,
                       const std::function<void(const FidcMonthlyFact&)>& visit) const override;
    void ForEachReportDetail(odb::database& db, const std::string& month, std::span<const FidcField> fields,
                             const std::function<void(const FidcReportDetail&)>& visit) const override;
};

class FidcRegistryReader : public FidcRegistry {
public:
    void ForEachVehicle(odb::database& db,
                        const std::function<void(const FidcRegistryVehicle&)>& visit) const override;
};

}  // namespace lastro::funds
