// The industry plugin end to end (docs/testing.md): a real lastrod loading funds and industry on
// SQLite and PostgreSQL with the sample ingested by `lastro ingest --sample`. Every figure is
// recomputed from the sample's own files (the readers funds exports, lastro-funds-testing's
// cvm_files.hpp), never through the plugin's code.
#include <lastro/funds/testing/cvm_files.hpp>
#include <lastro/funds/testing/funds_checks.hpp>
#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lastro::industry::e2e {
namespace {

using namespace ::lastro::sdk::testing;
using funds::e2e::CnpjDigits;
using funds::e2e::CsvRow;
using funds::e2e::Number;
using funds::e2e::SampleFidcReports;

class IndustryTest : public BackendTest<IndustryTest> {
public:
    static constexpr const char* kLabel = "industry";
    static DeploymentOptions Options() { return {.plugin_dirs = {LASTRO_PLUGIN_DIR}}; }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, IndustryTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, IndustryTest, ::testing::Values(Backend::kPostgres), BackendParamName);

using Maybe = std::optional<double>;

std::string Get(const CsvRow& row, const std::string& column) {
    const auto it = row.find(column);
    return it == row.end() ? "" : it->second;
}

// The registry's FIDC family, as registro_fundo.csv and registro_classe.csv publish it.
struct Registered {
    std::string kind;  // "fund" or "class"
    std::string fund_cnpj;
    std::string fund_type;
    std::string name;
};

struct FundRow {
    CsvRow row;
    std::string cnpj;
};

bool IsFidcFamily(const std::string& type) {
    return type == "FIDC" || type == "FIDC-NP" || type == "FIC-FIDC";
}

// Words of the folded name: "fic", "em cotas de", "investimento em cotas" (universe.md).
bool NameSaysFic(const std::string& name) {
    std::string spaced = " ";
    for (const char c : funds::e2e::Fold(name)) {
        spaced += std::isalnum(static_cast<unsigned char>(c)) ? c : ' ';
    }
    spaced += ' ';
    for (const char* phrase : {" fic ", " em cotas de ", " investimento em cotas "}) {
        if (spaced.find(phrase) != std::string::npos) {
            return true;
        }
    }
    return false;
}

struct Manager {
    std::string key;  // "" unknown
};

// The sample read independently: reports, registry and manager history.
class Sample {
public:
    explicit Sample(const std::filesystem::path& dir)
        : reports(dir), months(reports.Months()), cnpjs(reports.Cnpjs()) {
        std::map<std::string, std::vector<CsvRow>> members;
        for (auto& m : funds::e2e::ReadCvmZip(dir / "registro_fundo_classe.zip")) {
            members[m.name] = std::move(m.rows);
        }
        // The current row of a CNPJ: not cancelled, then the later registration.
        std::map<std::string, CsvRow> current;
        std::map<std::string, std::string> cnpj_of_id;
        for (const CsvRow& row : members.at("registro_fundo.csv")) {
            const std::string cnpj = CnpjDigits(Get(row, "CNPJ_Fundo"));
            cnpj_of_id[Get(row, "ID_Registro_Fundo")] = cnpj;
            if (!IsFidcFamily(Get(row, "Tipo_Fundo"))) {
                continue;
            }
            auto [it, fresh] = current.try_emplace(cnpj, row);
            if (!fresh) {
                const bool old_live = Get(it->second, "Data_Cancelamento").empty();
                const bool new_live = Get(row, "Data_Cancelamento").empty();
                if ((new_live && !old_live) ||
                    (new_live == old_live && Get(row, "Data_Registro") >= Get(it->second, "Data_Registro"))) {
                    it->second = row;
                }
            }
        }
        for (const auto& [cnpj, row] : current) {
            funds_[cnpj] = {"fund", cnpj, Get(row, "Tipo_Fundo"), Get(row, "Denominacao_Social")};
            fund_rows_[cnpj] = row;
        }
        for (const CsvRow& row : members.at("registro_classe.csv")) {
            const std::string cnpj = CnpjDigits(Get(row, "CNPJ_Classe"));
            const auto fund = cnpj_of_id.find(Get(row, "ID_Registro_Fundo"));
            if (cnpj.empty() || fund == cnpj_of_id.end() || !funds_.count(fund->second)) {
                continue;
            }
            classes_[cnpj] = {"class", fund->second, funds_.at(fund->second).fund_type,
                              Get(row, "Denominacao_Social")};
            class_cnpjs_of_fund_[fund->second].insert(cnpj);
        }
        for (auto& m : funds::e2e::ReadCvmZip(dir / "cad_fi_hist.zip")) {
            if (m.name == "cad_fi_hist_gestor.csv") {
                for (const CsvRow& row : m.rows) {
                    spells_[CnpjDigits(Get(row, "CNPJ_FUNDO"))].push_back(row);
                }
            }
        }
    }

