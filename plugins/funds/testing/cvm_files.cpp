#include <lastro/funds/testing/cvm_files.hpp>
#include <lastro/funds/testing/funds_checks.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace lastro::funds::e2e {
namespace {

std::string Latin1ToUtf8(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    for (unsigned char c : bytes) {
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back(static_cast<char>(0xC0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
    }
    return out;
}

std::vector<std::string> Split(std::string_view line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = line.find(';', start);
        fields.emplace_back(line.substr(start, end == std::string_view::npos ? line.npos : end - start));
        if (end == std::string_view::npos) {
            break;
        }
        start = end + 1;
    }
    return fields;
}

bool Contains(const std::string& haystack, std::string_view needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

CsvMember ReadCvmCsv(const std::string& name, const std::string& bytes, bool latin1) {
    CsvMember member;
    member.name = name;
    const std::string text = latin1 ? Latin1ToUtf8(bytes) : bytes;
    std::size_t pos = 0;
    bool header = true;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) {
            end = text.size();
        }
        std::string_view line(text.data() + pos, end - pos);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        pos = end + 1;
        if (line.empty()) {
            continue;
        }
        auto fields = Split(line);
        if (header) {
            member.header = std::move(fields);
            header = false;
            continue;
        }
        if (fields.size() != member.header.size()) {
            throw std::runtime_error(name + ": a line has " + std::to_string(fields.size()) +
                                     " fields, the header " + std::to_string(member.header.size()));
        }
        CsvRow row;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            row.emplace(member.header[i], std::move(fields[i]));
        }
        member.rows.push_back(std::move(row));
    }
    return member;
}

CsvMember ReadCvmCsvFile(const std::filesystem::path& path, bool latin1) {
    return ReadCvmCsv(path.filename().string(), sdk::testing::ReadFile(path), latin1);
}

std::vector<CsvMember> ReadCvmZip(const std::filesystem::path& zip) {
    std::vector<CsvMember> members;
    for (const auto& [name, bytes] : sdk::testing::ZipMemberBytes(zip)) {
        members.push_back(ReadCvmCsv(name, bytes));
    }
    return members;
}

std::string CnpjDigits(std::string_view text) {
    std::string digits;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digits.push_back(c);
        }
    }
    return digits;
}

std::optional<double> Number(const CsvRow& row, const std::string& column) {
    auto it = row.find(column);
    if (it == row.end() || it->second.empty()) {
        return std::nullopt;
    }
    const std::string& text = it->second;
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        throw std::runtime_error(column + " is not a number: '" + text + "'");
    }
    return value;
}

std::string FidcTableOf(std::string_view member_name) {
    constexpr std::string_view kPrefix = "inf_mensal_fidc_tab_";
    if (member_name.substr(0, kPrefix.size()) != kPrefix) {
        return "";
    }
    std::string_view rest = member_name.substr(kPrefix.size());  // "X_1_1_202501.csv"
    const std::size_t last = rest.rfind('_');
    return last == std::string_view::npos ? "" : std::string(rest.substr(0, last));
}

SampleFidcReports::SampleFidcReports(const std::filesystem::path& sample_dir) {
    for (const auto& entry : std::filesystem::directory_iterator(sample_dir)) {
        const std::string file = entry.path().filename().string();
        if (file.rfind("inf_mensal_fidc_", 0) != 0 || entry.path().extension() != ".zip") {
            continue;
        }
        for (auto& member : ReadCvmZip(entry.path())) {
            const std::string table = FidcTableOf(member.name);
            if (table.empty()) {
                continue;
            }
            const bool old_layout =
                std::find(member.header.begin(), member.header.end(), "CNPJ_FUNDO") != member.header.end();
            for (auto& row : member.rows) {
                const std::string cnpj = CnpjDigits(row.at(old_layout ? "CNPJ_FUNDO" : "CNPJ_FUNDO_CLASSE"));
                const std::string month = row.at("DT_COMPTC").substr(0, 7);
                std::string type = old_layout ? "" : row.at("TP_FUNDO_CLASSE");
                rows_[{table, cnpj, month}].push_back({std::move(type), std::move(row)});
            }
        }
    }
    if (rows_.empty()) {
        throw std::runtime_error("no inf_mensal_fidc zip in " + sample_dir.string());
    }
}

