// What a COTAHIST line trades, from its specification (ESPECI) and BDI code (docs/api/acoes.md,
// "Classes"). ESPECI is ten characters: the security's kind in the first four ("ON", "PNA",
// "UNT", "DRN", "CI", "DIR"...), B3's markers in the next four ("EJ" ex-interest, "ED" ex-
// dividend, "ER" ex-income...), the listing segment in the last two ("NM", "N1", "N2", "MA"...).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lastro::stocks {

// ON, PN, PNA..PNH, UNIT, BDR, ETF, FII, CI (other listed fund quotas), RIGHTS, RECEIPT or OTHER.
std::string InstrumentClass(std::string_view specification, int bdi);

// B3's listing segment from the specification's last two characters: "Novo Mercado", "Nível 1",
// "Nível 2", "Bovespa Mais", "Bovespa Mais Nível 2", "Balcão Organizado" (MB); nullopt when the
// ticker is on the basic segment (no suffix).
std::optional<std::string> ListingSegment(std::string_view specification);

// True for the classes whose shares make up a company's capital (ON, PN and the preferred
// classes): a unit or a BDR is a claim on them and never counts twice in a market capitalization.
bool IsShareClass(std::string_view instrument_class);

// ON for ON, PN for any preferred class: how B3's company files split the share count.
std::optional<std::string> ShareCountBucket(std::string_view instrument_class);

}  // namespace lastro::stocks
