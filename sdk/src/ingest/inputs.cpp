#include <lastro/sdk/ingest/inputs.hpp>

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <utility>

namespace lastro::sdk {

namespace {

namespace fs = std::filesystem;

char LowerChar(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool EqualIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                              [](char x, char y) { return LowerChar(x) == LowerChar(y); });
}

std::string_view LastComponent(std::string_view name) {
    if (const auto slash = name.find_last_of("/\\"); slash != std::string_view::npos) {
        name.remove_prefix(slash + 1);
    }
    return name;
}

int Number(std::string_view digits) {
    int value = 0;
    for (char c : digits) {
        value = value * 10 + (c - '0');
    }
    return value;
}

constexpr int kMinYear = 1900;
constexpr int kMaxYear = 2999;

std::optional<Period> YearAt(std::string_view text) {
    if (text.size() < 4 || !AllDigits(text.substr(0, 4))) {
        return std::nullopt;
    }
    const int year = Number(text.substr(0, 4));
    if (year < kMinYear || year > kMaxYear) {
        return std::nullopt;
    }
    return Period{year, 0};
}

std::optional<Period> MonthAt(std::string_view text) {
    auto year = YearAt(text);
    if (!year || text.size() < 6 || !AllDigits(text.substr(4, 2))) {
        return std::nullopt;
    }
    const int month = Number(text.substr(4, 2));
    if (month < 1 || month > 12) {
        return std::nullopt;
    }
    return Period{year->year, month};
}

std::string Join(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) {
        text += (text.empty() ? "" : ", ") + item;
    }
    return text;
}

}  // namespace

std::string Period::ToString() const {
    char text[16];
    if (IsYear()) {
        std::snprintf(text, sizeof text, "%04d", year);
    } else {
        std::snprintf(text, sizeof text, "%04d-%02d", year, month);
    }
    return text;
}

std::string Period::Digits() const {
    std::string text = ToString();
    if (!IsYear()) {
        text.erase(4, 1);
    }
    return text;
}

std::string Period::Describe() const {
    return (IsYear() ? "year " : "month ") + ToString();
}

NamePattern::NamePattern(std::string pattern) : text_(std::move(pattern)) {
    std::string_view rest = text_;
    int periods = 0;
    while (!rest.empty()) {
        const std::size_t open = rest.find('{');
        if (open != 0) {
            parts_.push_back({Kind::kLiteral, std::string(rest.substr(0, open))});
            rest.remove_prefix(open == std::string_view::npos ? rest.size() : open);
            continue;
        }
        const std::size_t close = rest.find('}');
        if (close == std::string_view::npos) {
            throw std::invalid_argument("file-name pattern " + text_ + ": '{' without '}'");
        }
        const std::string_view placeholder = rest.substr(1, close - 1);
        Kind kind;
        if (placeholder == "YYYYMM") {
            kind = Kind::kMonth;
        } else if (placeholder == "YYYY") {
            kind = Kind::kYear;
        } else if (placeholder == "PERIOD") {
            kind = Kind::kPeriod;
        } else if (placeholder == "NAME") {
            kind = Kind::kName;
        } else {
            throw std::invalid_argument("file-name pattern " + text_ + ": unknown placeholder {" +
                                        std::string(placeholder) + "}");
        }
        if (kind != Kind::kName && ++periods > 1) {
            throw std::invalid_argument("file-name pattern " + text_ + ": more than one period");
        }
        parts_.push_back({kind, {}});
        rest.remove_prefix(close + 1);
    }
}

bool NamePattern::HasPeriod() const {
    return std::any_of(parts_.begin(), parts_.end(), [](const Part& part) {
        return part.kind == Kind::kMonth || part.kind == Kind::kYear || part.kind == Kind::kPeriod;
    });
}

std::optional<NamePattern::Match> NamePattern::Matches(std::string_view file_name) const {
    Match match;
    if (!MatchFrom(0, LastComponent(file_name), match)) {
        return std::nullopt;
    }
    return match;
}

