// Fuzz target: the series plugin's reader of one SGS answer (plugins/series/domain/sgs_reader.cpp),
// JSON and CSV; the input is the file. Only IngestError may come out, at a line inside the file.
// An accepted answer must keep the reader's promises (dates strictly ascending, values in the
// normalized decimal form, lines inside the file and in file order, the format the content says),
// and written back as SGS's JSON and as its CSV it must read the same.
#include "fuzz_support.hpp"

#include "domain/sgs_reader.hpp"

#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace lastro;

namespace {

constexpr const char* kTarget = "sgs_reader";

[[noreturn]] void Broken(const std::string& what) {
    std::fprintf(stderr, "%s: %s\n", kTarget, what.c_str());
    std::abort();
}

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?: what the reader promises for every value.
bool IsNormalizedDecimal(std::string_view v) {
    std::size_t i = v.starts_with("-") ? 1 : 0;
    if (i >= v.size() || !IsDigit(v[i]) || (v[i] == '0' && i + 1 < v.size() && IsDigit(v[i + 1]))) {
        return false;
    }
    while (i < v.size() && IsDigit(v[i])) {
        ++i;
    }
    if (i == v.size()) {
        return true;
    }
    if (v[i] != '.') {
        return false;
    }
    const std::size_t fraction = ++i;
    while (i < v.size() && IsDigit(v[i])) {
        ++i;
    }
    return i > fraction && i == v.size();
}

// Lines of the file: a last line without newline counts.
std::size_t LineCount(std::string_view bytes) {
    const auto newlines = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n'));
    return bytes.empty() || bytes.back() == '\n' ? newlines : newlines + 1;
}

std::string DateText(const sdk::Date& date) {
    char text[16];
    std::snprintf(text, sizeof text, "%02d/%02d/%04d", date.day, date.month, date.year);
    return text;
}

std::string AsJson(const series::SgsAnswer& answer) {
    std::string out = "[";
    for (const series::SgsObservation& o : answer.observations) {
        out += out.size() > 1 ? "," : "";
        out += "{\"data\":\"" + DateText(o.date) +
               "\",\"valor\":" + (o.value ? "\"" + *o.value + "\"" : "null") + "}";
    }
    return out + "]";
}

std::string AsCsv(const series::SgsAnswer& answer) {
    std::string out = "\"data\";\"valor\"\r\n";
    for (const series::SgsObservation& o : answer.observations) {
        std::string value = o.value.value_or("");
        std::replace(value.begin(), value.end(), '.', ',');
        out += "\"" + DateText(o.date) + "\";\"" + value + "\"\r\n";
    }
    return out;
}

void ExpectSameObservations(const series::SgsAnswer& read, std::string_view written, const char* as) {
    series::SgsAnswer again{};
    try {
        again = series::ReadSgsAnswer(written, "again");
    } catch (const sdk::IngestError& e) {
        Broken(std::string("the answer written back as ") + as + " is refused: " + e.what());
    }
    if (again.observations.size() != read.observations.size()) {
        Broken(std::string("the answer written back as ") + as + " has another number of observations");
    }
    for (std::size_t i = 0; i < read.observations.size(); ++i) {
        if (again.observations[i].date != read.observations[i].date ||
            again.observations[i].value != read.observations[i].value) {
            Broken(std::string("the answer written back as ") + as + " reads otherwise at observation " +
                   std::to_string(i));
        }
    }
}

void CheckAccepted(std::string_view bytes, const series::SgsAnswer& answer) {
    std::size_t first = bytes.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    while (first < bytes.size() && std::string_view(" \t\r\n").find(bytes[first]) != std::string_view::npos) {
        ++first;
    }
    if (first == bytes.size() ||
        (answer.format == series::SgsFormat::kJson) != (bytes[first] == '[' || bytes[first] == '{')) {
        Broken("accepted with a format its content does not start like");
    }
    const std::size_t lines = LineCount(bytes);
    for (std::size_t i = 0; i < answer.observations.size(); ++i) {
        const series::SgsObservation& o = answer.observations[i];
        if (o.line < 1 || o.line > lines) {
            Broken("observation " + std::to_string(i) + " at line " + std::to_string(o.line) + " of " +
                   std::to_string(lines));
        }
        if (o.value && !IsNormalizedDecimal(*o.value)) {
            Broken("observation " + std::to_string(i) + " has the value '" + *o.value + "'");
        }
        if (!sdk::Date::Parse(o.date.ToString())) {
            Broken("observation " + std::to_string(i) + " has no real date");
        }
        if (i > 0) {
            const series::SgsObservation& before = answer.observations[i - 1];
            if (!(before.date < o.date)) {
                Broken("dates not strictly ascending at observation " + std::to_string(i));
            }
            if (before.line > o.line) {
                Broken("observations out of line order at observation " + std::to_string(i));
            }
        }
    }
    ExpectSameObservations(answer, AsJson(answer), "JSON");
    ExpectSameObservations(answer, AsCsv(answer), "CSV");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    series::SgsAnswer answer{};
    try {
        answer = series::ReadSgsAnswer(bytes, "fuzz.json");
    } catch (const sdk::IngestError& e) {
        // The refusal names the file and a line of it (0: the file as a whole).
        if (e.File() != "fuzz.json" || e.Line() > std::max<std::size_t>(LineCount(bytes), 1)) {
            Broken(std::string("refusal at a line outside the file: ") + e.what());
        }
        return 0;
    } catch (const std::exception& e) {
        fuzz::UnexpectedException(kTarget, e);
    }
    CheckAccepted(bytes, answer);
    return 0;
}
