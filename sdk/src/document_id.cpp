#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/document_id.hpp>

#include <cctype>

namespace lastro::sdk {

namespace {

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

bool IsMask(char c) {
    return c == '.' || c == '/' || c == '-';
}

std::string_view Trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    return text;
}

// A run of digits and mask characters between separators counts as one id when it holds 11
// or more digits: "12.345.678/0001-95 e 98.765.432/0001-10" holds two.
int IdsIn(std::string_view text) {
    int ids = 0;
    std::size_t digits = 0;
    auto close = [&] {
        ids += digits >= 11 ? 1 : 0;
        digits = 0;
    };
    for (char c : text) {
        if (IsDigit(c)) {
            ++digits;
        } else if (!IsMask(c)) {
            close();
        }
    }
    close();
    return ids;
}

}  // namespace

bool IsValidCpf(std::string_view digits) {
    if (digits.size() != 11 || digits.find_first_not_of("0123456789") != std::string_view::npos ||
        digits.find_first_not_of(digits[0]) == std::string_view::npos) {
        return false;
    }
    for (std::size_t check = 9; check <= 10; ++check) {
        int sum = 0;
        for (std::size_t i = 0; i < check; ++i) {
            sum += (digits[i] - '0') * static_cast<int>(check + 1 - i);
        }
        const int remainder = (sum * 10) % 11;
        if ((remainder == 10 ? 0 : remainder) != digits[check] - '0') {
            return false;
        }
    }
    return true;
}

DocumentCell ClassifyDocument(std::string_view cell) {
    DocumentCell out;
    const std::string_view text = Trim(cell);
    out.published = std::string(text);
    if (text.empty()) {
        return out;
    }
    std::string digits;
    bool only_id_characters = true;
    for (char c : text) {
        if (IsDigit(c)) {
            digits.push_back(c);
        } else if (!IsMask(c)) {
            only_id_characters = false;
        }
    }
    if (IdsIn(text) >= 2 || (only_id_characters && (digits.size() == 28 || digits.size() == 22))) {
        out.kind = DocumentKind::kTwoIds;
        return out;
    }
    if (!only_id_characters) {
        out.kind = DocumentKind::kInvalid;
        return out;
    }
    if (!digits.empty() && digits.find_first_not_of('0') == std::string::npos) {
        out.kind = DocumentKind::kPlaceholder;
        return out;
    }
    if (digits.size() == 14) {
        if (auto parsed = ParseCnpj(digits); parsed.digits) {
            out.kind = DocumentKind::kCnpj;
            out.cnpj = std::move(parsed.digits);
            return out;
        }
    }
    out.kind = IsValidCpf(digits) ? DocumentKind::kCpf : DocumentKind::kInvalid;
    return out;
}

std::string_view DocumentKindName(DocumentKind kind) {
    switch (kind) {
        case DocumentKind::kBlank:
            return "blank";
        case DocumentKind::kCnpj:
            return "cnpj";
        case DocumentKind::kCpf:
            return "cpf";
        case DocumentKind::kPlaceholder:
            return "placeholder";
        case DocumentKind::kTwoIds:
            return "two_ids";
        case DocumentKind::kInvalid:
            return "invalid";
    }
    return "invalid";
}

}  // namespace lastro::sdk