bool NamePattern::MatchFrom(std::size_t index, std::string_view rest, Match& match) const {
    if (index == parts_.size()) {
        return rest.empty();
    }
    const Part& part = parts_[index];
    const auto with_period = [&](std::optional<Period> period, std::size_t length) {
        if (!period) {
            return false;
        }
        match.period = period;
        if (MatchFrom(index + 1, rest.substr(length), match)) {
            return true;
        }
        match.period.reset();
        return false;
    };
    switch (part.kind) {
        case Kind::kLiteral:
            return rest.size() >= part.text.size() &&
                   EqualIgnoringCase(rest.substr(0, part.text.size()), part.text) &&
                   MatchFrom(index + 1, rest.substr(part.text.size()), match);
        case Kind::kMonth:
            return with_period(MonthAt(rest), 6);
        case Kind::kYear:
            return with_period(YearAt(rest), 4);
        case Kind::kPeriod:
            return with_period(MonthAt(rest), 6) || with_period(YearAt(rest), 4);
        case Kind::kName:
            // The shortest name after which the rest matches.
            for (std::size_t length = 1; length <= rest.size(); ++length) {
                match.name = std::string(rest.substr(0, length));
                if (MatchFrom(index + 1, rest.substr(length), match)) {
                    return true;
                }
            }
            match.name.clear();
            return false;
    }
    return false;
}

std::string NamePattern::Format(const std::optional<Period>& period, std::string_view name) const {
    std::string text;
    for (const Part& part : parts_) {
        switch (part.kind) {
            case Kind::kLiteral:
                text += part.text;
                break;
            case Kind::kMonth:
                text += period ? period->Digits() : "YYYYMM";
                break;
            case Kind::kYear:
                text += period ? period->Digits().substr(0, 4) : "YYYY";
                break;
            case Kind::kPeriod:
                text += period ? period->Digits() : "YYYYMM";
                break;
            case Kind::kName:
                text += name.empty() ? std::string_view("NAME") : name;
                break;
        }
    }
    return text;
}

std::optional<std::time_t> FileModifiedAt(const fs::path& path) {
    std::error_code error;
    const auto written = fs::last_write_time(path, error);
    if (error) {
        return std::nullopt;
    }
    return std::chrono::system_clock::to_time_t(std::chrono::clock_cast<std::chrono::system_clock>(written));
}

IngestInputs::IngestInputs(const std::vector<fs::path>& inputs) : paths_(inputs) {
    for (std::size_t input = 0; input < paths_.size(); ++input) {
        const std::string file = FileName(input);
        if (file.size() >= 4 && EqualIgnoringCase(std::string_view(file).substr(file.size() - 4), ".zip")) {
            archives_.push_back(std::make_unique<ZipArchive>(paths_[input]));
            for (const std::string& member : archives_.back()->Members()) {
                files_.push_back({input, member, std::string(LastComponent(member)), file + ":" + member});
            }
        } else {
            archives_.push_back(nullptr);
            files_.push_back({input, std::string(), file, file});
        }
    }
}

IngestInputs::~IngestInputs() = default;

std::unique_ptr<ByteSource> IngestInputs::Open(const InputFile& file) const {
    if (const auto& archive = archives_[file.input]) {
        return archive->Open(file.member);
    }
    return OpenFile(paths_[file.input]);
}

std::optional<std::time_t> IngestInputs::ModifiedAt(const InputFile& file) const {
    if (const auto& archive = archives_[file.input]) {
        return archive->ModifiedAt(file.member);
    }
    return FileModifiedAt(paths_[file.input]);
}

DatasetFiles::DatasetFiles(const IngestInputs& inputs, DatasetLayout layout)
    : layout_(std::move(layout)), inputs_(inputs) {
    for (std::size_t input = 0; input < inputs_.Size(); ++input) {
        if (inputs_.IsArchive(input)) {
            AddArchive(inputs_, input);
            continue;
        }
        for (const InputFile& file : inputs_.Files()) {
            if (file.input != input) {
                continue;
            }
            if (auto table = Recognise(file)) {
                tables_.push_back(std::move(*table));
            } else if (std::any_of(
                           layout_.ignored.begin(), layout_.ignored.end(),
                           [&file](const NamePattern& p) { return p.Matches(file.name).has_value(); })) {
                ignored_.push_back(file.display);
            } else {
                throw IngestError(file.name, 0, Refusal());
            }
        }
    }
}

