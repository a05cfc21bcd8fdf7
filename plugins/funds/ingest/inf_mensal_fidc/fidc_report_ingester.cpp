#include "ingest/inf_mensal_fidc/fidc_report_ingester.hpp"

#include "domain/fidc/fidc_series_label.hpp"
#include "domain/fidc/fidc_tables.hpp"
#include "domain/rows/positive_segments.hpp"
#include "domain/rows/quota_answers.hpp"
#include "domain/rows/screening_rows.hpp"
#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/inf_mensal_fidc/fidc_inputs.hpp"
#include "ingest/inf_mensal_fidc/fidc_member_layout.hpp"
#include "ingest/inf_mensal_fidc/fidc_numbers.hpp"
#include "ingest/inf_mensal_fidc/fidc_report_builder.hpp"
#include "ingest/inf_mensal_fidc/fidc_row_store.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

namespace {

constexpr std::size_t kProgressEvery = 10000;

std::string TableList(const std::vector<FidcTable>& tables) {
    std::string list;
    for (FidcTable table : tables) {
        list += (list.empty() ? "" : ", ") + std::string(InfoOf(table).name);
    }
    return list;
}

// One ingest: reads the input group by group, applies the duplicate rule and replaces the
// months it found.
class FidcIngest {
public:
    explicit FidcIngest(const sdk::IngestContext& context)
        : context_(context), rows_(context.progress, summary_, kProgressEvery), listed_(summary_) {}

    sdk::IngestSummary Run() {
        const FidcInputs inputs(context_.inputs);
        for (const std::string& ignored : inputs.Ignored()) {
            listed_.Notice(ignored + ": ignored, not a table of the FIDC monthly report");
        }
        for (const FidcMemberGroup& group : inputs.Groups()) {
            IngestGroup(inputs, group);
        }
        if (label_groups_split_ > 0 || label_groups_redelivered_ > 0) {
            summary_.rejections.push_back(
                "repeated series labels: " + std::to_string(label_groups_split_) +
                " group(s) read as distinct series, " + std::to_string(label_groups_redelivered_) +
                " as series of a report delivered more than once (last delivery kept)");
        }
        if (conflicts_ > conflicts_listed_) {
            summary_.rejections.push_back(std::to_string(conflicts_ - conflicts_listed_) +
                                          " more conflicting rows not listed");
        }
        RebuildScreeningOfWrittenMonths();
        RecordRelease();
        return std::move(summary_);
    }

private:
    void IngestGroup(const FidcInputs& inputs, const FidcMemberGroup& group) {
        FidcRowStore store([this](const FidcConflict& conflict) { OnConflict(conflict); },
                           [this](const FidcLabelDecision& decision) { OnLabelDecision(decision); });
        layouts_.clear();
        for (const FidcMember* member : group.members) {
            ReadMember(inputs, *member, store);
        }

        const std::vector<sdk::Month> months = store.Months();
        for (const sdk::Month& month : months) {
            if (const auto missing = store.MissingTables(month); !missing.empty()) {
                throw sdk::IngestError(group.input_name, 0,
                                       "month " + month.ToString() + " is incomplete: missing table(s) " +
                                           TableList(missing) +
                                           " (a month is replaced only by a complete set of tables)");
            }
            if (written_.contains(month)) {
                throw sdk::IngestError(group.input_name, 0,
                                       "rows of month " + month.ToString() +
                                           " are also in the files of another period; give each month's "
                                           "tables in files of that month or year");
            }
        }

        const FidcReportBuilder builder(layouts_);
        for (const sdk::Month& month : months) {
            written_.insert(month);
            rows_.Stage(month.ToString() + ": saving");
            DeleteMonth(month.ToString());
            for (const FidcReportRows& rows : store.TakeMonth(month)) {
                Save(builder.Build(rows));
            }
        }
    }

