#include "ingest/cda_member_reader.hpp"
#include "ingest/field_text.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/problem.hpp>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <utility>

namespace lastro::funds {

namespace {

// Block number x 10^9 + line: blocks in file order, lines in file order within a block.
constexpr std::int64_t kOrdinalBlockStep = 1'000'000'000;

bool IsPositionMember(CdaMemberKind kind) {
    return kind == CdaMemberKind::kBlock || kind == CdaMemberKind::kFie;
}

}  // namespace

CdaMemberReader::CdaMemberReader(std::unique_ptr<sdk::ByteSource> source, const CdaMember& member)
    : reader_(std::move(source)), member_(member) {
    // CNPJ_FUNDO / TP_FUNDO: the layout before RCVM 175, should an old file turn up.
    cnpj_column_ = RequireAny({"CNPJ_FUNDO_CLASSE", "CNPJ_FUNDO"});
    date_column_ = RequireAny({"DT_COMPTC"});
    filer_column_ = RequireAny({"TP_FUNDO_CLASSE", "TP_FUNDO"});
    name_column_ = RequireAny({"DENOM_SOCIAL"});
    key_columns_.assign(reader_.Header().size(), 0);
    for (std::size_t column : {cnpj_column_, date_column_, filer_column_, name_column_}) {
        key_columns_[column] = 1;
    }
    if (member.kind == CdaMemberKind::kPl) {
        nav_column_ = RequireAny({"VL_PATRIM_LIQ"});
    }
    if (!IsPositionMember(member.kind)) {
        return;
    }
    block_ = CdaPositionBlock(member);
    PositionColumns& c = columns_;
    c.application_type = RequireAny({"TP_APLIC"});
    c.asset_type = RequireAny({"TP_ATIVO"});
    c.related_issuer = RequireAny({"EMISSOR_LIGADO"});
    c.trade_type = RequireAny({"TP_NEGOC"});
    c.quantity_sold = RequireAny({"QT_VENDA_NEGOC"});
    c.value_sold = RequireAny({"VL_VENDA_NEGOC"});
    c.quantity_acquired = RequireAny({"QT_AQUIS_NEGOC"});
    c.value_acquired = RequireAny({"VL_AQUIS_NEGOC"});
    c.quantity = RequireAny({"QT_POS_FINAL"});
    c.market_value = RequireAny({"VL_MERC_POS_FINAL"});
    c.cost_value = RequireAny({"VL_CUSTO_POS_FINAL"});
    c.confidential_until = RequireAny({"DT_CONFID_APLIC"});
    // Block-specific columns: each block has its own set (FORMATS 4), so they are optional.
    c.asset_code = FindAny({"CD_ATIVO"});
    c.selic_code = FindAny({"CD_SELIC"});
    c.swap_code = FindAny({"CD_SWAP"});
    c.exchange_asset_code = FindAny({"CD_ATIVO_BV_MERC"});
    c.isin = FindAny({"CD_ISIN"});
    c.description = FindAny({"DS_ATIVO"});
    c.public_bond_type = FindAny({"TP_TITPUB"});
    c.swap_description = FindAny({"DS_SWAP"});
    c.post_fixed_title = FindAny({"TITULO_POSFX"});
    c.foreign_description = FindAny({"DS_ATIVO_EXTERIOR"});
    c.issuer = FindAny({"EMISSOR"});
    c.issuer_cnpj = FindAny({"CNPJ_EMISSOR"});
    c.issuer_document = FindAny({"CPF_CNPJ_EMISSOR"});
    c.maturity = FindAny({"DT_VENC"});
    if (member.kind == CdaMemberKind::kBlock && member.block == 2) {
        c.invested_cnpj = RequireAny({"CNPJ_FUNDO_CLASSE_COTA", "CNPJ_FUNDO_COTA"});
        c.invested_name = FindAny({"NM_FUNDO_CLASSE_SUBCLASSE_COTA", "NM_FUNDO_COTA"});
        c.invested_subclass = FindAny({"ID_SUBCLASSE"});
    }
    taken_.assign(reader_.Header().size(), 0);
}

std::size_t CdaMemberReader::RequireAny(std::initializer_list<std::string_view> names) const {
    if (auto column = FindAny(names)) {
        return *column;
    }
    std::string message = "missing column " + std::string(*names.begin());
    if (names.size() > 1) {
        message += " (or " + std::string(*(names.begin() + 1)) + ")";
    }
    throw sdk::IngestError(SourceName(), 1, message);
}

std::optional<std::size_t> CdaMemberReader::FindAny(std::initializer_list<std::string_view> names) const {
    for (std::string_view name : names) {
        if (auto column = reader_.Find(name)) {
            return column;
        }
    }
    return std::nullopt;
}

bool CdaMemberReader::Next() {
    if (!reader_.Next()) {
        return false;
    }
    const std::size_t expected = reader_.Header().size();
    if (reader_.FieldCount() != expected) {
        throw sdk::IngestError(SourceName(), Line(),
                               "expected " + std::to_string(expected) + " fields, found " +
                                   std::to_string(reader_.FieldCount()));
    }
    const std::string_view cnpj = TrimBlanks(reader_.Field(cnpj_column_));
    if (cnpj.empty()) {
        Fail(cnpj_column_, "is empty", cnpj);
    }
    auto parsed = sdk::ParseCnpj(cnpj);
    if (!parsed.digits) {
        Fail(cnpj_column_, "is not a valid CNPJ", cnpj);
    }
    cnpj_ = std::move(*parsed.digits);
    const std::string_view date_text = TrimBlanks(reader_.Field(date_column_));
    const auto date = sdk::Date::Parse(date_text);
    if (!date) {
        Fail(date_column_, "is not a YYYY-MM-DD date", date_text);
    }
    if (date->ToMonth() != member_.month) {
        Fail(date_column_, "is not in " + member_.month.ToString() + ", the month of the file", date_text);
    }
    return true;
}

void CdaMemberReader::Fail(std::size_t column, std::string_view problem, std::string_view value) const {
    throw sdk::IngestError(SourceName(), Line(),
                           reader_.Header()[column] + " " + std::string(problem) + ": " + Quoted(value));
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
    if (!column) {
        return std::nullopt;
    }
    const std::string_view text = TrimBlanks(reader_.Field(*column));
    if (text.empty()) {
        return std::nullopt;
    }
    return std::string(text);
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
    auto text = Take(column);
    if (!text) {
        return std::nullopt;
    }
    double value = 0;
    const char* end = text->data() + text->size();
    const auto [ptr, error] = std::from_chars(text->data(), end, value, std::chars_format::fixed);
    if (error != std::errc() || ptr != end || !std::isfinite(value)) {
        Fail(*column, "is not a number", *text);
    }
    return value;
}

std::optional<std::string> CdaMemberReader::TakeDate(std::optional<std::size_t> column) const {
    auto text = Take(column);
    if (text && !sdk::Date::Parse(*text)) {
        Fail(*column, "is not a YYYY-MM-DD date", *text);
    }
    return text;
}

std::optional<std::string> CdaMemberReader::TakeCnpj(std::optional<std::size_t> column) const {
    auto text = Take(column);
    if (!text) {
        return std::nullopt;
    }
    auto parsed = sdk::ParseCnpj(*text);
    if (!parsed.digits) {
        Fail(*column, "is not a valid CNPJ", *text);
    }
    return parsed.digits;
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