    const Registered* Find(const std::string& cnpj) const {
        if (auto c = classes_.find(cnpj); c != classes_.end()) {
            return &c->second;
        }
        if (auto f = funds_.find(cnpj); f != funds_.end()) {
            return &f->second;
        }
        return nullptr;
    }

    // The vehicles of `month`: table IV CNPJs, less a fund's report when its classes report.
    std::vector<std::string> Vehicles(const std::string& month, int* dropped = nullptr) const {
        if (auto cached = vehicles_.find(month); cached != vehicles_.end()) {
            if (dropped) {
                *dropped += dropped_.at(month);
            }
            return cached->second;
        }
        int dropped_here = 0;
        std::set<std::string> reporters;
        for (const std::string& cnpj : cnpjs) {
            if (!reports.Rows("IV", cnpj, month).empty()) {
                reporters.insert(cnpj);
            }
        }
        std::vector<std::string> out;
        for (const std::string& cnpj : reporters) {
            const Registered* r = Find(cnpj);
            if (r && r->kind == "fund") {
                const auto cls = class_cnpjs_of_fund_.find(cnpj);
                if (cls != class_cnpjs_of_fund_.end() &&
                    std::any_of(cls->second.begin(), cls->second.end(),
                                [&](const std::string& c) { return c != cnpj && reporters.count(c); })) {
                    ++dropped_here;
                    continue;
                }
            }
            out.push_back(cnpj);
        }
        vehicles_[month] = out;
        dropped_[month] = dropped_here;
        if (dropped) {
            *dropped += dropped_here;
        }
        return out;
    }

    Maybe Nav(const std::string& cnpj, const std::string& month) const {
        if (auto cached = navs_.find({cnpj, month}); cached != navs_.end()) {
            return cached->second;
        }
        auto row = reports.Row("IV", cnpj, month);
        return navs_[{cnpj, month}] = row ? Number(*row, "TAB_IV_A_VL_PL") : std::nullopt;
    }

    bool Fic(const std::string& cnpj, const std::string& month) const {
        const Registered* r = Find(cnpj);
        if (r && r->fund_type == "FIC-FIDC") {
            return true;
        }
        const auto iv = reports.Row("IV", cnpj, month);
        if ((r && NameSaysFic(r->name)) || (iv && NameSaysFic(Get(*iv, "DENOM_SOCIAL")))) {
            return true;
        }
        const auto i = reports.Row("I", cnpj, month);
        if (!i) {
            return false;
        }
        const Maybe assets = Number(*i, "TAB_I_VL_ATIVO");
        const Maybe h = Number(*i, "TAB_I2H_VL_COTA_FIDC");
        const Maybe np = Number(*i, "TAB_I2I_VL_COTA_FIDC_NP");
        return assets && *assets > 0 && (h || np) && h.value_or(0) + np.value_or(0) >= 0.67 * *assets;
    }

    // The quality rule that sets the whole report aside, "" when none (quality.md).
    std::string SetAsideRule(const std::string& cnpj, const std::string& month) const {
        const Maybe nav = Nav(cnpj, month);
        if (!nav) {
            return "";
        }
        if (std::fabs(*nav) >= 1e13) {
            return "amount_out_of_range";
        }
        if (*nav < 0) {
            return "negative_nav";
        }
        if (*nav > 1e9) {
            const Maybe before = NeighbourNav(cnpj, month, -1);
            const Maybe after = NeighbourNav(cnpj, month, +1);
            if (before && after && *nav > 20 * std::fabs(*before) && *nav > 20 * std::fabs(*after)) {
                return "nav_spike";
            }
        }
        return "";
    }

