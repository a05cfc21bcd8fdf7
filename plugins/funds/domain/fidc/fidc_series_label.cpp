#include "domain/fidc/fidc_series_label.hpp"

#include <lastro/sdk/text.hpp>

namespace lastro::funds {

namespace {

bool IsSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

}  // namespace

std::string FoldLabel(std::string_view utf8) {
    const std::string folded = sdk::FoldForSearch(utf8);
    std::string out;
    out.reserve(folded.size());
    bool pending_space = false;
    for (char c : folded) {
        if (IsSpace(c)) {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space) {
            out.push_back(' ');
            pending_space = false;
        }
        out.push_back(c);
    }
    return out;
}

std::string_view SeniorityOf(std::string_view label) {
    const std::string folded = FoldLabel(label);
    const auto contains = [&folded](std::string_view part) { return folded.find(part) != std::string::npos; };
    if (contains("mezanino") || contains("mezzanine")) {
        return "mezzanine";
    }
    if (contains("subordinad") || contains("junior")) {
        return "subordinated";
    }
    if (contains("senior")) {
        return "senior";
    }
    return "unknown";
}

std::string_view OperationKindOf(std::string_view published_kind) {
    const std::string folded = FoldLabel(published_kind);
    const std::string_view text(folded);
    if (text.starts_with("captac")) {
        return "subscription";
    }
    if (text.find("solicitad") != std::string_view::npos) {
        return "pending_redemption";
    }
    if (text.starts_with("resgate")) {
        return "redemption";
    }
    if (text.starts_with("amortiza")) {
        return "amortization";
    }
    return "other";
}

}  // namespace lastro::funds
