#include "sample/fidc_report_writer.hpp"

#include "sample/balance_sheet.hpp"
#include "sample/kit.hpp"
#include "sample/streams.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>

namespace lastro::funds::sample {
namespace {

// Columns the old layout does not have (besides the two keys it replaces with CNPJ_FUNDO).
bool DroppedInOldLayout(FidcTable table, std::string_view column) {
    if (table == FidcTable::kI) {
        return column == "CLASSE_UNICA" || column == "CLASSE" || column == "CNPJ_CLASSE" ||
               column == "TAB_I2C5_VL_COTA_FIF";
    }
    return table == FidcTable::kX1 && column == "ID_SUBCLASSE";
}

bool OldLayout(const sdk::Month& month) {
    return month < kFirstClassLayoutMonth;
}

consteval std::size_t ColI(std::string_view name) {
    return ColumnIndex(kTabIColumns, name);
}
consteval std::size_t ColVII(std::string_view name) {
    return ColumnIndex(kTabVIIColumns, name);
}

// Where a receivables book sits in tab_I: I2A (with risk transfer) or I2B (without). The
// categories are I2x1, I2x2, then the sub-item I2x21 (overdue parcels), then I2x3 .. I2x10.
struct BookColumns {
    std::size_t net;
    std::size_t first;
    std::size_t overdue_parcels;
    std::size_t third;
};
constexpr BookColumns kWithRiskColumns{ColI("TAB_I2A_VL_DIRCRED_RISCO"), ColI("TAB_I2A1_VL_CRED_VENC_AD"),
                                       ColI("TAB_I2A21_VL_TOTAL_PARCELA_INAD"),
                                       ColI("TAB_I2A3_VL_CRED_INAD")};
constexpr BookColumns kWithoutRiskColumns{
    ColI("TAB_I2B_VL_DIRCRED_SEM_RISCO"), ColI("TAB_I2B1_VL_CRED_VENC_AD"),
    ColI("TAB_I2B21_VL_TOTAL_PARCELA_INAD"), ColI("TAB_I2B3_VL_CRED_INAD")};

using Row = std::vector<std::string>;
using ClassRows = std::array<std::vector<Row>, kFidcTableCount>;

// How one class-month is filed: normally as Classe; the irregular months add a copy filed as
// Fundo (quota values 3 % lower) or an earlier, contradicted Classe row (4.3 % higher). A
// fund-level report (History::fund_reports) is filed as Fundo under the fund's CNPJ.
enum class Variant { kClass, kFund, kContradicted, kFundReport };

std::int64_t ValueFactorPpm(Variant variant) {
    switch (variant) {
        case Variant::kFund:
            return 970'000;
        case Variant::kContradicted:
            return 1'043'000;
        case Variant::kClass:
        case Variant::kFundReport:
            break;
    }
    return kPpm;
}

std::string Masked(const std::string& digits) {
    return sdk::FormatCnpj(digits);
}

std::string Percent(std::int64_t hundredths) {
    return Decimal(hundredths, 2);
}

std::string Count(std::int64_t count) {
    return Decimal(count * 100, 2);
}

// Investor-type columns of tab_X_1_1, in order: PF, PJ não financeira, banco, corretora ou
// distribuidora, PJ financeira, não residente, EAPC, EFPC, RPPS, seguradora, capitalização,
// FIC-FIDC, FII, outros fundos, clubes, outros.
constexpr std::array<std::int64_t, 16> kGeneralInvestors{850, 30, 0, 60, 5, 2,  0, 3,
                                                         0,   0,  0, 10, 0, 35, 3, 2};
constexpr std::array<std::int64_t, 16> kQualifiedInvestors{500, 60, 5, 50,  20, 5,   5, 20,
                                                           20,  10, 2, 120, 3,  170, 5, 5};
constexpr std::array<std::int64_t, 16> kProfessionalInvestors{20, 80, 100, 30,  120, 20,  20, 50,
                                                              10, 40, 5,   250, 5,   240, 0,  10};
constexpr std::array<std::int64_t, 16> kSubordinatedInvestors{100, 600, 20, 10,  30, 10,  0, 0,
                                                              0,   0,   0,  100, 0,  120, 0, 10};

class ClassMonthRenderer {
public:
    ClassMonthRenderer(const History& history, const ClassHistory& c, const std::vector<Institution>& admins,
                       int month, Variant variant)
        : c_(c),
          admins_(admins),
          month_index_(month),
          month_(history.MonthAt(month)),
          state_(c.months.at(static_cast<std::size_t>(month))),
          variant_(variant),
          old_(OldLayout(month_)),
          // Per class: one stream per month (by its place in the longest history) and variant,
          // and one for what does not change from month to month.
          detail_(Prng::ForStream(history.seed, kReportDetailStream,
                                  static_cast<std::uint64_t>(c.fund_class->id) * 1024 +
                                      static_cast<std::uint64_t>(AbsoluteMonth(month_)) * 4 +
                                      static_cast<std::uint64_t>(variant))),
          stable_(Prng::ForStream(history.seed, kReportDetailStream,
                                  static_cast<std::uint64_t>(c.fund_class->id) * 1024 + 1023)) {
        series_ = state_.series;
        const std::int64_t factor = ValueFactorPpm(variant);
        for (SeriesMonth& s : series_) {
            if (s.exists && factor != kPpm) {
                s.value = Share(s.value, factor);
            }
            if (s.exists && variant == Variant::kFund) {
                s.holders = s.holders > 1 ? s.holders - 1 : s.holders + 1;
            }
        }
        ValueSum sum;
        for (const SeriesMonth& s : series_) {
            if (s.exists) {
                sum.Add(s.quantity, s.value);
            }
        }
        net_assets_ = sum.Cents();
        sheet_ = ComputeBalanceSheet(history, c, month, net_assets_);
        cnpj_ = Masked(c.fund_class->cnpj);
        date_ = MonthEnd(month_).ToString();
        DrawStable();
    }

