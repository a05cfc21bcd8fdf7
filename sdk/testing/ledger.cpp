#include <lastro/sdk/testing/ledger.hpp>

#include <charconv>
#include <map>
#include <sstream>
#include <stdexcept>

namespace lastro::sdk::testing {
namespace {

constexpr const char* kLedgerHeader =
    "request_id\tkey_id\toperation\tprice\tstate\tstatus\treserved_at\tsettled_at\tinstance";

std::vector<std::string> SplitTabs(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t tab = line.find('\t'); tab != std::string::npos; tab = line.find('\t', start)) {
        fields.push_back(line.substr(start, tab - start));
        start = tab + 1;
    }
    fields.push_back(line.substr(start));
    return fields;
}

std::int64_t Integer(const std::string& text, const std::string& context) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        throw std::runtime_error("not an integer: '" + text + "' in " + context);
    }
    return value;
}

CommandResult Require(CommandResult result) {
    if (result.exit_code != 0 || result.timed_out) {
        throw std::runtime_error(result.Describe());
    }
    return result;
}

}  // namespace

std::string UtcMonth(std::time_t when) {
    std::tm tm{};
    gmtime_r(&when, &tm);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m", &tm);
    return text;
}

std::vector<LedgerEntry> ReadLedger(const Deployment& d, const std::string& month,
                                    std::optional<std::int64_t> key_id) {
    std::vector<std::string> args = {"ledger", "--month", month};
    if (key_id) {
        args.insert(args.end(), {"--key", std::to_string(*key_id)});
    }
    const CommandResult result = Require(d.Lastro(args));
    std::istringstream lines(result.out);
    std::string line;
    if (!std::getline(lines, line) || line != kLedgerHeader) {
        throw std::runtime_error("lastro ledger printed no header line: " + result.Describe());
    }
    std::vector<LedgerEntry> entries;
    while (std::getline(lines, line)) {
        const std::vector<std::string> f = SplitTabs(line);
        if (f.size() != 9) {
            throw std::runtime_error("lastro ledger printed a line of " + std::to_string(f.size()) +
                                     " fields: " + line);
        }
        LedgerEntry e;
        e.request_id = f[0];
        e.key_id = Integer(f[1], line);
        e.operation = f[2];
        e.price = Integer(f[3], line);
        e.state = f[4];
        if (f[5] != "-") {
            e.status = static_cast<int>(Integer(f[5], line));
        }
        e.reserved_at = f[6];
        e.settled_at = f[7];
        e.instance = f[8];
        entries.push_back(std::move(e));
    }
    return entries;
}

KeyUsage ReadKeyUsage(const Deployment& d, std::int64_t key_id, const std::string& month) {
    const CommandResult result =
        Require(d.Lastro({"keys", "usage", std::to_string(key_id), "--month", month}));
    std::istringstream lines(result.out);
    std::string line;
    const std::string title = "key " + std::to_string(key_id) + " month " + month;
    if (!std::getline(lines, line) || line != title) {
        throw std::runtime_error("lastro keys usage did not start with '" + title +
                                 "': " + result.Describe());
    }
    std::map<std::string, std::int64_t> values;
    while (std::getline(lines, line)) {
        const std::size_t space = line.find(' ');
        if (space == std::string::npos) {
            throw std::runtime_error("lastro keys usage printed '" + line + "'");
        }
        values[line.substr(0, space)] = Integer(line.substr(space + 1), line);
    }
    const auto get = [&](const std::string& name) {
        auto it = values.find(name);
        if (it == values.end()) {
            throw std::runtime_error("lastro keys usage printed no " + name + ": " + result.Describe());
        }
        return it->second;
    };
    return {get("charged"),         get("reserved"),       get("ledger_charged"),
            get("ledger_reserved"), get("ledger_entries"), get("leased")};
}

}  // namespace lastro::sdk::testing
