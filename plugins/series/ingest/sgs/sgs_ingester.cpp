#include "ingest/sgs/sgs_ingester.hpp"

#include "domain/decimal_math.hpp"
#include "domain/sgs_reader.hpp"
#include "series_model-odb.hxx"
#include "series_model.hxx"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/problem.hpp>

#include <odb/database.hxx>
#include <odb/result.hxx>

#include <cstdio>
#include <ctime>
#include <map>
#include <string>
#include <utility>

namespace lastro::series {
namespace {

constexpr int kMaxDecimals = 12;
constexpr std::size_t kMaxDigits = 24;

struct Published {
    std::optional<std::string> value;
    std::string file;
    std::size_t line = 0;
};

std::string SgsDate(const sdk::Date& date) {
    char text[16];
    std::snprintf(text, sizeof text, "%02d/%02d/%04d", date.day, date.month, date.year);
    return text;
}

std::string Shown(const std::optional<std::string>& value) {
    return value ? "'" + *value + "'" : "an empty value";
}

std::string ReadWhole(const sdk::IngestInputs& inputs, const sdk::InputFile& file) {
    std::unique_ptr<sdk::ByteSource> source = inputs.Open(file);
    std::string bytes;
    char buffer[1 << 16];
    while (std::size_t got = source->Read(buffer, sizeof buffer)) {
        bytes.append(buffer, got);
        if (bytes.size() > kMaxSgsAnswerBytes) {
            throw sdk::IngestError(file.display, 0,
                                   "larger than " + std::to_string(kMaxSgsAnswerBytes / (1024 * 1024)) +
                                       " MiB: not an SGS answer (a 10-year window of a daily series is about "
                                       "100 KB)");
        }
    }
    return bytes;
}

// What the series' kind and frequency require of one observation.
void Check(const SeriesSpec& spec, const SgsObservation& observation, const std::string& file) {
    if (spec.frequency == Frequency::kMonthly && observation.date.day != 1) {
        throw sdk::IngestError(file, observation.line,
                               SgsDate(observation.date) + ": series " + std::to_string(spec.code) +
                                   " is monthly, and SGS dates a month by its first day");
    }
    // The arithmetic keeps 34 significant digits and B3's factor 16 decimals (docs/transforms.md);
    // SGS publishes at most a few decimals, so a longer value is not an SGS value.
    if (observation.value) {
        const std::string& value = *observation.value;
        const std::size_t digits =
            value.size() - (value[0] == '-' ? 1 : 0) - (value.find('.') != std::string::npos);
        if (DecimalsOf(value) > kMaxDecimals || digits > kMaxDigits) {
            throw sdk::IngestError(file, observation.line,
                                   SgsDate(observation.date) + ": '" + value + "' has more than " +
                                       std::to_string(kMaxDigits) + " digits or " +
                                       std::to_string(kMaxDecimals) + " decimals, more than SGS publishes");
        }
    }
    // A rate of -100 % or less has no growth to compound (1 + r/100 <= 0).
    if (spec.kind == SeriesKind::kRate && observation.value && RealOf(*observation.value) <= -100) {
        throw sdk::IngestError(file, observation.line,
                               SgsDate(observation.date) + ": a rate of " + *observation.value +
                                   " % cannot be compounded (it must be above -100 %)");
    }
}

}  // namespace

sdk::IngestSummary SgsIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);

    // Every file first: a bad one refuses the whole ingest before a row is written.
    std::map<sdk::Date, Published> merged;
    for (const sdk::InputFile& file : inputs.Files()) {
        counter.Stage(file.display);
        const std::string bytes = ReadWhole(inputs, file);
        const SgsAnswer answer = ReadSgsAnswer(bytes, file.display);
        for (const SgsObservation& observation : answer.observations) {
            counter.Row();
            Check(spec_, observation, file.display);
            auto [it, inserted] = merged.emplace(
                observation.date, Published{observation.value, file.display, observation.line});
            if (!inserted && it->second.value != observation.value) {
                throw sdk::IngestError(file.display, observation.line,
                                       SgsDate(observation.date) + " is " + Shown(observation.value) +
                                           " here and " + Shown(it->second.value) + " in " + it->second.file +
                                           " line " + std::to_string(it->second.line) +
                                           ": overlapping windows disagree");
            }
        }
    }

    using Query = odb::query<StoredObservation>;
    std::map<std::string, StoredObservation> stored;
    odb::result<StoredObservation> rows(
        context.db.query<StoredObservation>(Query::series_code == spec_.code));
    for (StoredObservation& row : rows) {
        std::string date = row.date;
        stored.emplace(std::move(date), std::move(row));
    }
    const std::string now = sdk::Rfc3339Utc(context.now);
    std::string last_date = stored.empty() ? std::string() : stored.rbegin()->first;
    for (const auto& [date, published] : merged) {
        const std::string text = date.ToString();
        auto it = stored.find(text);
        if (it == stored.end()) {
            StoredObservation row;
            row.series_code = spec_.code;
            row.date = text;
            row.value = published.value;
            row.first_seen_at = now;
            row.changed_at = now;
            context.db.persist(row);
            ++summary.inserted;
        } else if (it->second.value != published.value) {
            it->second.value = published.value;
            it->second.changed_at = now;
            context.db.update(it->second);
            ++summary.updated;
        } else {
            ++summary.unchanged;
        }
        if (text > last_date) {
            last_date = text;
        }
    }
    summary.release_label =
        "sgs-" + std::to_string(spec_.code) + "-" + (last_date.empty() ? "empty" : last_date);
    if (!last_date.empty()) {
        summary.as_of = last_date;
    }
    summary.periods = std::nullopt;  // nothing derives from a series
    return summary;
}

}  // namespace lastro::series
