// desempenho and identidades on a plugin database (SQLite, or PostgreSQL with
// LASTRO_TEST_BACKEND), over daily reports written here in CVM's layout and the real SGS 12 CDI:
// every return and CDI figure recomputed here in 50-digit decimals from the files' own text, the
// choice of series, as_of after a republication, months, pages and the errors.
#include "ingest/inf_diario/inf_diario_ingester.hpp"
#include "ingest/sgs/sgs_ingester.hpp"
#include "src/handlers.hpp"
#include "src/series_catalog.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/testing/registrations.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>
#include <boost/multiprecision/cpp_dec_float.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace lastro::series {
namespace {

namespace fs = std::filesystem;
using Dec = boost::multiprecision::cpp_dec_float_50;
using sdk::testing::CallHandler;
using sdk::testing::RunIngest;

const fs::path kManifest = fs::path(LASTRO_SOURCE_DIR) / "plugins/series/manifest.yaml";
const fs::path kRealCdi =
    fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/bcb_sgs/sgs12_cdi_daily_2016-2026.json";
constexpr std::time_t kFirstIngest = 1707100000;  // 2024-02-05
constexpr std::time_t kRepublished = 1708400000;  // 2024-02-20
constexpr const char* kCnpj = "00017024000153";
const std::string kHeader =
    "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_"
    "DIA;"
    "NR_COTST\n";

const SeriesCatalog& Catalog() {
    static const SeriesCatalog catalog(sdk::testing::ReadManifestDeclarations(kManifest).declared);
    return catalog;
}

// The real SGS 12 of January and February 2024, read here: date -> rate text.
std::map<std::string, std::string> RealCdi() {
    std::ifstream in(kRealCdi);
    std::stringstream text;
    text << in.rdbuf();
    std::map<std::string, std::string> rates;
    std::string json = text.str();
    if (json.starts_with("\xEF\xBB\xBF")) {  // SGS answers may carry a byte order mark
        json.erase(0, 3);
    }
    const boost::json::value answer = boost::json::parse(json);
    for (const auto& item : answer.as_array()) {
        const std::string br(item.at("data").as_string());  // dd/MM/yyyy
        const std::string iso = br.substr(6, 4) + "-" + br.substr(3, 2) + "-" + br.substr(0, 2);
        if (iso >= "2024-01-01" && iso <= "2024-03-31") {
            rates[iso] = std::string(item.at("valor").as_string());
        }
    }
    return rates;
}

std::string Fixed12(const Dec& value) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(12) << value;
    return out.str();
}

// A DI fund at 110 % of the CDI: each business day's quota is the previous one grown by 1.1 x
// the previous day's CDI rate, truncated to 12 decimals, as CVM prints quotas.
struct FundFile {
    std::vector<std::pair<std::string, std::string>> quotas;  // day, quota text
    std::string Csv(const std::string& subclass = "") const {
        std::string csv = kHeader;
        for (const auto& [day, quota] : quotas) {
            csv += std::string("CLASSES - FIF;00.017.024/0001-53;") + subclass + ";" + day + ";1000.00;" +
                   quota + ";1000.00;0.00;0.00;7\n";
        }
        return csv;
    }
};

FundFile DiFund(const std::map<std::string, std::string>& cdi, const std::string& first,
                const std::string& last) {
    FundFile fund;
    Dec quota("1.000000000000");
    std::optional<std::string> previous;
    for (const auto& [day, rate] : cdi) {
        if (day < first || day > last) {
            continue;
        }
        if (previous) {
            quota = boost::multiprecision::trunc(quota * (1 + Dec("1.1") * Dec(cdi.at(*previous)) / 100) *
                                                 Dec("1e12")) /
                    Dec("1e12");
        }
        fund.quotas.emplace_back(day, Fixed12(quota));
        previous = day;
    }
    return fund;
}

class DailyHandlers : public sdk::testing::PluginDatabase {
public:
    DailyHandlers() : PluginDatabase("series") {
        SgsIngester cdi(*Catalog().Find(12));
        RunIngest(cdi, Db(), "bcb.sgs.12", {kRealCdi}, kFirstIngest);
        host_.SetRelease("bcb.sgs.12", "test").SetRelease("cvm.inf_diario_fi", "test");
    }
    void Ingest(const std::string& name, const std::string& csv, std::time_t now) {
        const fs::path path = Subdir("in" + std::to_string(now)) / name;
        std::ofstream(path, std::ios::binary) << csv;
        InfDiarioIngester ingester;
        RunIngest(ingester, Db(), "cvm.inf_diario_fi", {path}, now);
    }
    sdk::Result Performance(std::initializer_list<std::pair<const char*, std::string>> texts,
                            const std::optional<boost::json::value>& position = std::nullopt) {
        return CallHandler([](const sdk::RequestContext& c) { return HandleFundPerformance(Catalog(), c); },
                           Db(), Params(texts), host_, position);
    }
    sdk::Result Identities() {
        return CallHandler([](const sdk::RequestContext& c) { return HandleFundIdentities(nullptr, c); },
                           Db(), Params({}), host_);
    }

private:
    static sdk::Params Params(std::initializer_list<std::pair<const char*, std::string>> texts) {
        sdk::Params params;
        params.Set("cnpj", std::string(kCnpj));
        params.Set("frequency", std::string("daily"));
        for (const auto& [name, value] : texts) {
            if (std::string(name) == "limit") {
                params.Set(name, static_cast<std::int64_t>(std::stoll(value)));
            } else if (std::string(name) == "as_of") {
                params.Set(name, *sdk::Date::Parse(value));
            } else {
                params.Set(name, value);
            }
        }
        return params;
    }
    sdk::testing::FakeHost host_;
};

