// The sample universe: funds, classes, subclasses and the institutions around them, built
// deterministically from a seed. Writers render it into each public file format, so every
// dataset of the sample (registry today; monthly reports, portfolios, documents later) tells
// the same story about the same funds. Text is UTF-8 here; writers convert to the file encoding.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds::sample {

// The day the sample describes: the registry as CVM would publish it on this date.
inline constexpr sdk::Date kReferenceDate{2026, 10, 14};
// RCVM 175 came into force on this day; funds constituted before it had to adapt.
inline constexpr sdk::Date kRcvm175InForce{2023, 10, 2};

enum class PersonType { kLegalEntity, kNaturalPerson };  // PJ / PF
enum class FundType { kFidc, kFidcNp, kFicFidc, kFi, kFii, kFip, kFiagro };
enum class Situation { kNormal, kCancelled, kLiquidation, kPreOperational };
enum class Condominium { kOpen, kClosed };
enum class TargetInvestor { kProfessional, kQualified, kGeneral };
// FIDC subclasses are ranked by seniority; other funds' subclasses differ only in fees etc.
enum class Seniority { kNone, kSenior, kMezzanine, kSubordinated };

// The values exactly as CVM writes them (UTF-8).
std::string_view FundTypeCode(FundType type);  // Tipo_Fundo: "FIDC", "FIDC-NP", ...
std::string_view SituationLabel(Situation situation);
std::string_view CondominiumLabel(Condominium condominium);
std::string_view TargetInvestorLabel(TargetInvestor target);
std::string_view PersonTypeCode(PersonType type);  // "PJ" / "PF"
// FIDC, FIDC-NP and FIC-FIDC: the universe the FIDC endpoints search.
bool IsFidcFamily(FundType type);
// The CPF of nine drawn digits: them and their two check digits, or nullopt when the nine are all
// alike (111.111.111-11 and the like are invalid CPFs).
std::optional<std::string> CpfOf(std::string nine_digits);

// A manager (gestora), administrator, auditor, custodian or controller.
struct Institution {
    std::string document;  // 14-digit CNPJ, or an 11-digit CPF for a natural-person manager
    std::string name;
    PersonType person_type = PersonType::kLegalEntity;
    std::string director;  // administrators only: the director responsible before CVM
};

struct Subclass {
    std::int64_t id = 0;  // ID_Subclasse
    std::int64_t cvm_code = 0;
    Seniority seniority = Seniority::kNone;
    std::string name;
    sdk::Date constituted;
    std::optional<sdk::Date> started;
    Situation situation = Situation::kNormal;
    sdk::Date situation_since;
    Condominium condominium = Condominium::kClosed;
    bool exclusive = false;
    TargetInvestor target_investor = TargetInvestor::kQualified;
    std::optional<bool> pension;                          // Previdenciario
    std::optional<bool> exclusive_non_resident;           // Exclusivo_INR
    std::optional<bool> exclusive_complementary_pension;  // Exclusivo_Previdencia_Complementar
};

struct FundClass {
    std::int64_t id = 0;  // ID_Registro_Classe
    std::string cnpj;     // equals the fund's CNPJ for a fund's only class
    std::int64_t cvm_code = 0;
    sdk::Date registered;
    sdk::Date constituted;
    std::optional<sdk::Date> started;
    std::string class_type;  // Tipo_Classe
    std::string name;
    Situation situation = Situation::kNormal;
    sdk::Date situation_since;
    std::string classification;         // empty when CVM leaves it blank
    std::string performance_index;      // Indicador_Desempenho
    bool fund_of_funds = false;         // Classe_Cotas
    std::string anbima_classification;  // often blank
    std::optional<bool> long_term_taxation;
    std::optional<bool> investment_entity;
    std::optional<bool> foreign_up_to_100_percent;
    std::optional<bool> esg;
    Condominium condominium = Condominium::kClosed;
    bool exclusive = false;
    TargetInvestor target_investor = TargetInvestor::kQualified;
    std::optional<std::int64_t> net_assets_cents;
    std::optional<sdk::Date> net_assets_date;
    std::optional<std::size_t> auditor;     // index into Universe::auditors
    std::optional<std::size_t> custodian;   // index into Universe::custodians
    std::optional<std::size_t> controller;  // index into Universe::controllers
    std::vector<Subclass> subclasses;
};

struct Fund {
    std::int64_t id = 0;  // ID_Registro_Fundo
    std::string cnpj;
    std::int64_t cvm_code = 0;
    sdk::Date registered;
    sdk::Date constituted;
    FundType type = FundType::kFidc;
    std::string name;
    std::string theme;  // what it invests in, e.g. "Crédito Consignado" (for later datasets)
    Situation situation = Situation::kNormal;
    sdk::Date situation_since;
    std::optional<sdk::Date> cancelled;
    std::optional<sdk::Date> adapted_rcvm175;
    std::optional<sdk::Date> fiscal_year_start;
    std::optional<sdk::Date> fiscal_year_end;
    // The sum of its classes' net assets; empty when no class reports any.
    std::optional<std::int64_t> net_assets_cents;
    std::optional<sdk::Date> net_assets_date;
    std::size_t administrator = 0;       // index into Universe::administrators
    std::optional<std::size_t> manager;  // index into Universe::managers
    std::vector<FundClass> classes;      // empty for funds cancelled before RCVM 175
};

struct Universe {
    std::uint64_t seed = 0;
    sdk::Date reference_date = kReferenceDate;
    std::vector<Institution> managers;
    std::vector<Institution> administrators;
    std::vector<Institution> auditors;
    std::vector<Institution> custodians;
    std::vector<Institution> controllers;
    std::vector<Fund> funds;  // ordered by id; ids are unique here
    // Older, cancelled registrations sharing the id of a live fund in `funds` (CVM's registry
    // repeats ID_Registro_Fundo across regimes). Registry rows only; they have no classes.
    std::vector<Fund> superseded_registrations;

    std::size_t ClassCount() const;
    std::size_t SubclassCount() const;
};

// kSample: 300 funds. kFull: every type's count multiplied (about 3,000 FIDC-family classes),
// for files the size of CVM's real ones.
enum class UniverseSize { kSample, kFull };

// The same seed (and size) always yields the same universe, on any platform.
Universe BuildUniverse(std::uint64_t seed, UniverseSize size = UniverseSize::kSample);

}  // namespace lastro::funds::sample
