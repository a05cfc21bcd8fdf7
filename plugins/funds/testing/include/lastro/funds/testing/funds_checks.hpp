// What the funds plugin's answers are made of, checked independently of its code: CNPJs (14
// digits, check digits, punctuation) and the accent- and case-folding its search promises.
#pragma once

#include <string>
#include <string_view>

namespace lastro::funds::e2e {

bool IsCnpjDigits(std::string_view text);  // exactly 14 ASCII digits

// Lower-cased, with the accents of Latin letters removed ("Crédito" -> "credito"), as a
// user expects an accent- and case-insensitive search to compare.
std::string Fold(std::string_view utf8);

// The 14-digit CNPJ for 12 base digits (mod-11 check digits).
std::string CnpjWithCheckDigits(std::string_view twelve_digits);
// "12.345.678/0001-95" for "12345678000195".
std::string PunctuatedCnpj(std::string_view digits);

}  // namespace lastro::funds::e2e
