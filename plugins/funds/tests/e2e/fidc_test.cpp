// The FIDC class data end to end (contract 2.7 to 2.13, 4.2, 4.4): every number the API
// answers is recomputed here straight from the sample's CSV files (cvm_files.hpp),
// independently of the ingesters, on SQLite and PostgreSQL.
#include "funds_fixture.hpp"

#include <lastro/funds/testing/cvm_files.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <regex>
#include <set>

namespace lastro::funds::e2e {
namespace {

namespace json = boost::json;

const char* const kBandColumns[2][10] = {
    {"TAB_V_B1_VL_INAD_30", "TAB_V_B2_VL_INAD_60", "TAB_V_B3_VL_INAD_90", "TAB_V_B4_VL_INAD_120",
     "TAB_V_B5_VL_INAD_150", "TAB_V_B6_VL_INAD_180", "TAB_V_B7_VL_INAD_360", "TAB_V_B8_VL_INAD_720",
     "TAB_V_B9_VL_INAD_1080", "TAB_V_B10_VL_INAD_MAIOR_1080"},
    {"TAB_VI_B1_VL_INAD_30", "TAB_VI_B2_VL_INAD_60", "TAB_VI_B3_VL_INAD_90", "TAB_VI_B4_VL_INAD_120",
     "TAB_VI_B5_VL_INAD_150", "TAB_VI_B6_VL_INAD_180", "TAB_VI_B7_VL_INAD_360", "TAB_VI_B8_VL_INAD_720",
     "TAB_VI_B9_VL_INAD_1080", "TAB_VI_B10_VL_INAD_MAIOR_1080"}};
const char* const kToMatureColumns[2][10] = {
    {"TAB_V_A1_VL_PRAZO_VENC_30", "TAB_V_A2_VL_PRAZO_VENC_60", "TAB_V_A3_VL_PRAZO_VENC_90",
     "TAB_V_A4_VL_PRAZO_VENC_120", "TAB_V_A5_VL_PRAZO_VENC_150", "TAB_V_A6_VL_PRAZO_VENC_180",
     "TAB_V_A7_VL_PRAZO_VENC_360", "TAB_V_A8_VL_PRAZO_VENC_720", "TAB_V_A9_VL_PRAZO_VENC_1080",
     "TAB_V_A10_VL_PRAZO_VENC_MAIOR_1080"},
    {"TAB_VI_A1_VL_PRAZO_VENC_30", "TAB_VI_A2_VL_PRAZO_VENC_60", "TAB_VI_A3_VL_PRAZO_VENC_90",
     "TAB_VI_A4_VL_PRAZO_VENC_120", "TAB_VI_A5_VL_PRAZO_VENC_150", "TAB_VI_A6_VL_PRAZO_VENC_180",
     "TAB_VI_A7_VL_PRAZO_VENC_360", "TAB_VI_A8_VL_PRAZO_VENC_720", "TAB_VI_A9_VL_PRAZO_VENC_1080",
     "TAB_VI_A10_VL_PRAZO_VENC_MAIOR_1080"}};
const int kOverdueDays[10] = {0, 30, 60, 90, 120, 150, 180, 360, 720, 1080};

// A sum of published fields (plugins/funds/docs/api/fidc-metrics.md): null when any is empty or
// there is none; Partial() is the sum of those present, Missing() how many are empty.
class Sum {
public:
    void Add(std::optional<double> v) {
        if (v) {
            present_ = present_.value_or(0) + *v;
        } else {
            ++missing_;
        }
    }
    std::optional<double> Value() const { return missing_ > 0 ? std::nullopt : present_; }
    std::optional<double> Partial() const { return present_; }
    std::size_t Missing() const { return missing_; }

private:
    std::optional<double> present_;
    std::size_t missing_ = 0;
};

std::optional<double> Ratio(std::optional<double> a, std::optional<double> b) {
    if (!a || !b || *b == 0) {
        return std::nullopt;
    }
    return *a / *b;
}

::testing::AssertionResult Matches(const json::value& actual, std::optional<double> expected,
                                   const std::string& what) {
    if (!expected) {
        if (actual.is_null()) {
            return ::testing::AssertionSuccess();
        }
        return ::testing::AssertionFailure() << what << ": expected null, got " << json::serialize(actual);
    }
    if (!actual.is_number()) {
        return ::testing::AssertionFailure()
               << what << ": expected " << *expected << ", got " << json::serialize(actual);
    }
    const double a = actual.to_number<double>();
    if (std::fabs(a - *expected) > 1e-6 * std::max(1.0, std::fabs(*expected))) {
        return ::testing::AssertionFailure() << what << ": expected " << *expected << ", got " << a;
    }
    return ::testing::AssertionSuccess();
}

// An amortization row read as plugins/funds/docs/api/fidc-metrics.md#amortization-reading
// says: which column holds the BRL total, checked against the series' X_2 quota count `n`.
struct Reading {
    std::string name;
    std::optional<double> brl;
};
Reading ReadAmortization(std::optional<double> v, std::optional<double> q, std::optional<double> n) {
    if (!v && !q) {
        return {"as_published", std::nullopt};
    }
    if (v && q && *v == 0 && *q == 0) {
        return {"as_published", 0.0};
    }
    if (v && q && *v != 0 && *q == 0) {
        return {"as_published", *v};
    }
    if (!v || !q || !n || *n == 0) {
        return {"unverified", std::nullopt};
    }
    const bool swapped = *v != 0 && std::fabs(*q / *v - *n) <= 0.01 * std::fabs(*n);
    const bool named = std::fabs(*q - *n) <= 0.01 * std::fabs(*n);
    if (swapped != named) {
        return swapped ? Reading{"swapped", *q} : Reading{"as_published", *v};
    }
    return {"unverified", std::nullopt};
}

// The series identity of each API row: its label, "<label> #n" for the n-th row of a label in a
// month (the API orders a repeated label's series by identity).
std::map<const json::object*, std::string> IdentitiesOf(const json::array& rows) {
    std::map<std::pair<std::string, std::string>, int> seen;
    std::map<const json::object*, std::string> out;
    for (const auto& row : rows) {
        const auto& o = row.as_object();
        const std::string label(o.at("series_label").as_string());
        const int n = ++seen[{std::string(o.at("month").as_string()), label}];
        out[&o] = n == 1 ? label : label + " #" + std::to_string(n);
    }
    return out;
}

std::string PreviousMonth(const std::string& month) {
    int y = std::stoi(month.substr(0, 4));
    int m = std::stoi(month.substr(5, 2)) - 1;
    if (m == 0) {
        m = 12;
        --y;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d", y, m);
    return buffer;
}

std::string NextMonth(const std::string& month) {
    int y = std::stoi(month.substr(0, 4));
    int m = std::stoi(month.substr(5, 2)) + 1;
    if (m == 13) {
        m = 1;
        ++y;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d", y, m);
    return buffer;
}

// The declared response fields of every operation, from /v1/schema (built from the manifests).
using FieldMap = std::map<std::string, json::object>;

::testing::AssertionResult HasDeclaredShape(const json::object& item, const json::array& declared,
                                            const std::string& where);

::testing::AssertionResult ValueHasType(const json::value& v, const json::object& field,
                                        const std::string& where) {
    const std::string type(field.at("type").as_string());
    if (v.is_null()) {
        if (field.at("nullable").as_bool()) {
            return ::testing::AssertionSuccess();
        }
        return ::testing::AssertionFailure() << where << " is null but not declared nullable";
    }
    bool ok = false;
    if (type == "string" || type == "timestamp") {
        ok = v.is_string();
    } else if (type == "uuid") {
        ok = v.is_string() && IsUuid(v.get_string());
    } else if (type == "date") {
        ok = v.is_string() && IsIsoDate(v.get_string());
    } else if (type == "month") {
        ok = v.is_string() && v.get_string().size() == 7;
    } else if (type == "integer") {
        ok = v.is_int64() || v.is_uint64();
    } else if (type == "number") {
        ok = v.is_number();
    } else if (type == "boolean") {
        ok = v.is_bool();
    } else if (type == "object") {
        ok = v.is_object();
        if (ok && field.contains("fields")) {
            return HasDeclaredShape(v.get_object(), field.at("fields").as_array(), where);
        }
    } else if (type == "array") {
        ok = v.is_array();
        if (ok && field.contains("fields")) {
            for (const auto& element : v.get_array()) {
                if (!element.is_object()) {
                    return ::testing::AssertionFailure() << where << " holds a non-object";
                }
                auto r = HasDeclaredShape(element.get_object(), field.at("fields").as_array(), where + "[]");
                if (!r) {
                    return r;
                }
            }
        }
    }
    if (!ok) {
        return ::testing::AssertionFailure()
               << where << " is " << json::serialize(v) << ", declared " << type;
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult HasDeclaredShape(const json::object& item, const json::array& declared,
                                            const std::string& where) {
    std::set<std::string> names;
    for (const auto& f : declared) {
        const auto& field = f.as_object();
        const std::string name(field.at("name").as_string());
        names.insert(name);
        if (!item.contains(name)) {
            return ::testing::AssertionFailure() << where << "." << name << " is declared but missing";
        }
        auto r = ValueHasType(item.at(name), field, where + "." + name);
        if (!r) {
            return r;
        }
    }
    for (const auto& [key, value] : item) {
        if (!names.count(std::string(key))) {
            return ::testing::AssertionFailure() << where << "." << key << " is returned but not declared";
        }
    }
    return ::testing::AssertionSuccess();
}

class FidcTest : public BackendTest<FidcTest> {
public:
    static constexpr const char* kLabel = "fidc";
    static DeploymentOptions Options() { return FundsOptions(); }

protected:
    static const SampleFidcReports& Files() {
        static const SampleFidcReports files(SharedResources::Get().SampleDir(Options().plugin_dirs));
        return files;
    }

    void SetUp() override {
        BackendTest<FidcTest>::SetUp();
        if (!HasFatalFailure() && key_.empty()) {
            key_ = D().RoomyKey();
        }
    }
    static void TearDownTestSuite() {
        key_.clear();
        class_ids_.clear();
        BackendTest<FidcTest>::TearDownTestSuite();
    }

    HttpResponse Get(const std::string& target) { return D().Get(target, key_); }

    json::value Data(const std::string& target) {
        HttpResponse r = Get(target);
        EXPECT_EQ(r.status, 200) << target << ": " << r.body;
        if (r.status != 200) {
            return nullptr;
        }
        return json::parse(r.body).as_object().at("data");
    }

    // The class whose filings carry `cnpj`, through /v1/resolve; "" when not exactly one.
    std::string ClassIdOf(const std::string& cnpj) {
        auto cached = class_ids_.find(cnpj);
        if (cached != class_ids_.end()) {
            return cached->second;
        }
        std::string id;
        HttpResponse r = Get("/v1/resolve?cnpj=" + cnpj);
        if (r.status == 200) {
            const auto data = json::parse(r.body).as_object().at("data").as_object();
            std::vector<std::string> ids;
            for (const auto& c : data.at("classes").as_array()) {
                if (c.as_object().at("cnpj") == json::value(cnpj)) {
                    ids.emplace_back(c.as_object().at("class_id").as_string());
                }
            }
            if (ids.size() == 1) {
                id = ids.front();
            }
        }
        class_ids_[cnpj] = id;
        return id;
    }

    // CNPJs of classes the tests recompute: a spread over the sample, each resolving to one class.
    std::vector<std::string> SampleCnpjs(std::size_t count) {
        const std::set<std::string> cnpjs = Files().Cnpjs();
        const std::vector<std::string> all(cnpjs.begin(), cnpjs.end());
        std::vector<std::string> picked;
        const std::size_t step = std::max<std::size_t>(1, all.size() / (count * 2));
        for (std::size_t i = 0; i < all.size() && picked.size() < count; i += step) {
            if (!ClassIdOf(all[i]).empty() && Files().MonthsOf(all[i]).size() >= 3) {
                picked.push_back(all[i]);
            }
        }
        return picked;
    }

    // SampleCnpjs(count) and the classes that file the sample's quota cases: distinct series
    // under one label, amortizations with the columns reversed or under a label X_2 lacks.
    std::vector<std::string> QuotaCaseCnpjs(std::size_t count) {
        std::set<std::string> picked;
        for (const std::string& cnpj : SampleCnpjs(count)) {
            picked.insert(cnpj);
        }
        for (const std::string& cnpj : Files().Cnpjs()) {
            if (ClassIdOf(cnpj).empty()) {
                continue;
            }
            for (const std::string& month : Files().MonthsOf(cnpj)) {
                std::map<std::string, std::string> quotas;  // series -> X_2 TAB_X_QT_COTA
                for (const auto& x2 : Files().Rows("X_2", cnpj, month)) {
                    quotas[x2.at(kSeriesColumn)] = x2.at("TAB_X_QT_COTA");
                    if (x2.at(kSeriesColumn) != x2.at("TAB_X_CLASSE_SERIE")) {
                        picked.insert(cnpj);
                    }
                }
                for (const auto& x4 : Files().Rows("X_4", cnpj, month)) {
                    const auto it = quotas.find(x4.at(kSeriesColumn));
                    if (Fold(x4.at("TAB_X_TP_OPER")).rfind("amortiza", 0) == 0 &&
                        (it == quotas.end() || it->second != x4.at("TAB_X_QT_COTA"))) {
                        picked.insert(cnpj);
                    }
                }
            }
        }
        return {picked.begin(), picked.end()};
    }

    json::array DeclaredFields(const std::string& operation) {
        if (schema_.empty()) {
            const json::value schema = Data("/v1/schema");
            for (const auto& r : schema.as_object().at("resources").as_array()) {
                schema_[std::string(r.as_object().at("operation").as_string())] = r.as_object();
            }
        }
        auto it = schema_.find(operation);
        if (it == schema_.end()) {
            ADD_FAILURE() << operation << " is not in /v1/schema";
            return {};
        }
        return it->second.at("fields").as_array();
    }

    // The expected snapshot numbers of one report, from the files.
    struct Expected {
        std::optional<double> nav, investor_count, delinquent, denominator, pdd, net, with_mezz, without_mezz;
        std::optional<double> investors_reported, pdd_partial;
        std::size_t series_reporting = 0, series_total = 0, pdd_missing = 0;
    };
    Expected Recompute(const std::string& cnpj, const std::string& month) {
        Expected e;
        const SampleFidcReports& f = Files();
        if (auto iv = f.Row("IV", cnpj, month)) {
            e.nav = Number(*iv, "TAB_IV_A_VL_PL");
        }
        Sum investors;
        for (const auto& row : f.Rows("X_1", cnpj, month)) {
            investors.Add(Number(row, "TAB_X_NR_COTST"));
            ++e.series_total;
        }
        e.investor_count = investors.Value();
        e.investors_reported = investors.Partial();
        e.series_reporting = e.series_total - investors.Missing();
        Sum delinquent, denominator;
        if (f.Row("V", cnpj, month) || f.Row("VI", cnpj, month)) {
            for (int t = 0; t < 2; ++t) {
                // A table without a row: its bands are missing.
                const auto row = f.Row(t == 0 ? "V" : "VI", cnpj, month);
                for (int b = 0; b < 10; ++b) {
                    delinquent.Add(row ? Number(*row, kBandColumns[t][b]) : std::nullopt);
                    denominator.Add(row ? Number(*row, kBandColumns[t][b]) : std::nullopt);
                    denominator.Add(row ? Number(*row, kToMatureColumns[t][b]) : std::nullopt);
                }
            }
        }
        e.delinquent = delinquent.Value();
        e.denominator = denominator.Value();
        e.pdd_missing = 2;  // without a table I row both parts are missing
        if (auto i = f.Row("I", cnpj, month)) {
            Sum pdd, net;
            for (const char* c : {"TAB_I2A11_VL_REDUCAO_RECUP", "TAB_I2B11_VL_REDUCAO_RECUP"}) {
                auto v = Number(*i, c);
                pdd.Add(v ? std::optional<double>(std::fabs(*v)) : std::nullopt);
            }
            net.Add(Number(*i, "TAB_I2A_VL_DIRCRED_RISCO"));
            net.Add(Number(*i, "TAB_I2B_VL_DIRCRED_SEM_RISCO"));
            e.pdd = pdd.Value();
            e.pdd_partial = pdd.Partial();
            e.pdd_missing = pdd.Missing();
            e.net = net.Value();
        }
        Sum total, mezz, sub, junior;  // junior: the mezzanine and subordinated series
        for (const auto& row : f.Rows("X_2", cnpj, month)) {
            auto qt = Number(row, "TAB_X_QT_COTA");
            auto vl = Number(row, "TAB_X_VL_COTA");
            const std::optional<double> nav = qt && vl ? std::optional<double>(*qt * *vl) : std::nullopt;
            total.Add(nav);
            const std::string seniority = SeniorityOf(row.at("TAB_X_CLASSE_SERIE"));
            if (seniority == "mezzanine") {
                mezz.Add(nav);
                junior.Add(nav);
            } else if (seniority == "subordinated") {
                sub.Add(nav);
                junior.Add(nav);
            }
        }
        e.with_mezz = Ratio(junior.Value(), total.Value());
        e.without_mezz = Ratio(sub.Value(), total.Value());
        return e;
    }

    inline static std::string key_;
    inline static std::map<std::string, std::string> class_ids_;
    inline static FieldMap schema_;
};

TEST_P(FidcTest, SnapshotNumbersAreRecomputedFromTheFiles) {
    for (const std::string& cnpj : SampleCnpjs(6)) {
        const auto months = Files().MonthsOf(cnpj);
        for (const std::string& month : {months.front(), months[months.size() / 2], months.back()}) {
            const std::string target = "/v1/classes/" + ClassIdOf(cnpj) + "/snapshot?month=" + month;
            const json::value data = Data(target);
            ASSERT_TRUE(data.is_object()) << target;
            const auto& s = data.as_object();
            SCOPED_TRACE(target);
            EXPECT_EQ(s.at("month"), json::value(month));
            EXPECT_EQ(s.at("previous_month"), json::value(PreviousMonth(month)));
            const Expected e = Recompute(cnpj, month);
            const Expected p = Recompute(cnpj, PreviousMonth(month));
            EXPECT_TRUE(Matches(s.at("nav_brl"), e.nav, "nav_brl"));
            EXPECT_TRUE(Matches(s.at("nav_previous_brl"), p.nav, "nav_previous_brl"));
            EXPECT_TRUE(Matches(s.at("investor_count"), e.investor_count, "investor_count"));
            EXPECT_TRUE(
                Matches(s.at("investor_count_reported"), e.investors_reported, "investor_count_reported"));
            EXPECT_EQ(s.at("series_reporting"), json::value(static_cast<std::int64_t>(e.series_reporting)));
            EXPECT_EQ(s.at("series_total"), json::value(static_cast<std::int64_t>(e.series_total)));
            EXPECT_TRUE(Matches(s.at("pdd_partial_brl"), e.pdd_partial, "pdd_partial_brl"));
            EXPECT_EQ(s.at("pdd_partial_missing").as_array().size(), e.pdd_missing);
            EXPECT_TRUE(
                Matches(s.at("delinquency_ratio"), Ratio(e.delinquent, e.denominator), "delinquency_ratio"));
            EXPECT_TRUE(Matches(s.at("pdd_brl"), e.pdd, "pdd_brl"));
            std::optional<double> gross;
            if (e.net && e.pdd) {
                gross = *e.net + *e.pdd;
            }
            EXPECT_TRUE(Matches(s.at("receivables_brl"), gross, "receivables_brl"));
            EXPECT_TRUE(Matches(s.at("pdd_ratio"), Ratio(e.pdd, gross), "pdd_ratio"));
            EXPECT_TRUE(Matches(s.at("subordination_with_mezzanine_ratio"), e.with_mezz,
                                "subordination_with_mezzanine_ratio"));
            EXPECT_TRUE(Matches(s.at("subordination_without_mezzanine_ratio"), e.without_mezz,
                                "subordination_without_mezzanine_ratio"));
            EXPECT_TRUE(
                Matches(s.at("subordination_previous_ratio"), p.with_mezz, "subordination_previous_ratio"));
            std::optional<double> variation;
            if (e.nav && p.nav && *p.nav != 0) {
                variation = *e.nav / *p.nav - 1;
            }
            EXPECT_TRUE(Matches(s.at("nav_variation_ratio"), variation, "nav_variation_ratio"));
            EXPECT_TRUE(HasDeclaredShape(s, DeclaredFields("funds.class_snapshot"), "snapshot"));
        }
    }
}

TEST_P(FidcTest, AMonthThatWasNotReportedIsNotFoundAndNeverReplaced) {
    // A class that skipped a month and reported around it (a deliberate gap of the sample).
    std::string cnpj, gap;
    for (const auto& candidate : Files().Cnpjs()) {
        const auto months = Files().MonthsOf(candidate);
        for (std::size_t i = 1; i < months.size(); ++i) {
            if (NextMonth(months[i - 1]) != months[i] && NextMonth(NextMonth(months[i - 1])) == months[i] &&
                !ClassIdOf(candidate).empty()) {
                cnpj = candidate;
                gap = NextMonth(months[i - 1]);
            }
        }
    }
    ASSERT_FALSE(cnpj.empty()) << "the sample has no class that skipped exactly one month";
    const std::string base = "/v1/classes/" + ClassIdOf(cnpj);

    HttpResponse missing = Get(base + "/snapshot?month=" + gap);
    EXPECT_TRUE(IsProblem(missing, 404, kBaseUrl, base + "/snapshot", "month")) << missing.body;
    EXPECT_EQ(missing.Header("X-Credits-Charged"), "5");
    HttpResponse bands = Get(base + "/carteira/inadimplencia/faixas?month=" + gap);
    EXPECT_EQ(bands.status, 404) << bands.body;
    EXPECT_EQ(bands.Header("X-Credits-Charged"), "2");

    // The month after the gap compares with the gap only: every previous value is null.
    const json::value after = Data(base + "/snapshot?month=" + NextMonth(gap));
    ASSERT_TRUE(after.is_object());
    const auto& s = after.as_object();
    EXPECT_EQ(s.at("previous_month"), json::value(gap));
    for (const char* field :
         {"nav_previous_brl", "nav_variation_ratio", "investor_count_previous", "investor_count_delta",
          "delinquency_previous_ratio", "delinquency_variation_pp", "subordination_previous_ratio",
          "subordination_variation_pp"}) {
        EXPECT_TRUE(s.at(field).is_null()) << field << " = " << json::serialize(s.at(field));
    }
    EXPECT_FALSE(s.at("nav_brl").is_null());

    // The quota history simply has no rows for the gap.
    const json::value history = Data(base + "/cotas");
    for (const auto& row : history.as_array()) {
        EXPECT_NE(row.as_object().at("month"), json::value(gap));
    }
}

TEST_P(FidcTest, InvalidMonthsAndRangesAreRefusedAndRefunded) {
    const std::string cnpj = SampleCnpjs(1).front();
    const std::string base = "/v1/classes/" + ClassIdOf(cnpj);
    for (const char* bad : {"2024-13", "24-01", "2024-1", "abc"}) {
        HttpResponse r = Get(base + "/snapshot?month=" + bad);
        EXPECT_TRUE(IsProblem(r, 422, kBaseUrl, base + "/snapshot", "month")) << bad << ": " << r.body;
        EXPECT_EQ(r.Header("X-Credits-Charged"), "0");
    }
    HttpResponse inverted = Get(base + "/cotas?from=2026-05&to=2025-01");
    EXPECT_EQ(inverted.status, 400) << inverted.body;
    EXPECT_EQ(inverted.Header("X-Credits-Charged"), "0");
    HttpResponse required = Get(base + "/carteira/inadimplencia/faixas");
    EXPECT_TRUE(IsProblem(required, 422, kBaseUrl, base + "/carteira/inadimplencia/faixas", "month"))
        << required.body;
    HttpResponse unknown = Get("/v1/classes/" + RandomUuid() + "/snapshot");
    EXPECT_EQ(unknown.status, 404) << unknown.body;
}

TEST_P(FidcTest, QuotasAreTheSeriesOfTableX2) {
    std::size_t repeated_labels = 0;  // rows of a series whose label an earlier series also has
    for (const std::string& cnpj : QuotaCaseCnpjs(4)) {
        const auto months = Files().MonthsOf(cnpj);
        const std::string from = months[1], to = months[months.size() - 2];
        const std::string target = "/v1/classes/" + ClassIdOf(cnpj) + "/cotas?from=" + from + "&to=" + to;
        const json::value data = Data(target);
        ASSERT_TRUE(data.is_array()) << target;
        std::size_t expected_rows = 0;
        std::map<std::pair<std::string, std::string>, const json::object*> by_series;
        const auto identities = IdentitiesOf(data.as_array());
        for (const auto& row : data.as_array()) {
            const auto& o = row.as_object();
            ASSERT_TRUE(HasDeclaredShape(o, DeclaredFields("funds.class_quotas"), "cotas"));
            by_series[{std::string(o.at("month").as_string()), identities.at(&o)}] = &o;
        }
        for (const auto& month : months) {
            if (month < from || month > to) {
                continue;
            }
            for (const auto& x2 : Files().Rows("X_2", cnpj, month)) {
                ++expected_rows;
                repeated_labels += x2.at(kSeriesColumn) != x2.at("TAB_X_CLASSE_SERIE") ? 1 : 0;
                auto it = by_series.find({month, x2.at(kSeriesColumn)});
                ASSERT_NE(it, by_series.end()) << target << " lacks " << month << " " << x2.at(kSeriesColumn);
                const json::object& o = *it->second;
                auto qt = Number(x2, "TAB_X_QT_COTA");
                auto vl = Number(x2, "TAB_X_VL_COTA");
                std::optional<double> nav;
                if (qt && vl) {
                    nav = *qt * *vl;
                }
                EXPECT_TRUE(Matches(o.at("series_nav_brl"), nav, target + " series_nav_brl"));
                EXPECT_EQ(o.at("share_class_type"), json::value(SeniorityOf(x2.at("TAB_X_CLASSE_SERIE"))));
                EXPECT_EQ(o.at("reporting_date"), json::value(x2.at("DT_COMPTC")));
            }
        }
        EXPECT_EQ(data.as_array().size(), expected_rows) << target;
    }
    EXPECT_GT(repeated_labels, 0u);  // the sample's class with two series under one label
}

TEST_P(FidcTest, QuotaOperationsAreTheRowsOfTableX4) {
    std::size_t compared = 0;
    std::map<std::string, std::size_t> readings;
    for (const std::string& cnpj : QuotaCaseCnpjs(4)) {
        const std::string target = "/v1/classes/" + ClassIdOf(cnpj) + "/cotas/operacoes";
        const json::value data = Data(target);
        ASSERT_TRUE(data.is_array()) << target;
        std::map<std::pair<std::string, std::string>, const json::object*> rows;
        const auto identities = IdentitiesOf(data.as_array());
        for (const auto& row : data.as_array()) {
            const auto& o = row.as_object();
            ASSERT_TRUE(HasDeclaredShape(o, DeclaredFields("funds.class_quota_operations"), "operacoes"));
            rows[{std::string(o.at("month").as_string()), identities.at(&o)}] = &o;
        }
        for (const auto& month : Files().MonthsOf(cnpj)) {
            std::map<std::string, std::optional<double>> quotas;  // series -> X_2 TAB_X_QT_COTA
            for (const auto& x2 : Files().Rows("X_2", cnpj, month)) {
                quotas[x2.at(kSeriesColumn)] = Number(x2, "TAB_X_QT_COTA");
            }
            std::map<std::string, std::map<std::string, Sum>> sums;  // series -> field -> sum
            std::map<std::string, std::set<std::string>> read_as;    // series -> amortization readings
            for (const auto& x4 : Files().Rows("X_4", cnpj, month)) {
                const std::string op = Fold(x4.at("TAB_X_TP_OPER"));
                std::string field;
                if (op.rfind("captac", 0) == 0) {
                    field = "subscription";
                } else if (op.find("solicitad") != std::string::npos) {
                    field = "pending_redemptions";
                } else if (op.rfind("resgate", 0) == 0) {
                    field = "paid_redemptions";
                } else if (op.rfind("amortiza", 0) == 0) {
                    field = "amortization";
                } else {
                    continue;
                }
                auto& series = sums[x4.at(kSeriesColumn)];
                if (field == "amortization") {
                    const auto n = quotas.find(x4.at(kSeriesColumn));
                    const Reading read =
                        ReadAmortization(Number(x4, "TAB_X_VL_TOTAL"), Number(x4, "TAB_X_QT_COTA"),
                                         n == quotas.end() ? std::nullopt : n->second);
                    read_as[x4.at(kSeriesColumn)].insert(read.name);
                    ++readings[read.name];
                    series["amortization_brl"].Add(read.brl);
                    series["amortization_published_value"].Add(Number(x4, "TAB_X_VL_TOTAL"));
                    series["amortization_published_shares"].Add(Number(x4, "TAB_X_QT_COTA"));
                    continue;
                }
                series[field + "_brl"].Add(Number(x4, "TAB_X_VL_TOTAL"));
                series[field + "_shares"].Add(Number(x4, "TAB_X_QT_COTA"));
            }
            for (auto& [label, fields] : sums) {
                auto it = rows.find({month, label});
                ASSERT_NE(it, rows.end()) << target << " lacks " << month << " " << label;
                const json::object& o = *it->second;
                const std::set<std::string>& read = read_as[label];
                const bool unverified = read.contains("unverified");
                const std::optional<double> amortization =
                    unverified ? std::nullopt : fields["amortization_brl"].Value();
                EXPECT_EQ(o.at("amortization_reading"), read.empty() ? json::value(nullptr)
                                                        : unverified ? json::value("unverified")
                                                        : read.contains("swapped")
                                                            ? json::value("swapped")
                                                            : json::value("as_published"))
                    << target << " " << month << " " << label;
                EXPECT_EQ(o.at("amortization_unverified_count"), json::value(unverified ? 1 : 0));
                EXPECT_TRUE(Matches(o.at("amortization_published_value"),
                                    fields["amortization_published_value"].Value(),
                                    target + " amortization_published_value"));
                EXPECT_TRUE(Matches(o.at("amortization_published_shares"),
                                    fields["amortization_published_shares"].Value(),
                                    target + " amortization_published_shares"));
                Sum outflows;
                outflows.Add(fields["paid_redemptions_brl"].Value());
                outflows.Add(amortization);
                EXPECT_TRUE(Matches(o.at("outflows_brl"), unverified ? std::nullopt : outflows.Value(),
                                    target + " " + month + " outflows_brl"));
                EXPECT_TRUE(Matches(o.at("outflows_excluding_amortization_brl"),
                                    fields["paid_redemptions_brl"].Value(),
                                    target + " outflows_excluding_amortization_brl"));
                EXPECT_TRUE(Matches(o.at("subscription_original_brl"), fields["subscription_brl"].Value(),
                                    target + " " + month + " subscription_original_brl"));
                EXPECT_TRUE(Matches(o.at("subscriptions_shares"), fields["subscription_shares"].Value(),
                                    target + " subscriptions_shares"));
                EXPECT_TRUE(Matches(o.at("paid_redemptions_brl"), fields["paid_redemptions_brl"].Value(),
                                    target + " paid_redemptions_brl"));
                EXPECT_TRUE(Matches(o.at("pending_redemptions_brl"),
                                    fields["pending_redemptions_brl"].Value(),
                                    target + " pending_redemptions_brl"));
                EXPECT_TRUE(Matches(o.at("amortization_brl"), amortization,
                                    target + " " + month + " " + label + " amortization_brl"));
                ++compared;
            }
        }
    }
    EXPECT_GT(compared, 0u);
    // The sample files amortizations as named, the other way round, and once without evidence.
    EXPECT_GT(readings["as_published"], 0u);
    EXPECT_GT(readings["swapped"], 0u);
    EXPECT_EQ(readings["unverified"], 1u);
}

TEST_P(FidcTest, DelinquencyBandsAreCumulativeOverTablesVAndVI) {
    for (const std::string& cnpj : SampleCnpjs(4)) {
        const std::string month = Files().MonthsOf(cnpj).back();
        const std::string target =
            "/v1/classes/" + ClassIdOf(cnpj) + "/carteira/inadimplencia/faixas?month=" + month;
        const json::value data = Data(target);
        ASSERT_TRUE(data.is_array()) << target;
        ASSERT_EQ(data.as_array().size(), 10u) << target;
        const auto v = Files().Row("V", cnpj, month);
        const auto vi = Files().Row("VI", cnpj, month);
        const Expected e = Recompute(cnpj, month);
        for (int row = 0; row < 10; ++row) {
            const auto& o = data.as_array()[static_cast<std::size_t>(row)].as_object();
            ASSERT_TRUE(HasDeclaredShape(o, DeclaredFields("funds.class_delinquency_bands"), "faixas"));
            EXPECT_EQ(o.at("overdue_days"), json::value(kOverdueDays[row]));
            EXPECT_EQ(o.at("month"), json::value(month));
            // Overdue by strictly more than N days: the exclusive bands from this one up.
            // A band left empty (or a table without a row) makes the sum null; the partial sum
            // keeps the others and names the empty ones.
            Sum above;
            for (int band = row; band < 10; ++band) {
                above.Add(v ? Number(*v, kBandColumns[0][band]) : std::nullopt);
            }
            for (int band = row; band < 10; ++band) {
                above.Add(vi ? Number(*vi, kBandColumns[1][band]) : std::nullopt);
            }
            EXPECT_TRUE(Matches(o.at("delinquent_brl"), above.Value(), target + " delinquent_brl"));
            EXPECT_TRUE(
                Matches(o.at("delinquent_partial_brl"), above.Partial(), target + " delinquent_partial_brl"));
            EXPECT_EQ(o.at("delinquent_partial_missing").as_array().size(), above.Missing()) << target;
            EXPECT_TRUE(
                Matches(o.at("ratio_denominator_brl"), e.denominator, target + " ratio_denominator_brl"));
            EXPECT_TRUE(
                Matches(o.at("delinquent_ratio"), Ratio(above.Value(), e.denominator), target + " ratio"));
        }
    }
}

TEST_P(FidcTest, FilingsAsFundoBesideClasseKeepTheClasseRows) {
    const auto both = Files().FiledAsFundoAndClasse();
    ASSERT_FALSE(both.empty()) << "the sample has no month filed both as Fundo and Classe";
    for (const auto& [cnpj, month] : both) {
        if (ClassIdOf(cnpj).empty()) {
            continue;
        }
        const json::value data = Data("/v1/classes/" + ClassIdOf(cnpj) + "/snapshot?month=" + month);
        ASSERT_TRUE(data.is_object());
        EXPECT_TRUE(Matches(data.as_object().at("nav_brl"), Recompute(cnpj, month).nav, cnpj + " " + month));
    }
}

TEST_P(FidcTest, EmptySourceFieldsAreNullNeverZero) {
    // A series-month whose profitability CVM left empty, and a report without any PDD field.
    std::size_t checked = 0;
    for (const auto& cnpj : Files().Cnpjs()) {
        if (checked >= 2 || ClassIdOf(cnpj).empty()) {
            continue;
        }
        for (const auto& month : Files().MonthsOf(cnpj)) {
            for (const auto& x3 : Files().Rows("X_3", cnpj, month)) {
                if (!x3.at("TAB_X_VL_RENTAB_MES").empty()) {
                    continue;
                }
                const json::value rows =
                    Data("/v1/classes/" + ClassIdOf(cnpj) + "/cotas?from=" + month + "&to=" + month);
                bool found = false;
                for (const auto& row : rows.as_array()) {
                    if (row.as_object().at("series_label") == json::value(x3.at("TAB_X_CLASSE_SERIE"))) {
                        EXPECT_TRUE(row.as_object().at("monthly_return_pct").is_null())
                            << cnpj << " " << month;
                        found = true;
                    }
                }
                EXPECT_TRUE(found) << cnpj << " " << month << " " << x3.at("TAB_X_CLASSE_SERIE");
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 0u) << "the sample has no empty TAB_X_VL_RENTAB_MES";
}

// The sample's deliberate empty fields inside sums (docs/sample.md): an empty provision of one
// kind, an empty investor count of one series, receivable components left empty for 0. The sum is null, never
// the other parts alone; the parts present are served apart with what they leave out.
TEST_P(FidcTest, AnEmptyComponentMakesItsSumNullAndThePartialSumSaysWhatItCovers) {
    std::size_t pdd_cases = 0;
    std::size_t investor_cases = 0;
    std::size_t component_cases = 0;
    for (const auto& cnpj : Files().Cnpjs()) {
        if (ClassIdOf(cnpj).empty()) {
            continue;
        }
        for (const auto& month : Files().MonthsOf(cnpj)) {
            const auto i = Files().Row("I", cnpj, month);
            const bool pdd_case = i && Number(*i, "TAB_I2A11_VL_REDUCAO_RECUP") == std::nullopt &&
                                  Number(*i, "TAB_I2B11_VL_REDUCAO_RECUP").has_value();
            std::size_t counts_missing = 0;
            for (const auto& x1 : Files().Rows("X_1", cnpj, month)) {
                counts_missing += Number(x1, "TAB_X_NR_COTST") ? 0 : 1;
            }
            // The receivable components I2A1..I2A10, I2B1..I2B10 of a report with receivables.
            Sum components;
            if (i && Number(*i, "TAB_I2A_VL_DIRCRED_RISCO")) {
                for (const char* group : {"TAB_I2A", "TAB_I2B"}) {
                    for (const auto& [column, value] : *i) {
                        const bool component = column.starts_with(group) && column.size() > 7 &&
                                               std::isdigit(static_cast<unsigned char>(column[7])) &&
                                               column.find("_VL_CRED_") != std::string::npos &&
                                               column.find("_VL_TOTAL_PARCELA_INAD") == std::string::npos;
                        if (component) {
                            components.Add(Number(*i, column));
                        }
                    }
                }
            }
            const bool components_case = components.Missing() > 0 && components.Partial();
            if (!pdd_case && counts_missing == 0 && !components_case) {
                continue;
            }
            const std::string target = "/v1/classes/" + ClassIdOf(cnpj) + "/snapshot?month=" + month;
            const json::value data = Data(target);
            ASSERT_TRUE(data.is_object()) << target;
            const auto& s = data.as_object();
            const Expected e = Recompute(cnpj, month);
            if (pdd_case) {
                ++pdd_cases;
                EXPECT_TRUE(s.at("pdd_brl").is_null()) << target;
                EXPECT_TRUE(s.at("pdd_ratio").is_null()) << target;
                EXPECT_TRUE(s.at("receivables_brl").is_null()) << target;
                EXPECT_TRUE(Matches(s.at("pdd_partial_brl"),
                                    std::fabs(*Number(*i, "TAB_I2B11_VL_REDUCAO_RECUP")), target));
                EXPECT_EQ(s.at("pdd_partial_missing"), (json::array{"TAB_I2A11_VL_REDUCAO_RECUP"})) << target;
            }
            if (components_case) {
                ++component_cases;
                const auto& receivables = s.at("receivables").as_object();
                EXPECT_TRUE(receivables.at("components_brl").is_null()) << target;
                EXPECT_TRUE(Matches(receivables.at("components_partial_brl"), components.Partial(), target));
                EXPECT_EQ(receivables.at("components_partial_missing").as_array().size(),
                          components.Missing())
                    << target;
            }
            if (counts_missing > 0) {
                ++investor_cases;
                EXPECT_TRUE(s.at("investor_count").is_null()) << target;
                EXPECT_TRUE(s.at("investor_count_delta").is_null()) << target;
                EXPECT_TRUE(Matches(s.at("investor_count_reported"), e.investors_reported, target));
                EXPECT_EQ(s.at("series_total").as_int64() - s.at("series_reporting").as_int64(),
                          static_cast<std::int64_t>(counts_missing))
                    << target;
                // The month after compares with a null count: no delta there either.
                const auto months = Files().MonthsOf(cnpj);
                if (std::find(months.begin(), months.end(), NextMonth(month)) != months.end()) {
                    const json::value after =
                        Data("/v1/classes/" + ClassIdOf(cnpj) + "/snapshot?month=" + NextMonth(month));
                    ASSERT_TRUE(after.is_object());
                    EXPECT_TRUE(after.as_object().at("investor_count_previous").is_null());
                    EXPECT_TRUE(after.as_object().at("investor_count_delta").is_null());
                }
            }
        }
    }
    EXPECT_GT(pdd_cases, 0u) << "the sample has no report with an empty TAB_I2A11_VL_REDUCAO_RECUP";
    EXPECT_GT(investor_cases, 0u) << "the sample has no series with an empty TAB_X_NR_COTST";
    EXPECT_GT(component_cases, 0u) << "the sample has no report with an empty receivable component";
}

TEST_P(FidcTest, ScreeningFiltersTheLatestMonth) {
    const std::string month = *Files().Months().rbegin();
    // Fund types from the registry file, the way CVM publishes it.
    std::map<std::string, std::string> fund_type;
    const auto funds = ReadCvmCsvFile(D().SampleDir() / "registro_fundo.csv");
    for (const auto& row : funds.rows) {
        fund_type[row.at("CNPJ_Fundo")] = row.at("Tipo_Fundo");
    }
    const double threshold = 50'000'000;
    std::vector<json::object> rows;
    std::string cursor;
    for (int page = 0; page < 100; ++page) {
        HttpResponse r = Get("/v1/screening?fund_type=FIDC&min_nav_brl=50000000&limit=7" +
                             (cursor.empty() ? "" : "&cursor=" + cursor));
        ASSERT_EQ(r.status, 200) << r.body;
        const auto body = json::parse(r.body).as_object();
        for (const auto& item : body.at("data").as_array()) {
            rows.push_back(item.as_object());
        }
        const auto& pagination = body.at("meta").as_object().at("pagination").as_object();
        if (!pagination.at("has_more").as_bool()) {
            break;
        }
        cursor = std::string(pagination.at("next_cursor").as_string());
    }
    ASSERT_FALSE(rows.empty());
    std::set<std::string> seen;
    double previous = std::numeric_limits<double>::infinity();
    for (const auto& row : rows) {
        ASSERT_TRUE(HasDeclaredShape(row, DeclaredFields("funds.screening"), "screening"));
        EXPECT_TRUE(seen.insert(std::string(row.at("class_id").as_string())).second) << "repeated row";
        EXPECT_EQ(row.at("fund_type"), json::value("FIDC"));
        EXPECT_EQ(row.at("month"), json::value(month));
        const double nav = row.at("nav_brl").to_number<double>();
        EXPECT_GE(nav, threshold);
        EXPECT_LE(nav, previous) << "not sorted by nav_brl descending";
        previous = nav;
        const std::string cnpj(row.at("cnpj").as_string());
        EXPECT_TRUE(Matches(row.at("nav_brl"), Recompute(cnpj, month).nav, "screening nav " + cnpj));
    }
}

TEST_P(FidcTest, AssetPortfolioPagesToTheEndAndLaterPagesAreIncluded) {
    // The class with the most CDA positions in the latest CDA month.
    std::map<std::pair<std::string, std::string>, std::size_t> counts;
    std::string latest;
    for (const auto& file : D().SampleFiles("cda_fi_", ".zip")) {
        for (const auto& member : ReadCvmZip(D().SampleDir() / file)) {
            if (member.name.find("BLC_") == std::string::npos && member.name.rfind("cda_fie_", 0) != 0) {
                continue;
            }
            if (member.name.find("CONFID") != std::string::npos) {
                continue;
            }
            for (const auto& row : member.rows) {
                const std::string month = row.at("DT_COMPTC").substr(0, 7);
                ++counts[{CnpjDigits(row.at("CNPJ_FUNDO_CLASSE")), month}];
                latest = std::max(latest, month);
            }
        }
    }
    std::string cnpj;
    std::size_t most = 0;
    for (const auto& [key, n] : counts) {
        if (key.second == latest && n > most && !ClassIdOf(key.first).empty()) {
            cnpj = key.first;
            most = n;
        }
    }
    ASSERT_GT(most, 200u) << "the sample should hold a class with over 200 positions";
    const std::string base = "/v1/classes/" + ClassIdOf(cnpj) + "/carteira/ativos?month=" + latest;
    std::size_t total = 0;
    std::string cursor;
    int pages = 0;
    for (; pages < 20; ++pages) {
        HttpResponse r = Get(base + "&limit=100" + (cursor.empty() ? "" : "&cursor=" + cursor));
        ASSERT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.Header("X-Credits-Cost"), pages == 0 ? "1" : "0");
        EXPECT_EQ(r.Header("X-Credits-Charged"), pages == 0 ? "1" : "0");
        const auto body = json::parse(r.body).as_object();
        for (const auto& item : body.at("data").as_array()) {
            ASSERT_TRUE(
                HasDeclaredShape(item.as_object(), DeclaredFields("funds.class_portfolio_assets"), "ativos"));
            ++total;
        }
        const auto& pagination = body.at("meta").as_object().at("pagination").as_object();
        if (!pagination.at("has_more").as_bool()) {
            break;
        }
        cursor = std::string(pagination.at("next_cursor").as_string());
    }
    EXPECT_EQ(total, most);
    EXPECT_GE(pages, 2);
    HttpResponse absent = Get("/v1/classes/" + ClassIdOf(cnpj) + "/carteira/ativos?month=2019-01");
    EXPECT_EQ(absent.status, 404) << absent.body;
}

// The subclass held (docs/api/portfolio.md), recomputed when the invested class's report of the
// CDA's month names every held subclass in X_1: its seniority, and the NAV of the series junior
// to it over every series' NAV (X_2). True when it recomputed them.
bool ExpectHeldSubclass(const SampleFidcReports& files, const json::object& row,
                        const std::set<std::string>& held, const std::string& invested,
                        const std::string& month) {
    SCOPED_TRACE(invested + " " + month);
    json::array ids;
    for (const std::string& id : held) {
        ids.push_back(json::value(id));
    }
    EXPECT_EQ(row.at("held_subclass_ids"), json::value(ids));
    if (held.empty()) {
        EXPECT_TRUE(row.at("held_seniority").is_null());
        return false;
    }
    std::set<std::string> seniorities;
    std::size_t named = 0;
    for (const auto& x1 : files.Rows("X_1", invested, month)) {
        if (held.contains(x1.at("ID_SUBCLASSE"))) {
            seniorities.insert(SeniorityOf(x1.at("TAB_X_CLASSE_SERIE")));
            ++named;
        }
    }
    if (named != held.size() || row.at("identity_status") != json::value("unique_class")) {
        return false;  // an earlier report may name them; the unit tests cover the as-of rule
    }
    EXPECT_EQ(row.at("held_as_of"), json::value(month));
    if (seniorities.size() > 1) {
        EXPECT_EQ(row.at("held_seniority"), json::value("mixed"));
        return true;
    }
    const std::string seniority = *seniorities.begin();
    EXPECT_EQ(row.at("held_seniority"), json::value(seniority));
    const auto rank = [](const std::string& s) {
        return s == "senior" ? 3 : s == "mezzanine" ? 2 : s == "subordinated" ? 1 : 0;
    };
    std::optional<double> junior = 0.0, total = 0.0;
    for (const auto& x2 : files.Rows("X_2", invested, month)) {
        const std::optional<double> quotas = Number(x2, "TAB_X_QT_COTA");
        const std::optional<double> value = Number(x2, "TAB_X_VL_COTA");
        const int series_rank = rank(SeniorityOf(x2.at("TAB_X_CLASSE_SERIE")));
        if (!quotas || !value || series_rank == 0 || !junior) {
            junior.reset();
            continue;
        }
        *total += *quotas * *value;
        if (series_rank < rank(seniority)) {
            *junior += *quotas * *value;
        }
    }
    EXPECT_TRUE(Matches(row.at("held_protection_ratio"),
                        rank(seniority) > 0 && junior ? Ratio(junior, total) : std::nullopt,
                        "held_protection_ratio"));
    return true;
}

TEST_P(FidcTest, InvestedFundsAreTheBlock2PositionsInRegistryFunds) {
    std::size_t compared = 0;
    std::map<std::string, std::size_t> held_recomputed;  // seniority -> rows
    for (const auto& file : D().SampleFiles("cda_fi_", ".zip")) {
        if (compared > 0) {
            break;
        }
        for (const auto& member : ReadCvmZip(D().SampleDir() / file)) {
            if (member.name.find("BLC_2") == std::string::npos) {
                continue;
            }
            // holder -> invested -> summed market value, and the subclasses held (ID_SUBCLASSE)
            std::map<std::string, std::map<std::string, Sum>> positions;
            std::map<std::string, std::map<std::string, std::set<std::string>>> held;
            std::string month;
            for (const auto& row : member.rows) {
                month = row.at("DT_COMPTC").substr(0, 7);
                const std::string holder = CnpjDigits(row.at("CNPJ_FUNDO_CLASSE"));
                const std::string invested = CnpjDigits(row.at("CNPJ_FUNDO_CLASSE_COTA"));
                positions[holder][invested].Add(Number(row, "VL_MERC_POS_FINAL"));
                if (!row.at("ID_SUBCLASSE").empty()) {
                    held[holder][invested].insert(row.at("ID_SUBCLASSE"));
                }
            }
            for (const auto& [holder, invested] : positions) {
                if (ClassIdOf(holder).empty() || compared >= 3) {
                    continue;
                }
                const json::value data =
                    Data("/v1/classes/" + ClassIdOf(holder) + "/carteira/fundos?month=" + month);
                ASSERT_TRUE(data.is_array());
                for (const auto& item : data.as_array()) {
                    const auto& o = item.as_object();
                    ASSERT_TRUE(HasDeclaredShape(o, DeclaredFields("funds.class_portfolio_funds"), "fundos"));
                    const std::string cnpj(o.at("invested_cnpj").as_string());
                    ASSERT_TRUE(invested.count(cnpj)) << cnpj << " is not a BLC_2 position of " << holder;
                    EXPECT_TRUE(
                        Matches(o.at("position_brl"), invested.at(cnpj).Value(), holder + " -> " + cnpj));
                    if (ExpectHeldSubclass(Files(), o, held[holder][cnpj], cnpj, month)) {
                        ++held_recomputed[std::string(o.at("held_seniority").as_string())];
                    }
                }
                ++compared;
            }
        }
    }
    EXPECT_GT(compared, 0u);
    // The sample's holders buy senior and subordinated subclasses alike.
    EXPECT_GT(held_recomputed["senior"], 0u);
    EXPECT_GT(held_recomputed["subordinated"], 0u);
}

TEST_P(FidcTest, DocumentsAndSubclassesComeFromTheirFiles) {
    std::map<std::string, std::size_t> documents;  // CNPJ -> rows
    for (const auto& file : D().SampleFiles("eventual_fi_", ".csv")) {
        for (const auto& row : ReadCvmCsvFile(D().SampleDir() / file).rows) {
            ++documents[CnpjDigits(row.at("CNPJ_FUNDO_CLASSE"))];
        }
    }
    std::string cnpj;
    for (const auto& [c, n] : documents) {
        if (n > documents[cnpj] && !ClassIdOf(c).empty()) {
            cnpj = c;
        }
    }
    ASSERT_FALSE(cnpj.empty());
    const std::string base = "/v1/classes/" + ClassIdOf(cnpj) + "/documentos";
    std::set<std::string> ids;
    for (int offset = 0; offset < 1000; offset += 20) {
        const json::value page = Data(base + "?limit=20&offset=" + std::to_string(offset));
        ASSERT_TRUE(page.is_array());
        for (const auto& item : page.as_array()) {
            ASSERT_TRUE(
                HasDeclaredShape(item.as_object(), DeclaredFields("funds.class_documents"), "documentos"));
            EXPECT_TRUE(ids.insert(std::string(item.as_object().at("document_id").as_string())).second);
        }
        if (page.as_array().size() < 20) {
            break;
        }
    }
    EXPECT_GE(ids.size(), documents[cnpj]);  // the fund's own filings may add to the class's
    HttpResponse inverted = Get(base + "?start_year=2026&end_year=2025");
    EXPECT_EQ(inverted.status, 400) << inverted.body;

    std::map<std::string, std::size_t> subclasses;  // class CNPJ -> rows
    for (const auto& row : ReadCvmCsvFile(D().SampleDir() / "anbima_subclasses.csv", false).rows) {
        ++subclasses[row.at("class_cnpj")];
    }
    std::size_t compared = 0;
    for (const auto& [class_cnpj, n] : subclasses) {
        if (compared >= 3 || ClassIdOf(class_cnpj).empty()) {
            continue;
        }
        const json::value data = Data("/v1/classes/" + ClassIdOf(class_cnpj) + "/subclasses");
        ASSERT_TRUE(data.is_array());
        EXPECT_EQ(data.as_array().size(), n) << class_cnpj;
        for (const auto& item : data.as_array()) {
            ASSERT_TRUE(
                HasDeclaredShape(item.as_object(), DeclaredFields("funds.class_subclasses"), "subclasses"));
        }
        ++compared;
    }
    EXPECT_GT(compared, 0u);
}

TEST_P(FidcTest, EveryAnswerNamesTheSourceOfEachOfItsFields) {
    // One answer of each operation: a class with a CDA (the latest CDA file's first position).
    std::string cnpj;
    std::string cda_month;
    const auto cda_files = D().SampleFiles("cda_fi_", ".zip");
    ASSERT_FALSE(cda_files.empty());
    for (const auto& member : ReadCvmZip(D().SampleDir() / cda_files.back())) {
        for (const auto& row : member.rows) {
            if (cnpj.empty() && !ClassIdOf(CnpjDigits(row.at("CNPJ_FUNDO_CLASSE"))).empty()) {
                cnpj = CnpjDigits(row.at("CNPJ_FUNDO_CLASSE"));
                cda_month = row.at("DT_COMPTC").substr(0, 7);
            }
        }
    }
    ASSERT_FALSE(cnpj.empty());
    const std::string class_path = "/v1/classes/" + ClassIdOf(cnpj);
    const std::string report_month = *Files().Months().rbegin();
    HttpResponse funds = Get("/v1/fundos?limit=1");
    ASSERT_EQ(funds.status, 200) << funds.body;
    const std::string fund_id(json::parse(funds.body).at("data").at(0).at("fund_id").as_string());
    const std::vector<std::pair<std::string, std::string>> answers = {
        {"funds.search", "/v1/fundos?limit=3"},
        {"funds.classes", "/v1/fundos/" + fund_id + "/classes"},
        {"funds.screening", "/v1/screening?limit=3"},
        {"funds.class_snapshot", class_path + "/snapshot"},
        {"funds.class_quotas", class_path + "/cotas"},
        {"funds.class_quota_operations", class_path + "/cotas/operacoes"},
        {"funds.class_delinquency_bands",
         class_path + "/carteira/inadimplencia/faixas?month=" + report_month},
        {"funds.class_portfolio_assets", class_path + "/carteira/ativos?month=" + cda_month},
        {"funds.class_portfolio_funds", class_path + "/carteira/fundos?month=" + cda_month},
        {"funds.class_documents", class_path + "/documentos"},
        {"funds.class_subclasses", class_path + "/subclasses"},
    };
    for (const auto& [operation, target] : answers) {
        HttpResponse r = Get(target);
        if (operation == "funds.class_delinquency_bands" && r.status == 404) {
            continue;  // the class did not report the latest month
        }
        ASSERT_EQ(r.status, 200) << target << ": " << r.body;
        const json::object meta = json::parse(r.body).at("meta").as_object();
        ASSERT_TRUE(meta.contains("field_sources") && meta.at("field_sources").is_object()) << target;
        const json::object& sources = meta.at("field_sources").as_object();
        std::vector<std::string> declared;
        for (const auto& field : DeclaredFields(operation)) {
            declared.emplace_back(field.at("name").as_string());
        }
        std::vector<std::string> named;
        for (const auto& [field, source] : sources) {
            named.emplace_back(field);
            EXPECT_TRUE(source.is_string() && !source.as_string().empty()) << target << ": " << field;
        }
        EXPECT_EQ(named, declared) << target;
    }
    HttpResponse fundos = Get("/v1/fundos?limit=1");
    EXPECT_EQ(json::parse(fundos.body).at("meta").at("field_sources").at("cnpj"),
              json::value("registro_fundo.CNPJ_Fundo"));
    // /v1/resolve names its matches' kinds in matched_as instead.
    HttpResponse resolve = Get("/v1/resolve?cnpj=" + cnpj);
    ASSERT_EQ(resolve.status, 200) << resolve.body;
    EXPECT_FALSE(json::parse(resolve.body).at("meta").as_object().contains("field_sources"));
}

// Money as published (docs/api.md, "Numbers"): in the raw text of every answer, every number of
// a field named *_brl has at most two decimals (the host prints doubles in their shortest form,
// so an exact cent amount never shows more). Only the per-quota prices carry more.
::testing::AssertionResult BrlAmountsHaveAtMostTwoDecimals(const std::string& body, const std::string& target,
                                                           std::size_t& amounts) {
    static const std::set<std::string> kPricesPerQuota = {"quota_value_brl", "amortization_per_share_brl"};
    static const std::regex kAmount(R"re("([A-Za-z0-9_]*_brl)":(-?[0-9][0-9.eE+-]*))re");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), kAmount); it != std::sregex_iterator();
         ++it) {
        const std::string field = (*it)[1];
        const std::string number = (*it)[2];
        if (kPricesPerQuota.contains(field)) {
            continue;
        }
        ++amounts;
        const auto point = number.find('.');
        const bool exponent = number.find_first_of("eE") != std::string::npos;
        if (exponent || (point != std::string::npos && number.size() - point - 1 > 2)) {
            return ::testing::AssertionFailure() << target << ": " << field << " = " << number;
        }
    }
    return ::testing::AssertionSuccess();
}

TEST_P(FidcTest, EveryBrlAmountHasAtMostTwoDecimals) {
    std::size_t amounts = 0;
    std::set<std::string> operations;
    const auto check = [&](const std::string& operation, const std::string& target) {
        HttpResponse r = Get(target);
        ASSERT_EQ(r.status, 200) << target << ": " << r.body;
        operations.insert(operation);
        EXPECT_TRUE(BrlAmountsHaveAtMostTwoDecimals(r.body, target, amounts));
    };
    // Every class of the FIDC files: the snapshot of every other month (it sums the most; a
    // fifth of the sample's float sums of receivables are noisy, so this reads thousands), its
    // quotas and quota operations over every month, the delinquency bands of a month in three.
    for (const auto& cnpj : Files().Cnpjs()) {
        const std::string id = ClassIdOf(cnpj);
        if (id.empty()) {
            continue;
        }
        const std::string base = "/v1/classes/" + id;
        const auto months = Files().MonthsOf(cnpj);
        for (std::size_t m = 0; m < months.size(); ++m) {
            if (m % 2 == 0) {
                check("funds.class_snapshot", base + "/snapshot?month=" + months[m]);
            }
            if (m % 3 == 0) {
                check("funds.class_delinquency_bands",
                      base + "/carteira/inadimplencia/faixas?month=" + months[m]);
            }
        }
        check("funds.class_quotas", base + "/cotas");
        check("funds.class_quota_operations", base + "/cotas/operacoes");
        check("funds.class_documents", base + "/documentos");
        check("funds.class_subclasses", base + "/subclasses");
    }
    // Every month screened, every page.
    for (const auto& month : Files().Months()) {
        std::string cursor;
        for (int page = 0; page < 50; ++page) {
            const std::string target =
                "/v1/screening?month=" + month + "&limit=100" + (cursor.empty() ? "" : "&cursor=" + cursor);
            HttpResponse r = Get(target);
            ASSERT_EQ(r.status, 200) << target << ": " << r.body;
            operations.insert("funds.screening");
            EXPECT_TRUE(BrlAmountsHaveAtMostTwoDecimals(r.body, target, amounts));
            const json::value body = json::parse(r.body);
            const auto& pagination = body.at("meta").at("pagination").as_object();
            if (!pagination.at("has_more").as_bool()) {
                break;
            }
            cursor = std::string(pagination.at("next_cursor").as_string());
        }
    }
    // Every CDA holder in every CDA month: its invested funds and its first page of assets.
    for (const auto& file : D().SampleFiles("cda_fi_", ".zip")) {
        std::set<std::pair<std::string, std::string>> holders;
        for (const auto& member : ReadCvmZip(D().SampleDir() / file)) {
            if (member.name.find("PL") == std::string::npos) {
                continue;
            }
            for (const auto& row : member.rows) {
                holders.insert({CnpjDigits(row.at("CNPJ_FUNDO_CLASSE")), row.at("DT_COMPTC").substr(0, 7)});
            }
        }
        for (const auto& [holder, month] : holders) {
            if (ClassIdOf(holder).empty()) {
                continue;
            }
            const std::string base = "/v1/classes/" + ClassIdOf(holder);
            check("funds.class_portfolio_funds", base + "/carteira/fundos?month=" + month);
            check("funds.class_portfolio_assets", base + "/carteira/ativos?month=" + month + "&limit=100");
        }
    }
    // The registry's answers: a page of funds and the classes of each.
    HttpResponse funds = Get("/v1/fundos?limit=100");
    ASSERT_EQ(funds.status, 200) << funds.body;
    operations.insert("funds.search");
    EXPECT_TRUE(BrlAmountsHaveAtMostTwoDecimals(funds.body, "/v1/fundos", amounts));
    const json::value listed = json::parse(funds.body);
    for (const auto& fund : listed.at("data").as_array()) {
        check("funds.classes", "/v1/fundos/" + std::string(fund.at("fund_id").as_string()) + "/classes");
    }
    // Every operation of the plugin that serves BRL amounts was read.
    for (const char* operation :
         {"funds.search", "funds.classes", "funds.screening", "funds.class_snapshot", "funds.class_quotas",
          "funds.class_quota_operations", "funds.class_delinquency_bands", "funds.class_portfolio_assets",
          "funds.class_portfolio_funds"}) {
        EXPECT_TRUE(operations.contains(operation)) << operation;
    }
    EXPECT_GT(amounts, 10000u);
}

INSTANTIATE_TEST_SUITE_P(Sqlite, FidcTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, FidcTest, ::testing::Values(Backend::kPostgres), BackendParamName);

}  // namespace
}  // namespace lastro::funds::e2e