double Num(const boost::json::value& v) {
    return v.to_number<double>();
}

void ExpectRelative(double served, const Dec& expected, const std::string& what) {
    const double e = expected.convert_to<double>();
    EXPECT_NEAR(served, e, std::abs(e) * 1e-12 + 1e-15) << what;
}

TEST(FundDailyHandlers, EveryReturnAndCdiFigureRecomputesFromTheFiles) {
    DailyHandlers db;
    const auto cdi = RealCdi();
    const FundFile fund = DiFund(cdi, "2024-01-02", "2024-02-29");
    db.Ingest("inf_diario_fi_202401.csv", FundFile{{fund.quotas.begin(), fund.quotas.begin() + 22}}.Csv(),
              kFirstIngest);
    db.Ingest("inf_diario_fi_202402.csv", FundFile{{fund.quotas.begin() + 22, fund.quotas.end()}}.Csv(),
              kFirstIngest + 100);

    const sdk::Result result = db.Performance({{"limit", "500"}, {"to_date", "2024-02-29"}});
    const auto& rows = result.data.as_array();
    ASSERT_EQ(rows.size(), fund.quotas.size());
    ASSERT_TRUE(result.data_json.has_value());
    EXPECT_NE(result.data_json->find("\"quota\":1.000000000000"), std::string::npos) << "published text kept";
    const Dec first(fund.quotas.front().second);
    Dec cdi_growth = 1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        EXPECT_EQ(row.at("date").as_string(), fund.quotas[i].first);
        if (i == 0) {
            EXPECT_TRUE(row.at("return").is_null());
            continue;
        }
        const Dec quota(fund.quotas[i].second);
        const Dec previous(fund.quotas[i - 1].second);
        const Dec cdi_return = Dec(cdi.at(fund.quotas[i - 1].first)) / 100;  // [previous day, day)
        cdi_growth *= 1 + cdi_return;
        ExpectRelative(Num(row.at("return")), quota / previous - 1, "return " + fund.quotas[i].first);
        ExpectRelative(Num(row.at("accumulated_return")), quota / first - 1, "accumulated");
        ExpectRelative(Num(row.at("cdi_return")), cdi_return, "cdi_return");
        ExpectRelative(Num(row.at("cdi_accumulated_return")), cdi_growth - 1, "cdi accumulated");
        ExpectRelative(Num(row.at("pct_of_cdi")), 100 * (quota / previous - 1) / cdi_return, "pct");
        // 110 % of the CDI, less the truncation of the quota to 12 decimals.
        EXPECT_NEAR(Num(row.at("pct_of_cdi")), 110.0, 0.01);
        EXPECT_EQ(row.at("investors").as_int64(), 7);
        EXPECT_FALSE(row.at("provisional").as_bool()) << "the months were written long after";
    }
    const auto& summary = result.meta.extra.at("summary");
    ExpectRelative(Num(summary.at("returns").at("since_first_quota")),
                   Dec(fund.quotas.back().second) / first - 1, "since first quota");
    EXPECT_EQ(summary.at("max_drawdown").at("value").to_number<double>(), 0.0);
    EXPECT_EQ(summary.at("gaps").as_array().size(), 0u);
    EXPECT_EQ(result.meta.extra.at("series").at("source_series_id").as_string(),
              "inf_diario_fi:00017024000153");

    // Months: one row each, at the month's last quota, its return from the previous month's.
    const sdk::Result months = db.Performance({{"frequency", "monthly"}, {"to_date", "2024-02-29"}});
    ASSERT_EQ(months.data.as_array().size(), 2u);
    const Dec january_last(fund.quotas[21].second);
    ExpectRelative(Num(months.data.at(1).at("return")), Dec(fund.quotas.back().second) / january_last - 1,
                   "February");
    EXPECT_EQ(months.data.at(0).at("date").as_string(), fund.quotas[21].first);

    // Pages of 7 rows chain to the whole range.
    std::vector<std::string> days;
    std::optional<boost::json::value> position;
    do {
        const sdk::Result page = db.Performance({{"limit", "7"}, {"to_date", "2024-02-29"}}, position);
        for (const auto& row : page.data.as_array()) {
            days.emplace_back(row.at("date").as_string());
        }
        position = page.meta.next_position;
    } while (position);
    ASSERT_EQ(days.size(), fund.quotas.size());
    EXPECT_EQ(days.back(), "2024-02-29");
}

