// The companies sample's exchange-listed companies as other plugins' samples need them to name
// the same companies (the stocks sample's COTAHIST and B3 files): computed by the same code that
// writes the FCA's valor_mobiliario (plugins/companies/sample/listing.cpp), so the two never
// drift. Linked as the static library lastro-companies-sample; a sample writer only, never the
// service: the service reads CVM's files through the companies plugin (services.hpp).
#pragma once

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::companies {

enum class ListedClass { kOn, kPna, kUnit };

inline std::string_view ListedClassName(ListedClass share_class) {
    return share_class == ListedClass::kOn ? "ON" : share_class == ListedClass::kPna ? "PNA" : "UNIT";
}

// One ticker of the company's latest FCA (valor_mobiliario, Mercado Bolsa).
struct ListedSampleSecurity {
    std::string ticker;
    ListedClass share_class = ListedClass::kOn;
    sdk::Date trading_from;               // Data_Inicio_Negociacao
    std::optional<sdk::Date> trading_to;  // Data_Fim_Negociacao; nullopt while it trades
    std::string composition;              // Composicao_BDR_Unit of a unit ("1 ON + 2 PNA")
};

struct ListedSampleCompany {
    std::int64_t cvm_code = 0;
    std::string cnpj;  // 14 digits
    std::string legal_name;
    std::string trade_name;  // may be empty
    std::string sector;      // CVM's SETOR_ATIV
    std::string segment;     // the FCA's Segmento: Novo Mercado, Nível 1, Nível 2, Tradicional
    std::vector<ListedSampleSecurity> securities;  // in the FCA's order
};

// The planted ticker rename (as B3's NATU3 became NTCO3): one company's ON ticker trades until
// this day, and its new ticker, with a new stem, from the next day.
inline constexpr sdk::Date kRenamedTickerLastDay{2026, 6, 18};
inline constexpr sdk::Date kRenamedTickerFirstDay{2026, 6, 19};

// Every company whose FCA of the sample (fca_cia_aberta_2026.zip) lists a security on the
// exchange, with what its latest version says, in the FCA's order.
std::vector<ListedSampleCompany> SampleListing(std::uint64_t seed, sdk::SampleScale scale);

// A company's ticker stem: four letters spelling its CVM code in base 26, so tickers are unique.
std::string SampleTickerStem(std::int64_t cvm_code);

}  // namespace lastro::companies
