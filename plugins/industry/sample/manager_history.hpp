// The manager history of the industry sample (docs/sample.md, "Manager history"): invented
// cad_fi_hist.zip spells for the FIDC-family funds of the fund registry the funds plugin's sample
// writer has just written, as its sample universe hands them over (<lastro/funds/sample_universe.hpp>),
// drawn from this dataset's own random streams.
#pragma once

#include <lastro/funds/sample_universe.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample/sample_directory.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::industry::sample {

// RCVM 175 came into force on this day: funds registered before it (or adapted to it) are legacy
// funds, which the old registry (and its history) knew before they adapted.
inline constexpr sdk::Date kRcvm175InForce{2023, 10, 2};
// An earlier manager's spell ends in this window (a change the current registry cannot show).
inline constexpr sdk::Date kChangeWindowFirst{2023, 6, 1};
inline constexpr sdk::Date kChangeWindowLast{2025, 6, 30};

// A fund of the registry as the funds sample wrote it, its rows merged by CNPJ (the current row's
// type, adaptation, cancellation, administrator and manager; the oldest registration's name and day).
using RegistryFund = funds::SampleFund;

// Tipo_Fundo FIDC, FIDC-NP or FIC-FIDC, ignoring case and punctuation.
bool IsFidcFamily(std::string_view fund_type);

struct Manager {
    std::string person_type;  // PF / PJ
    std::string document;     // as the registry publishes it
    std::string name;
};

struct ManagerSpellSample {
    std::size_t fund = 0;  // index into ManagerHistory::funds
    Manager manager;
    sdk::Date start;
    std::optional<sdk::Date> end;  // empty: still the manager
};

struct ManagerHistory {
    // The legacy FIDC-family funds (registered before RCVM 175 or adapted to it), in CNPJ order:
    // every one of them is in the other members; those with spells in cad_fi_hist_gestor.csv.
    std::vector<RegistryFund> funds;
    std::vector<ManagerSpellSample> spells;  // by fund, then start: the file's order
    sdk::Date reference_day;
    // The end of the first month of the funds sample's FIDC reports: a change whose earlier spell
    // lasts to a month's end from then on moves net worth between managers in the ranking
    // attributed as of each month.
    sdk::Date first_report_month_end;

    std::size_t fidc_funds = 0;          // FIDC-family funds of the registry
    std::size_t rcvm175_natives = 0;     // of them, registered under RCVM 175: no legacy history
    std::size_t funds_with_spells = 0;   // legacy funds with at least one spell
    std::size_t manager_changes = 0;     // of them, with an earlier manager before the current one
    std::size_t changes_in_reports = 0;  // changes whose earlier spell lasts to first_report_month_end
    std::size_t without_history = 0;     // legacy funds drawn to have no spell (attribution unknown)
    std::size_t without_manager = 0;     // legacy funds whose registry names no manager: no spell
    std::size_t open_spells = 0;         // spells with no end (funds that never adapted)
};

// The spells of every legacy FIDC-family fund of the funds sample's `universe` (its registry's
// funds, day and report months), from the stream of cvm.cad_fi_hist
// (one generator per fund, keyed by its CNPJ). Per fund: about 5 % have no spell; about 15 % of
// those that can (a change ending in the window, with time left for the current manager) have
// an earlier manager of the registry, then the current one; the rest have one spell of the
// current manager, from about their registration to the day before they adapted (open when they
// never did).
ManagerHistory BuildManagerHistory(const funds::SampleUniverse& universe, std::uint64_t seed);

// The members of cad_fi_hist.zip, in the archive's (alphabetical) order: cad_fi_hist_admin.csv,
// cad_fi_hist_denom_social.csv, cad_fi_hist_gestor.csv, cad_fi_hist_sit.csv; ISO-8859-1, ';', LF,
// CNPJs and CPFs masked, as CVM publishes the legacy registry.
std::vector<sdk::sample::ArchiveMember> RenderHistory(const ManagerHistory& history);

// "12.345.678/0001-95" for 14 digits, "123.456.789-09" for 11, anything else unchanged.
std::string MaskedDocument(const std::string& document);

}  // namespace lastro::industry::sample
