#include <lastro/sdk/serving/trigram_search.hpp>

#include <algorithm>
#include <vector>

namespace lastro::sdk {

namespace {

// The byte offsets where the UTF-8 characters of `text` begin.
std::vector<std::size_t> CharacterStarts(std::string_view utf8) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        if ((static_cast<unsigned char>(utf8[i]) & 0xC0) != 0x80) {
            starts.push_back(i);
        }
    }
    return starts;
}

}  // namespace

std::optional<std::string> TrigramPhrase(std::string_view column, std::string_view needle) {
    const std::vector<std::size_t> starts = CharacterStarts(needle);
    if (starts.size() < kTrigramNeedle || needle.find('\0') != std::string_view::npos) {
        return std::nullopt;
    }
    // The trigrams starting at every third character, and the last one: together they cover the
    // needle, and a row holding them all is a candidate. Fewer trigrams than all of them read
    // fewer lists; the LIKE drops the rows that hold them elsewhere than in one run.
    const std::size_t last = starts.size() - kTrigramNeedle;
    std::string phrase(column);
    phrase += " : (";
    for (std::size_t first = 0;; first = std::min(first + kTrigramNeedle, last)) {
        const std::size_t end =
            first + kTrigramNeedle < starts.size() ? starts[first + kTrigramNeedle] : needle.size();
        if (first > 0) {
            phrase += " AND ";
        }
        phrase += '"';
        for (char c : needle.substr(starts[first], end - starts[first])) {
            if (c == '"') {
                phrase += '"';
            }
            phrase += c;
        }
        phrase += '"';
        if (first == last) {
            break;
        }
    }
    phrase += ')';
    return phrase;
}

std::string ContainsPattern(std::string_view needle) {
    std::string pattern = "%";
    for (char c : needle) {
        if (c == '%' || c == '_' || c == '\\') {
            pattern += '\\';
        }
        pattern += c;
    }
    pattern += '%';
    return pattern;
}

}  // namespace lastro::sdk
