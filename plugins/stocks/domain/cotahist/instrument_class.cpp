#include "domain/cotahist/instrument_class.hpp"

#include <array>
#include <utility>

namespace lastro::stocks {
namespace {

// The specification's first token: ESPECI pads it with blanks ("ON      NM", "PN  EJ  N1").
std::string_view Kind(std::string_view specification) {
    const std::string_view head = specification.substr(0, std::min<std::size_t>(4, specification.size()));
    const std::size_t end = head.find(' ');
    return end == std::string_view::npos ? head : head.substr(0, end);
}

}  // namespace

std::string InstrumentClass(std::string_view specification, int bdi) {
    const std::string_view kind = Kind(specification);
    if (bdi == 10) {
        return kind == "REC" ? "RECEIPT" : "RIGHTS";
    }
    if (kind == "ON" || kind == "PN") {
        return std::string(kind);
    }
    if (kind.size() == 3 && kind.starts_with("PN") && kind[2] >= 'A' && kind[2] <= 'H') {
        return std::string(kind);
    }
    if (kind == "UNT") {
        return "UNIT";
    }
    if (kind.starts_with("DR")) {  // DRN, DR1, DR2, DR3, DRE: depositary receipts
        return "BDR";
    }
    if (kind == "DIR") {
        return "RIGHTS";
    }
    if (kind == "REC") {
        return "RECEIPT";
    }
    if (kind == "CI" || kind.starts_with("FIDC")) {
        if (bdi == 12) {
            return "FII";
        }
        if (bdi == 14 && kind == "CI") {
            return "ETF";
        }
        return "CI";
    }
    return "OTHER";
}

std::optional<std::string> ListingSegment(std::string_view specification) {
    if (specification.size() < 10) {
        return std::nullopt;
    }
    static const std::array<std::pair<std::string_view, std::string_view>, 6> kSegments{{
        {"NM", "Novo Mercado"},
        {"N1", "Nível 1"},
        {"N2", "Nível 2"},
        {"MA", "Bovespa Mais"},
        {"M2", "Bovespa Mais Nível 2"},
        {"MB", "Balcão Organizado"},
    }};
    const std::string_view code = specification.substr(8, 2);
    for (const auto& [suffix, name] : kSegments) {
        if (code == suffix) {
            return std::string(name);
        }
    }
    return std::nullopt;
}

bool IsShareClass(std::string_view instrument_class) {
    return instrument_class == "ON" || instrument_class.starts_with("PN");
}

std::optional<std::string> ShareCountBucket(std::string_view instrument_class) {
    if (instrument_class == "ON") {
        return "ON";
    }
    if (instrument_class.starts_with("PN")) {
        return "PN";
    }
    return std::nullopt;
}

}  // namespace lastro::stocks
