// The five B3 JSON readers (b3_json.hpp). The answers are small (kilobytes), so each is read
// whole into a Boost.JSON tree, bounded in size and depth, and walked with one helper per record
// (RecordFields) that knows the file and the record's path for every message.
#include "domain/b3_json/b3_json.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>

namespace lastro::stocks {
namespace {

namespace json = boost::json;

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

[[noreturn]] void Fail(const std::string& file, const std::string& what) {
    throw sdk::IngestError(file, 0, what);
}

// How a value is shown in a message: its text, quoted and cut.
std::string Shown(const json::value& value) {
    if (const json::string* text = value.if_string()) {
        return sdk::Quoted(std::string_view(*text));
    }
    return sdk::Quoted(json::serialize(value));
}

// The fields of one record, read with the file and the record's path in every message.
class RecordFields {
public:
    RecordFields(const std::string& file, std::string path, const json::object& object)
        : file_(file), path_(std::move(path)), object_(object) {}

    const std::string& Path() const { return path_; }
    const json::object& Object() const { return object_; }

    [[noreturn]] void Fail(std::string_view field, const std::string& problem) const {
        stocks::Fail(file_, path_ + ": " + std::string(field) + " " + problem);
    }

    // A string trimmed (blank: nullopt), null or absent (nullopt), or an integer's digits (B3
    // writes a few codes unquoted); anything else is refused.
    std::optional<std::string> Text(std::string_view field) const {
        const json::value* value = object_.if_contains(field);
        if (!value || value->is_null()) {
            return std::nullopt;
        }
        if (const json::string* text = value->if_string()) {
            const std::string_view trimmed = sdk::TrimBlanks(std::string_view(*text));
            return trimmed.empty() ? std::nullopt : std::optional<std::string>(trimmed);
        }
        if (value->is_int64() || value->is_uint64()) {
            return json::serialize(*value);
        }
        Fail(field, "is not text: " + Shown(*value));
    }

    std::string RequiredText(std::string_view field) const {
        std::optional<std::string> text = Text(field);
        if (!text) {
            Fail(field, "is missing or blank");
        }
        return std::move(*text);
    }

    std::optional<PtBrDecimal> Decimal(std::string_view field) const {
        const json::value* value = object_.if_contains(field);
        if (value && value->is_double()) {
            Fail(field, "is a JSON number, not B3's text: " + Shown(*value));
        }
        const std::optional<std::string> text = Text(field);
        if (!text) {
            return std::nullopt;
        }
        std::optional<PtBrDecimal> decimal = ParsePtBrDecimal(*text);
        if (!decimal) {
            Fail(field, "is not a pt-BR decimal: " + sdk::Quoted(*text));
        }
        return decimal;
    }

    // A whole number, with or without thousands dots ("100", "1.000").
    std::optional<std::int64_t> Integer(std::string_view field) const {
        const std::optional<PtBrDecimal> decimal = Decimal(field);
        if (!decimal) {
            return std::nullopt;
        }
        std::int64_t number = 0;
        const std::string& digits = decimal->decimal;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
        if (error != std::errc() || end != digits.data() + digits.size()) {
            Fail(field, "is not a whole number: " + sdk::Quoted(decimal->published));
        }
        return number;
    }

    // A day as dd/mm/yyyy (kBrazilian) or yyyy-mm-dd (kIso); with `time_allowed`, a time after a
    // blank is left out ("06/06/2022 23:05:06", "2021-12-17T00:00:00").
    std::optional<sdk::Date> DateIn(std::string_view field,
                                    sdk::DateFormat format = sdk::DateFormat::kBrazilian,
                                    bool time_allowed = false) const {
        const std::optional<std::string> text = Text(field);
        if (!text) {
            return std::nullopt;
        }
        std::string_view day = *text;
        if (time_allowed && day.size() > 10 && (day[10] == ' ' || day[10] == 'T')) {
            day = day.substr(0, 10);
        }
        const sdk::Parsed<sdk::Date> parsed = sdk::ParseDate(day, format);
        if (parsed.status != sdk::ValueStatus::kValue) {
            Fail(field, "is not " + std::string(sdk::DateFormatName(format)) + ": " + sdk::Quoted(*text));
        }
        return parsed.value;
    }