std::size_t SampleFidcReports::Deliveries(const std::string& cnpj, const std::string& month) const {
    std::size_t most = 1;
    for (const char* table : {"I", "II", "III", "IV", "V", "VI", "VII", "IX", "X", "X_1_1", "X_5", "X_7"}) {
        auto it = rows_.find({table, cnpj, month});
        if (it == rows_.end()) {
            continue;
        }
        const bool has_classe = std::any_of(it->second.begin(), it->second.end(),
                                            [](const Filed& f) { return f.type == "Classe"; });
        const auto kept = std::count_if(it->second.begin(), it->second.end(), [has_classe](const Filed& f) {
            return !has_classe || f.type != "Fundo";
        });
        most = std::max(most, static_cast<std::size_t>(kept));
    }
    return most;
}

std::vector<CsvRow> SampleFidcReports::Rows(const std::string& table, const std::string& cnpj,
                                            const std::string& month) const {
    auto it = rows_.find({table, cnpj, month});
    if (it == rows_.end()) {
        return {};
    }
    const bool has_classe =
        std::any_of(it->second.begin(), it->second.end(), [](const Filed& f) { return f.type == "Classe"; });
    if (!it->second.empty() && it->second.front().row.contains("TAB_X_CLASSE_SERIE")) {
        return SeriesRows(it->second, has_classe, Deliveries(cnpj, month));
    }
    std::vector<std::string> order;
    std::map<std::string, CsvRow> by_key;
    for (const auto& filed : it->second) {
        if (has_classe && filed.type == "Fundo") {
            continue;
        }
        std::string key = filed.type;
        for (const char* column : {"TAB_X_CLASSE_SERIE", "TAB_X_TP_OPER", "SEQUENCIAL"}) {
            if (auto c = filed.row.find(column); c != filed.row.end()) {
                key += "\x1f" + c->second;
            }
        }
        if (by_key.find(key) == by_key.end()) {
            order.push_back(key);
        }
        by_key[key] = filed.row;  // the last line of the file wins
    }
    std::vector<CsvRow> out;
    for (const auto& key : order) {
        out.push_back(by_key.at(key));
    }
    return out;
}

std::vector<CsvRow> SampleFidcReports::SeriesRows(const std::vector<Filed>& filed, bool has_classe,
                                                  std::size_t deliveries) {
    using Key = std::tuple<std::string, std::string, std::string>;  // type, label, operation
    std::map<Key, std::vector<const CsvRow*>> groups;
    std::vector<Key> order;
    for (const Filed& f : filed) {
        if (has_classe && f.type == "Fundo") {
            continue;
        }
        const auto operation = f.row.find("TAB_X_TP_OPER");
        Key key{f.type, f.row.at("TAB_X_CLASSE_SERIE"), operation == f.row.end() ? "" : operation->second};
        auto [it, inserted] = groups.try_emplace(key);
        if (inserted) {
            order.push_back(key);
        }
        it->second.push_back(&f.row);
    }
    std::vector<CsvRow> out;
    for (const Key& key : order) {
        const std::vector<const CsvRow*>& rows = groups.at(key);
        std::vector<const CsvRow*> series;
        if (deliveries > 1 && rows.size() >= deliveries && rows.size() % deliveries == 0) {
            series.resize(rows.size() / deliveries);
            for (std::size_t i = 0; i < rows.size(); ++i) {
                series[i % series.size()] = rows[i];  // the later delivery wins
            }
        } else {
            for (const CsvRow* row : rows) {
                if (std::none_of(series.begin(), series.end(),
                                 [row](const CsvRow* s) { return *s == *row; })) {
                    series.push_back(row);
                }
            }
        }
        for (std::size_t o = 0; o < series.size(); ++o) {
            CsvRow row = *series[o];
            row[kSeriesColumn] = std::get<1>(key) + (o == 0 ? "" : " #" + std::to_string(o + 1));
            out.push_back(std::move(row));
        }
    }
    return out;
}

std::optional<CsvRow> SampleFidcReports::Row(const std::string& table, const std::string& cnpj,
                                             const std::string& month) const {
    auto rows = Rows(table, cnpj, month);
    if (rows.empty()) {
        return std::nullopt;
    }
    if (rows.size() > 1) {
        throw std::runtime_error("table " + table + " has " + std::to_string(rows.size()) +
                                 " kept rows for " + cnpj + " " + month);
    }
    return rows.front();
}

