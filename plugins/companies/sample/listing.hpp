// The FCA's securities of the sample, drawn once: WriteFcaSample writes them as the FCA's
// valor_mobiliario and SampleListing (<lastro/companies/sample_listing.hpp>) hands the
// exchange-listed ones to other plugins' samples, so both say the same.
#pragma once

#include "sample/company_universe.hpp"

#include <lastro/companies/sample_listing.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::companies {

inline constexpr int kFcaYear = 2026;

// Whether a company delivers its forms of `year`: registered by then and not cancelled before.
inline bool DeliversForms(const SampleCompany& company, int year) {
    return company.registered.year <= year && (!company.cancelled || company.cancelled->year > year);
}

// One valor_mobiliario row.
struct FcaSecurity {
    std::string_view kind;  // Valor_Mobiliario
    std::string_view preferred_class;
    std::string_view preferred_name;
    std::string ticker;  // empty for over-the-counter debentures
    std::string_view composition;
    bool exchange = false;
    sdk::Date since;
    std::optional<sdk::Date> until;
    std::string_view segment;  // empty off the exchange
    ListedClass share_class = ListedClass::kOn;
};

// One version of a company's FCA.
struct FcaVersion {
    int version = 1;
    sdk::Date delivered;
    std::vector<FcaSecurity> securities;
};

struct FcaFiling {
    const SampleCompany* company = nullptr;
    std::vector<FcaVersion> versions;
};

struct SecuritiesCases {
    std::int64_t cvm_code = 0;  // the accented company: ON, PNA and a unit, in versions 1 and 2
    std::string ended_ticker;   // its unit, whose trading ends in version 2
    std::string ended_on;       // YYYY-MM-DD
    // The ticker rename (kRenamedTickerLastDay): a company with only ON shares, one version
    // delivered after the change listing both tickers.
    std::int64_t renamed_cvm_code = 0;
    std::string renamed_from;  // the old ticker, with Data_Fim_Negociacao
    std::string renamed_to;    // the new one, from the next day
};

struct FcaSecurities {
    std::vector<FcaFiling> filings;  // the companies of universe.current that deliver one
    SecuritiesCases cases;
};

// `universe` must outlive the result (filings point into it).
FcaSecurities DrawFcaSecurities(const CompanyUniverse& universe, std::uint64_t seed);

}  // namespace lastro::companies
