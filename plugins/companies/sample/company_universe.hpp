// The invented listed companies every dataset of the companies sample describes (docs/sample.md):
// one list, drawn once from the seed, so the registry, and later the documents, FRE, FCA and
// certificate reports, all speak of the same companies and codes.
#pragma once

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lastro::companies {

// The day the current registry snapshot is taken: the other plugins' reference date (funds and
// series, seed 20261014), so every sample describes the same day.
inline constexpr sdk::Date kCompaniesReferenceDate{2026, 10, 14};
// The earlier snapshot (cad_cia_aberta_2026-07-31.csv), before the planted changes.
inline constexpr sdk::Date kEarlierSnapshotDate{2026, 7, 31};
// Companies at each scale: a handful of hundreds, and the real registry's size (2,677 rows in
// 2025-26).
inline constexpr std::size_t kSampleCompanies = 160;
inline constexpr std::size_t kFullCompanies = 2'677;

struct SampleCompany {
    std::int64_t cvm_code = 0;
    std::string cnpj;  // masked, as the registry writes it
    std::string legal_name;
    std::string trade_name;  // may be empty
    sdk::Date registered;
    sdk::Date constituted;
    std::string situation;  // ATIVO, CANCELADA, SUSPENSO(A) - DECISÃO ADM
    sdk::Date situation_since;
    std::optional<sdk::Date> cancelled;
    std::string cancel_reason;
    std::string sector;
    std::string market;    // BOLSA, BALCÃO ORGANIZADO, ... or empty
    std::string category;  // Categoria A / Categoria B
    std::string issuer_phase;
    std::string control;
    std::string city;
    std::string state;
    std::string postal_code;  // eight digits, as it should be
    bool securitizer = false;
};

// The cases planted at scale sample, for the tests (docs/sample.md).
struct CompanyCases {
    std::int64_t duplicated_code = 0;  // listed twice, identical rows (as Petrobras is)
    std::string reregistered_cnpj;     // masked; two codes: one cancelled, one active
    std::int64_t reregistered_old_code = 0;
    std::int64_t reregistered_new_code = 0;
    std::int64_t cancelled_code = 0;         // ATIVO in the earlier snapshot, CANCELADA in the current
    std::string cancelled_on;                // YYYY-MM-DD, DT_CANCEL and DT_INI_SIT of the current
    std::int64_t renamed_code = 0;           // DENOM_COMERC changed between the snapshots
    std::int64_t new_code = 0;               // only in the current snapshot
    std::int64_t short_postal_code = 0;      // CEP 01310100 published as 1310100
    std::string accented_name;               // a legal name with accents, for accent-free `q`
    std::vector<std::int64_t> securitizers;  // SETOR_ATIV Securitização de Recebíveis, Categoria B
};

struct CompanyUniverse {
    std::vector<SampleCompany> current;  // in the current snapshot's order (by legal name)
    std::vector<SampleCompany> earlier;  // the earlier snapshot's companies
    CompanyCases cases;
};

CompanyUniverse DrawCompanyUniverse(std::uint64_t seed, sdk::SampleScale scale);

}  // namespace lastro::companies