void DatasetFiles::AddArchive(const IngestInputs& inputs, std::size_t input) {
    const std::string name = inputs.FileName(input);
    std::optional<NamePattern::Match> named;
    if (layout_.archive) {
        named = layout_.archive->Matches(name);
    }
    if (layout_.archive_name_required && !named) {
        throw IngestError(name, 0, Refusal());
    }
    std::vector<TableFile> found;
    for (const InputFile& file : inputs.Files()) {
        if (file.input != input) {
            continue;
        }
        if (auto table = Recognise(file)) {
            found.push_back(std::move(*table));
        } else {
            ignored_.push_back(file.display);
        }
    }
    if (named && named->period) {
        const Period& promised = *named->period;
        if (std::none_of(found.begin(), found.end(),
                         [&](const TableFile& t) { return t.period == promised; })) {
            std::vector<std::string> expected;
            for (const TableSpec& spec : layout_.tables) {
                if (spec.required && spec.pattern.HasPeriod()) {
                    expected.push_back(spec.pattern.Format(promised));
                }
            }
            throw IngestError(
                name, 0,
                expected.empty()
                    ? "holds no table of " + promised.Describe()
                    : "missing member" + std::string(expected.size() > 1 ? "s " : " ") + Join(expected));
        }
        for (const TableFile& table : found) {
            if (table.period != promised) {
                throw IngestError(
                    name, 0,
                    "member " + table.file.member + " is not of " + promised.Describe() + " of the archive");
            }
        }
    } else if (found.empty()) {
        throw IngestError(
            name, 0,
            "no member of " + layout_.dataset + " in the archive (expected " + layout_.expected + ")");
    }
    tables_.insert(tables_.end(), std::make_move_iterator(found.begin()),
                   std::make_move_iterator(found.end()));
}

std::optional<TableFile> DatasetFiles::Recognise(const InputFile& file) const {
    for (std::size_t i = 0; i < layout_.tables.size(); ++i) {
        if (auto match = layout_.tables[i].pattern.Matches(file.name)) {
            return TableFile{i, file, match->period, std::move(match->name)};
        }
    }
    return std::nullopt;
}

std::string DatasetFiles::Refusal() const {
    if (!layout_.refusal.empty()) {
        return layout_.refusal;
    }
    return "not a file of " + layout_.dataset + " (expected " + layout_.expected + ")";
}

std::vector<Period> DatasetFiles::Periods() const {
    std::vector<Period> periods;
    for (const TableFile& table : tables_) {
        if (table.period && std::find(periods.begin(), periods.end(), *table.period) == periods.end()) {
            periods.push_back(*table.period);
        }
    }
    std::sort(periods.begin(), periods.end());
    return periods;
}

std::vector<const TableFile*> DatasetFiles::TablesOf(const std::optional<Period>& period) const {
    std::vector<const TableFile*> of;
    for (const TableFile& table : tables_) {
        if (table.period == period) {
            of.push_back(&table);
        }
    }
    std::stable_sort(of.begin(), of.end(),
                     [](const TableFile* a, const TableFile* b) { return a->table < b->table; });
    return of;
}

void DatasetFiles::RefuseRepeats() const {
    std::map<std::pair<std::size_t, std::optional<Period>>, const TableFile*> seen;
    for (const TableFile& table : tables_) {
        auto [it, is_new] = seen.try_emplace({table.table, table.period}, &table);
        if (!is_new) {
            throw IngestError(table.file.name, 0,
                              "given twice (in " + inputs_.FileName(it->second->file.input) + " and " +
                                  inputs_.FileName(table.file.input) + ")");
        }
    }
}

std::string DatasetFiles::MissingList(const std::optional<Period>& period,
                                      const std::vector<const TableFile*>& present) const {
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < layout_.tables.size(); ++i) {
        const TableSpec& spec = layout_.tables[i];
        if (!spec.required || spec.pattern.HasPeriod() != period.has_value()) {
            continue;
        }
        if (std::none_of(present.begin(), present.end(), [i](const TableFile* t) { return t->table == i; })) {
            missing.push_back(spec.pattern.Format(period));
        }
    }
    return Join(missing);
}

void DatasetFiles::RequireComplete() const {
    if (tables_.empty()) {
        throw IngestError(layout_.dataset, 0, "no input files");
    }
    std::vector<std::optional<Period>> groups(1, std::nullopt);
    for (const Period& period : Periods()) {
        groups.emplace_back(period);
    }
    for (const std::optional<Period>& period : groups) {
        const std::vector<const TableFile*> present = TablesOf(period);
        if (present.empty()) {
            continue;
        }
        const std::string missing = MissingList(period, present);
        if (missing.empty()) {
            continue;
        }
        const std::size_t first_input = present.front()->file.input;
        const bool one_archive = inputs_.IsArchive(first_input) &&
                                 std::all_of(present.begin(), present.end(), [&](const TableFile* t) {
                                     return t->file.input == first_input;
                                 });
        const std::string where =
            one_archive || period ? inputs_.FileName(first_input) : std::string(layout_.dataset);
        throw IngestError(where, 0,
                          (period ? period->Describe() + " is incomplete: " : "") + "missing " + missing);
    }
}

}  // namespace lastro::sdk