    Maybe NeighbourNav(const std::string& cnpj, const std::string& month, int step) const {
        auto it = months.find(month);
        if (step < 0) {
            if (it == months.begin()) {
                return std::nullopt;
            }
            --it;
        } else {
            ++it;
            if (it == months.end()) {
                return std::nullopt;
            }
        }
        const auto v = Vehicles(*it);
        return std::binary_search(v.begin(), v.end(), cnpj) ? Nav(cnpj, *it) : std::nullopt;
    }

    // The manager key of `cnpj`'s fund at the end of `month` (universe.md), "" when unknown.
    std::string ManagerOf(const std::string& cnpj, const std::string& month,
                          const std::string& month_end) const {
        const Registered* r = Find(cnpj);
        const std::string fund = r ? r->fund_cnpj : cnpj;
        const CsvRow* best = nullptr;
        if (auto s = spells_.find(fund); s != spells_.end()) {
            for (const CsvRow& spell : s->second) {
                const std::string start = Get(spell, "DT_INI_GESTOR");
                const std::string end = Get(spell, "DT_FIM_GESTOR");
                if (Get(spell, "GESTOR").empty() || start.empty() || start > month_end ||
                    (!end.empty() && end < month_end)) {
                    continue;
                }
                if (!best || start > Get(*best, "DT_INI_GESTOR")) {
                    best = &spell;
                }
            }
        }
        if (best) {
            return Key(Get(*best, "CPF_CNPJ_GESTOR"), Get(*best, "GESTOR"));
        }
        (void)month;
        const auto f = fund_rows_.find(fund);
        if (f == fund_rows_.end() || Get(f->second, "Gestor").empty()) {
            return "";
        }
        std::string since = Get(f->second, "Data_Adaptacao_RCVM175");
        if (since.empty() && Get(f->second, "Data_Registro") >= "2023-10-02") {
            since = Get(f->second, "Data_Registro");
        }
        if (since.empty() || since > month_end) {
            return "";
        }
        return Key(Get(f->second, "CPF_CNPJ_Gestor"), Get(f->second, "Gestor"));
    }

    // Today's registry projected backwards (what the ranking must not do).
    std::string RegistryManagerOf(const std::string& cnpj) const {
        const Registered* r = Find(cnpj);
        const auto f = fund_rows_.find(r ? r->fund_cnpj : cnpj);
        return f == fund_rows_.end() || Get(f->second, "Gestor").empty()
                   ? ""
                   : Key(Get(f->second, "CPF_CNPJ_Gestor"), Get(f->second, "Gestor"));
    }

    static std::string Key(const std::string& document, const std::string& name) {
        const std::string digits = CnpjDigits(document);
        if (digits.size() == 11 || digits.size() == 14) {
            return digits;
        }
        return "name:" + funds::e2e::Fold(name);
    }