    void ReadMember(const FidcInputs& inputs, const FidcMember& member, FidcRowStore& store) {
        rows_.Stage(member.file.display);
        sdk::CvmCsvReader reader(inputs.Open(member));
        layouts_.push_back(FidcMemberLayout::FromHeader(reader, member.name.table));
        const auto member_index = static_cast<std::uint32_t>(layouts_.size() - 1);
        const FidcMemberLayout& layout = layouts_.back();
        const FidcTable table = member.name.table;
        const FidcShape shape = InfoOf(table).shape;
        const std::vector<FidcColumn>& columns = TypedColumnsOf(table);
        if (member.name.month != 0) {
            store.MarkPresent({member.name.year, member.name.month}, table);
        }

        // A file's rows share their date and come grouped by filer: the last date and CNPJ
        // parsed are reused while the text repeats.
        std::string date_text_seen;
        sdk::Month month_seen{};
        std::string cnpj_text_seen;
        std::string cnpj_seen;
        std::string key;
        while (reader.Next()) {
            rows_.Row();
            const std::size_t line_no = reader.Line();
            reader.RequireFieldCount();

            const std::string_view date_text = sdk::TrimBlanks(reader.Field(layout.date));
            if (date_text != date_text_seen || date_text_seen.empty()) {
                const std::optional<sdk::Date> date = sdk::Date::Parse(date_text);
                if (!date) {
                    Fail(layout, line_no,
                         "invalid " + std::string(kDateColumn) + " " + sdk::Quoted(date_text, 40) +
                             " (expected YYYY-MM-DD)");
                }
                date_text_seen = date_text;
                month_seen = date->ToMonth();
            }
            const std::string_view cnpj_text = sdk::TrimBlanks(reader.Field(layout.cnpj));
            if (cnpj_text != cnpj_text_seen || cnpj_text_seen.empty()) {
                sdk::CnpjParse cnpj = sdk::ParseCnpj(cnpj_text);
                if (!cnpj.digits) {
                    Fail(layout, line_no,
                         "invalid " + layout.header[layout.cnpj] + " " + sdk::Quoted(cnpj_text, 40));
                }
                cnpj_text_seen = cnpj_text;
                cnpj_seen = std::move(*cnpj.digits);
            }
            const std::string_view filer_type =
                layout.filer_type ? sdk::TrimBlanks(reader.Field(*layout.filer_type)) : std::string_view();
            const FilerKind kind = layout.legacy_cnpj ? FilerKind::kUntyped : FilerKindOf(filer_type);

            for (std::size_t i = 0; i < columns.size(); ++i) {
                if (!layout.typed[i] || columns[i].kind == FidcColumnKind::kText) {
                    continue;
                }
                const std::string_view field = reader.Field(*layout.typed[i]);
                if (columns[i].kind == FidcColumnKind::kDecimal) {
                    if (sdk::CheckDecimal(field) == sdk::ValueStatus::kInvalid) {
                        Fail(layout, line_no,
                             columns[i].name + " is not a plain decimal number: " + sdk::Quoted(field, 40));
                    }
                } else if (ParseFidcInteger(field).status == NumberStatus::kInvalid) {
                    Fail(layout, line_no, columns[i].name + " is not an integer: " + sdk::Quoted(field, 40));
                }
            }

            key.clear();
            switch (shape) {
                case FidcShape::kOneRow:
                    break;
                case FidcShape::kSeries:
                    key = FoldLabel(reader.Field(*layout.typed[tab_x::kSeries]));
                    break;
                case FidcShape::kOperations:
                    key = FoldLabel(reader.Field(*layout.typed[tab_x::kSeries]));
                    key += kFidcKeySeparator;
                    key += FoldLabel(reader.Field(*layout.typed[tab_x::kOperation]));
                    break;
                case FidcShape::kDebtors: {
                    const ParsedInteger rank = ParseFidcInteger(reader.Field(*layout.typed[tab_viii::kRank]));
                    if (rank.status != NumberStatus::kValue) {
                        Fail(layout, line_no, "empty SEQUENCIAL");
                    }
                    key = std::to_string(rank.value);
                    break;
                }
            }

            std::size_t line_size = reader.FieldCount() - 1;  // the separators
            for (std::size_t i = 0; i < reader.FieldCount(); ++i) {
                line_size += reader.Field(i).size();
            }
            std::string line;
            line.reserve(line_size);
            for (std::size_t i = 0; i < reader.FieldCount(); ++i) {
                if (i > 0) {
                    line += ';';
                }
                line += reader.Field(i);
            }
            store.Add(
                cnpj_seen, month_seen, kind, filer_type, table, key,
                FidcStoredRow{std::move(line), member_index, static_cast<std::uint32_t>(line_no), ++seq_});
        }
    }

