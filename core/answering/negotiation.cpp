#include "core/answering/negotiation.hpp"

#include <cctype>
#include <string>

namespace lastro::answering {
namespace {

bool IsSpace(char c) {
    return c == ' ' || c == '\t';
}

std::string_view Trim(std::string_view s) {
    while (!s.empty() && IsSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && IsSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

// A weight (RFC 9110, 12.4.2: 0, 0.xxx, 1, 1.000) in thousandths; nullopt when it is not one.
std::optional<int> Weight(std::string_view text) {
    if (text.empty() || text.size() > 5 || (text[0] != '0' && text[0] != '1'))
        return std::nullopt;
    int thousandths = (text[0] - '0') * 1000;
    if (text.size() > 1) {
        if (text[1] != '.')
            return std::nullopt;
        int scale = 100;
        for (std::size_t i = 2; i < text.size(); ++i, scale /= 10) {
            if (!std::isdigit(static_cast<unsigned char>(text[i])))
                return std::nullopt;
            thousandths += (text[i] - '0') * scale;
        }
    }
    return thousandths <= 1000 ? std::optional(thousandths) : std::nullopt;
}

// One element of a weighted list: its name (a coding or a media range) and its weight (1000
// when it gives none; nullopt when its q is malformed, so that the element counts for nothing).
struct Element {
    std::string_view name;
    std::optional<int> weight;
};

// Calls `each` with every element of a comma-separated weighted list. Parameters other than q
// are skipped (a media range's charset, say).
template <typename Each>
void ForEachElement(std::string_view list, Each&& each) {
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        const std::size_t semicolon = item.find(';');
        Element element{Trim(item.substr(0, semicolon)), 1000};
        if (element.name.empty())
            continue;
        for (std::string_view params = semicolon == std::string_view::npos ? std::string_view()
                                                                           : item.substr(semicolon + 1);
             !params.empty();) {
            const std::size_t next = params.find(';');
            const std::string_view param = Trim(params.substr(0, next));
            params = next == std::string_view::npos ? std::string_view() : params.substr(next + 1);
            if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
                element.weight = Weight(Trim(param.substr(2)));
            }
        }
        each(element);
    }
}

// How specifically a media range matches `type`/`subtype`: 3 exact, 2 type/*, 1 */*, 0 not.
int Specificity(std::string_view range, std::string_view type, std::string_view subtype) {
    const std::size_t slash = range.find('/');
    if (slash == std::string_view::npos)
        return 0;
    const std::string_view range_type = range.substr(0, slash);
    const std::string_view range_subtype = range.substr(slash + 1);
    if (range_type == "*" && range_subtype == "*")
        return 1;
    if (!EqualsIgnoringCase(range_type, type))
        return 0;
    if (range_subtype == "*")
        return 2;
    return EqualsIgnoringCase(range_subtype, subtype) ? 3 : 0;
}

// The weight Accept gives `type`/`subtype`: that of its most specific matching range, 0 when none.
int AcceptWeight(std::string_view accept, std::string_view type, std::string_view subtype) {
    int best = 0, weight = 0;
    ForEachElement(accept, [&](const Element& e) {
        const int specificity = Specificity(e.name, type, subtype);
        if (specificity > best) {
            best = specificity;
            weight = e.weight.value_or(0);
        }
    });
    return weight;
}

}  // namespace

Coding ChooseCoding(std::optional<std::string_view> accept_encoding) {
    if (!accept_encoding)
        return Coding::kIdentity;
    std::optional<int> gzip, identity, any;
    ForEachElement(*accept_encoding, [&](const Element& e) {
        const int weight = e.weight.value_or(0);
        if (EqualsIgnoringCase(e.name, "gzip") || EqualsIgnoringCase(e.name, "x-gzip")) {
            gzip = weight;
        } else if (EqualsIgnoringCase(e.name, "identity")) {
            identity = weight;
        } else if (e.name == "*") {
            any = weight;
        }
    });
    const int gzip_weight = gzip.value_or(any.value_or(0));
    // Identity unnamed is acceptable (unless "*;q=0"), but below any coding the client named.
    const int identity_weight = identity.value_or(0);
    return gzip_weight > 0 && gzip_weight >= identity_weight ? Coding::kGzip : Coding::kIdentity;
}

bool PrefersCsv(std::optional<std::string_view> accept) {
    if (!accept)
        return false;
    return AcceptWeight(*accept, "text", "csv") > AcceptWeight(*accept, "application", "json");
}

bool NoneMatchNames(std::string_view if_none_match, std::string_view etag) {
    std::string_view rest = Trim(if_none_match);
    if (rest == "*")
        return true;
    const std::string_view opaque = etag.size() >= 2 ? etag.substr(1, etag.size() - 2) : std::string_view();
    while (!rest.empty()) {
        while (!rest.empty() && (IsSpace(rest.front()) || rest.front() == ','))
            rest.remove_prefix(1);
        if (rest.empty())
            break;
        if (rest.size() >= 2 && rest[0] == 'W' && rest[1] == '/')
            rest.remove_prefix(2);
        if (rest.empty() || rest.front() != '"')
            return false;  // not an entity tag: nothing after it is read
        const std::size_t close = rest.find('"', 1);
        if (close == std::string_view::npos)
            return false;
        if (rest.substr(1, close - 1) == opaque)
            return true;
        rest.remove_prefix(close + 1);
    }
    return false;
}

}  // namespace lastro::answering
