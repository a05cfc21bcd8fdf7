#include "ingest/cda_fi/cda_member_reader.hpp"

#include "layouts/cda_fi.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace lastro::funds {

namespace {

// Block number x 10^9 + line: blocks in file order, lines in file order within a block.
constexpr std::int64_t kOrdinalBlockStep = 1'000'000'000;

bool IsPositionMember(CdaMemberKind kind) {
    return kind == CdaMemberKind::kBlock || kind == CdaMemberKind::kFie;
}

template <std::size_t N>
consteval bool In(const std::array<std::string_view, N>& columns, std::string_view name) {
    return std::find(columns.begin(), columns.end(), name) != columns.end();
}

// `name`, checked when compiled to be a column of the published CDA members (layouts/cda_fi.hpp).
consteval std::string_view Column(std::string_view name) {
    if (name == kCdaNavColumn || In(kCdaKeyColumns, name) || In(kCdaPositionColumns, name) ||
        In(kCdaBlc1Columns, name) || In(kCdaBlc2Columns, name) || In(kCdaBlc3Columns, name) ||
        In(kCdaBlc4Columns, name) || In(kCdaBlc5Columns, name) || In(kCdaBlc6Columns, name) ||
        In(kCdaBlc7Columns, name) || In(kCdaBlc8Columns, name) || In(kCdaFieColumns, name)) {
        return name;
    }
    throw std::logic_error("not a CDA column");
}

}  // namespace

CdaMemberReader::CdaMemberReader(std::unique_ptr<sdk::ByteSource> source, const CdaMember& member)
    : reader_(std::move(source)), member_(member) {
    // CNPJ_FUNDO / TP_FUNDO: the layout before RCVM 175, should an old file turn up.
    cnpj_column_ = reader_.RequireAny({Column("CNPJ_FUNDO_CLASSE"), "CNPJ_FUNDO"});
    date_column_ = reader_.Require(Column("DT_COMPTC"));
    filer_column_ = reader_.RequireAny({Column("TP_FUNDO_CLASSE"), "TP_FUNDO"});
    name_column_ = reader_.Require(Column("DENOM_SOCIAL"));
    key_columns_.assign(reader_.Header().size(), 0);
    for (std::size_t column : {cnpj_column_, date_column_, filer_column_, name_column_}) {
        key_columns_[column] = 1;
    }
    if (member.kind == CdaMemberKind::kPl) {
        nav_column_ = reader_.Require(kCdaNavColumn);
    }
    if (!IsPositionMember(member.kind)) {
        return;
    }
    block_ = CdaPositionBlock(member);
    PositionColumns& c = columns_;
    c.application_type = reader_.Require(Column("TP_APLIC"));
    c.asset_type = reader_.Require(Column("TP_ATIVO"));
    c.related_issuer = reader_.Require(Column("EMISSOR_LIGADO"));
    c.trade_type = reader_.Require(Column("TP_NEGOC"));
    c.quantity_sold = reader_.Require(Column("QT_VENDA_NEGOC"));
    c.value_sold = reader_.Require(Column("VL_VENDA_NEGOC"));
    c.quantity_acquired = reader_.Require(Column("QT_AQUIS_NEGOC"));
    c.value_acquired = reader_.Require(Column("VL_AQUIS_NEGOC"));
    c.quantity = reader_.Require(Column("QT_POS_FINAL"));
    c.market_value = reader_.Require(Column("VL_MERC_POS_FINAL"));
    c.cost_value = reader_.Require(Column("VL_CUSTO_POS_FINAL"));
    c.confidential_until = reader_.Require(Column("DT_CONFID_APLIC"));
    // Block-specific columns: each block has its own set (FORMATS 4), so they are optional.
    c.asset_code = reader_.Find(Column("CD_ATIVO"));
    c.selic_code = reader_.Find(Column("CD_SELIC"));
    c.swap_code = reader_.Find(Column("CD_SWAP"));
    c.exchange_asset_code = reader_.Find(Column("CD_ATIVO_BV_MERC"));
    c.isin = reader_.Find(Column("CD_ISIN"));
    c.description = reader_.Find(Column("DS_ATIVO"));
    c.public_bond_type = reader_.Find(Column("TP_TITPUB"));
    c.swap_description = reader_.Find(Column("DS_SWAP"));
    c.post_fixed_title = reader_.Find(Column("TITULO_POSFX"));
    c.foreign_description = reader_.Find(Column("DS_ATIVO_EXTERIOR"));
    c.issuer = reader_.Find(Column("EMISSOR"));
    c.issuer_cnpj = reader_.Find(Column("CNPJ_EMISSOR"));
    c.issuer_document = reader_.Find(Column("CPF_CNPJ_EMISSOR"));
    c.maturity = reader_.Find(Column("DT_VENC"));
    if (member.kind == CdaMemberKind::kBlock && member.block == 2) {
        // CNPJ_FUNDO_COTA / NM_FUNDO_COTA: the names before RCVM 175.
        c.invested_cnpj = reader_.RequireAny({Column("CNPJ_FUNDO_CLASSE_COTA"), "CNPJ_FUNDO_COTA"});
        c.invested_name = reader_.FindAny({Column("NM_FUNDO_CLASSE_SUBCLASSE_COTA"), "NM_FUNDO_COTA"});
        c.invested_subclass = reader_.Find(Column("ID_SUBCLASSE"));
    }
    taken_.assign(reader_.Header().size(), 0);
}

