// The free-text labels of the FIDC quota tables (FORMATS 1.4): TAB_X_CLASSE_SERIE names a
// series ("Subclasse Subordinada Cota Mezanino | Serie 1", "Sênior") and TAB_X_TP_OPER an
// operation ("Captações no Mês"). CVM has no codes for either, so both are read from the text.
#pragma once

#include <string>
#include <string_view>

namespace lastro::funds {

// Lower case, accents removed, runs of spaces collapsed to one, no leading or trailing space:
// the identity of a series within its class ("Subclasse  Sênior " -> "subclasse senior").
std::string FoldLabel(std::string_view utf8);

// "mezzanine" when the folded label contains "mezanino" or "mezzanine"; else "subordinated"
// when it contains "subordinad" or "junior"; else "senior" when it contains "senior"; else
// "unknown". Mezzanine first: CVM files mezzanine quotas as "Subordinada ... Mezanino".
std::string_view SeniorityOf(std::string_view label);

// Kind of a TAB_X_TP_OPER value, folded: starts with "captac" -> "subscription"; contains
// "solicitad" -> "pending_redemption"; starts with "resgate" -> "redemption"; starts with
// "amortiza" -> "amortization"; anything else -> "other".
std::string_view OperationKindOf(std::string_view published_kind);

}  // namespace lastro::funds