    SampleFidcReports reports;
    std::set<std::string> months;
    std::set<std::string> cnpjs;

private:
    std::map<std::string, Registered> funds_, classes_;
    std::map<std::string, CsvRow> fund_rows_;
    std::map<std::string, std::set<std::string>> class_cnpjs_of_fund_;
    std::map<std::string, std::vector<CsvRow>> spells_;
    mutable std::map<std::string, std::vector<std::string>> vehicles_;
    mutable std::map<std::string, int> dropped_;
    mutable std::map<std::pair<std::string, std::string>, Maybe> navs_;
};

const Sample& TheSample(Deployment& d) {
    static const Sample sample(d.SampleDir());
    return sample;
}

double Cents(double x) {
    return std::round(x * 100) / 100;
}

// A figure of the answer, as money to the cent (null -> nullopt).
Maybe Field(const boost::json::object& item, const char* name) {
    const boost::json::value& v = At(item, name);
    return v.is_null() ? Maybe() : Maybe(v.to_number<double>());
}

// The month's recomputed figures.
struct Figures {
    std::int64_t vehicles = 0, set_aside = 0, dropped = 0;
    Maybe nav, nav_ex_fic, quotas_held, subscriptions, redemptions, median;
    std::vector<std::pair<std::string, std::string>> warnings;  // (cnpj, rule)
};

void AddTo(Maybe& sum, const Maybe& x) {
    if (x) {
        sum = sum.value_or(0) + *x;
    }
}

Figures Recompute(const Sample& s, const std::string& month, bool include_fic) {
    Figures f;
    int dropped = 0;
    std::vector<double> navs;
    for (const std::string& cnpj : s.Vehicles(month, &dropped)) {
        const bool fic = s.Fic(cnpj, month);
        const std::string rule = s.SetAsideRule(cnpj, month);
        const Maybe nav = s.Nav(cnpj, month);
        if (!rule.empty()) {
            if (include_fic || !fic) {
                ++f.set_aside;
                f.warnings.emplace_back(cnpj, rule);
            }
            continue;
        }
        AddTo(f.nav_ex_fic, fic ? Maybe() : nav);
        if (const auto i = s.reports.Row("I", cnpj, month)) {
            const Maybe h = Number(*i, "TAB_I2H_VL_COTA_FIDC");
            const Maybe np = Number(*i, "TAB_I2I_VL_COTA_FIDC_NP");
            if (h || np) {
                AddTo(f.quotas_held, h.value_or(0) + np.value_or(0));
            }
        }
        if (!include_fic && fic) {
            continue;
        }
        ++f.vehicles;
        AddTo(f.nav, nav);
        if (nav) {
            navs.push_back(*nav);
        }
        const double scale =
            std::max(std::fabs(nav.value_or(0)), std::fabs(s.NeighbourNav(cnpj, month, -1).value_or(0)));
        const double limit = std::min(3 * scale + 1e8, 1e13);
        for (const CsvRow& op : s.reports.Rows("X_4", cnpj, month)) {
            const std::string kind = Get(op, "TAB_X_TP_OPER");
            const Maybe value = Number(op, "TAB_X_VL_TOTAL");
            if (kind != "Captações no Mês" && kind != "Resgates no Mês") {
                continue;
            }
            if (value && std::fabs(*value) > limit) {
                continue;  // operation_outlier
            }
            AddTo(kind == "Captações no Mês" ? f.subscriptions : f.redemptions, value);
        }
    }
    f.dropped = dropped;
    std::sort(navs.begin(), navs.end());
    if (!navs.empty()) {
        const std::size_t n = navs.size();
        f.median = n % 2 ? navs[n / 2] : (navs[n / 2 - 1] + navs[n / 2]) / 2;
    }
    return f;
}

void ExpectMoney(const Maybe& expected, const Maybe& served, const std::string& what) {
    ASSERT_EQ(expected.has_value(), served.has_value()) << what;
    if (expected) {
        EXPECT_NEAR(Cents(*expected), *served, 0.0051) << what;
    }
}

boost::json::object Data(const HttpResponse& r) {
    return At(AsObject(r.Json()), "data").as_object();
}

const boost::json::object& OnlyItem(const boost::json::object& data) {
    const auto& items = At(data, "items").as_array();
    EXPECT_EQ(items.size(), 1u);
    return items.at(0).as_object();
}

}  // namespace

