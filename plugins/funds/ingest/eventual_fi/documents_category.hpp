// What a TP_DOC of CVM's eventual_fi index means: its slug and its category
// (docs/datasets/eventual_fi.md). CVM writes TP_DOC as short upper-case codes ("REGUL FDO",
// "FATO RELEV", "EDITAL AGO", "REL. RATING") and sometimes as full names ("Fato Relevante");
// both map alike.
#pragma once

#include <string>
#include <string_view>

namespace lastro::funds {

// TP_DOC folded (accents removed, lower case) with every run of characters other than a-z and
// 0-9 turned into one '-', none at either end: "Fato Relevante" -> "fato-relevante",
// "REL. RATING" -> "rel-rating". Empty when TP_DOC has no letter or digit.
std::string DocumentTypeSlug(std::string_view document_type);

// One of regulation, meeting, financial_statements, material_fact, notice, rating, marketing,
// report, other, from the slug's words; the first matching rule of the documented order wins.
std::string DocumentCategory(std::string_view slug);

}  // namespace lastro::funds