    // An array member: nullptr when absent or null; anything but an array is refused.
    const json::array* Array(std::string_view field) const {
        const json::value* value = object_.if_contains(field);
        if (!value || value->is_null()) {
            return nullptr;
        }
        if (!value->is_array()) {
            Fail(field, "is not an array: " + Shown(*value));
        }
        return &value->get_array();
    }

    const json::object* Object(std::string_view field) const {
        const json::value* value = object_.if_contains(field);
        if (!value || value->is_null()) {
            return nullptr;
        }
        if (!value->is_object()) {
            Fail(field, "is not an object: " + Shown(*value));
        }
        return &value->get_object();
    }

private:
    const std::string& file_;
    std::string path_;
    const json::object& object_;
};

// The object at `path`, or a refusal naming it.
const json::object& ObjectAt(const std::string& file, const json::value& value, const std::string& path) {
    if (!value.is_object()) {
        Fail(file, path + " is not an object: " + Shown(value));
    }
    return value.get_object();
}

// The root object's `results` array: what the paged answers (cash dividends, index) list.
const json::array& Results(const std::string& file, const json::value& root, std::string_view answer) {
    const json::object* object = root.if_object();
    const json::value* results = object ? object->if_contains("results") : nullptr;
    if (!results || !results->is_array()) {
        Fail(file, "no \"results\" array at the top: not a " + std::string(answer) + " answer");
    }
    return results->get_array();
}

std::string Indexed(std::string_view prefix, std::size_t index) {
    return std::string(prefix) + "[" + std::to_string(index) + "]";
}

}  // namespace

std::optional<PtBrDecimal> ParsePtBrDecimal(std::string_view text) {
    text = sdk::TrimBlanks(text);
    if (text.empty() || text.size() > 300) {
        return std::nullopt;
    }
    std::size_t i = 0;
    std::string decimal;
    if (text[0] == '-') {
        decimal += '-';
        ++i;
    }
    // The integer part: plain digits, or 1-3 digits then groups of '.' and three digits.
    const std::size_t first = i;
    while (i < text.size() && IsDigit(text[i])) {
        decimal += text[i++];
    }
    const std::size_t lead = i - first;
    if (lead == 0) {
        return std::nullopt;
    }
    if (i < text.size() && text[i] == '.') {
        if (lead > 3) {
            return std::nullopt;
        }
        while (i < text.size() && text[i] == '.') {
            for (std::size_t k = 1; k <= 3; ++k) {
                if (i + k >= text.size() || !IsDigit(text[i + k])) {
                    return std::nullopt;
                }
                decimal += text[i + k];
            }
            i += 4;
        }
        if (i < text.size() && IsDigit(text[i])) {
            return std::nullopt;  // a fourth digit in a group
        }
    }
    if (i < text.size() && text[i] == ',') {
        ++i;
        if (i == text.size()) {
            return std::nullopt;
        }
        decimal += '.';
        while (i < text.size() && IsDigit(text[i])) {
            decimal += text[i++];
        }
    }
    if (i != text.size() || decimal.back() == '.') {
        return std::nullopt;
    }
    double value = 0;
    const auto [end, error] = std::from_chars(decimal.data(), decimal.data() + decimal.size(), value);
    if (error != std::errc() || end != decimal.data() + decimal.size() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return PtBrDecimal{std::string(text), std::move(decimal), value};
}

std::string CanonicalDecimal(std::string_view decimal) {
    const bool negative = decimal.starts_with("-");
    if (negative) {
        decimal.remove_prefix(1);
    }
    const std::size_t point = decimal.find('.');
    std::string_view whole = decimal.substr(0, point);
    std::string_view fraction =
        point == std::string_view::npos ? std::string_view() : decimal.substr(point + 1);
    while (whole.size() > 1 && whole.front() == '0') {
        whole.remove_prefix(1);
    }
    while (!fraction.empty() && fraction.back() == '0') {
        fraction.remove_suffix(1);
    }
    std::string text(whole.empty() ? "0" : whole);
    if (!fraction.empty()) {
        text += "." + std::string(fraction);
    }
    if (negative && text != "0") {
        text.insert(text.begin(), '-');
    }
    return text;
}

boost::json::value ReadB3Json(sdk::ByteSource& source) {
    const std::string& file = source.Name();
    std::string bytes;
    char buffer[1 << 16];
    for (std::size_t n; (n = source.Read(buffer, sizeof buffer)) > 0;) {
        if (bytes.size() + n > kMaxB3JsonBytes) {
            Fail(file, "more than " + std::to_string(kMaxB3JsonBytes) +
                           " bytes: larger than any B3 answer read (docs/datasets/b3_json.md, Limits)");
        }
        bytes.append(buffer, n);
    }
    json::parse_options options;
    options.max_depth = kMaxB3JsonDepth;
    const auto parse = [&](std::string_view text, const char* what) {
        std::error_code error;
        json::value value = json::parse(text, error, {}, options);
        if (error) {
            Fail(file, std::string(what) + ": " + error.message());
        }
        return value;
    };
    std::string_view text = bytes;
    if (text.starts_with("\xEF\xBB\xBF")) {  // a byte order mark some downloaders leave
        text.remove_prefix(3);
    }
    if (sdk::TrimBlanks(text).empty()) {
        Fail(file, "empty file: not a B3 answer");
    }
    json::value root = parse(text, "not JSON");
    // B3's quirk: the body is a JSON string holding the JSON. Read once more, never twice.
    if (const json::string* inner = root.if_string()) {
        const std::string body(*inner);
        root = parse(body, "a JSON string whose text is not JSON");
        if (root.is_string()) {
            Fail(file, "a JSON string holding a JSON string: not a B3 answer");
        }
    }
    return root;
}

CashDividendRecord ReadCashDividendRecord(const std::string& file, const std::string& path,
                                          const boost::json::object& object) {
    const RecordFields r(file, path, object);
    CashDividendRecord record;
    record.path = path;
    record.published = r.Object();
    record.corporate_action = r.RequiredText("corporateAction");
    record.type_stock = r.Text("typeStock");
    record.approved_on = r.DateIn("dateApproval");
    record.value_cash = r.Decimal("valueCash");
    record.ratio = r.Text("ratio");
    record.last_date_prior_ex = r.DateIn("lastDatePriorEx");
    record.closing_price_date = r.DateIn("dateClosingPricePriorExDate");
    record.closing_price = r.Decimal("closingPricePriorExDate");
    record.quoted_per_shares = r.Integer("quotedPerShares");
    if (record.quoted_per_shares && *record.quoted_per_shares <= 0) {
        r.Fail("quotedPerShares", "is not a positive number of shares: " +
                                      sdk::Quoted(std::to_string(*record.quoted_per_shares)));
    }
    record.corporate_action_price = r.Decimal("corporateActionPrice");
    return record;
}

SupplementCashRecord ReadSupplementCashRecord(const std::string& file, const std::string& path,
                                              const boost::json::object& object) {
    const RecordFields r(file, path, object);
    SupplementCashRecord record;
    record.path = r.Path();
    record.published = r.Object();
    record.label = r.RequiredText("label");
    record.isin = r.Text("isinCode");
    record.asset_issued = r.Text("assetIssued");
    record.payment_date = r.DateIn("paymentDate");
    record.rate = r.Decimal("rate");
    record.related_to = r.Text("relatedTo");
    record.approved_on = r.DateIn("approvedOn");
    record.last_date_prior = r.DateIn("lastDatePrior");
    return record;
}

std::optional<std::string> IssuerCode(std::string_view text) {
    text = sdk::TrimBlanks(text);
    if (text.empty() || text.size() > 12) {
        return std::nullopt;
    }
    std::string code;
    for (char c : text) {
        if (c >= 'a' && c <= 'z') {
            c = static_cast<char>(c - 'a' + 'A');
        }
        if (!IsDigit(c) && !(c >= 'A' && c <= 'Z')) {
            return std::nullopt;
        }
        code += c;
    }
    return code;
}

CashDividendsAnswer ReadCashDividends(sdk::ByteSource& source) {
    const std::string file = source.Name();
    const json::value root = ReadB3Json(source);
    const json::array& results = Results(file, root, "GetListedCashDividends");
    CashDividendsAnswer answer;
    answer.records.reserve(results.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
        const std::string path = Indexed("results", i);
        answer.records.push_back(ReadCashDividendRecord(file, path, ObjectAt(file, results[i], path)));
    }
    return answer;
}

SupplementAnswer ReadSupplement(sdk::ByteSource& source) {
    const std::string file = source.Name();
    const json::value root = ReadB3Json(source);
    const json::array* companies = root.if_array();
    if (!companies) {
        Fail(file, "the answer is not an array of companies: not a GetListedSupplementCompany answer");
    }
    if (companies->empty()) {
        Fail(file, "an empty answer ([]): B3 knows no company by the code asked");
    }
    if (companies->size() > 1) {
        Fail(file, std::to_string(companies->size()) + " companies in one answer; B3 answers one per issuer");
    }
    const RecordFields c(file, "[0]", ObjectAt(file, (*companies)[0], "[0]"));
    SupplementAnswer answer;
    for (const auto& member : c.Object()) {
        if (member.key() != "cashDividends" && member.key() != "stockDividends" &&
            member.key() != "subscriptions") {
            answer.published.emplace(member.key(), member.value());
        }
    }
    answer.code = c.RequiredText("code");
    answer.trading_name = c.Text("tradingName");
    answer.cvm_code = c.Integer("codeCVM");
    answer.stock_capital = c.Decimal("stockCapital");
    answer.common_shares = c.Decimal("numberCommonShares");
    answer.preferred_shares = c.Decimal("numberPreferredShares");
    answer.total_shares = c.Decimal("totalNumberShares");
    answer.quoted_per_shares_since = c.DateIn("quotedPerSharSince");
    answer.round_lot = c.Integer("roundLot");
    answer.segment = c.Text("segment");

    const auto each = [&](std::string_view block, auto&& read) {
        const json::array* records = c.Array(block);
        if (!records) {
            return;
        }
        for (std::size_t i = 0; i < records->size(); ++i) {
            const std::string path = Indexed("[0]." + std::string(block), i);
            read(RecordFields(file, path, ObjectAt(file, (*records)[i], path)));
        }
    };
    each("cashDividends", [&](const RecordFields& r) {
        answer.cash.push_back(ReadSupplementCashRecord(file, r.Path(), r.Object()));
    });
    each("stockDividends", [&](const RecordFields& r) {
        SupplementStockRecord record;
        record.path = r.Path();
        record.published = r.Object();
        record.label = r.RequiredText("label");
        record.isin = r.Text("isinCode");
        record.asset_issued = r.Text("assetIssued");
        record.factor = r.Decimal("factor");
        record.approved_on = r.DateIn("approvedOn");
        record.last_date_prior = r.DateIn("lastDatePrior");
        answer.stock.push_back(std::move(record));
    });
    each("subscriptions", [&](const RecordFields& r) {
        SupplementSubscriptionRecord record;
        record.path = r.Path();
        record.published = r.Object();
        record.label = r.RequiredText("label");
        record.isin = r.Text("isinCode");
        record.asset_issued = r.Text("assetIssued");
        record.percentage = r.Decimal("percentage");
        record.price_unit = r.Decimal("priceUnit");
        record.trading_period = r.Text("tradingPeriod");
        record.subscription_date = r.DateIn("subscriptionDate");
        record.approved_on = r.DateIn("approvedOn");
        record.last_date_prior = r.DateIn("lastDatePrior");
        answer.subscriptions.push_back(std::move(record));
    });
    return answer;
}

DetailsAnswer ReadDetails(sdk::ByteSource& source) {
    const std::string file = source.Name();
    const json::value root = ReadB3Json(source);
    if (!root.is_object()) {
        Fail(file, "the answer is not an object: not a GetDetailsCompany answer");
    }
    const RecordFields d(file, "$", root.get_object());
    DetailsAnswer answer;
    answer.published = d.Object();
    answer.issuing_company = d.RequiredText("issuingCompany");
    answer.company_name = d.Text("companyName");
    answer.trading_name = d.Text("tradingName");
    answer.cnpj = d.Text("cnpj");
    answer.industry_classification = d.Text("industryClassification");
    answer.market = d.Text("market");
    answer.cvm_code = d.Integer("codeCVM");
    answer.last_date = d.DateIn("lastDate", sdk::DateFormat::kBrazilian, true);
    if (const json::array* codes = d.Array("otherCodes")) {
        for (std::size_t i = 0; i < codes->size(); ++i) {
            const std::string path = Indexed("otherCodes", i);
            const RecordFields r(file, path, ObjectAt(file, (*codes)[i], path));
            answer.other_codes.push_back({r.RequiredText("code"), r.Text("isin")});
        }
    }
    return answer;
}

IndustryClassification SplitIndustryClassification(std::string_view text) {
    IndustryClassification parts;
    std::optional<std::string>* slots[] = {&parts.sector, &parts.subsector, &parts.segment};
    for (std::size_t slot = 0; slot < 3 && !text.empty(); ++slot) {
        const std::size_t cut = slot < 2 ? text.find(" / ") : std::string_view::npos;
        const std::string_view part = sdk::TrimBlanks(text.substr(0, cut));
        if (!part.empty()) {
            *slots[slot] = std::string(part);
        }
        text = cut == std::string_view::npos ? std::string_view() : text.substr(cut + 3);
    }
    return parts;
}

StockIndexAnswer ReadStockIndex(sdk::ByteSource& source) {
    const std::string file = source.Name();
    const json::value root = ReadB3Json(source);
    const json::array& results = Results(file, root, "GetStockIndex");
    StockIndexAnswer answer;
    if (const json::object* header = RecordFields(file, "$", root.get_object()).Object("header")) {
        answer.update = RecordFields(file, "header", *header).DateIn("update", sdk::DateFormat::kIso, true);
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
        const std::string path = Indexed("results", i);
        const RecordFields r(file, path, ObjectAt(file, results[i], path));
        StockIndexRecord record;
        record.path = path;
        record.ticker = r.RequiredText("code");
        record.company = r.Text("company");
        record.spotlight = r.Text("spotlight");
        if (const std::optional<std::string> indexes = r.Text("indexes")) {
            std::string_view rest = *indexes;
            while (!rest.empty()) {
                const std::size_t comma = rest.find(',');
                const std::string_view index = sdk::TrimBlanks(rest.substr(0, comma));
                if (!index.empty()) {
                    record.indexes.emplace_back(index);
                }
                rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            }
        }
        answer.records.push_back(std::move(record));
    }
    return answer;
}

PortfolioAnswer ReadTheoricalPortfolio(sdk::ByteSource& source) {
    const std::string file = source.Name();
    const json::value root = ReadB3Json(source);
    const json::array& results = Results(file, root, "GetTheoricalPortfolio");
    PortfolioAnswer answer;
    if (const json::object* header = RecordFields(file, "$", root.get_object()).Object("header")) {
        const RecordFields h(file, "header", *header);
        answer.total_quantity = h.Decimal("theoricalQty");
        answer.reductor = h.Decimal("reductor");
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
        const std::string path = Indexed("results", i);
        const RecordFields r(file, path, ObjectAt(file, results[i], path));
        PortfolioRecord record;
        record.path = path;
        record.ticker = r.RequiredText("cod");
        record.asset = r.Text("asset");
        record.type = r.Text("type");
        record.theoretical_quantity = r.Decimal("theoricalQty");
        record.part = r.Decimal("part");
        answer.records.push_back(std::move(record));
    }
    return answer;
}

}  // namespace lastro::stocks
