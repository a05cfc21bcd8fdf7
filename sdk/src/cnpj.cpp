#include <lastro/sdk/cnpj.hpp>

#include <stdexcept>

namespace lastro::sdk {

namespace {

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

// Mod-11 check digit over digits[0, count): weights run 2..9 from the right, repeating.
char CheckDigit(std::string_view digits, std::size_t count) {
    int sum = 0;
    int weight = 2;
    for (std::size_t i = count; i-- > 0;) {
        sum += (digits[i] - '0') * weight;
        weight = weight == 9 ? 2 : weight + 1;
    }
    const int remainder = sum % 11;
    return static_cast<char>('0' + (remainder < 2 ? 0 : 11 - remainder));
}

}  // namespace

CnpjParse ParseCnpj(std::string_view text) {
    std::string digits;
    digits.reserve(14);
    for (char c : text) {
        if (IsDigit(c)) {
            digits.push_back(c);
        } else if (c != '.' && c != '/' && c != '-' && c != ' ') {
            return {std::nullopt, CnpjError::kBadCharacters};
        }
    }
    if (digits.size() != 14) {
        return {std::nullopt, CnpjError::kWrongLength};
    }
    // Only 00000000000000 among the repeated-digit strings passes mod-11, and CVM uses it as a
    // placeholder for "no CNPJ": never a real registry number.
    if (digits.find_first_not_of(digits[0]) == std::string::npos) {
        return {std::nullopt, CnpjError::kBadCheckDigits};
    }
    if (CheckDigit(digits, 12) != digits[12] || CheckDigit(digits, 13) != digits[13]) {
        return {std::nullopt, CnpjError::kBadCheckDigits};
    }
    return {std::move(digits), CnpjError::kNone};
}

std::string CnpjWithCheckDigits(std::string_view twelve_digits) {
    if (twelve_digits.size() != 12 ||
        twelve_digits.find_first_not_of("0123456789") != std::string_view::npos) {
        throw std::invalid_argument("CnpjWithCheckDigits needs exactly 12 digits, got '" +
                                    std::string(twelve_digits) + "'");
    }
    std::string digits(twelve_digits);
    digits.push_back(CheckDigit(digits, 12));
    digits.push_back(CheckDigit(digits, 13));
    return digits;
}

std::string FormatCnpj(std::string_view digits) {
    if (digits.size() != 14 || digits.find_first_not_of("0123456789") != std::string_view::npos) {
        return std::string(digits);
    }
    std::string out;
    out.reserve(18);
    out.append(digits.substr(0, 2)).push_back('.');
    out.append(digits.substr(2, 3)).push_back('.');
    out.append(digits.substr(5, 3)).push_back('/');
    out.append(digits.substr(8, 4)).push_back('-');
    out.append(digits.substr(12, 2));
    return out;
}

}  // namespace lastro::sdk
