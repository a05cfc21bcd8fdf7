#include "ingest/inf_mensal_fidc/fidc_row_store.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <tuple>
#include <utility>

namespace lastro::funds {

namespace {

bool EqualsIgnoringCase(std::string_view text, std::string_view lower) {
    return text.size() == lower.size() &&
           std::equal(text.begin(), text.end(), lower.begin(),
                      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

bool IsLabelTable(FidcTable table) {
    const FidcShape shape = InfoOf(table).shape;
    return shape == FidcShape::kSeries || shape == FidcShape::kOperations;
}

}  // namespace

FilerKind FilerKindOf(std::string_view filer_type) {
    if (filer_type.empty()) {
        return FilerKind::kBlank;
    }
    if (EqualsIgnoringCase(filer_type, "classe")) {
        return FilerKind::kClasse;
    }
    if (EqualsIgnoringCase(filer_type, "fundo")) {
        return FilerKind::kFundo;
    }
    return FilerKind::kOther;
}

FidcGroupSplit SplitLabelGroup(std::vector<FidcStoredRow> rows, std::uint32_t deliveries) {
    std::sort(rows.begin(), rows.end(),
              [](const FidcStoredRow& a, const FidcStoredRow& b) { return a.seq < b.seq; });
    FidcGroupSplit split;
    const std::size_t n = rows.size();
    if (deliveries > 1 && n >= deliveries && n % deliveries == 0) {
        // k deliveries of n/k series each: row i is series i mod n/k, a later delivery wins.
        const std::size_t series = n / deliveries;
        for (std::size_t i = 0; i < n; ++i) {
            if (i < series) {
                split.occurrences.push_back({std::move(rows[i]), {}});
                continue;
            }
            FidcOccurrence& occurrence = split.occurrences[i % series];
            if (occurrence.kept.line != rows[i].line) {
                occurrence.replaced.push_back(std::move(occurrence.kept));
            }
            occurrence.kept = std::move(rows[i]);
        }
        // Identical deliveries of one series read the same under either rule: nothing decided.
        const bool differ = std::any_of(split.occurrences.begin(), split.occurrences.end(),
                                        [](const FidcOccurrence& o) { return !o.replaced.empty(); });
        split.reading = series > 1 || differ ? FidcGroupReading::kRedelivered : FidcGroupReading::kSingle;
        return split;
    }
    // The same row filed twice collapses (the later position stands for both); each different
    // row is a series of its own, in order of first appearance.
    for (FidcStoredRow& row : rows) {
        auto same = std::find_if(split.occurrences.begin(), split.occurrences.end(),
                                 [&row](const FidcOccurrence& o) { return o.kept.line == row.line; });
        if (same != split.occurrences.end()) {
            same->kept.member = row.member;
            same->kept.line_no = row.line_no;
            same->kept.seq = row.seq;
            continue;
        }
        split.occurrences.push_back({std::move(row), {}});
    }
    split.reading =
        split.occurrences.size() > 1 ? FidcGroupReading::kDistinctSeries : FidcGroupReading::kSingle;
    return split;
}

std::string SeriesKeyOf(std::string_view folded_label, std::size_t occurrence) {
    std::string identity(folded_label);
    if (occurrence > 0) {
        identity += " #" + std::to_string(occurrence + 1);
    }
    return identity;
}

std::size_t FidcReportRows::RowCount() const {
    std::size_t count = 0;
    for (const auto& rows : tables) {
        count += rows.size();
    }
    for (const auto& by_key : groups) {
        for (const auto& [key, rows] : by_key) {
            count += rows.size();
        }
    }
    return count;
}

std::uint32_t FidcReportRows::Deliveries() const {
    std::uint32_t deliveries = 1;
    for (const FidcTableInfo& info : FidcTables()) {
        if (info.shape == FidcShape::kOneRow) {
            deliveries = std::max(deliveries, filed[IndexOf(info.table)]);
        }
    }
    return deliveries;
}

std::string FidcReportRows::TypeForMessages() const {
    switch (kind) {
        case FilerKind::kBlank:
            return "blank TP_FUNDO_CLASSE";
        case FilerKind::kUntyped:
            return "CNPJ_FUNDO layout";
        default:
            return filer_type;
    }
}

void FidcRowStore::Add(const std::string& cnpj, sdk::Month month, FilerKind kind, std::string_view filer_type,
                       FidcTable table, std::string key, FidcStoredRow row) {
    if (!last_reports_ || last_month_ != month || last_cnpj_ != cnpj) {
        MonthRows& month_rows = months_[month];
        month_rows.has_rows = true;
        auto cnpj_it = month_rows.by_cnpj.find(cnpj);
        if (cnpj_it == month_rows.by_cnpj.end()) {
            cnpj_it = month_rows.by_cnpj.emplace(cnpj, std::vector<FidcReportRows>()).first;
        }
        last_month_rows_ = &month_rows;
        last_reports_ = &cnpj_it->second;
        last_month_ = month;
        last_cnpj_ = cnpj;
    }
    last_month_rows_->present.set(IndexOf(table));
    std::vector<FidcReportRows>& reports = *last_reports_;
    const std::string_view type_text = kind == FilerKind::kUntyped ? std::string_view() : filer_type;
    auto report = std::find_if(reports.begin(), reports.end(), [&](const FidcReportRows& r) {
        return r.kind == kind && r.filer_type == type_text;
    });
    if (report == reports.end()) {
        FidcReportRows fresh;
        fresh.cnpj = cnpj;
        fresh.month = month;
        fresh.kind = kind;
        fresh.filer_type = std::string(type_text);
        reports.push_back(std::move(fresh));
        report = reports.end() - 1;
    }
    ++report->filed[IndexOf(table)];
    if (IsLabelTable(table)) {
        report->groups[IndexOf(table)][std::move(key)].push_back(std::move(row));
        return;
    }
    auto& rows = report->tables[IndexOf(table)];
    auto [it, inserted] = rows.try_emplace(std::move(key));
    if (inserted) {
        it->second = std::move(row);
        return;
    }
    FidcStoredRow& held = it->second;
    if (held.line == row.line) {
        // A byte-identical repeat: nothing is lost; the later position stands for both.
        held.member = row.member;
        held.line_no = row.line_no;
        held.seq = row.seq;
        return;
    }
    ++report->dropped;
    const FidcStoredRow earlier = std::move(held);
    held = std::move(row);
    sink_(FidcConflict{*report, table, it->first, earlier, held});
}

void FidcRowStore::MarkPresent(sdk::Month month, FidcTable table) {
    months_[month].present.set(IndexOf(table));
}

std::vector<sdk::Month> FidcRowStore::Months() const {
    std::vector<sdk::Month> months;
    for (const auto& [month, rows] : months_) {
        if (rows.has_rows) {
            months.push_back(month);
        }
    }
    return months;
}

std::vector<FidcTable> FidcRowStore::MissingTables(sdk::Month month) const {
    std::vector<FidcTable> missing;
    const auto it = months_.find(month);
    for (const FidcTableInfo& info : FidcTables()) {
        if (info.required && (it == months_.end() || !it->second.present.test(IndexOf(info.table)))) {
            missing.push_back(info.table);
        }
    }
    return missing;
}

void FidcRowStore::Merge(FidcReportRows& from, FidcReportRows& into) {
    into.dropped += from.dropped;
    for (std::size_t t = 0; t < kFidcTableCount; ++t) {
        into.filed[t] += from.filed[t];
        for (auto& [key, rows] : from.groups[t]) {
            std::vector<FidcStoredRow>& group = into.groups[t][key];
            std::move(rows.begin(), rows.end(), std::back_inserter(group));
        }
        for (auto& [key, row] : from.tables[t]) {
            auto [it, inserted] = into.tables[t].try_emplace(key);
            if (inserted) {
                it->second = std::move(row);
                continue;
            }
            if (it->second.line == row.line) {
                continue;
            }
            ++into.dropped;
            if (row.seq > it->second.seq) {
                const FidcStoredRow earlier = std::move(it->second);
                it->second = std::move(row);
                sink_(FidcConflict{into, static_cast<FidcTable>(t), it->first, earlier, it->second});
            } else {
                sink_(FidcConflict{into, static_cast<FidcTable>(t), it->first, row, it->second});
            }
        }
    }
}

void FidcRowStore::SplitGroups(FidcReportRows& report) {
    const std::uint32_t deliveries = report.Deliveries();
    for (std::size_t t = 0; t < kFidcTableCount; ++t) {
        const auto table = static_cast<FidcTable>(t);
        for (auto& [key, rows] : report.groups[t]) {
            const std::size_t row_count = rows.size();
            const FidcStoredRow& first = *std::min_element(
                rows.begin(), rows.end(),
                [](const FidcStoredRow& a, const FidcStoredRow& b) { return a.seq < b.seq; });
            const std::uint32_t first_member = first.member;
            const std::uint32_t first_line = first.line_no;
            FidcGroupSplit split = SplitLabelGroup(std::move(rows), deliveries);
            if (split.reading != FidcGroupReading::kSingle && decisions_) {
                decisions_(FidcLabelDecision{report, table, key, split.reading, row_count,
                                             split.occurrences.size(), deliveries, first_member, first_line});
            }
            // X_4 keys are "<label><separator><operation>": the occurrence goes on the label.
            const std::size_t separator = key.find(kFidcKeySeparator);
            const std::string_view label = std::string_view(key).substr(0, separator);
            const std::string_view rest =
                separator == std::string::npos ? std::string_view() : std::string_view(key).substr(separator);
            for (std::size_t o = 0; o < split.occurrences.size(); ++o) {
                FidcOccurrence& occurrence = split.occurrences[o];
                auto [it, inserted] = report.tables[t].try_emplace(SeriesKeyOf(label, o) + std::string(rest));
                if (!inserted) {
                    // A published label "x #2" beside two "x" rows: the one split first stands.
                    ++report.dropped;
                    sink_(FidcConflict{report, table, it->first, occurrence.kept, it->second});
                    continue;
                }
                it->second = std::move(occurrence.kept);
                for (const FidcStoredRow& replaced : occurrence.replaced) {
                    ++report.dropped;
                    sink_(FidcConflict{report, table, it->first, replaced, it->second});
                }
            }
        }
        report.groups[t].clear();
    }
}

std::vector<FidcReportRows> FidcRowStore::TakeMonth(sdk::Month month) {
    last_month_rows_ = nullptr;  // they may point into the month taken
    last_reports_ = nullptr;
    std::vector<FidcReportRows> kept;
    auto month_it = months_.find(month);
    if (month_it == months_.end()) {
        return kept;
    }
    for (auto& [cnpj, reports] : month_it->second.by_cnpj) {
        std::sort(reports.begin(), reports.end(), [](const FidcReportRows& a, const FidcReportRows& b) {
            return std::tie(a.kind, a.filer_type) < std::tie(b.kind, b.filer_type);
        });
        // After the sort a Classe report, if any, is first and the untyped one, if any, last.
        const bool has_classe = reports.front().kind == FilerKind::kClasse;
        FidcReportRows* untyped = reports.back().kind == FilerKind::kUntyped ? &reports.back() : nullptr;
        const std::size_t first_kept = kept.size();
        for (FidcReportRows& report : reports) {
            if (&report == untyped) {
                continue;
            }
            if (has_classe && report.kind != FilerKind::kClasse) {
                // The Classe report sorts first, so it is already kept[first_kept].
                kept[first_kept].dropped += static_cast<std::int64_t>(report.RowCount()) + report.dropped;
                continue;
            }
            kept.push_back(std::move(report));
        }
        if (untyped) {
            if (kept.size() > first_kept) {
                Merge(*untyped, kept[first_kept]);
            } else {
                kept.push_back(std::move(*untyped));
            }
        }
    }
    for (FidcReportRows& report : kept) {
        SplitGroups(report);
    }
    months_.erase(month_it);
    return kept;
}

}  // namespace lastro::funds