    ClassRows Render() {
        ClassRows rows;
        rows[IndexOf(FidcTable::kI)].push_back(TabI());
        rows[IndexOf(FidcTable::kII)].push_back(TabII());
        rows[IndexOf(FidcTable::kIII)].push_back(TabIII());
        rows[IndexOf(FidcTable::kIV)].push_back(TabIV());
        rows[IndexOf(FidcTable::kV)].push_back(Bands(FidcTable::kV, sheet_.with_risk, false));
        rows[IndexOf(FidcTable::kVI)].push_back(
            Bands(FidcTable::kVI, sheet_.without_risk, c_.profile.without_risk_blank));
        rows[IndexOf(FidcTable::kVII)].push_back(TabVII());
        if (!(month_ < kFirstDebtorsMonth) && sheet_.Receivables() > 0) {
            TabVIII(rows[IndexOf(FidcTable::kVIII)]);
        }
        rows[IndexOf(FidcTable::kIX)].push_back(TabIX());
        rows[IndexOf(FidcTable::kX)].push_back(TabX());
        SeriesTables(rows);
        rows[IndexOf(FidcTable::kX1_1)].push_back(TabX11());
        rows[IndexOf(FidcTable::kX5)].push_back(TabX5());
        rows[IndexOf(FidcTable::kX7)].push_back(TabX7());
        if (old_) {
            for (const FidcTableLayout& info : kFidcTableLayouts) {
                for (Row& row : rows[IndexOf(info.table)]) {
                    row = ToOldLayout(info, std::move(row));
                }
            }
        }
        return rows;
    }

private:
    Row Keyed(FidcTable table) const {
        Row row(FidcColumns(table).size());
        const bool fund = variant_ == Variant::kFund || variant_ == Variant::kFundReport;
        row[0] = fund ? "Fundo" : "Classe";
        row[1] = cnpj_;
        row[2] = fund || old_ ? c_.fund->name : c_.fund_class->name;
        row[3] = date_;
        return row;
    }

    Row ToOldLayout(const FidcTableLayout& info, Row row) const {
        Row old;
        old.reserve(row.size());
        old.push_back(Masked(c_.fund->cnpj));
        for (std::size_t i = 2; i < row.size(); ++i) {
            if (!DroppedInOldLayout(info.table, info.columns[i])) {
                old.push_back(std::move(row[i]));
            }
        }
        return old;
    }