std::vector<std::string> SampleFidcReports::MonthsOf(const std::string& cnpj) const {
    std::vector<std::string> months;
    for (const auto& [key, rows] : rows_) {
        if (std::get<0>(key) == "IV" && std::get<1>(key) == cnpj) {
            months.push_back(std::get<2>(key));
        }
    }
    std::sort(months.begin(), months.end());
    return months;
}

std::set<std::string> SampleFidcReports::Cnpjs() const {
    std::set<std::string> cnpjs;
    for (const auto& [key, rows] : rows_) {
        if (std::get<0>(key) == "IV") {
            cnpjs.insert(std::get<1>(key));
        }
    }
    return cnpjs;
}

std::set<std::string> SampleFidcReports::Months() const {
    std::set<std::string> months;
    for (const auto& [key, rows] : rows_) {
        months.insert(std::get<2>(key));
    }
    return months;
}

std::vector<std::pair<std::string, std::string>> SampleFidcReports::FiledAsFundoAndClasse() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, rows] : rows_) {
        if (std::get<0>(key) != "IV") {
            continue;
        }
        const bool fundo =
            std::any_of(rows.begin(), rows.end(), [](const Filed& f) { return f.type == "Fundo"; });
        const bool classe =
            std::any_of(rows.begin(), rows.end(), [](const Filed& f) { return f.type == "Classe"; });
        if (fundo && classe) {
            out.emplace_back(std::get<1>(key), std::get<2>(key));
        }
    }
    return out;
}

std::string SeniorityOf(std::string_view label) {
    const std::string folded = Fold(label);
    if (Contains(folded, "mezanino") || Contains(folded, "mezzanine")) {
        return "mezzanine";
    }
    if (Contains(folded, "subordinad") || Contains(folded, "junior")) {
        return "subordinated";
    }
    if (Contains(folded, "senior")) {
        return "senior";
    }
    return "unknown";
}

RaisedNetWorth RaiseOneNetWorth(const std::filesystem::path& zip, double raise,
                                const std::function<bool(double)>& eligible) {
    RaisedNetWorth out;
    out.members = sdk::testing::ZipMemberBytes(zip);
    auto tab_iv = std::find_if(out.members.begin(), out.members.end(),
                               [](const auto& m) { return FidcTableOf(m.first) == "IV"; });
    if (tab_iv == out.members.end()) {
        return out;
    }
    const CsvMember table = ReadCvmCsv(tab_iv->first, tab_iv->second);
    const auto position = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(table.header.begin(), table.header.end(), name) -
                                        table.header.begin());
    };
    const std::size_t cnpj_at = std::min(position("CNPJ_FUNDO_CLASSE"), position("CNPJ_FUNDO"));
    const std::size_t column = position("TAB_IV_A_VL_PL");
    if (cnpj_at >= table.header.size() || column >= table.header.size()) {
        return out;
    }
    std::map<std::string, int> lines_of;
    for (const CsvRow& row : table.rows) {
        ++lines_of[row.at(table.header[cnpj_at])];
    }
    // The bytes are Latin-1 and the fields plain: the line is rewritten field by field.
    std::vector<std::string> lines;
    std::istringstream in(tab_iv->second);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    for (std::size_t i = 1; i < lines.size() && out.cnpj.empty(); ++i) {
        std::vector<std::string> fields;
        std::istringstream split(lines[i]);
        for (std::string field; std::getline(split, field, ';');) {
            fields.push_back(field);
        }
        if (fields.size() != table.header.size() || lines_of[fields[cnpj_at]] != 1 ||
            fields[column].empty() || !eligible(std::stod(fields[column]))) {
            continue;
        }
        char value[64];
        std::snprintf(value, sizeof value, "%.2f", std::stod(fields[column]) + raise);
        fields[column] = value;
        std::string joined;
        for (std::size_t f = 0; f < fields.size(); ++f) {
            joined += (f ? ";" : "") + fields[f];
        }
        lines[i] = joined;
        out.cnpj = fields[cnpj_at];
    }
    std::string rewritten;
    for (const std::string& line : lines) {
        rewritten += line + "\n";
    }
    tab_iv->second = rewritten;
    return out;
}

}  // namespace lastro::funds::e2e
