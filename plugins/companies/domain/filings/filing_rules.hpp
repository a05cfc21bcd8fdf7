// Rules over CVM's structured filings of listed companies (FRE, the reference form; FCA, the
// registration form), below both the ingester and the handlers
// (docs/datasets/fre_cia_aberta.md, docs/datasets/fca_cia_aberta.md).
//
// Both are published the same way: fre_cia_aberta_YYYY.zip holds an index member
// (fre_cia_aberta_YYYY.csv: one line per delivered document and version) and one member per
// table of the form (fre_cia_aberta_<table>_YYYY.csv), each row naming its document by
// ID_Documento. The set of tables changes with the form (CVM Resolution 59 rebuilt the FRE in
// 2023), so the tables are whatever members a year's zip holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::companies {

// One kind of structured filing: its dataset, the `kind` the documents answer tags it with, and
// the prefix of its files ("fre_cia_aberta").
struct FilingKind {
    std::string_view dataset;
    std::string_view kind;
    std::string_view prefix;
    std::string_view title;  // for messages: "FRE (Formulário de Referência)"
};

inline constexpr FilingKind kFre{"cvm.fre_cia_aberta", "fre", "fre_cia_aberta",
                                 "FRE (Formulário de Referência)"};
inline constexpr FilingKind kFca{"cvm.fca_cia_aberta", "fca", "fca_cia_aberta", "FCA (Formulário Cadastral)"};

// The delivery a version belongs to, for "latest version" (docs/api/documentos.md): a company's
// form for one reference date, whatever document id each version got.
std::string FilingDelivery(std::int64_t cvm_code, const std::optional<std::string>& reference_date);

// True for a table segment as member names and `{table}` carry it: 1 to 64 ASCII letters,
// digits and underscores ("capital_social", "administrador_PCD").
bool IsTableSegment(std::string_view segment);
// The segment folded for comparison: tables are matched ignoring ASCII case.
std::string TableKey(std::string_view segment);

// ---- The cells of a table's rows ----

// Columns that may hold a person's CPF (CPF, CPF_Auditor, CPF_CNPJ_Acionista,
// Documento_Pessoa_Relacionada...): their name contains "CPF" or starts with "Documento_".
bool IsPersonDocumentColumn(std::string_view column);
// The published cell of such a column as stored and served: a valid CNPJ, CVM's placeholder of
// zeros and a blank are kept as published (a company's number is public); a CPF is shown as the
// public administration discloses one, "***.456.789-**" (the middle six digits); any other cell
// (a number failing its check digits, two ids in one cell) has every digit masked, because which
// part is a person's cannot be told. The full CPF is never stored.
std::string MaskPersonDocument(std::string_view cell);

// What a column's values are, per table and year, decided from every cell of that year's member:
// numbers are served as JSON numbers with their published digits, dates as YYYY-MM-DD, the rest
// as published text. Identifier columns (names with CNPJ, CPF, CEP, Codigo, Telefone, Fax,
// Documento, ID_) and columns with a number written with a leading zero ("0123", a code) stay
// text, so no identifier ever loses a digit.
enum class CellType { kText, kNumber, kDate };
std::string_view CellTypeName(CellType type);  // "text", "number", "date"
std::optional<CellType> CellTypeNamed(std::string_view name);

class ColumnTypes {
public:
    explicit ColumnTypes(const std::vector<std::string>& columns);
    void See(std::size_t column, std::string_view cell);  // a non-blank cell
    std::vector<CellType> Types() const;

private:
    struct Seen {
        bool identifier = false;
        bool any = false;
        bool numbers = true;
        bool dates = true;
    };
    std::vector<Seen> seen_;
};

// True for a published decimal a JSON number can carry digit for digit: an optional '-', digits
// without a needless leading zero, an optional '.' and digits.
bool IsPlainDecimal(std::string_view text);

}  // namespace lastro::companies
