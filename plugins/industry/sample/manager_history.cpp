#include "sample/manager_history.hpp"

#include "ingest/cad_fi_hist/cad_fi_hist_layout.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/sample/csv_table.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/prng.hpp>
#include <lastro/sdk/text.hpp>

#include <cctype>
#include <map>
#include <string_view>

namespace lastro::industry::sample {

namespace {

using sdk::Date;
using sdk::sample::AddDays;
using sdk::sample::CsvTable;
using sdk::sample::DateField;
using sdk::sample::Earlier;
using sdk::sample::Later;
using sdk::sample::Prng;

Manager CurrentManager(const RegistryFund& fund) {
    return {fund.manager_person_type, fund.manager_document, fund.manager};
}

bool SameManager(const Manager& a, const Manager& b) {
    return a.document.empty() && b.document.empty() ? a.name == b.name : a.document == b.document;
}

// The stream index of a fund: its CNPJ's 14 digits as a number, so a fund draws the same
// whatever other funds the registry holds.
std::uint64_t FundIndex(const std::string& cnpj) {
    std::uint64_t index = 0;
    for (const char c : cnpj) {
        index = index * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return index;
}

// The last day of a fund's legacy life, when it has one: the day before it adapted to RCVM 175.
std::optional<Date> LegacyEnd(const RegistryFund& fund) {
    if (fund.adapted) {
        return AddDays(*fund.adapted, -1);
    }
    return std::nullopt;
}

// The name the legacy registry knew: without the " RESPONSABILIDADE LIMITADA" funds gained when
// they adapted to RCVM 175 (in either case the registry writes it).
std::string LegacyName(const std::string& name) {
    for (std::string_view suffix : {" RESPONSABILIDADE LIMITADA", " Responsabilidade Limitada"}) {
        if (name.size() > suffix.size() && name.ends_with(suffix)) {
            return name.substr(0, name.size() - suffix.size());
        }
    }
    return name;
}

// A CNPJ as the legacy registry writes it, masked; other text as it is.
std::string MaskedCnpj(const std::string& text) {
    const std::string digits = sdk::DigitsOnly(text);
    return digits.size() == 14 ? sdk::FormatCnpj(digits) : text;
}

}  // namespace

std::string MaskedDocument(const std::string& document) {
    const std::string digits = sdk::DigitsOnly(document);
    if (digits.size() != document.size()) {
        return document;  // already masked, or not a number
    }
    if (digits.size() == 14) {
        return sdk::FormatCnpj(digits);
    }
    if (digits.size() == 11) {
        return digits.substr(0, 3) + "." + digits.substr(3, 3) + "." + digits.substr(6, 3) + "-" +
               digits.substr(9);
    }
    return document;
}

bool IsFidcFamily(std::string_view fund_type) {
    std::string folded;
    for (const char c : fund_type) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            folded += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
    }
    return folded == "FIDC" || folded == "FIDCNP" || folded == "FICFIDC";
}

ManagerHistory BuildManagerHistory(const funds::SampleUniverse& universe, std::uint64_t seed) {
    ManagerHistory history;
    history.reference_day = universe.reference_day;
    history.first_report_month_end =
        sdk::sample::LastDayOfMonth(universe.first_report_month.year, universe.first_report_month.month);
    const Date last_day = AddDays(universe.reference_day, -1);

    // The managers the registry names (of any fund type), by document: earlier managers are drawn
    // from them, so every manager of the history is one the registry knows.
    std::map<std::string, Manager> pool;
    for (const RegistryFund& fund : universe.funds) {
        if (!fund.manager_document.empty()) {
            pool.emplace(fund.manager_document, CurrentManager(fund));
        }
    }

    const std::uint64_t stream = sdk::sample::StreamOf(kManagerHistoryDataset);
    for (const RegistryFund& fund : universe.funds) {
        if (!IsFidcFamily(fund.fund_type)) {
            continue;
        }
        ++history.fidc_funds;
        // Funds registered under RCVM 175 (on or after the day it came into force, never adapted)
        // never were in the legacy registry.
        if (!fund.adapted && !(fund.registered < kRcvm175InForce)) {
            ++history.rcvm175_natives;
            continue;
        }
        history.funds.push_back(fund);
        const std::size_t index = history.funds.size() - 1;
        const Manager current = CurrentManager(fund);
        if (current.document.empty() && current.name.empty()) {
            ++history.without_manager;
            continue;
        }
        Prng rng = Prng::ForStream(seed, stream, FundIndex(fund.cnpj));
        const std::uint64_t kind = rng.Below(1000);  // < 50: no history; < 200: a manager change
        const std::optional<Date> end = LegacyEnd(fund);
        const Date limit = Earlier(end.value_or(last_day), last_day);
        if (kind < 50 || limit < fund.registered) {
            ++history.without_history;
            continue;
        }
        // From about the registration: most spells begin on DT_REG, some days later.
        Date start = fund.registered;
        if (rng.Chance(200)) {
            start = Earlier(AddDays(start, rng.Between(1, 20)), limit);
        }
        ++history.funds_with_spells;

        if (kind < 200) {
            // The earlier manager leaves inside the window, at least 30 days after the fund began and
            // 30 days before its legacy life ends (or the registry's day), before any cancellation.
            const Date first = Later(kChangeWindowFirst, AddDays(start, 30));
            Date last = Earlier(kChangeWindowLast, AddDays(limit, -30));
            if (fund.cancelled) {
                last = Earlier(last, AddDays(*fund.cancelled, -1));
            }
            std::vector<const Manager*> others;
            for (const auto& [document, manager] : pool) {
                if (!SameManager(manager, current)) {
                    others.push_back(&manager);
                }
            }
            if (!(last < first) && !others.empty()) {
                const Date change = sdk::sample::RecentSkewedDate(rng, first, last);
                const Manager& earlier = *others[rng.Below(others.size())];
                history.spells.push_back({index, earlier, start, change});
                history.spells.push_back({index, current, AddDays(change, 1), end});
                ++history.manager_changes;
                if (!(change < history.first_report_month_end)) {
                    ++history.changes_in_reports;
                }
                history.open_spells += end ? 0 : 1;
                continue;
            }
        }
        history.spells.push_back({index, current, start, end});
        history.open_spells += end ? 0 : 1;
    }
    return history;
}

std::vector<sdk::sample::ArchiveMember> RenderHistory(const ManagerHistory& history) {
    CsvTable administrators(kAdministratorColumns);
    CsvTable names(kNameColumns);
    CsvTable managers(kManagerColumns);
    CsvTable situations(kSituationColumns);
    for (const RegistryFund& fund : history.funds) {
        const std::string cnpj = sdk::FormatCnpj(fund.cnpj);
        const std::string registered = DateField(fund.registered);
        const std::optional<Date> end = LegacyEnd(fund);
        if (!fund.administrator.empty()) {
            administrators.AddRow({cnpj, registered, MaskedCnpj(fund.administrator_cnpj), fund.administrator,
                                   registered, DateField(end)});
        }
        names.AddRow({cnpj, registered, LegacyName(fund.name), registered, DateField(end)});
        if (fund.cancelled && !fund.adapted && fund.registered < *fund.cancelled) {
            situations.AddRow({cnpj, registered, "EM FUNCIONAMENTO NORMAL", registered,
                               DateField(AddDays(*fund.cancelled, -1))});
            situations.AddRow({cnpj, registered, "CANCELADA", DateField(fund.cancelled), ""});
        } else {
            situations.AddRow({cnpj, registered, "EM FUNCIONAMENTO NORMAL", registered, DateField(end)});
        }
    }
    for (const ManagerSpellSample& spell : history.spells) {
        const RegistryFund& fund = history.funds.at(spell.fund);
        managers.AddRow({sdk::FormatCnpj(fund.cnpj), DateField(fund.registered), spell.manager.person_type,
                         MaskedDocument(spell.manager.document), spell.manager.name, DateField(spell.start),
                         DateField(spell.end)});
    }
    return {{std::string(kAdministratorFileName), administrators.ToLatin1()},
            {std::string(kNameFileName), names.ToLatin1()},
            {std::string(kManagerFileName), managers.ToLatin1()},
            {std::string(kSituationFileName), situations.ToLatin1()}};
}

}  // namespace lastro::industry::sample