    [[noreturn]] static void Fail(const FidcMemberLayout& layout, std::size_t line,
                                  const std::string& message) {
        throw sdk::IngestError(layout.source, line, message);
    }

    // Every row of the month goes: the month is replaced as a whole.
    void DeleteMonth(const std::string& month) {
        using ReportQuery = odb::query<FidcReport>;
        using SeriesQuery = odb::query<FidcSeries>;
        using OperationQuery = odb::query<FidcQuotaOperation>;
        using AnswerQuery = odb::query<FidcQuotaAnswer>;
        odb::database& db = context_.db;
        // Through report_id, which is indexed: the children carry no index on month alone.
        const auto reports_of_month = [&month] {
            return "IN (SELECT" + ReportQuery::id + "FROM funds_fidc_report WHERE" +
                   (ReportQuery::month == month) + ")";
        };
        // The stored answers are derived, not rows of the files: not counted.
        db.erase_query<FidcQuotaAnswer>(AnswerQuery(AnswerQuery::report_id + reports_of_month()));
        db.erase_query<FidcPositiveSegments>(odb::query<FidcPositiveSegments>(
            odb::query<FidcPositiveSegments>::report_id + reports_of_month()));
        summary_.removed += db.erase_query<FidcQuotaOperation>(
            OperationQuery(OperationQuery::report_id + reports_of_month()));
        summary_.removed +=
            db.erase_query<FidcSeries>(SeriesQuery(SeriesQuery::report_id + reports_of_month()));
        summary_.removed += db.erase_query<FidcReport>(ReportQuery::month == month);
    }

    void Save(FidcBuiltReport built) {
        odb::database& db = context_.db;
        db.persist(built.report);
        ++summary_.inserted;
        for (FidcSeries& series : built.series) {
            series.report_id = built.report.id;
            db.persist(series);
        }
        for (FidcQuotaOperation& operation : built.operations) {
            operation.report_id = built.report.id;
            db.persist(operation);
        }
        summary_.inserted += built.series.size() + built.operations.size();
        // The report's rows of /cotas and /cotas/operacoes, as those routes answer them.
        std::vector<FidcQuotaSeries> series;
        series.reserve(built.series.size());
        for (const FidcSeries& one : built.series) {
            series.push_back(QuotaSeriesOf(one));
        }
        FidcQuotaAnswer answer = QuotaAnswerOf(QuotaReportOf(built.report), series, built.operations);
        db.persist(answer);
        // Table II's positive segments, as carteira/fundos lists an invested class's.
        if (auto segments = PositiveSegmentsOf(built.report.id, built.report.segments_json)) {
            db.persist(*segments);
        }
    }

    // /v1/screening's rows of the replaced months, in this transaction
    // (domain/rows/screening_rows.hpp).
    void RebuildScreeningOfWrittenMonths() {
        std::vector<std::string> months;
        for (const sdk::Month& month : written_) {
            months.push_back(month.ToString());
        }
        RebuildScreening(context_.db, months);
    }

    void RecordRelease() {
        // Every month the files carried was replaced whole: the datasets derived from this one
        // rebuild exactly those.
        summary_.periods.emplace();
        for (const sdk::Month& month : written_) {
            summary_.periods->push_back(month.ToString());
        }
        using ReportQuery = odb::query<FidcReport>;
        odb::result<FidcReport> latest(
            context_.db.query<FidcReport>(ReportQuery("ORDER BY" + ReportQuery::month + "DESC LIMIT 1")));
        for (const FidcReport& report : latest) {
            summary_.release_label = report.month;
            summary_.as_of = report.month;
        }
    }

