#include "domain/registry/registry_rules.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/uuid.hpp>

#include <array>
#include <cctype>

namespace lastro::funds {

namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string FundIdFor(std::string_view id_registro_fundo) {
    return sdk::UuidV5(kFundsNamespace, "cvm.registro_fundo:" + std::string(id_registro_fundo));
}

std::string ClassIdFor(std::string_view id_registro_classe) {
    return sdk::UuidV5(kFundsNamespace, "cvm.registro_classe:" + std::string(id_registro_classe));
}

std::string SubclassIdFor(std::string_view id_subclasse) {
    return sdk::UuidV5(kFundsNamespace, "cvm.registro_subclasse:" + std::string(id_subclasse));
}

bool IsFidcUniverse(std::string_view fund_type) {
    std::string key;
    for (char c : fund_type) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            key.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
        }
    }
    static constexpr std::array<std::string_view, 3> kTypes = {"FIDC", "FIDCNP", "FICFIDC"};
    for (std::string_view type : kTypes) {
        if (key == type) {
            return true;
        }
    }
    return false;
}

std::optional<std::string> CanonicalFidcType(std::string_view fund_type) {
    std::string key;
    for (char c : fund_type) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            key.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
        }
    }
    if (key == "FIDC") {
        return "FIDC";
    }
    if (key == "FIDCNP") {
        return "FIDC-NP";
    }
    if (key == "FICFIDC") {
        return "FIC-FIDC";
    }
    return std::nullopt;
}

std::string FundSearchText(const std::optional<std::string>& name, const std::string& cnpj,
                           const std::optional<std::string>& manager,
                           const std::optional<std::string>& administrator) {
    std::string text = FoldedText(name.value_or(""));
    text += '\n';
    text += cnpj;
    text += '\n';
    text += FoldedText(manager.value_or(""));
    text += '\n';
    text += FoldedText(administrator.value_or(""));
    return text;
}

std::string FoldedText(std::string_view text) {
    return sdk::FoldForSearch(sdk::TrimBlanks(text));
}

std::optional<std::string> Folded(const std::optional<std::string>& text) {
    if (!text) {
        return std::nullopt;
    }
    return FoldedText(*text);
}

std::optional<std::string> FoldedFilter(const std::optional<std::string>& value) {
    if (!value) {
        return std::nullopt;
    }
    std::string folded = FoldedText(*value);
    if (folded.empty()) {
        return std::nullopt;
    }
    return folded;
}

bool IsActiveStatus(const std::optional<std::string>& status) {
    return status && FoldedText(*status) == "em funcionamento normal";
}

bool IsCancelledStatus(const std::optional<std::string>& status) {
    return status && StartsWith(FoldedText(*status), "cancelad");
}

bool IsEndedStatus(const std::optional<std::string>& status) {
    if (!status) {
        return false;
    }
    const std::string folded = FoldedText(*status);
    return StartsWith(folded, "cancelad") || StartsWith(folded, "liquidad");
}

}  // namespace lastro::funds
