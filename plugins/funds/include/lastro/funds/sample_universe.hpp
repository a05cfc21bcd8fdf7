// The funds plugin's sample universe (sdk/sample.hpp, the host's docs/sample-data.md, "Sample
// universes"): what its sample writer wrote into the fund registry and the FIDC monthly reports,
// typed, for the sample writers of the plugins that require funds. A dependent reads it with
// `request.Get<lastro::funds::SampleUniverse>()` instead of reading registro_fundo_classe.zip
// back, and includes this header, never the funds plugin's sources.
//
// Any change to this file changes kFundsSampleUniverseIdentity (generated from it at build time),
// so a dependent's writer built against another version of it is refused by Get.
#pragma once

#include <lastro/funds/sample_universe_identity.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

// One fund of the sample's registro_fundo.csv, its rows merged by CNPJ. The current row (not
// cancelled first, then the later Data_Registro, then the later line: the funds plugin's ranking)
// gives the type, adaptation, cancellation, administrator and manager; the oldest registration
// (the earliest Data_Registro, the first line on a tie) gives the name and the registration day,
// as the legacy registry knew them. Text is UTF-8, as written before the file's ISO-8859-1; an
// empty string is an empty field.
struct BOOST_SYMBOL_VISIBLE SampleFund {
    std::string cnpj;                    // CNPJ_Fundo, 14 digits
    std::string fund_type;               // Tipo_Fundo: FIDC, FIDC-NP, FIC-FIDC, FI, FII, ...
    std::string name;                    // Denominacao_Social of the oldest registration
    sdk::Date registered;                // Data_Registro of the oldest registration
    std::optional<sdk::Date> adapted;    // Data_Adaptacao_RCVM175
    std::optional<sdk::Date> cancelled;  // Data_Cancelamento
    std::string administrator_cnpj;      // CNPJ_Administrador, as published (14 digits)
    std::string administrator;           // Administrador
    std::string manager_person_type;     // Tipo_Pessoa_Gestor: PF / PJ; empty without a manager
    std::string manager_document;        // CPF_CNPJ_Gestor, as published (bare digits)
    std::string manager;                 // Gestor
};

class BOOST_SYMBOL_VISIBLE SampleUniverse final : public sdk::SampleUniverseOf<SampleUniverse> {
public:
    static constexpr std::string_view kUniverseName = "funds.sample";
    static constexpr std::string_view kUniverseIdentity = LASTRO_FUNDS_SAMPLE_UNIVERSE_IDENTITY;

    std::vector<SampleFund> funds;  // every fund of registro_fundo.csv, in CNPJ order
    // The day the registry describes: the day of its zip members' stored time.
    sdk::Date reference_day;
    // The months the FIDC monthly reports cover, first and last (2023-09 .. 2026-08 at scale
    // sample by default; SampleRequest::months changes the first).
    sdk::Month first_report_month;
    sdk::Month last_report_month;
};

}  // namespace lastro::funds