    // Class attributes that do not change from month to month.
    void DrawStable() {
        open_ = c_.fund_class->condominium == Condominium::kOpen;
        conversion_days_ = stable_.Between(0, 30);
        conversion_business_ = stable_.Chance(500);
        payment_days_ = stable_.Between(0, 5);
        interest_ = c_.fund_class->exclusive && stable_.Chance(500);
        std::array<std::int64_t, 16> weights{};
        switch (c_.fund_class->target_investor) {
            case TargetInvestor::kGeneral:
                weights = kGeneralInvestors;
                break;
            case TargetInvestor::kQualified:
                weights = kQualifiedInvestors;
                break;
            case TargetInvestor::kProfessional:
                weights = kProfessionalInvestors;
                break;
        }
        for (std::size_t i = 0; i < 16; ++i) {
            senior_weights_[i] = weights[i] * stable_.Between(500, 1500);
            junior_weights_[i] = kSubordinatedInvestors[i] * stable_.Between(500, 1500);
        }
        guarantee_ppm_ = stable_.Chance(350) ? stable_.Between(100'000, 1'300'000) : 0;
        guarantee_blank_ = guarantee_ppm_ == 0 && stable_.Chance(500);
        tax_debt_ppm_ = stable_.Chance(100) ? stable_.Between(1'000, 20'000) : 0;
        debtor_ratings_ = {stable_.Between(50, 200), stable_.Between(200, 400), stable_.Between(100, 250),
                           stable_.Between(50, 150), stable_.Between(20, 60),   stable_.Between(5, 30),
                           stable_.Between(5, 30),   stable_.Between(5, 30),    0};
        top_debtors_ppm_ = c_.profile.book == Book::kCourtOrders ? stable_.Between(600'000, 950'000)
                                                                 : stable_.Between(50'000, 600'000);
        debtor_decay_ppm_ = stable_.Between(750'000, 950'000);
        switch (c_.profile.book) {
            case Book::kTrade:
            case Book::kCards:
            case Book::kFactoring:
                turnover_ppm_ = stable_.Between(400'000, 900'000);
                ticket_cents_ = stable_.Between(500, 8'000) * 100;
                break;
            case Book::kCourtOrders:
            case Book::kLawsuits:
                turnover_ppm_ = stable_.Between(10'000, 60'000);
                ticket_cents_ = stable_.Between(50'000, 900'000) * 100;
                break;
            case Book::kPayroll:
            case Book::kRealEstate:
                turnover_ppm_ = stable_.Between(30'000, 90'000);
                ticket_cents_ = stable_.Between(3'000, 60'000) * 100;
                break;
            default:
                turnover_ppm_ = stable_.Between(80'000, 400'000);
                ticket_cents_ = stable_.Between(1'000, 200'000) * 100;
                break;
        }
        repurchases_ = stable_.Chance(350);
        substitutions_ = stable_.Chance(100);
    }

    std::string Money(std::int64_t cents) const { return Cents(cents); }

    // A receivables book's net value, its ten categories and the overdue parcels into tab_I.
    // A component or band: 0.00, or empty in a month whose zeros are left empty.
    std::string Part(std::int64_t cents) const {
        return cents == 0 && state_.quirks.zeros_blank && variant_ == Variant::kClass ? "" : Money(cents);
    }

    void Receivables(Row& r, const ReceivablesBook& book, const BookColumns& at) const {
        r[at.net] = Money(book.Net());
        r[at.first] = Part(book.categories[0]);
        r[at.first + 1] = Part(book.categories[1]);
        r[at.overdue_parcels] = Money(book.overdue_parcels);
        for (std::size_t k = 2; k < 10; ++k) {
            r[at.third + k - 2] = Part(book.categories[k]);
        }
    }

    Row TabI() {
        Row r = Keyed(FidcTable::kI);
        const FundClass& fc = *c_.fund_class;
        const Institution& admin = admins_.at(c_.fund->administrator);
        r[ColI("CLASSE_UNICA")] = c_.fund->classes.size() == 1 ? "S" : "N";
        r[ColI("CNPJ_ADMIN")] = Masked(admin.document);
        r[ColI("ADMIN")] = admin.name;
        if (variant_ != Variant::kFundReport) {  // a fund-level report names no class
            r[ColI("CLASSE")] = fc.name;
            r[ColI("CNPJ_CLASSE")] = Masked(fc.cnpj);
        }
        r[ColI("CONDOM")] = open_ ? "ABERTO" : "FECHADO";
        r[ColI("FUNDO_EXCLUSIVO")] = fc.exclusive ? "S" : "N";
        r[ColI("COTST_INTERESSE")] = interest_ ? "S" : "N";
        if (open_) {
            r[ColI("PRAZO_CONVERSAO_COTA")] = std::to_string(conversion_days_);
            r[ColI("TP_PRAZO_CONVERSAO_COTA")] = conversion_business_ ? "Dias Úteis" : "Dias Corridos";
            r[ColI("PRAZO_PAGTO_RESGATE")] = std::to_string(payment_days_);
            r[ColI("TP_PRAZO_PAGTO_RESGATE")] = "Dias Úteis";
        }
        const BalanceSheet& b = sheet_;
        r[ColI("TAB_I_VL_ATIVO")] = Money(b.Assets());
        r[ColI("TAB_I1_VL_DISP")] = Money(b.cash);
        r[ColI("TAB_I2_VL_CARTEIRA")] = Money(b.Portfolio());

        const ReceivablesBook& a = b.with_risk;
        Receivables(r, a, kWithRiskColumns);
        if (!state_.quirks.provision_blank || variant_ != Variant::kClass) {
            r[ColI("TAB_I2A11_VL_REDUCAO_RECUP")] = Money(a.provision);
        }
        const bool has_receivables = b.Receivables() > 0;
        constexpr std::size_t kAssignors = ColI("TAB_I2A12_CPF_CNPJ_CEDENTE_1");
        if (has_receivables) {
            for (std::size_t k = 0; k < c_.profile.assignors.size() && k < 9; ++k) {
                r[kAssignors + 2 * k] = c_.profile.assignors[k].first;
                r[kAssignors + 2 * k + 1] = Percent(c_.profile.assignors[k].second);
            }
        }

        const ReceivablesBook& w = b.without_risk;
        if (!c_.profile.without_risk_blank) {
            Receivables(r, w, kWithoutRiskColumns);
            r[ColI("TAB_I2B11_VL_REDUCAO_RECUP")] = Money(w.provision);
            if (w.Gross() > 0) {
                // The same assignors sell without risk transfer, in their own proportions.
                const std::size_t count = std::min<std::size_t>(3, c_.profile.assignors.size());
                std::vector<std::int64_t> weights;
                for (std::size_t k = 0; k < count; ++k) {
                    weights.push_back(c_.profile.assignors[k].second);
                }
                const std::vector<std::int64_t> shares = Allocate(10'000, weights);
                constexpr std::size_t kB12 = ColI("TAB_I2B12_CPF_CNPJ_CEDENTE_1");
                for (std::size_t k = 0; k < count; ++k) {
                    r[kB12 + 2 * k] = c_.profile.assignors[k].first;
                    r[kB12 + 2 * k + 1] = Percent(shares[k]);
                }
            }
        }

        const auto& s = b.securities;
        r[ColI("TAB_I2C_VL_VLMOB")] = Money(b.Securities(kSecDebentures, kSecOtherSecurities));
        r[ColI("TAB_I2C1_VL_DEBENTURE")] = Money(s[kSecDebentures]);
        r[ColI("TAB_I2C2_VL_CRI")] = Money(s[kSecCri]);
        r[ColI("TAB_I2C3_VL_NP_COMERC")] = Money(s[kSecCommercialPaper]);
        r[ColI("TAB_I2C4_VL_LETRA_FINANC")] = Money(s[kSecFinancialBills]);
        // Before RCVM 175 there was no FIF column: FIF quotas were ICVM 555 quotas.
        r[ColI("TAB_I2C5_VL_COTA_FUNDO_ICVM555")] =
            Money(s[kSecIcvm555Quotas] + (old_ ? s[kSecFifQuotas] : 0));
        r[ColI("TAB_I2C5_VL_COTA_FIF")] = Money(s[kSecFifQuotas]);
        r[ColI("TAB_I2C6_VL_OUTRO")] = Money(s[kSecOtherSecurities]);
        r[ColI("TAB_I2D_VL_TITPUB_FED")] = Money(s[kSecPublicBonds]);
        r[ColI("TAB_I2E_VL_CDB")] = Money(s[kSecBankDeposits]);
        r[ColI("TAB_I2F_VL_OPER_COMPROM")] = Money(s[kSecRepos]);
        r[ColI("TAB_I2G_VL_OUTRO_RF")] = Money(s[kSecOtherFixedIncome]);
        r[ColI("TAB_I2H_VL_COTA_FIDC")] = Money(s[kSecFidcQuotas]);
        r[ColI("TAB_I2I_VL_COTA_FIDC_NP")] = Money(s[kSecFidcNpQuotas]);
        r[ColI("TAB_I2J_VL_CONTRATO_FUTURO")] = Money(s[kSecFutures]);
        r[ColI("TAB_I2_DEBENTURE_CRI")] = Money(0);
        r[ColI("TAB_I2_COTA_FIDC")] = Money(0);
        r[ColI("TAB_I2_VL_OUTRO_ATIVO")] = Money(0);
        r[ColI("TAB_I3_VL_POSICAO_DERIV")] = Money(b.Derivatives());
        constexpr std::size_t kI3A = ColI("TAB_I3A_VL_MERCADO_TERMO");
        for (std::size_t k = 0; k < 6; ++k) {
            r[kI3A + k] = Money(b.derivatives[k]);
        }
        r[ColI("TAB_I4_VL_OUTRO_ATIVO")] = Money(b.other_short + b.other_long);
        r[ColI("TAB_I4A_VL_CPRAZO")] = Money(b.other_short);
        r[ColI("TAB_I4B_VL_LPRAZO")] = Money(b.other_long);
        return r;
    }

    Row TabII() const {
        Row r = Keyed(FidcTable::kII);
        const auto& leaves = sheet_.segments;
        // Segments a..k as ranges of leaves; c, d, f, h and i are followed by their sub-items.
        static constexpr std::array<std::pair<std::size_t, std::size_t>, 11> kSegments{{{0, 0},
                                                                                        {1, 1},
                                                                                        {2, 4},
                                                                                        {5, 8},
                                                                                        {9, 9},
                                                                                        {10, 17},
                                                                                        {18, 18},
                                                                                        {19, 20},
                                                                                        {21, 24},
                                                                                        {25, 25},
                                                                                        {26, 26}}};
        std::vector<std::int64_t> values{sheet_.Receivables()};
        for (const auto& [first, last] : kSegments) {
            values.push_back(std::accumulate(leaves.begin() + static_cast<std::ptrdiff_t>(first),
                                             leaves.begin() + static_cast<std::ptrdiff_t>(last) + 1,
                                             std::int64_t{0}));
            for (std::size_t leaf = first; last > first && leaf <= last; ++leaf) {
                values.push_back(leaves[leaf]);
            }
        }
        for (std::size_t i = 0; i < values.size(); ++i) {
            r[4 + i] = Money(values[i]);
        }
        return r;
    }

    Row TabIII() const {
        Row r = Keyed(FidcTable::kIII);
        const BalanceSheet& b = sheet_;
        const auto& d = b.derivative_liabilities;
        const std::int64_t derivatives = d[0] + d[1] + d[2] + d[3];
        const std::vector<std::int64_t> values{b.Liabilities(),
                                               b.payables_short + b.payables_long,
                                               b.payables_short,
                                               b.payables_long,
                                               derivatives,
                                               d[0],
                                               d[1],
                                               d[2],
                                               d[3]};
        for (std::size_t i = 0; i < values.size(); ++i) {
            r[4 + i] = Money(values[i]);
        }
        return r;
    }

    Row TabIV() const {
        Row r = Keyed(FidcTable::kIV);
        // The net-worth typo: 1,000 times the true figure, in this field alone.
        const bool typo = state_.quirks.net_assets_typo && variant_ == Variant::kClass;
        r[4] = Money(typo ? net_assets_ * 1'000 : net_assets_);
        if (const auto average = AverageNetAssets()) {
            r[5] = Money(*average);
        }
        return r;
    }

    // IV.b, the average of the last three months; empty in a class's first month and where the
    // administrator leaves it blank.
    std::optional<std::int64_t> AverageNetAssets() const {
        if (c_.profile.average_blank || state_.quirks.average_blank) {
            return std::nullopt;
        }
        std::int64_t total = net_assets_;
        std::int64_t count = 1;
        for (int m = month_index_ - 1; m >= 0 && m >= month_index_ - 2; --m) {
            if (c_.months[static_cast<std::size_t>(m)].operating) {
                total += c_.NetAssets(m);
                ++count;
            }
        }
        // A class in its first month has no quota value from before.
        bool first_month = true;
        for (const SeriesMonth& s : state_.series) {
            first_month = first_month && !(s.exists && s.previous_value > 0);
        }
        if (first_month) {
            return std::nullopt;
        }
        return MulDiv(total, 1, count);
    }

    Row Bands(FidcTable table, const ReceivablesBook& book, bool blank) const {
        Row r = Keyed(table);
        if (blank) {
            return r;  // the whole row left empty
        }
        std::size_t at = 4;
        for (const auto* bands : {&book.to_mature, &book.overdue, &book.prepaid}) {
            r[at++] = Money(std::accumulate(bands->begin(), bands->end(), std::int64_t{0}));
            for (std::int64_t band : *bands) {
                r[at++] = Part(band);
            }
        }
        return r;
    }

    Row TabVII() {
        Row r = Keyed(FidcTable::kVII);
        const BalanceSheet& b = sheet_;
        const std::int64_t with_risk = Share(b.with_risk.Gross(), Jitter(turnover_ppm_));
        const std::int64_t without_risk = Share(b.without_risk.Gross(), Jitter(turnover_ppm_));
        const auto count = [this](std::int64_t cents) { return cents > 0 ? cents / ticket_cents_ + 1 : 0; };
        const std::int64_t bought = with_risk + without_risk;
        const std::int64_t delinquency = state_.delinquency_ppm;
        const std::int64_t bought_overdue = c_.profile.book == Book::kDistressed
                                                ? Share(bought, delinquency * 2)
                                                : Share(bought, delinquency / 20);
        const std::int64_t bought_partly = Share(bought, delinquency / 10);
        const std::int64_t bought_current = bought - bought_overdue - bought_partly;
        const auto put = [&r](std::size_t at, std::int64_t quantity, std::int64_t value) {
            r[at] = Count(quantity);
            r[at + 1] = Cents(value);
        };
        put(ColVII("TAB_VII_A1_1_QT_DIRCRED_RISCO"), count(with_risk), with_risk);
        put(ColVII("TAB_VII_A2_1_QT_DIRCRED_SEM_RISCO"), count(without_risk), without_risk);
        // A3 + A4 + A5 = A1 + A2, by the state of the credits when bought.
        const std::int64_t n_overdue = count(bought_overdue);
        const std::int64_t n_partly = count(bought_partly);
        const std::int64_t n_current =
            std::max<std::int64_t>(count(with_risk) + count(without_risk) - n_overdue - n_partly, 0);
        put(ColVII("TAB_VII_A3_1_QT_DIRCRED_VENC_AD"), n_current, bought_current);
        put(ColVII("TAB_VII_A4_1_QT_DIRCRED_VENC_INAD"), n_partly, bought_partly);
        put(ColVII("TAB_VII_A5_1_QT_DIRCRED_INAD"), n_overdue, bought_overdue);
        const auto sale = [&](std::size_t at, std::int64_t value) {
            r[at] = Count(count(value));
            r[at + 1] = Cents(value);
            r[at + 2] = Cents(Share(value, detail_.Between(950'000, 1'150'000)));
        };
        const bool sells = c_.profile.book == Book::kDistressed && detail_.Chance(300);
        sale(ColVII("TAB_VII_B1_1_QT_CEDENTE"), 0);
        sale(ColVII("TAB_VII_B2_1_QT_PREST"), 0);
        sale(ColVII("TAB_VII_B3_1_QT_TERCEIRO"),
             sells ? Share(b.with_risk.Gross(), detail_.Between(5'000, 40'000)) : 0);
        sale(ColVII("TAB_VII_C_1_QT_SUBST"), substitutions_ && detail_.Chance(400)
                                                 ? Share(b.with_risk.Gross(), detail_.Between(1'000, 10'000))
                                                 : 0);
        sale(ColVII("TAB_VII_D_1_QT_RECOMPRA"),
             repurchases_ && detail_.Chance(600) ? Share(b.with_risk.Gross(), detail_.Between(2'000, 20'000))
                                                 : 0);
        sells_ = sells;
        return r;
    }

    void TabVIII(std::vector<Row>& rows) {
        const std::int64_t covered = Share(sheet_.Receivables(), top_debtors_ppm_);
        std::vector<std::int64_t> weights;
        std::int64_t weight = 1'000'000'000;
        for (int i = 0; i < 25; ++i) {
            weights.push_back(weight);
            weight = Share(weight, debtor_decay_ppm_ + detail_.Between(-20'000, 20'000));
        }
        const std::vector<std::int64_t> values = Allocate(covered, weights);
        for (std::size_t i = 0; i < values.size(); ++i) {
            Row r = Keyed(FidcTable::kVIII);
            r[4] = std::to_string(i + 1);
            r[5] = Money(values[i]);
            rows.push_back(std::move(r));
        }
    }

    // Annual rates in percent, two decimals: min, weighted average and max around `center`.
    void Rates(Row& r, std::size_t at, std::int64_t center, std::int64_t spread) {
        const std::int64_t average = center + detail_.Between(-spread / 4, spread / 4);
        const std::int64_t low = std::max<std::int64_t>(average - detail_.Between(spread / 4, spread), 1);
        const std::int64_t high = average + detail_.Between(spread / 4, spread * 2);
        r[at] = Percent(low);
        r[at + 1] = Percent(average);
        r[at + 2] = Percent(high);
    }

    Row TabIX() {
        Row r = Keyed(FidcTable::kIX);
        const BalanceSheet& b = sheet_;
        const std::int64_t selic = AnnualSelic(month_);
        // Column of group g (a..f), rate kind k (1 discount, 2 interest), side s (1 buy, 2 sell).
        const auto at = [](std::size_t g, std::size_t k, std::size_t s) {
            return 4 + g * 12 + k * 6 + s * 3;
        };
        std::int64_t discount = selic + 800;
        bool interest = false;
        switch (c_.profile.book) {
            case Book::kTrade:
            case Book::kFactoring:
                discount = selic + 1'200;
                break;
            case Book::kCards:
                discount = selic + 300;
                break;
            case Book::kDistressed:
                discount = selic + 4'000;
                break;
            case Book::kCourtOrders:
            case Book::kLawsuits:
                discount = selic + 600;
                break;
            case Book::kPayroll:
            case Book::kPersonal:
            case Book::kVehicles:
            case Book::kRealEstate:
            case Book::kEducation:
            case Book::kCorporate:
                interest = true;
                break;
            default:
                break;
        }
        if (b.with_risk.Gross() > 0) {
            Rates(r, at(0, 0, 0), discount, 500);
            if (interest) {
                Rates(r, at(0, 1, 0), discount + 400, 600);
            }
            if (sells_) {
                Rates(r, at(0, 0, 1), discount - 200, 400);
            }
        }
        if (b.without_risk.Gross() > 0) {
            Rates(r, at(1, 0, 0), discount - 300, 400);
        }
        if (b.Securities(kSecDebentures, kSecOtherSecurities) > 0) {
            Rates(r, at(2, 1, 0), selic + 150, 120);
        }
        if (b.securities[kSecPublicBonds] > 0) {
            Rates(r, at(3, 1, 0), selic, 20);
        }
        if (b.securities[kSecBankDeposits] > 0) {
            Rates(r, at(4, 1, 0), selic + 40, 40);
        }
        if (b.securities[kSecOtherFixedIncome] > 0) {
            Rates(r, at(5, 1, 0), selic + 200, 100);
        }
        return r;
    }

    Row TabX() {
        Row r = Keyed(FidcTable::kX);
        const std::int64_t receivables = sheet_.Receivables();
        std::vector<std::int64_t> debtor(9, 0);
        std::vector<std::int64_t> operation(9, 0);
        if (c_.profile.reports_risk_ratings) {
            std::array<std::int64_t, 9> weights = debtor_ratings_;
            const std::int64_t others = std::accumulate(weights.begin(), weights.end(), std::int64_t{0});
            weights[8] = MulDiv(others, state_.delinquency_ppm, kPpm - state_.delinquency_ppm + 1);
            debtor = Allocate(receivables, weights);
            std::rotate(weights.begin(), weights.begin() + 1,
                        weights.begin() + 2);  // operations rated a notch apart
            operation = Allocate(receivables, weights);
        }
        for (std::size_t i = 0; i < 9; ++i) {
            r[4 + i] = Money(debtor[i]);
            r[13 + i] = Money(operation[i]);
        }
        r[22] = Money(Share(receivables, tax_debt_ppm_));
        return r;
    }

    void SeriesTables(ClassRows& rows) const {
        for (std::size_t i = 0; i < c_.series.size(); ++i) {
            const SeriesMonth& s = series_[i];
            if (!s.exists) {
                continue;
            }
            const std::string& label = c_.series[i].label;

            Row x1 = Keyed(FidcTable::kX1);
            x1[4] = label;
            if (c_.series[i].subclass) {
                x1[5] = std::to_string(c_.series[i].subclass->id);
            }
            if (state_.quirks.holders_blank_series != static_cast<int>(i) || variant_ != Variant::kClass) {
                x1[6] = std::to_string(s.holders);
            }
            rows[IndexOf(FidcTable::kX1)].push_back(std::move(x1));

            Row x2 = Keyed(FidcTable::kX2);
            x2[4] = label;
            x2[5] = Decimal(s.quantity, 8);
            x2[6] = Decimal(s.value, 8);
            rows[IndexOf(FidcTable::kX2)].push_back(std::move(x2));

            std::optional<std::int64_t> monthly_return;
            if (s.previous_value > 0 &&
                (state_.quirks.return_blank_series != static_cast<int>(i) || variant_ != Variant::kClass)) {
                monthly_return = MulDiv(s.value - s.previous_value, 10'000, s.previous_value);
            }
            Row x3 = Keyed(FidcTable::kX3);
            x3[4] = label;
            x3[5] = Decimal(monthly_return, 2);
            rows[IndexOf(FidcTable::kX3)].push_back(std::move(x3));

            const auto operation = [&](std::string_view type, std::optional<std::int64_t> quantity,
                                       std::int64_t value) {
                Row x4 = Keyed(FidcTable::kX4);
                x4[4] = std::string(type);
                x4[5] = label;
                x4[6] = Cents(value);
                x4[7] = Decimal(quantity, 8);
                rows[IndexOf(FidcTable::kX4)].push_back(std::move(x4));
            };
            const bool every = c_.profile.lists_every_operation;
            if (s.subscribed > 0 || every) {
                // The absurd subscription: 1,000 times the true amount.
                const bool absurd = state_.quirks.absurd_subscription_series == static_cast<int>(i) &&
                                    variant_ == Variant::kClass;
                operation("Captações no Mês", s.subscribed,
                          ValueInCents(s.subscribed, s.value) * (absurd ? 1'000 : 1));
            }
            if (s.redeemed > 0 || every) {
                operation("Resgates no Mês", s.redeemed, ValueInCents(s.redeemed, s.value));
            }
            if (s.amortization > 0 || every) {
                // As the names say, the BRL total and the quotas amortized (all of the series');
                // some administrators file them the other way round (docs/sample.md).
                const std::int64_t total = ValueInCents(s.quantity, s.amortization);
                const bool unmatched = variant_ == Variant::kClass &&
                                       state_.quirks.amortization_unmatched_series == static_cast<int>(i);
                if (c_.profile.amortizations_swapped || unmatched) {
                    Row x4 = Keyed(FidcTable::kX4);
                    x4[4] = "Amortizações";
                    x4[5] = unmatched ? UnmatchedLabel(label) : label;
                    x4[6] = Cents(MulDiv(s.amortization, 1, kE8 / 100));
                    x4[7] = Cents(total);
                    rows[IndexOf(FidcTable::kX4)].push_back(std::move(x4));
                } else {
                    operation("Amortizações", s.quantity, total);
                }
            }
            if (s.requested > 0 || every) {
                operation("Resgates Solicitados", s.requested, ValueInCents(s.requested, s.value));
            }

            Row x6 = Keyed(FidcTable::kX6);
            x6[4] = label;
            if (s.expected_return != 0) {
                x6[5] = Percent(s.expected_return);
            }
            x6[6] = Decimal(monthly_return, 2);
            rows[IndexOf(FidcTable::kX6)].push_back(std::move(x6));
        }
    }

    Row TabX11() const {
        Row r = Keyed(FidcTable::kX1_1);
        std::int64_t seniors = 0;
        std::int64_t juniors = 0;
        for (std::size_t i = 0; i < c_.series.size(); ++i) {
            if (!series_[i].exists) {
                continue;
            }
            const Seniority rank = c_.series[i].seniority;
            (rank == Seniority::kMezzanine || rank == Seniority::kSubordinated ? juniors : seniors) +=
                series_[i].holders;
        }
        const std::vector<std::int64_t> senior = Allocate(seniors, senior_weights_);
        const std::vector<std::int64_t> junior = Allocate(juniors, junior_weights_);
        for (std::size_t i = 0; i < 16; ++i) {
            r[4 + i] = std::to_string(senior[i]);
            r[20 + i] = std::to_string(junior[i]);
        }
        return r;
    }

    // Cumulative: what can be turned into cash within 0, 30, ... 360 days; the rest takes longer.
    Row TabX5() const {
        Row r = Keyed(FidcTable::kX5);
        const BalanceSheet& b = sheet_;
        const auto band = [&b](std::size_t i) {
            return b.with_risk.to_mature[i] + b.without_risk.to_mature[i];
        };
        std::array<std::int64_t, 6> cumulative{};
        cumulative[0] = b.cash + b.securities[kSecPublicBonds] + b.securities[kSecRepos];
        cumulative[1] =
            cumulative[0] + b.securities[kSecBankDeposits] + b.securities[kSecOtherFixedIncome] + band(0);
        cumulative[2] = cumulative[1] + band(1);
        cumulative[3] = cumulative[2] + band(2);
        cumulative[4] = cumulative[3] + band(3) + band(4) + band(5);
        cumulative[5] = cumulative[4] + band(6) + b.other_short +
                        b.Securities(kSecDebentures, kSecOtherSecurities) + b.securities[kSecFidcQuotas] +
                        b.securities[kSecFidcNpQuotas] + b.securities[kSecFutures] + b.Derivatives();
        const std::int64_t beyond = b.Assets() - cumulative[5];
        if (beyond < 0) {
            throw std::logic_error("liquidity buckets exceed the assets");
        }
        for (std::size_t i = 0; i < 6; ++i) {
            r[4 + i] = Money(cumulative[i]);
        }
        r[10] = Money(beyond);
        return r;
    }

    Row TabX7() const {
        Row r = Keyed(FidcTable::kX7);
        if (guarantee_blank_) {
            return r;
        }
        const std::int64_t receivables = sheet_.Receivables();
        const std::int64_t value = Share(receivables, guarantee_ppm_);
        r[4] = Money(value);
        r[5] = Percent(receivables > 0 ? MulDiv(value, 10'000, receivables) : 0);
        return r;
    }

    std::int64_t Jitter(std::int64_t ppm) { return Share(ppm, detail_.Between(700'000, 1'300'000)); }

    const ClassHistory& c_;
    const std::vector<Institution>& admins_;
    int month_index_;
    sdk::Month month_;
    const ClassMonth& state_;
    Variant variant_;
    bool old_;
    Prng detail_;
    Prng stable_;
    std::vector<SeriesMonth> series_;
    std::string cnpj_;  // masked
    std::string date_;  // DT_COMPTC
    std::int64_t net_assets_ = 0;
    BalanceSheet sheet_;

    bool open_ = false;
    std::int64_t conversion_days_ = 0;
    bool conversion_business_ = false;
    std::int64_t payment_days_ = 0;
    bool interest_ = false;
    std::array<std::int64_t, 16> senior_weights_{};
    std::array<std::int64_t, 16> junior_weights_{};
    std::int64_t guarantee_ppm_ = 0;
    bool guarantee_blank_ = false;
    std::int64_t tax_debt_ppm_ = 0;
    std::array<std::int64_t, 9> debtor_ratings_{};
    std::int64_t top_debtors_ppm_ = 0;
    std::int64_t debtor_decay_ppm_ = 0;
    std::int64_t turnover_ppm_ = 0;
    std::int64_t ticket_cents_ = 100;
    bool repurchases_ = false;
    bool substitutions_ = false;
    bool sells_ = false;
};

}  // namespace

std::vector<std::string_view> FidcMonthColumns(FidcTable table, const sdk::Month& month) {
    const std::span<const std::string_view> current = FidcColumns(table);
    if (!OldLayout(month)) {
        return {current.begin(), current.end()};
    }
    std::vector<std::string_view> old{"CNPJ_FUNDO"};
    for (std::size_t i = 2; i < current.size(); ++i) {
        if (!DroppedInOldLayout(table, current[i])) {
            old.push_back(current[i]);
        }
    }
    return old;
}

bool FidcMonthHasTable(FidcTable table, const sdk::Month& month) {
    return table != FidcTable::kVIII || !(month < kFirstDebtorsMonth);
}

std::string FidcMemberName(FidcTable table, const sdk::Month& month) {
    return "inf_mensal_fidc_tab_" + std::string(FidcTableName(table)) + "_" + Compact(month) + ".csv";
}

std::string FidcMonthlyZipName(const sdk::Month& month) {
    return "inf_mensal_fidc_" + Compact(month) + ".zip";
}

std::string FidcYearlyZipName(int year) {
    return "inf_mensal_fidc_" + std::to_string(year) + ".zip";
}

FidcMonth RenderFidcMonth(const History& history, const std::vector<Institution>& administrators,
                          const sdk::Month& month) {
    const int index = history.IndexOf(month);
    const bool old = OldLayout(month);
    std::vector<const ClassHistory*> reporting;
    for (const auto* list : {&history.classes, &history.fund_reports}) {
        for (const ClassHistory& c : *list) {
            if (c.months.at(static_cast<std::size_t>(index)).reports) {
                reporting.push_back(&c);
            }
        }
    }
    const auto key = [old](const ClassHistory* c) { return old ? c->fund->cnpj : c->fund_class->cnpj; };
    std::stable_sort(reporting.begin(), reporting.end(),
                     [&key](const ClassHistory* a, const ClassHistory* b) { return key(a) < key(b); });

    std::vector<std::vector<std::string_view>> headers;
    std::vector<CsvTable> tables;
    headers.reserve(kFidcTableCount);
    tables.reserve(kFidcTableCount);
    for (const FidcTableLayout& info : kFidcTableLayouts) {
        headers.push_back(FidcMonthColumns(info.table, month));
        tables.emplace_back(headers.back());
    }

    FidcMonth out;
    for (const ClassHistory* c : reporting) {
        const ClassMonth& state = c->months[static_cast<std::size_t>(index)];
        ClassRows rows = ClassMonthRenderer(history, *c, administrators, index,
                                            c->fund_report ? Variant::kFundReport : Variant::kClass)
                             .Render();
        ++(c->fund_report ? out.fund_reports : out.reports);
        std::optional<ClassRows> fund_rows;
        if (state.quirks.also_as_fund) {
            fund_rows = ClassMonthRenderer(history, *c, administrators, index, Variant::kFund).Render();
        }
        std::optional<ClassRows> contradicted;
        if (state.quirks.conflicting_rows) {
            contradicted =
                ClassMonthRenderer(history, *c, administrators, index, Variant::kContradicted).Render();
        }
        for (const FidcTableLayout& info : kFidcTableLayouts) {
            CsvTable& table = tables[IndexOf(info.table)];
            const auto add_all = [&table](const std::vector<Row>& list) {
                for (const Row& row : list) {
                    table.AddRow(row);
                }
            };
            if (fund_rows && state.quirks.fund_rows_first) {
                add_all((*fund_rows)[IndexOf(info.table)]);
            }
            if (contradicted && (info.table == FidcTable::kIV || info.table == FidcTable::kX2)) {
                add_all((*contradicted)[IndexOf(info.table)]);
            }
            add_all(rows[IndexOf(info.table)]);
            if (state.quirks.repeated_line && info.table == FidcTable::kII) {
                add_all(rows[IndexOf(info.table)]);
            }
            if (fund_rows && !state.quirks.fund_rows_first) {
                add_all((*fund_rows)[IndexOf(info.table)]);
            }
        }
    }
    for (const FidcTableLayout& info : kFidcTableLayouts) {
        if (FidcMonthHasTable(info.table, month)) {
            out.members.push_back(
                {FidcMemberName(info.table, month), tables[IndexOf(info.table)].ToLatin1()});
        }
    }
    return out;
}

}  // namespace lastro::funds::sample
