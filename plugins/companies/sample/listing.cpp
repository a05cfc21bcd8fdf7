#include "sample/listing.hpp"

#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <array>

namespace lastro::companies {
namespace {

constexpr std::array<std::string_view, 4> kSegments{"Novo Mercado", "Nível 1", "Nível 2", "Tradicional"};
// The unit's end date arrives with the accented company's version 2.
constexpr sdk::Date kUnitEnded{2026, 3, 31};
// The renamed company's FCA, delivered after the change.
constexpr sdk::Date kRenameDelivered{2026, 6, 22};

FcaSecurity Listed(std::string_view kind, std::string_view preferred_class, std::string_view preferred_name,
                   std::string ticker, std::string_view composition, const sdk::Date& since,
                   std::optional<sdk::Date> until, std::string_view segment, ListedClass share_class) {
    return {kind, preferred_class, preferred_name, std::move(ticker), composition,
            true, since,           until,          segment,           share_class};
}

}  // namespace

std::string SampleTickerStem(std::int64_t cvm_code) {
    std::string stem(4, 'A');
    for (int i = 3; i >= 0; --i) {
        stem[static_cast<std::size_t>(i)] = static_cast<char>('A' + cvm_code % 26);
        cvm_code /= 26;
    }
    return stem;
}

FcaSecurities DrawFcaSecurities(const CompanyUniverse& universe, std::uint64_t seed) {
    using sdk::sample::Prng;
    FcaSecurities result;
    Prng prng = Prng::ForStream(seed, sdk::sample::StreamOf("cvm.fca_cia_aberta"), kFcaYear);
    bool renamed = false;
    for (const SampleCompany& company : universe.current) {
        if (!DeliversForms(company, kFcaYear)) {
            continue;
        }
        const bool planted = company.legal_name == universe.cases.accented_name;
        const bool exchange = planted || company.market == "BOLSA";
        const bool counter = !planted && company.market.starts_with("BALCÃO");
        const sdk::Date delivered = sdk::sample::RandomDate(prng, {kFcaYear, 1, 5}, {kFcaYear, 5, 31});
        const sdk::Date listed = sdk::sample::Later(company.registered, sdk::Date{2000, 1, 3});
        const std::string stem = SampleTickerStem(company.cvm_code);
        const bool preferred = planted || prng.Chance(400);
        const bool unit = planted || (preferred && prng.Chance(250));
        const std::string_view segment = planted ? "Nível 2" : prng.Pick(kSegments);
        // The first exchange company with ON shares only renames its ticker; its new stem starts
        // with Z, which no CVM code of the sample spells (codes stay below 26^3 x 25).
        const bool rename =
            !renamed && exchange && !planted && !preferred && company.registered < sdk::Date{2025, 1, 1};
        renamed = renamed || rename;
        FcaFiling filing{&company, {}};
        const int versions = planted ? 2 : 1;
        for (int version = 1; version <= versions; ++version) {
            FcaVersion v{
                version, rename ? kRenameDelivered : sdk::sample::AddDays(delivered, 40 * (version - 1)), {}};
            if (exchange) {
                if (rename) {
                    const std::string new_stem = "Z" + stem.substr(1);
                    v.securities.push_back(Listed("Ações Ordinárias", "", "", stem + "3", "", listed,
                                                  kRenamedTickerLastDay, segment, ListedClass::kOn));
                    v.securities.push_back(Listed("Ações Ordinárias", "", "", new_stem + "3", "",
                                                  kRenamedTickerFirstDay, std::nullopt, segment,
                                                  ListedClass::kOn));
                    result.cases.renamed_cvm_code = company.cvm_code;
                    result.cases.renamed_from = stem + "3";
                    result.cases.renamed_to = new_stem + "3";
                } else {
                    v.securities.push_back(Listed("Ações Ordinárias", "", "", stem + "3", "", listed,
                                                  std::nullopt, segment, ListedClass::kOn));
                }
                if (preferred) {
                    v.securities.push_back(Listed("Ações Preferenciais", "PNA", "Preferencial Classe A",
                                                  stem + "4", "", listed, std::nullopt, segment,
                                                  ListedClass::kPna));
                }
                if (unit) {
                    std::optional<sdk::Date> ended;
                    if (planted && version == 2) {
                        ended = kUnitEnded;
                    }
                    v.securities.push_back(Listed("Units", "", "", stem + "11", "1 ON + 2 PNA", listed, ended,
                                                  segment, ListedClass::kUnit));
                    if (planted) {
                        result.cases.cvm_code = company.cvm_code;
                        result.cases.ended_ticker = stem + "11";
                        result.cases.ended_on = kUnitEnded.ToString();
                    }
                }
            } else if (counter) {
                v.securities.push_back(
                    {"Debêntures", "", "", "", "", false, listed, std::nullopt, "", ListedClass::kOn});
            }
            filing.versions.push_back(std::move(v));
        }
        result.filings.push_back(std::move(filing));
    }
    return result;
}

std::vector<ListedSampleCompany> SampleListing(std::uint64_t seed, sdk::SampleScale scale) {
    const CompanyUniverse universe = DrawCompanyUniverse(seed, scale);
    const FcaSecurities fca = DrawFcaSecurities(universe, seed);
    std::vector<ListedSampleCompany> listing;
    for (const FcaFiling& filing : fca.filings) {
        const FcaVersion& latest = filing.versions.back();
        ListedSampleCompany company;
        for (const FcaSecurity& security : latest.securities) {
            if (security.exchange) {
                company.securities.push_back({security.ticker, security.share_class, security.since,
                                              security.until, std::string(security.composition)});
                company.segment = std::string(security.segment);
            }
        }
        if (company.securities.empty()) {
            continue;
        }
        const SampleCompany& c = *filing.company;
        company.cvm_code = c.cvm_code;
        for (const char ch : c.cnpj) {
            if (ch >= '0' && ch <= '9') {
                company.cnpj += ch;
            }
        }
        company.legal_name = c.legal_name;
        company.trade_name = c.trade_name;
        company.sector = c.sector;
        listing.push_back(std::move(company));
    }
    return listing;
}

}  // namespace lastro::companies