TEST(FundDailyHandlers, AsOfServesWhatWasServedThatDay) {
    DailyHandlers db;
    const auto cdi = RealCdi();
    FundFile fund = DiFund(cdi, "2024-01-02", "2024-01-31");
    db.Ingest("inf_diario_fi_202401.csv", fund.Csv(), kFirstIngest);
    const std::string first_quota = fund.quotas[10].second;
    fund.quotas[10].second = "1.234567890123";  // CVM republishes one day with another quota
    db.Ingest("inf_diario_fi_202401.csv", fund.Csv(), kRepublished);

    const auto quota_on = [&](const sdk::Result& result) { return Num(result.data.at(10).at("quota")); };
    const sdk::Result now = db.Performance({{"limit", "500"}});
    EXPECT_EQ(quota_on(now), 1.234567890123);
    EXPECT_EQ(now.data.at(10).at("value_since").as_string(), "2024-02-20T03:33:20Z");
    EXPECT_EQ(now.data.at(10).at("first_seen_at").as_string(), "2024-02-05T02:26:40Z");
    const sdk::Result then = db.Performance({{"limit", "500"}, {"as_of", "2024-02-10"}});
    EXPECT_EQ(quota_on(then), std::stod(first_quota));
    EXPECT_EQ(then.data.as_array().size(), now.data.as_array().size());
    EXPECT_EQ(then.meta.extra.at("served_as_of").at("served_since").as_string(), "2024-02-05T02:26:40Z");
    EXPECT_THROW(db.Performance({{"as_of", "2024-02-01"}}), sdk::NotFound);  // before the first ingest
}

TEST(FundDailyHandlers, SeveralSeriesNeedSourceSeriesIdAndIdentitiesListThem) {
    DailyHandlers db;
    const auto cdi = RealCdi();
    FundFile january = DiFund(cdi, "2024-01-02", "2024-01-31");
    FundFile march = DiFund(cdi, "2024-03-01", "2024-03-28");
    db.Ingest("inf_diario_fi_202401.csv",
              january.Csv() + january.Csv("RBMFN1747320951").substr(kHeader.size()), kFirstIngest);
    db.Ingest("inf_diario_fi_202403.csv", march.Csv(), kFirstIngest + 100);

    try {
        db.Performance({});
        ADD_FAILURE() << "answered without source_series_id";
    } catch (const sdk::BadRequest& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("inf_diario_fi:00017024000153, inf_diario_fi:00017024000153:RBMFN1747320951"),
                  std::string::npos)
            << what;
    }
    EXPECT_THROW(db.Performance({{"source_series_id", "inf_diario_fi:00017024000153:OTHER"}}), sdk::NotFound);
    const sdk::Result sub = db.Performance(
        {{"source_series_id", "inf_diario_fi:00017024000153:RBMFN1747320951"}, {"limit", "500"}});
    EXPECT_EQ(sub.data.as_array().size(), january.quotas.size());
    EXPECT_THROW(db.Performance({{"source_series_id", "inf_diario_fi:00017024000153"},
                                 {"from_date", "2024-03-01"},
                                 {"to_date", "2024-02-01"}}),
                 sdk::InvalidParameter);

    const sdk::Result identities = db.Identities();
    const auto& items = identities.data.as_array();
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0].at("source_series_id").as_string(), "inf_diario_fi:00017024000153");
    EXPECT_TRUE(items[0].at("subclass").is_null());
    EXPECT_EQ(items[0].at("rows").as_int64(),
              static_cast<std::int64_t>(january.quotas.size() + march.quotas.size()));
    EXPECT_EQ(items[0].at("first_date").as_string(), "2024-01-02");
    EXPECT_EQ(items[0].at("last_date").as_string(), march.quotas.back().first);
    // January and March have rows, February none: two runs.
    const auto& periods = items[0].at("periods_with_rows").as_array();
    ASSERT_EQ(periods.size(), 2u);
    EXPECT_EQ(periods[0].at("from").as_string(), "2024-01");
    EXPECT_EQ(periods[1].at("from").as_string(), "2024-03");
    EXPECT_EQ(items[1].at("subclass").as_string(), "RBMFN1747320951");
    EXPECT_TRUE(items[1].at("fund_id").is_null());
}

}  // namespace
}  // namespace lastro::series
