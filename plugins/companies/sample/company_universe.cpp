#include "sample/company_universe.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

namespace lastro::companies {
namespace {

using sdk::sample::Prng;
using sdk::sample::StreamOf;

constexpr std::array<std::string_view, 24> kStems{
    "Aurora", "Horizonte", "Atlântica",  "Cerrado",  "Paraná",    "Ipê",       "Jatobá",    "Guará",
    "Itaúna", "Piracema",  "Serra Azul", "Vale Sul", "Tocantins", "Araucária", "Pampa",     "Maré",
    "Sertão", "Caiçara",   "Capixaba",   "Potiguar", "Baía",      "Planalto",  "Andorinha", "Juriti"};
constexpr std::array<std::string_view, 12> kActivities{
    "Energia",   "Saneamento",    "Siderúrgica", "Alimentos", "Participações",    "Transmissão",
    "Logística", "Incorporações", "Têxtil",      "Mineração", "Telecomunicações", "Papel e Celulose"};
constexpr std::array<std::string_view, 12> kSectors{"Energia Elétrica",
                                                    "Saneamento, Serv. Água e Gás",
                                                    "Metalurgia e Siderurgia",
                                                    "Alimentos",
                                                    "Emp. Adm. Part. - Sem Setor Principal",
                                                    "Energia Elétrica",
                                                    "Serviços Transporte e Logística",
                                                    "Construção Civil, Mat. Constr. e Decoração",
                                                    "Têxtil e Vestuário",
                                                    "Extração Mineral",
                                                    "Telecomunicações",
                                                    "Papel e Celulose"};
constexpr std::array<std::string_view, 4> kMarkets{"BOLSA", "BALCÃO ORGANIZADO", "BALCÃO NÃO ORGANIZADO", ""};
constexpr std::array<std::string_view, 6> kControls{"PRIVADO", "PRIVADO HOLDING",     "ESTRANGEIRO",
                                                    "ESTATAL", "ESTRANGEIRO HOLDING", "ESTATAL HOLDING"};
constexpr std::array<std::string_view, 6> kPhases{"FASE OPERACIONAL",
                                                  "FASE OPERACIONAL",
                                                  "FASE OPERACIONAL",
                                                  "FASE PRÉ-OPERACIONAL",
                                                  "EM RECUPERAÇÃO JUDICIAL OU EQUIVALENTE",
                                                  "PARALISADA"};
struct Place {
    std::string_view city;
    std::string_view state;
    std::string_view postal_code;
};
constexpr std::array<Place, 6> kPlaces{{{"SÃO PAULO", "SP", "01310100"},
                                        {"RIO DE JANEIRO", "RJ", "20011901"},
                                        {"BELO HORIZONTE", "MG", "30130010"},
                                        {"CURITIBA", "PR", "80010000"},
                                        {"PORTO ALEGRE", "RS", "90010000"},
                                        {"SALVADOR", "BA", "40020000"}}};

sdk::Date DayBefore(const sdk::Date& limit, Prng& prng, int min_days, int max_days) {
    return sdk::sample::AddDays(limit, -static_cast<int>(prng.Between(min_days, max_days)));
}

std::string MaskedCnpj(Prng& prng, std::set<std::string>& used) {
    for (;;) {
        std::string twelve = std::to_string(prng.Between(10'000'000, 99'999'999)) + "0001";
        const std::string digits = sdk::CnpjWithCheckDigits(twelve);
        if (used.insert(digits).second) {
            return sdk::FormatCnpj(digits);
        }
    }
}

}  // namespace

CompanyUniverse DrawCompanyUniverse(std::uint64_t seed, sdk::SampleScale scale) {
    const bool full = scale == sdk::SampleScale::kFull;
    const std::size_t count = full ? kFullCompanies : kSampleCompanies;
    Prng prng = Prng::ForStream(seed, StreamOf("cvm.cad_cia_aberta"));
    std::set<std::string> cnpjs;
    std::set<std::string> names;
    std::vector<SampleCompany> companies;
    std::int64_t code = 1'000;
    for (std::size_t i = 0; i < count; ++i) {
        SampleCompany c;
        code += prng.Between(7, 60);
        c.cvm_code = code;
        c.cnpj = MaskedCnpj(prng, cnpjs);
        const std::size_t activity = prng.Below(kActivities.size());
        // A stem and an activity, numbered when the pair is taken (names are unique).
        std::string name = std::string(prng.Pick(kStems)) + " " + std::string(kActivities[activity]);
        if (!names.insert(name).second) {
            name += " " + std::to_string(i);
            names.insert(name);
        }
        name += " S.A.";
        c.legal_name = name;
        c.trade_name = prng.Chance(600) ? name.substr(0, name.find(" S.A.")) : "";
        c.sector = std::string(kSectors[activity]);
        c.constituted = DayBefore(kEarlierSnapshotDate, prng, 3'000, 25'000);
        c.registered = sdk::sample::AddDays(c.constituted, static_cast<int>(prng.Between(30, 2'000)));
        if (c.registered > kEarlierSnapshotDate) {
            c.registered = DayBefore(kEarlierSnapshotDate, prng, 40, 400);
        }
        const std::size_t situation = prng.Weighted({70, 27, 3});
        c.situation = situation == 0 ? "ATIVO" : situation == 1 ? "CANCELADA" : "SUSPENSO(A) - DECISÃO ADM";
        c.situation_since = situation == 0 ? c.registered : DayBefore(kEarlierSnapshotDate, prng, 30, 3'000);
        if (c.situation_since < c.registered) {
            c.situation_since = c.registered;
        }
        if (situation == 1) {
            c.cancelled = c.situation_since;
            c.cancel_reason = prng.Chance(500) ? "Cancelamento Voluntário - IN CVM 480/09" : "Incorporação";
        }
        c.market = std::string(situation == 1 ? "" : prng.Pick(kMarkets));
        c.category = prng.Chance(650) ? "Categoria A" : "Categoria B";
        c.issuer_phase = std::string(prng.Pick(kPhases));
        c.control = std::string(prng.Pick(kControls));
        const Place& place = prng.Pick(kPlaces);
        c.city = std::string(place.city);
        c.state = std::string(place.state);
        c.postal_code = std::string(place.postal_code.substr(0, 5)) + std::to_string(prng.Between(100, 999));
        companies.push_back(std::move(c));
    }

    CompanyUniverse universe;
    CompanyCases& cases = universe.cases;
    // The planted cases, on fixed positions of the list (scale sample and full alike).
    SampleCompany& duplicated = companies[3];
    duplicated.situation = "ATIVO";
    duplicated.cancelled.reset();
    duplicated.cancel_reason.clear();
    duplicated.market = "BOLSA";
    cases.duplicated_code = duplicated.cvm_code;

    SampleCompany& old_registration = companies[10];
    old_registration.situation = "CANCELADA";
    old_registration.situation_since = sdk::Date{1994, 3, 2};
    old_registration.registered = sdk::Date{1989, 5, 10};
    old_registration.constituted = sdk::Date{1981, 1, 20};
    old_registration.cancelled = old_registration.situation_since;
    old_registration.cancel_reason = "Cancelamento Voluntário - IN CVM 480/09";
    old_registration.market.clear();
    SampleCompany again = old_registration;
    again.cvm_code = companies.back().cvm_code + 40;
    again.situation = "ATIVO";
    again.registered = sdk::Date{2018, 6, 28};
    again.situation_since = again.registered;
    again.cancelled.reset();
    again.cancel_reason.clear();
    again.market = "BOLSA";
    cases.reregistered_cnpj = old_registration.cnpj;
    cases.reregistered_old_code = old_registration.cvm_code;
    cases.reregistered_new_code = again.cvm_code;
    companies.push_back(again);

    SampleCompany& short_cep = companies[5];
    short_cep.city = "SÃO PAULO";
    short_cep.state = "SP";
    short_cep.postal_code = "01310100";
    cases.short_postal_code = short_cep.cvm_code;

    SampleCompany& accented = companies[7];
    accented.legal_name = "Companhia Siderúrgica Ação Paulista S.A.";
    accented.trade_name = "Siderúrgica Ação";
    accented.sector = "Metalurgia e Siderurgia";
    cases.accented_name = accented.legal_name;

    for (std::size_t i : {12u, 13u, 14u}) {
        SampleCompany& securitizer = companies[i];
        securitizer.legal_name = std::string(kStems[i]) + " Companhia Securitizadora de Créditos S.A.";
        securitizer.trade_name.clear();
        securitizer.sector = "Securitização de Recebíveis";
        securitizer.category = "Categoria B";
        securitizer.situation = "ATIVO";
        securitizer.situation_since = securitizer.registered;
        securitizer.cancelled.reset();
        securitizer.cancel_reason.clear();
        securitizer.market = "BALCÃO ORGANIZADO";
        securitizer.securitizer = true;
        cases.securitizers.push_back(securitizer.cvm_code);
    }

    SampleCompany& to_cancel = companies[20];
    to_cancel.situation = "ATIVO";
    to_cancel.situation_since = to_cancel.registered;
    to_cancel.cancelled.reset();
    to_cancel.cancel_reason.clear();
    to_cancel.market = "BOLSA";
    cases.cancelled_code = to_cancel.cvm_code;
    SampleCompany& to_rename = companies[21];
    to_rename.trade_name = "Marca Antiga";
    cases.renamed_code = to_rename.cvm_code;

    // The earlier snapshot: everyone but the newcomer, before the changes.
    SampleCompany newcomer = companies[30];
    newcomer.cvm_code = again.cvm_code + 25;
    newcomer.cnpj = MaskedCnpj(prng, cnpjs);
    newcomer.legal_name = "Nova Horizonte Energia Renovável S.A.";
    newcomer.trade_name = "Nova Horizonte";
    newcomer.registered = sdk::Date{2026, 9, 2};
    newcomer.constituted = sdk::Date{2025, 11, 3};
    newcomer.situation = "ATIVO";
    newcomer.situation_since = newcomer.registered;
    newcomer.cancelled.reset();
    newcomer.cancel_reason.clear();
    cases.new_code = newcomer.cvm_code;

    auto by_name = [](const SampleCompany& a, const SampleCompany& b) {
        return a.legal_name != b.legal_name ? a.legal_name < b.legal_name : a.cvm_code < b.cvm_code;
    };
    universe.earlier = companies;
    std::sort(universe.earlier.begin(), universe.earlier.end(), by_name);

    // The current snapshot: the cancellation, the new trade name and the newcomer.
    for (SampleCompany& c : companies) {
        if (c.cvm_code == cases.cancelled_code) {
            c.situation = "CANCELADA";
            c.situation_since = sdk::Date{2026, 9, 15};
            c.cancelled = c.situation_since;
            c.cancel_reason = "Cancelamento Voluntário - IN CVM 480/09";
            c.market.clear();
            cases.cancelled_on = c.situation_since.ToString();
        } else if (c.cvm_code == cases.renamed_code) {
            c.trade_name = "Marca Nova";
        }
    }
    companies.push_back(newcomer);
    universe.current = std::move(companies);
    std::sort(universe.current.begin(), universe.current.end(), by_name);
    return universe;
}

}  // namespace lastro::companies