    // "file:7 conflicts with line 3 for (cnpj, month, type[, key]): kept line 7".
    void OnConflict(const FidcConflict& conflict) {
        ++conflicts_;
        if (!listed_.HasRoom()) {
            return;
        }
        ++conflicts_listed_;
        const FidcMemberLayout& kept_member = layouts_[conflict.kept.member];
        const FidcMemberLayout& dropped_member = layouts_[conflict.dropped.member];
        const bool same_file = kept_member.source == dropped_member.source;
        const auto where = [&](const FidcMemberLayout& member, const FidcStoredRow& row) {
            return (same_file ? "line " : member.source + ":") + std::to_string(row.line_no);
        };
        std::string key = conflict.key;
        std::replace(key.begin(), key.end(), kFidcKeySeparator, '/');
        std::string tuple = conflict.report.cnpj + ", " + conflict.report.month.ToString() + ", " +
                            conflict.report.TypeForMessages();
        if (!conflict.key.empty()) {
            tuple += ", " +
                     std::string(InfoOf(conflict.table).shape == FidcShape::kDebtors ? "SEQUENCIAL " : "") +
                     key;
        }
        listed_.Notice(kept_member.source + ":" + std::to_string(conflict.kept.line_no) + " conflicts with " +
                       where(dropped_member, conflict.dropped) + " for (" + tuple + "): kept " +
                       where(kept_member, conflict.kept));
    }

    // "file:3: 3 different rows of (cnpj, month, type, label) in a report delivered once: read
    // as 3 series (label, label #2, label #3)".
    void OnLabelDecision(const FidcLabelDecision& decision) {
        const bool split = decision.reading == FidcGroupReading::kDistinctSeries;
        ++(split ? label_groups_split_ : label_groups_redelivered_);
        if (!listed_.HasRoom()) {
            return;
        }
        std::string key = decision.key;
        std::replace(key.begin(), key.end(), kFidcKeySeparator, '/');
        const std::string label = decision.key.substr(0, decision.key.find(kFidcKeySeparator));
        const std::string tuple = decision.report.cnpj + ", " + decision.report.month.ToString() + ", " +
                                  decision.report.TypeForMessages() + ", " + key;
        const std::string delivered = "a report delivered " + std::to_string(decision.deliveries) +
                                      (decision.deliveries == 1 ? " time" : " times");
        std::string message = layouts_[decision.member].source + ":" + std::to_string(decision.line_no) +
                              ": " + std::to_string(decision.rows) + " rows of (" + tuple + ") in " +
                              delivered + ": read as ";
        if (split) {
            message += std::to_string(decision.series) + " distinct series (" + label + ", " +
                       SeriesKeyOf(label, 1) + (decision.series > 2 ? ", …" : "") + ")";
        } else {
            message += std::to_string(decision.series) + " series delivered " +
                       std::to_string(decision.deliveries) + " times, the last delivery kept";
        }
        listed_.Notice(std::move(message));
    }

    const sdk::IngestContext& context_;
    sdk::IngestSummary summary_;
    sdk::RowCounter rows_;
    sdk::RejectionLog listed_;               // notices only: ignored members, conflicts resolved by the rule
    std::vector<FidcMemberLayout> layouts_;  // of the group being read; rows point into it
    std::set<sdk::Month> written_;
    std::uint64_t seq_ = 0;
    std::size_t conflicts_ = 0;
    std::size_t conflicts_listed_ = 0;
    std::size_t label_groups_split_ = 0;
    std::size_t label_groups_redelivered_ = 0;
};

}  // namespace

sdk::IngestSummary FidcReportIngester::Run(const sdk::IngestContext& context) {
    return FidcIngest(context).Run();
}

}  // namespace lastro::funds