TEST_P(IndustryTest, FiguresAreRecomputedFromTheSampleFiles) {
    const Sample& s = TheSample(D());
    const std::string key = D().RoomyKey();
    const std::vector<std::string> months(s.months.begin(), s.months.end());
    ASSERT_GE(months.size(), 3u);
    std::set<std::string> chosen = {months.front(), months[months.size() / 2], months.back()};
    // Months with the sample's irregularities (a Fundo copy, conflicting rows) are recomputed too,
    // and those where a sanity filter sets something aside (docs/sample.md: an absurd
    // subscription in 2025-02, a spike in 2025-07, a negative net worth in 2025-12).
    for (const auto& [cnpj, month] : s.reports.FiledAsFundoAndClasse()) {
        chosen.insert(month);
    }
    for (const std::string& month : {std::string("2025-02"), std::string("2025-06"), std::string("2025-07"),
                                     std::string("2025-10"), std::string("2025-12")}) {
        if (s.months.count(month)) {
            chosen.insert(month);
        }
    }
    for (const std::string& month : chosen) {
        for (const bool include_fic : {true, false}) {
            SCOPED_TRACE(month + (include_fic ? "" : " ex FIC-FIDC"));
            const Figures f = Recompute(s, month, include_fic);
            const std::string q = "month=" + month + (include_fic ? "" : "&include_fic_fidc=false");
            const HttpResponse resumo = D().Get("/v1/industria?indicador=resumo&" + q, key);
            ASSERT_EQ(resumo.status, 200) << resumo.body;
            const boost::json::object data = Data(resumo);
            const boost::json::object& item = OnlyItem(data);
            EXPECT_EQ(At(item, "vehicles").as_int64(), f.vehicles);
            EXPECT_EQ(At(item, "vehicles_set_aside").as_int64(), f.set_aside);
            ExpectMoney(f.nav, Field(item, "nav_brl"), "nav_brl");
            ExpectMoney(f.nav_ex_fic, Field(item, "nav_ex_fic_fidc_brl"), "nav_ex_fic_fidc_brl");
            ExpectMoney(f.quotas_held, Field(item, "fidc_quotas_held_brl"), "fidc_quotas_held_brl");
            const auto& by_month = At(At(data, "coverage").as_object(), "by_month").as_array();
            ASSERT_EQ(by_month.size(), 1u);
            EXPECT_EQ(At(by_month[0].as_object(), "fund_rows_dropped").to_number<std::int64_t>(), f.dropped);
            // Every report set aside is a warning with its CNPJ, month, rule and value.
            std::vector<std::pair<std::string, std::string>> warned;
            for (const auto& w : At(data, "quality_warnings").as_array()) {
                const auto& o = w.as_object();
                EXPECT_EQ(Str(o, "month"), month);
                if (Str(o, "set_aside") == "report") {
                    warned.emplace_back(Str(o, "cnpj"), Str(o, "rule"));
                    EXPECT_NEAR(At(o, "value").to_number<double>(), *s.Nav(Str(o, "cnpj"), month), 0.005);
                }
            }
            std::sort(warned.begin(), warned.end());
            auto expected_warned = f.warnings;
            std::sort(expected_warned.begin(), expected_warned.end());
            EXPECT_EQ(warned, expected_warned);

            const HttpResponse fluxos = D().Get("/v1/industria?indicador=fluxos&" + q, key);
            ASSERT_EQ(fluxos.status, 200) << fluxos.body;
            const boost::json::object flows = OnlyItem(Data(fluxos));
            ExpectMoney(f.subscriptions, Field(flows, "subscriptions_brl"), "subscriptions_brl");
            ExpectMoney(f.redemptions, Field(flows, "redemptions_brl"), "redemptions_brl");

            const HttpResponse dist = D().Get("/v1/industria?indicador=distribuicao-pl&" + q, key);
            ASSERT_EQ(dist.status, 200) << dist.body;
            const boost::json::object dist_item = OnlyItem(Data(dist));
            ExpectMoney(f.median, Field(dist_item, "median_nav_brl"), "median_nav_brl");
        }
    }
}

