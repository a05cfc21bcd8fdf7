// The holidays example plugin (manifest.yaml beside this file; examples/README.md): an ingester
// that replaces the table with the file's holidays, a handler that lists one year's, and a sample
// writer that writes the fixed-date national holidays of a few years. It includes only the SDK.
#include "holidays_model-odb.hxx"
#include "holidays_model.hxx"

#include <lastro/sdk/ingest/csv.hpp>
#include <lastro/sdk/plugin.hpp>

#include <boost/json.hpp>
#include <odb/database.hxx>
#include <odb/query.hxx>

#include <algorithm>
#include <array>
#include <ctime>
#include <fstream>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

namespace lastro::holidays {
namespace {

using HolidayQuery = odb::query<Holiday>;

// feriados.csv: UTF-8, "data;nome", dates YYYY-MM-DD. A full snapshot: what the file does not
// carry is removed.
class HolidaysIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override {
        if (context.inputs.size() != 1 || context.inputs.front().filename() != "feriados.csv") {
            throw sdk::IngestError(context.inputs.empty() ? context.dataset : context.inputs.front().string(),
                                   0, "example.holidays reads one file, feriados.csv");
        }
        sdk::CsvReader csv(sdk::OpenFile(context.inputs.front()), {.encoding = sdk::TextEncoding::kUtf8});
        const std::size_t date_column = csv.Require("data");
        const std::size_t name_column = csv.Require("nome");
        std::set<std::string> before;
        for (const Holiday& holiday : context.db.query<Holiday>()) {
            before.insert(holiday.date);
        }
        context.db.erase_query<Holiday>();
        sdk::IngestSummary summary;
        std::string latest;
        while (csv.Next()) {
            csv.RequireFieldCount();
            const auto date = csv.IsoDate(date_column);
            if (!date) {
                throw sdk::IngestError(csv.SourceName(), csv.Line(), "data is empty");
            }
            Holiday holiday{*date, csv.RequiredText(name_column)};
            latest = std::max(latest, holiday.date);
            context.db.persist(holiday);
            ++summary.rows_read;
            ++(before.erase(holiday.date) ? summary.updated : summary.inserted);
        }
        summary.removed = before.size();
        summary.release_label = latest.empty() ? "empty" : latest.substr(0, 4);
        return summary;
    }
};

boost::json::value ListYear(const sdk::RequestContext& context) {
    const std::string year = std::to_string(*context.params.Integer("year"));
    boost::json::array rows;
    auto holidays = context.db.query<Holiday>(
        (HolidayQuery::date >= year + "-01-01" && HolidayQuery::date <= year + "-12-31") + "ORDER BY" +
        HolidayQuery::date);
    for (const Holiday& holiday : holidays) {
        rows.push_back(boost::json::object{{"date", holiday.date}, {"name", holiday.name}});
    }
    return rows;
}

// Fixed-date national holidays (Lei 662/1949, 6.802/1980, 14.759/2023) of 2024 to 2026.
class HolidaysSample : public sdk::SampleWriter {
public:
    sdk::SampleReport Write(const sdk::SampleRequest& request) override {
        static constexpr std::array<std::array<const char*, 2>, 9> kFixed{{
            {"01-01", "Confraternização Universal"},
            {"04-21", "Tiradentes"},
            {"05-01", "Dia do Trabalho"},
            {"09-07", "Independência do Brasil"},
            {"10-12", "Nossa Senhora Aparecida"},
            {"11-02", "Finados"},
            {"11-15", "Proclamação da República"},
            {"11-20", "Dia Nacional de Zumbi e da Consciência Negra"},
            {"12-25", "Natal"},
        }};
        const auto path = request.out_dir / "feriados.csv";
        std::ofstream out(path, std::ios::binary);
        out << "data;nome\n";
        std::size_t count = 0;
        for (int year = 2024; year <= 2026; ++year) {
            for (const auto& [day, name] : kFixed) {
                out << year << '-' << day << ';' << name << '\n';
                ++count;
            }
        }
        if (!out.flush()) {
            throw std::runtime_error(path.string() + ": cannot write");
        }
        return {.files = {path}, .counts = {{"holidays", count}}, .notes = {}};
    }
};

class HolidaysPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override {
        registrar.AddHandler("holidays.list", [](const sdk::RequestContext& context) {
            sdk::Result result;
            result.data = ListYear(context);
            if (auto release = context.host.LatestRelease("example.holidays")) {
                result.meta.data_release = release->label;
            }
            result.meta.sources.push_back({"example", "example.holidays"});
            return result;
        });
        registrar.AddIngester("example.holidays", std::make_shared<HolidaysIngester>());
        registrar.AddSampleWriter(std::make_shared<HolidaysSample>());
    }
};

}  // namespace
}  // namespace lastro::holidays

LASTRO_PLUGIN(lastro::holidays::HolidaysPlugin)
