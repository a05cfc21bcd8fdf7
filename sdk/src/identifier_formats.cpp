#include <lastro/sdk/identifier_formats.hpp>

#include <lastro/sdk/cnpj.hpp>

#include <array>

namespace lastro::sdk {
namespace {

class CnpjFormat : public IdentifierFormat {
public:
    std::string_view Name() const override { return "cnpj"; }
    IdentifierCheck Check(std::string_view text) const override {
        CnpjParse parsed = ParseCnpj(text);
        if (parsed.digits) {
            return {std::move(parsed.digits), ""};
        }
        switch (parsed.error) {
            case CnpjError::kBadCheckDigits:
                return {std::nullopt, "has invalid CNPJ check digits"};
            case CnpjError::kWrongLength:
                return {std::nullopt, "must have 14 digits"};
            default:
                return {std::nullopt,
                        "must be a CNPJ: 14 digits, optionally punctuated as 00.000.000/0000-00"};
        }
    }
};

const CnpjFormat kCnpj;
const std::array<const IdentifierFormat*, 1> kFormats = {&kCnpj};

}  // namespace

const IdentifierFormat* FindIdentifierFormat(std::string_view name) {
    for (const IdentifierFormat* format : kFormats) {
        if (format->Name() == name) {
            return format;
        }
    }
    return nullptr;
}

std::string IdentifierFormatNames() {
    std::string names;
    for (const IdentifierFormat* format : kFormats) {
        names += (names.empty() ? "" : ", ") + std::string(format->Name());
    }
    return names;
}

}  // namespace lastro::sdk
