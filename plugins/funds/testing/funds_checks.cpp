#include <lastro/funds/testing/funds_checks.hpp>

namespace lastro::funds::e2e {
namespace {

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

// The base letter of a Latin-1 Supplement letter (U+00C0..U+00FF), lower case; 0 if none.
char BaseLetter(unsigned code) {
    static const char* kUpper = "aaaaaaaceeeeiiiidnooooo*ouuuuyts";  // U+00C0..U+00DF
    static const char* kLower = "aaaaaaaceeeeiiiidnooooo/ouuuuyty";  // U+00E0..U+00FF
    if (code >= 0xC0 && code <= 0xDF) {
        return kUpper[code - 0xC0];
    }
    if (code >= 0xE0 && code <= 0xFF) {
        return kLower[code - 0xE0];
    }
    return 0;
}

}  // namespace

bool IsCnpjDigits(std::string_view text) {
    if (text.size() != 14) {
        return false;
    }
    for (char c : text) {
        if (!IsDigit(c)) {
            return false;
        }
    }
    return true;
}

std::string Fold(std::string_view utf8) {
    std::string out;
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        if (c < 0x80) {
            out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : static_cast<char>(c));
        } else if ((c == 0xC3 || c == 0xC2) && i + 1 < utf8.size()) {
            const unsigned code = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu);
            const char base = BaseLetter(code);
            if (base != 0 && base != '*' && base != '/') {
                out.push_back(base);
            } else {
                out.append(utf8.substr(i, 2));
            }
            ++i;
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

std::string CnpjWithCheckDigits(std::string_view twelve_digits) {
    std::string digits(twelve_digits);
    for (int round = 0; round < 2; ++round) {
        // Weights 2..9 from the rightmost digit leftwards, repeating.
        int sum = 0;
        int weight = 2;
        for (std::size_t i = digits.size(); i-- > 0;) {
            sum += (digits[i] - '0') * weight;
            weight = weight == 9 ? 2 : weight + 1;
        }
        const int rest = sum % 11;
        digits.push_back(static_cast<char>('0' + (rest < 2 ? 0 : 11 - rest)));
    }
    return digits;
}

std::string PunctuatedCnpj(std::string_view d) {
    return std::string(d.substr(0, 2)) + "." + std::string(d.substr(2, 3)) + "." +
           std::string(d.substr(5, 3)) + "/" + std::string(d.substr(8, 4)) + "-" +
           std::string(d.substr(12, 2));
}

}  // namespace lastro::funds::e2e
