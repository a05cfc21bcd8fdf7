// GET /v1/series-diarias/{cnpj}/identidades: the series of CVM's daily reports under a CNPJ,
// with what each covers, and the FIDC registry's fund or class of that CNPJ through the funds
// plugin's locator (docs/api/series-diarias.md). A registry entry certifies no observation:
// the months with rows are listed per series.
#include "domain/daily/daily_days.hpp"
#include "src/daily/daily_store.hpp"
#include "src/daily/published_json.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>

#include <boost/describe/class.hpp>

namespace lastro::series {

// Where a page of identities starts: after the series `after` (a source_series_id).
struct IdentityAfter {
    std::string after;
    bool Valid() const { return after.starts_with("inf_diario_fi:") && after.size() <= 80; }
};
BOOST_DESCRIBE_STRUCT(IdentityAfter, (), (after))

namespace {

constexpr const char* kIssuer = "/v1/series-diarias/{cnpj}/identidades";

std::string MonthText(int month) {
    return sdk::Month{month / 100, month % 100}.ToString();
}

int MonthIndex(int month) {
    return (month / 100) * 12 + month % 100 - 1;
}

// Runs of consecutive months with rows.
void WritePeriods(sdk::JsonText& json, const std::vector<MonthRows>& months) {
    json.BeginArray();
    for (std::size_t i = 0; i < months.size();) {
        std::size_t j = i;
        std::size_t rows = months[i].rows;
        while (j + 1 < months.size() && MonthIndex(months[j + 1].month) == MonthIndex(months[j].month) + 1) {
            ++j;
            rows += months[j].rows;
        }
        json.BeginObject();
        json.Key("from").Value(MonthText(months[i].month));
        json.Key("to").Value(MonthText(months[j].month));
        json.Key("months").Value(static_cast<std::int64_t>(j - i + 1));
        json.Key("rows").Value(static_cast<std::int64_t>(rows));
        json.EndObject();
        i = j + 1;
    }
    json.EndArray();
}

struct RegistryLink {
    std::optional<std::string> fund_id;
    std::optional<std::string> class_id;
};

RegistryLink Link(const funds::Located& located) {
    RegistryLink link;
    if (!located.classes.empty()) {
        link.class_id = located.classes.front().class_id;
        link.fund_id = located.classes.front().fund_id;
    } else if (!located.funds.empty()) {
        link.fund_id = located.funds.front().fund_id;
    }
    return link;
}

}  // namespace

sdk::Result HandleFundIdentities(const funds::FundLocator* locator, const sdk::RequestContext& context) {
    const std::string cnpj = *context.params.String("cnpj");
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kInfDiarioDataset, "cvm.registro_fundo_classe"});
    sdk::SqlSession sql(context.db);
    DailyStore store(sql);
    const std::vector<DailySeries> series = context.host.LatestRelease(std::string(kInfDiarioDataset))
                                                ? store.SeriesOf(cnpj)
                                                : std::vector<DailySeries>();
    const funds::Located located = locator ? locator->ByCnpj(context.db, cnpj) : funds::Located{};
    if (series.empty() && located.Empty()) {
        throw sdk::NotFound("neither CVM's daily reports nor the FIDC registry know CNPJ " + cnpj, "cnpj");
    }
    const RegistryLink link = Link(located);

    const std::size_t limit = sdk::PageLimit(context.params, 100);
    std::size_t first = 0;
    if (const auto position = sdk::ReadPosition<IdentityAfter>(context.cursor_position, kIssuer)) {
        while (first < series.size() && SourceSeriesId(series[first]) <= position->after) {
            ++first;
        }
    }
    const std::size_t end = std::min(series.size(), first + limit);

    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = first; i < end; ++i) {
        const DailySeries& one = series[i];
        const SeriesCoverage coverage = store.CoverageOf(one.id);
        json.BeginObject();
        json.Key("source_series_id").Value(SourceSeriesId(one));
        json.Key("origin").Value(kInfDiarioDataset);
        json.Key("cnpj").Value(one.cnpj);
        json.Key("subclass")
            .Value(one.subclass.empty() ? std::nullopt : std::optional<std::string>(one.subclass));
        json.Key("fund_type").Value(one.fund_type);
        json.Key("first_date")
            .Value(coverage.rows ? std::optional<std::string>(DayText(coverage.first_day)) : std::nullopt);
        json.Key("last_date")
            .Value(coverage.rows ? std::optional<std::string>(DayText(coverage.last_day)) : std::nullopt);
        json.Key("rows").Value(static_cast<std::int64_t>(coverage.rows));
        json.Key("last_net_worth");
        WritePublished(json, coverage.last_net_worth);
        json.Key("periods_with_rows");
        WritePeriods(json, coverage.months);
        json.Key("fund_id").Value(link.fund_id);
        json.Key("class_id").Value(link.class_id);
        json.EndObject();
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = end - first;
    if (end < series.size()) {
        result.meta.next_position = sdk::PositionValue(IdentityAfter{SourceSeriesId(series[end - 1])});
    }
    boost::json::object registry{
        {"fund_id", link.fund_id ? boost::json::value(*link.fund_id) : nullptr},
        {"class_id", link.class_id ? boost::json::value(*link.class_id) : nullptr},
        {"note",
         "a registry entry does not certify that daily observations exist; periods_with_rows says which "
         "months each series has"},
    };
    result.meta.extra["registry"] = std::move(registry);
    return result;
}

}  // namespace lastro::series
