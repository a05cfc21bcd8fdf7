// The services the companies plugin offers to the plugins that require it (sdk/services.hpp, the
// host's docs/plugins.md, "Services"): CVM's listed companies by CNPJ or CVM code, their
// securities and tickers with dates (from the FCA), and their shares by class and date (from the
// FRE). A dependent includes this header, never the companies model; every method runs inside
// the caller's transaction on the database the caller passes, and reads only. A missing value is
// std::nullopt, never 0.
//
// Any change to this file changes kCompaniesServicesIdentity (generated from it at build time), so
// a dependent built against another version of it is refused at start-up.
#pragma once

#include <lastro/companies/services_identity.hpp>
#include <lastro/sdk/services.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace odb {
class database;
}

namespace lastro::companies {

// A company of CVM's registry (cad_cia_aberta), one per CVM code.
struct BOOST_SYMBOL_VISIBLE ListedCompany {
    std::int64_t cvm_code = 0;
    std::optional<std::string> cnpj;  // 14 digits; null when the registry's cell is not a valid CNPJ
    std::optional<std::string> legal_name;
    std::optional<std::string> trade_name;
    std::optional<std::string> situation;      // ATIVO, CANCELADA... as published
    std::optional<std::string> sector;         // SETOR_ATIV
    std::optional<std::string> market;         // TP_MERC
    std::optional<std::string> category;       // Categoria A / B
    std::optional<std::string> registered_at;  // YYYY-MM-DD
    std::optional<std::string> cancelled_at;   // YYYY-MM-DD
};

// A security of a company, as its latest registration form (FCA valor_mobiliario) lists it.
struct BOOST_SYMBOL_VISIBLE CompanySecurity {
    std::int64_t cvm_code = 0;
    std::optional<std::string> cnpj;
    std::optional<std::string> security;  // Valor_Mobiliario: "Ações Ordinárias", "Units", "Debêntures"...
    std::optional<std::string>
        share_class;                     // "ON", "PN", the preferred class ("PNA"), "UNIT"; null for others
    std::optional<std::string> ticker;   // Codigo_Negociacao
    std::optional<std::string> market;   // Mercado
    std::optional<std::string> segment;  // Segmento: "Novo Mercado", "Nível 1"...
    std::optional<std::string> trading_from;  // YYYY-MM-DD
    std::optional<std::string> trading_to;    // YYYY-MM-DD; null while it trades
    std::optional<std::string> listed_from;
    std::optional<std::string> listed_to;
    // Where it comes from: the FCA document (its id, version and reference date) and the row.
    std::optional<std::string> reference_date;
    std::int64_t version = 0;
    std::int64_t document_id = 0;
    std::int64_t source_row = 0;
};

// One figure of a company's shares at one FRE reference date (the latest version of the form for
// that date), with the cell it comes from.
struct BOOST_SYMBOL_VISIBLE SharesFigure {
    std::int64_t cvm_code = 0;
    std::optional<std::string> cnpj;
    std::string reference_date;  // YYYY-MM-DD
    std::int64_t version = 0;
    std::int64_t document_id = 0;
    std::optional<std::string> delivered_at;
    std::string measure;                            // "issued" (paid-in capital) or "free_float"
    std::string share_class;                        // "ON", "PN", "TOTAL", or a preferred class ("PNA")
    std::optional<std::int64_t> quantity;           // null when the cell is blank or not a whole number
    std::optional<std::string> quantity_published;  // the cell as published
    std::string source_table;                       // "capital_social", "distribuicao_capital"...
    std::int64_t source_row = 0;                    // the row's place among its document's rows
    std::string source_column;                      // "Quantidade_Acoes_Ordinarias"...
};

class BOOST_SYMBOL_VISIBLE ListedCompanies : public sdk::Service {
public:
    static constexpr std::string_view kServiceName = "companies.listed";
    static constexpr std::string_view kServiceIdentity = LASTRO_COMPANIES_SERVICES_IDENTITY;

    // Every company whose CNPJ is `cnpj` (14 digits): one CNPJ may have several CVM codes (a
    // re-registration after a cancellation), newest registration first.
    virtual std::vector<ListedCompany> ByCnpj(odb::database& db, const std::string& cnpj) const = 0;
    virtual std::optional<ListedCompany> ByCvmCode(odb::database& db, std::int64_t cvm_code) const = 0;

    // The company's securities, by ticker (those without one last).
    virtual std::vector<CompanySecurity> Securities(odb::database& db, std::int64_t cvm_code) const = 0;
    // The securities that trade or traded under `ticker` ("ABCD3"), whoever the company.
    virtual std::vector<CompanySecurity> ByTicker(odb::database& db, const std::string& ticker) const = 0;

    // The company's shares at the latest reference date on or before `day` (YYYY-MM-DD; nullopt:
    // the latest of all), every measure and class of that date; empty when none is known.
    virtual std::vector<SharesFigure> SharesOutstanding(odb::database& db, std::int64_t cvm_code,
                                                        const std::optional<std::string>& day) const = 0;
};

}  // namespace lastro::companies