bool CdaMemberReader::Next() {
    if (!reader_.Next()) {
        return false;
    }
    reader_.RequireFieldCount();
    auto cnpj = reader_.Cnpj(cnpj_column_);
    if (!cnpj) {
        reader_.Fail(cnpj_column_, "is empty");
    }
    cnpj_ = std::move(*cnpj);
    const auto date = reader_.DateValue(date_column_);
    if (!date) {
        reader_.Fail(date_column_, "is empty");
    }
    if (date->ToMonth() != member_.month) {
        reader_.Fail(date_column_, "is not in " + member_.month.ToString() + ", the month of the file",
                     sdk::TrimBlanks(reader_.Field(date_column_)));
    }
    return true;
}

std::optional<std::string> CdaMemberReader::FilerType() const {
    return Text(filer_column_);
}

std::optional<std::string> CdaMemberReader::Name() const {
    return Text(name_column_);
}

std::optional<double> CdaMemberReader::Nav() const {
    return TakeNumber(nav_column_);
}

std::optional<std::string> CdaMemberReader::Text(std::optional<std::size_t> column) const {
    return column ? reader_.Text(*column) : std::nullopt;
}

std::optional<std::string> CdaMemberReader::Take(std::optional<std::size_t> column) const {
    if (column && *column < taken_.size()) {
        taken_[*column] = 1;
    }
    return Text(column);
}

std::optional<std::string> CdaMemberReader::TakeFirst(
    std::initializer_list<std::optional<std::size_t>> columns) const {
    for (const auto& column : columns) {
        if (auto text = Text(column)) {
            taken_[*column] = 1;
            return text;
        }
    }
    return std::nullopt;
}

std::optional<double> CdaMemberReader::TakeNumber(std::optional<std::size_t> column) const {
    if (!column) {
        return std::nullopt;
    }
    Take(column);
    return reader_.Decimal(*column);
}

std::optional<std::string> CdaMemberReader::TakeDate(std::optional<std::size_t> column) const {
    if (!column) {
        return std::nullopt;
    }
    Take(column);
    return reader_.IsoDate(*column);
}

std::optional<std::string> CdaMemberReader::TakeCnpj(std::optional<std::size_t> column) const {
    if (!column) {
        return std::nullopt;
    }
    Take(column);
    return reader_.Cnpj(*column);
}

CdaPosition CdaMemberReader::Position() const {
    std::fill(taken_.begin(), taken_.end(), 0);
    const PositionColumns& c = columns_;
    CdaPosition p;
    p.cnpj = cnpj_;
    p.month = member_.month.ToString();
    p.ordinal = member_.block * kOrdinalBlockStep + static_cast<std::int64_t>(Line());
    p.block = block_;
    p.application_type = Take(c.application_type);
    p.asset_type = Take(c.asset_type);
    p.related_issuer = Take(c.related_issuer);
    p.trade_type = Take(c.trade_type);
    p.quantity_sold = TakeNumber(c.quantity_sold);
    p.value_sold = TakeNumber(c.value_sold);
    p.quantity_acquired = TakeNumber(c.quantity_acquired);
    p.value_acquired = TakeNumber(c.value_acquired);
    p.quantity = TakeNumber(c.quantity);
    p.market_value = TakeNumber(c.market_value);
    p.cost_value = TakeNumber(c.cost_value);
    p.confidential_until = TakeDate(c.confidential_until);
    p.asset_code = TakeFirst({c.asset_code, c.selic_code, c.swap_code, c.exchange_asset_code});
    p.isin = Take(c.isin);
    p.description = TakeFirst(
        {c.description, c.public_bond_type, c.swap_description, c.post_fixed_title, c.foreign_description});
    p.issuer = Take(c.issuer);
    p.issuer_document = TakeFirst({c.issuer_cnpj, c.issuer_document});
    p.maturity = TakeDate(c.maturity);
    p.invested_cnpj = TakeCnpj(c.invested_cnpj);
    p.invested_name = Take(c.invested_name);
    p.invested_subclass = Take(c.invested_subclass);
    p.details_json = DetailsJson();
    return p;
}

std::string CdaMemberReader::DetailsJson() const {
    boost::json::object details;
    const auto& header = reader_.Header();
    for (std::size_t column = 0; column < header.size(); ++column) {
        if (key_columns_[column] || taken_[column]) {
            continue;
        }
        if (auto text = Text(column)) {
            details[header[column]] = *text;
        }
    }
    return boost::json::serialize(details);
}

LineDigest CdaMemberReader::Digest() const {
    line_text_.clear();
    for (std::size_t i = 0; i < reader_.FieldCount(); ++i) {
        line_text_ += reader_.Field(i);
        line_text_ += ';';
    }
    return DigestOf(line_text_);
}

}  // namespace lastro::funds
