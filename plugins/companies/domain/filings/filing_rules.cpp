#include "domain/filings/filing_rules.hpp"

#include <lastro/sdk/document_id.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace lastro::companies {
namespace {

bool ContainsIgnoringCase(std::string_view text, std::string_view part) {
    return std::search(text.begin(), text.end(), part.begin(), part.end(), [](char a, char b) {
               return std::toupper(static_cast<unsigned char>(a)) ==
                      std::toupper(static_cast<unsigned char>(b));
           }) != text.end();
}

bool IsIdentifierColumn(std::string_view column) {
    constexpr std::array<std::string_view, 8> kParts{"CNPJ",     "CPF", "CEP",       "Codigo",
                                                     "Telefone", "Fax", "Documento", "Sigla"};
    return column.starts_with("ID_") || std::any_of(kParts.begin(), kParts.end(), [&](std::string_view part) {
               return ContainsIgnoringCase(column, part);
           });
}

bool IsIsoDate(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') {
        return false;
    }
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
            return false;
        }
    }
    const int month = (text[5] - '0') * 10 + (text[6] - '0');
    const int day = (text[8] - '0') * 10 + (text[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

std::string Digits(std::string_view text) {
    std::string digits;
    for (char c : text) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits += c;
        }
    }
    return digits;
}

}  // namespace

std::string FilingDelivery(std::int64_t cvm_code, const std::optional<std::string>& reference_date) {
    return std::to_string(cvm_code) + "/" + reference_date.value_or("");
}

bool IsTableSegment(std::string_view segment) {
    return !segment.empty() && segment.size() <= 64 &&
           std::all_of(segment.begin(), segment.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string TableKey(std::string_view segment) {
    std::string key(segment);
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return key;
}

bool IsPersonDocumentColumn(std::string_view column) {
    return ContainsIgnoringCase(column, "CPF") || column.starts_with("Documento_");
}

std::string MaskPersonDocument(std::string_view cell) {
    const sdk::DocumentCell document = sdk::ClassifyDocument(cell);
    switch (document.kind) {
        case sdk::DocumentKind::kBlank:
        case sdk::DocumentKind::kCnpj:
        case sdk::DocumentKind::kPlaceholder:
            return document.published;
        case sdk::DocumentKind::kCpf: {
            const std::string digits = Digits(document.published);
            return "***." + digits.substr(3, 3) + "." + digits.substr(6, 3) + "-**";
        }
        case sdk::DocumentKind::kTwoIds:
        case sdk::DocumentKind::kInvalid:
            break;
    }
    std::string masked = document.published;
    for (char& c : masked) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            c = '*';
        }
    }
    return masked;
}

std::string_view CellTypeName(CellType type) {
    switch (type) {
        case CellType::kNumber:
            return "number";
        case CellType::kDate:
            return "date";
        case CellType::kText:
            break;
    }
    return "text";
}

std::optional<CellType> CellTypeNamed(std::string_view name) {
    for (CellType type : {CellType::kText, CellType::kNumber, CellType::kDate}) {
        if (CellTypeName(type) == name) {
            return type;
        }
    }
    return std::nullopt;
}

bool IsPlainDecimal(std::string_view text) {
    if (text.starts_with('-')) {
        text.remove_prefix(1);
    }
    const std::size_t point = text.find('.');
    const std::string_view whole = text.substr(0, point);
    if (whole.empty() || (whole.size() > 1 && whole[0] == '0') || whole.size() > 30) {
        return false;
    }
    auto digits = [](std::string_view part) {
        return std::all_of(part.begin(), part.end(),
                           [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    };
    if (!digits(whole)) {
        return false;
    }
    if (point == std::string_view::npos) {
        return true;
    }
    const std::string_view fraction = text.substr(point + 1);
    return !fraction.empty() && fraction.size() <= 30 && digits(fraction);
}

ColumnTypes::ColumnTypes(const std::vector<std::string>& columns) : seen_(columns.size()) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        seen_[i].identifier = IsIdentifierColumn(columns[i]);
    }
}

void ColumnTypes::See(std::size_t column, std::string_view cell) {
    if (column >= seen_.size()) {
        return;
    }
    Seen& seen = seen_[column];
    seen.any = true;
    if (seen.numbers && !IsPlainDecimal(cell)) {
        seen.numbers = false;
    }
    if (seen.dates && !IsIsoDate(cell)) {
        seen.dates = false;
    }
}

std::vector<CellType> ColumnTypes::Types() const {
    std::vector<CellType> types;
    types.reserve(seen_.size());
    for (const Seen& seen : seen_) {
        if (seen.identifier || !seen.any) {
            types.push_back(CellType::kText);
        } else if (seen.dates) {
            types.push_back(CellType::kDate);
        } else if (seen.numbers) {
            types.push_back(CellType::kNumber);
        } else {
            types.push_back(CellType::kText);
        }
    }
    return types;
}

}  // namespace lastro::companies