TEST_P(IndustryTest, RankingFollowsTheManagerAsOfEachMonth) {
    const Sample& s = TheSample(D());
    const std::string key = D().RoomyKey();
    const std::vector<std::string> months(s.months.begin(), s.months.end());
    auto month_end = [](const std::string& month) {
        const int y = std::stoi(month.substr(0, 4)), m = std::stoi(month.substr(5, 2));
        static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        const int d = m == 2 && (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : kDays[m - 1];
        return month + "-" + std::to_string(d);
    };
    // Every manager's net worth in `month`, attributed as of then or projected from today.
    auto group = [&](const std::string& month, bool projected) {
        std::map<std::string, double> nav;
        for (const std::string& cnpj : s.Vehicles(month)) {
            if (!s.SetAsideRule(cnpj, month).empty()) {
                continue;
            }
            const std::string m =
                projected ? s.RegistryManagerOf(cnpj) : s.ManagerOf(cnpj, month, month_end(month));
            if (!m.empty()) {
                nav[m] += s.Nav(cnpj, month).value_or(0);
            }
        }
        std::vector<std::pair<std::string, double>> order(nav.begin(), nav.end());
        std::stable_sort(order.begin(), order.end(),
                         [](const auto& a, const auto& b) { return Cents(a.second) > Cents(b.second); });
        return order;
    };
    auto served = [&](const std::string& month, const std::string& order_by, int limit) {
        std::vector<boost::json::object> all;
        for (int offset = 0;; offset += limit) {
            const HttpResponse r =
                D().Get("/v1/industria/gestoras/ranking?month=" + month + "&order_by=" + order_by +
                            "&limit=" + std::to_string(limit) + "&offset=" + std::to_string(offset),
                        key);
            EXPECT_EQ(r.status, 200) << r.body;
            const boost::json::object data = Data(r);
            if (std::getenv("INDUSTRY_E2E_DUMP")) {
                std::cerr << r.body.substr(0, 3000) << "\n";
            }
            const auto& p = At(data, "pagination").as_object();
            std::size_t page = 0;
            // One item per month with its managers and their units (docs/api/ranking.md).
            for (const auto& item : At(data, "items").as_array()) {
                EXPECT_EQ(Str(item.as_object(), "month"), month);
                EXPECT_TRUE(At(item.as_object(), "units").is_object());
                for (const auto& manager : At(item.as_object(), "managers").as_array()) {
                    all.push_back(manager.as_object());
                    ++page;
                }
            }
            if (!At(p, "has_more").as_bool()) {
                EXPECT_TRUE(At(p, "next_offset").is_null());
                break;
            }
            EXPECT_EQ(At(p, "next_offset").as_int64(), offset + limit);
            EXPECT_EQ(page, static_cast<std::size_t>(limit));
        }
        return all;
    };
    const std::string last = months.back();
    const auto expected = group(last, false);
    for (const int limit : {100, 7}) {
        const auto items = served(last, "pl", limit);
        ASSERT_EQ(items.size(), expected.size()) << "limit " << limit;
        for (std::size_t i = 0; i < items.size(); ++i) {
            EXPECT_EQ(At(items[i], "rank").as_int64(), static_cast<std::int64_t>(i + 1));
            EXPECT_EQ(Str(items[i], "manager_id"), expected[i].first) << "rank " << i + 1;
            EXPECT_NEAR(At(items[i], "nav_brl").to_number<double>(), Cents(expected[i].second), 0.0051);
        }
    }
    // order_by=vehicles: by vehicle count, ties by manager_id.
    {
        std::map<std::string, std::int64_t> count;
        for (const std::string& cnpj : s.Vehicles(last)) {
            const std::string m = s.ManagerOf(cnpj, last, month_end(last));
            if (s.SetAsideRule(cnpj, last).empty() && !m.empty()) {
                ++count[m];
            }
        }
        std::vector<std::pair<std::string, std::int64_t>> order(count.begin(), count.end());
        std::stable_sort(order.begin(), order.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        const auto items = served(last, "vehicles", 9);
        ASSERT_EQ(items.size(), order.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
            EXPECT_EQ(Str(items[i], "manager_id"), order[i].first) << "rank " << i + 1;
            EXPECT_EQ(At(items[i], "vehicles").as_int64(), order[i].second);
        }
    }
    // A month where the history and today's registry disagree: the ranking follows the history.
    bool found = false;
    for (const std::string& month : months) {
        const auto history = group(month, false);
        if (history == group(month, true)) {
            continue;
        }
        found = true;
        const auto items = served(month, "pl", 100);
        ASSERT_EQ(items.size(), history.size()) << month;
        for (std::size_t i = 0; i < items.size(); ++i) {
            EXPECT_EQ(Str(items[i], "manager_id"), history[i].first) << month << " rank " << i + 1;
        }
        break;
    }
    EXPECT_TRUE(found) << "no month where the manager history differs from today's registry";
}

TEST_P(IndustryTest, EveryIndicatorAnswersOverTheWholePeriodWithUnitsAndCoverage) {
    const Sample& s = TheSample(D());
    const std::string key = D().RoomyKey();
    const std::vector<std::string> months(s.months.begin(), s.months.end());
    const std::string period = "from=" + months.front() + "&to=" + months.back();
    for (const char* indicator :
         {"resumo", "fluxos", "segmentos", "ativos", "prazos", "rentabilidade", "concentracao", "anbima",
          "anbima/segmentos", "distribuicao-pl", "participantes", "concentracao-top"}) {
        SCOPED_TRACE(indicator);
        const HttpResponse r =
            D().Get(std::string("/v1/industria?indicador=") + indicator + "&" + period, key);
        ASSERT_EQ(r.status, 200) << r.body;
        EXPECT_TRUE(r.Has("X-Credits-Charged") || r.Has("X-Credits-Remaining")) << indicator;
        const boost::json::object data = Data(r);
        const auto& items = At(data, "items").as_array();
        ASSERT_EQ(items.size(), months.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
            const auto& item = items[i].as_object();
            EXPECT_EQ(Str(item, "month"), months[i]);
            const auto& units = At(item, "units").as_object();
            for (const auto& [name, value] : item) {
                if (value.is_number() || (value.is_null() && name != "month")) {
                    EXPECT_TRUE(units.contains(name)) << indicator << " " << months[i] << " " << name;
                }
            }
        }
        const auto& coverage = At(data, "coverage").as_object();
        for (const char* field : {"requested", "covered", "available_months", "missing_months",
                                  "partial_months", "excluded_partial_months", "unknown_completeness_months",
                                  "quality_warning_months", "by_month"}) {
            EXPECT_TRUE(coverage.contains(field)) << field;
        }
        EXPECT_EQ(At(coverage, "by_month").as_array().size(), months.size());
        EXPECT_TRUE(At(coverage, "missing_months").as_array().empty());
    }
}

TEST_P(IndustryTest, PeriodErrorsAndMissingMonths) {
    const Sample& s = TheSample(D());
    const std::string key = D().RoomyKey();
    const std::string first = *s.months.begin();
    const std::string last = *s.months.rbegin();
    // Six months before the data: listed missing.
    const int y = std::stoi(first.substr(0, 4)), m = std::stoi(first.substr(5, 2));
    const int before_index = y * 12 + (m - 1) - 6;
    char before[32];
    std::snprintf(before, sizeof before, "%04d-%02d", before_index / 12, before_index % 12 + 1);
    {
        const HttpResponse r = D().Get(std::string("/v1/industria?from=") + before + "&to=" + last, key);
        ASSERT_EQ(r.status, 200) << r.body;
        const boost::json::object coverage = At(Data(r), "coverage").as_object();
        EXPECT_EQ(At(coverage, "missing_months").as_array().size(), 6u);
        EXPECT_EQ(At(coverage, "missing_months").as_array().front().as_string(), before);
    }
    EXPECT_EQ(D().Get("/v1/industria?month=" + last + "&from=" + first, key).status, 400);
    EXPECT_EQ(D().Get("/v1/industria?months=121", key).status, 422);
    EXPECT_EQ(D().Get("/v1/industria?indicador=nada", key).status, 422);
    {
        const int end_index = before_index + 120;
        char to[32];
        std::snprintf(to, sizeof to, "%04d-%02d", end_index / 12, end_index % 12 + 1);
        EXPECT_EQ(D().Get(std::string("/v1/industria?from=") + before + "&to=" + to, key).status, 422);
    }
    {
        const HttpResponse r = D().Get(std::string("/v1/industria?month=") + before, key);
        EXPECT_EQ(r.status, 404) << r.body;
        EXPECT_TRUE(r.Has("X-Credits-Charged") || r.Has("X-Credits-Remaining"));
    }
    // include_partial=false changes nothing when no month is partial.
    const HttpResponse all = D().Get("/v1/industria?from=" + first + "&to=" + last, key);
    const HttpResponse complete =
        D().Get("/v1/industria?include_partial=false&from=" + first + "&to=" + last, key);
    ASSERT_EQ(all.status, 200);
    ASSERT_EQ(complete.status, 200);
    const boost::json::array partial = At(At(Data(all), "coverage").as_object(), "partial_months").as_array();
    if (partial.empty()) {
        EXPECT_EQ(At(Data(all), "items"), At(Data(complete), "items"));
    }
}

}  // namespace lastro::industry::e2e
