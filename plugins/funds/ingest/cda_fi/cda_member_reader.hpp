// One CDA member read row by row (docs/datasets/cda_fi.md): the key columns every member
// shares, checked on every row, the PL's net asset value, and for BLC_1..BLC_8 and fie the
// CdaPosition each row is. Columns are found by header name; anything invalid in a column we
// parse fails the ingest naming the file, the line, the column and the value.
#pragma once

#include "funds_model.hxx"
#include "ingest/cda_fi/cda_inputs.hpp"
#include "ingest/cda_fi/cda_seen_lines.hpp"

#include <lastro/sdk/cvm_csv.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

class CdaMemberReader {
public:
    // Reads the header; IngestError(file, 1) when a required column is missing.
    CdaMemberReader(std::unique_ptr<sdk::ByteSource> source, const CdaMember& member);

    // The next data row; false at the end. IngestError(file, line) for a wrong field count, an
    // empty or invalid CNPJ_FUNDO_CLASSE, or a DT_COMPTC that is not a date of the member's month.
    bool Next();

    const std::string& SourceName() const { return reader_.SourceName(); }
    std::size_t Line() const { return reader_.Line(); }
    const CdaMember& Member() const { return member_; }

    // Of the current row.
    const std::string& Cnpj() const { return cnpj_; }
    std::optional<std::string> FilerType() const;  // TP_FUNDO_CLASSE
    std::optional<std::string> Name() const;       // DENOM_SOCIAL
    std::optional<double> Nav() const;             // PL: VL_PATRIM_LIQ
    // BLC_1..BLC_8 and fie: the row as a position.
    CdaPosition Position() const;
    // The row's text, to collapse identical repeated lines.
    LineDigest Digest() const;

private:
    std::optional<std::string> Text(std::optional<std::size_t> column) const;
    // Marks the column as stored in a typed field, so it stays out of details_json.
    std::optional<std::string> Take(std::optional<std::size_t> column) const;
    // The first non-empty of `columns`, taken.
    std::optional<std::string> TakeFirst(std::initializer_list<std::optional<std::size_t>> columns) const;
    std::optional<double> TakeNumber(std::optional<std::size_t> column) const;
    std::optional<std::string> TakeDate(std::optional<std::size_t> column) const;
    std::optional<std::string> TakeCnpj(std::optional<std::size_t> column) const;
    std::string DetailsJson() const;

    sdk::CvmCsvReader reader_;
    CdaMember member_;
    std::string block_;
    // Shared key columns.
    std::size_t cnpj_column_ = 0;
    std::size_t date_column_ = 0;
    std::size_t filer_column_ = 0;
    std::size_t name_column_ = 0;
    std::optional<std::size_t> nav_column_;
    // Position columns (BLC and fie); absent ones are nullopt.
    struct PositionColumns {
        std::optional<std::size_t> application_type, asset_type, related_issuer, trade_type, quantity_sold,
            value_sold, quantity_acquired, value_acquired, quantity, market_value, cost_value,
            confidential_until, asset_code, selic_code, swap_code, exchange_asset_code, isin, description,
            public_bond_type, swap_description, post_fixed_title, foreign_description, issuer, issuer_cnpj,
            issuer_document, maturity, invested_cnpj, invested_name, invested_subclass;
    } columns_;
    // Columns that never go to details_json: the keys, which CdaHolder carries.
    std::vector<char> key_columns_;

    std::string cnpj_;
    mutable std::vector<char> taken_;
    mutable std::string line_text_;
};

}  // namespace lastro::funds
