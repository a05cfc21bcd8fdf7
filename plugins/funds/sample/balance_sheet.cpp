#include "sample/balance_sheet.hpp"

#include "sample/kit.hpp"
#include "sample/streams.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace lastro::funds::sample {

std::int64_t ReceivablesBook::Gross() const {
    return std::accumulate(categories.begin(), categories.end(), std::int64_t{0});
}

std::int64_t BalanceSheet::Securities(Security first, Security last) const {
    std::int64_t total = 0;
    for (std::size_t i = first; i <= last; ++i) {
        total += securities[i];
    }
    return total;
}

std::int64_t BalanceSheet::Portfolio() const {
    return with_risk.Net() + without_risk.Net() + Securities(kSecDebentures, kSecFutures);
}

std::int64_t BalanceSheet::Derivatives() const {
    return std::accumulate(derivatives.begin(), derivatives.end(), std::int64_t{0});
}

std::int64_t BalanceSheet::Assets() const {
    return cash + Portfolio() + Derivatives() + other_short + other_long;
}

std::int64_t BalanceSheet::Liabilities() const {
    return payables_short + payables_long +
           std::accumulate(derivative_liabilities.begin(), derivative_liabilities.end(), std::int64_t{0});
}

namespace {

std::vector<std::int64_t> Split(std::int64_t total, const std::array<std::int64_t, 10>& weights) {
    return Allocate(total, weights);
}

template <std::size_t N>
void CopyInto(const std::vector<std::int64_t>& parts, std::array<std::int64_t, N>& out) {
    std::copy(parts.begin(), parts.end(), out.begin());
}

// Fills one book from its gross amount, its delinquent part and its provision:
//   gross = categories[0..9]; delinquent = overdue parcels (inside categories[1]) + categories[2];
//   to-mature bands sum to gross - delinquent; overdue bands sum to delinquent.
void FillBook(ReceivablesBook& book, std::int64_t gross, std::int64_t delinquent, std::int64_t provision,
              const ClassProfile& p, Prng& rng) {
    const std::int64_t parcels = Share(delinquent, p.overdue_parcel_ppm);
    const std::int64_t fully_delinquent = delinquent - parcels;
    const std::int64_t running = std::min(parcels * p.running_multiple, (gross - delinquent) / 2);
    book.categories[1] = parcels + running;
    book.categories[2] = fully_delinquent;
    book.overdue_parcels = parcels;
    const std::int64_t rest = gross - book.categories[1] - book.categories[2];
    std::int64_t others = 0;
    for (std::size_t k = 0; k < p.other_categories_ppm.size(); ++k) {
        book.categories[3 + k] = Share(rest, p.other_categories_ppm[k]);
        others += book.categories[3 + k];
    }
    book.categories[0] = rest - others;
    book.provision = provision;
    CopyInto(Split(gross - delinquent, p.maturity_weights), book.to_mature);
    CopyInto(Split(delinquent, p.overdue_weights), book.overdue);
    const std::int64_t prepaid = Share(gross, p.prepaid_ppm + rng.Between(0, p.prepaid_ppm / 2));
    CopyInto(Split(prepaid, {400, 250, 150, 80, 40, 30, 30, 15, 5, 0}), book.prepaid);
}

}  // namespace

BalanceSheet ComputeBalanceSheet(const History& history, const ClassHistory& c, int month,
                                 std::int64_t net_assets) {
    if (net_assets < 0) {
        // A loss beyond the quotas: the sheet of a class worth the deficit, its short-term
        // payables raised by twice the deficit, so that assets - liabilities = net_assets.
        BalanceSheet b = ComputeBalanceSheet(history, c, month, -net_assets);
        b.net_assets = net_assets;
        b.payables_short -= 2 * net_assets;
        return b;
    }
    const ClassProfile& p = c.profile;
    const ClassMonth& m = c.months.at(static_cast<std::size_t>(month));
    Prng rng = Prng::ForStream(history.seed, kBalanceStream,
                               static_cast<std::uint64_t>(c.fund_class->id) * 256 +
                                   static_cast<std::uint64_t>(AbsoluteMonth(history.MonthAt(month))));
    BalanceSheet b;
    b.net_assets = net_assets;

    const std::int64_t liabilities =
        Share(net_assets, p.liabilities_ppm + rng.Between(0, p.liabilities_ppm / 4));
    const std::int64_t derivative_liabilities = p.derivatives_ppm > 0 ? Share(liabilities, 200'000) : 0;
    b.derivative_liabilities[3] = derivative_liabilities;  // swaps
    const std::int64_t payables = liabilities - derivative_liabilities;
    b.payables_long = Share(payables, p.long_payables_ppm);
    b.payables_short = payables - b.payables_long;
    const std::int64_t assets = net_assets + liabilities;

    b.derivatives[3] = Share(assets, p.derivatives_ppm);  // swap differentials receivable
    const std::int64_t other = Share(assets, p.other_assets_ppm);
    b.other_long = Share(other, rng.Between(0, 300'000));
    b.other_short = other - b.other_long;

    const std::int64_t portfolio = Share(assets, m.portfolio_ppm);
    std::int64_t securities = 0;
    for (std::size_t k = 0; k < kSecurityCount; ++k) {
        b.securities[k] = p.securities_ppm[k] > 0
                              ? Share(assets, p.securities_ppm[k] + rng.Between(-p.securities_ppm[k] / 10,
                                                                                p.securities_ppm[k] / 10))
                              : 0;
        securities += b.securities[k];
    }
    std::int64_t receivables_net = portfolio - securities;
    if (p.book == Book::kFundOfFunds || receivables_net < 0) {
        // A fund of funds holds FIDC quotas, not receivables.
        b.securities[kSecFidcQuotas] += receivables_net;
        if (b.securities[kSecFidcQuotas] < 0) {
            throw std::logic_error("securities exceed the portfolio");
        }
        receivables_net = 0;
        if (p.book == Book::kFundOfFunds) {
            // Some funds of funds hold FIDC-NP quotas (I.2.i) beside FIDC quotas (I.2.h).
            const std::int64_t np = Share(b.securities[kSecFidcQuotas], p.fidc_np_quotas_ppm);
            b.securities[kSecFidcQuotas] -= np;
            b.securities[kSecFidcNpQuotas] += np;
        }
    }

    // Gross receivables such that gross - provision = net, the provision being a share of the
    // delinquent part.
    const std::int64_t delinquency = m.delinquency_ppm;
    const std::int64_t provision_rate = Share(delinquency, p.provision_ppm);  // of gross
    const std::int64_t gross = MulDiv(receivables_net, kPpm, kPpm - provision_rate);
    const std::int64_t provision = gross - receivables_net;
    const std::int64_t gross_without = Share(gross, p.without_risk_ppm);
    const std::int64_t gross_with = gross - gross_without;
    const std::int64_t delinquent_with = std::min(
        gross_with,
        std::max(Share(gross_with, delinquency), provision > 0 && gross_without == 0 ? provision : 0));
    const std::int64_t delinquent_without = std::min(gross_without, Share(gross_without, delinquency));
    const std::array<std::int64_t, 2> provision_weights{delinquent_with, delinquent_without};
    const std::vector<std::int64_t> provisions = Allocate(provision, provision_weights);
    FillBook(b.with_risk, gross_with, delinquent_with, provisions[0], p, rng);
    FillBook(b.without_risk, gross_without, delinquent_without, provisions[1], p, rng);

    CopyInto(Allocate(gross, p.segment_weights), b.segments);

    b.cash = assets - b.Portfolio() - b.Derivatives() - b.other_short - b.other_long;
    if (b.cash < 0) {
        throw std::logic_error("negative cash in the sample balance sheet");
    }
    return b;
}

}  // namespace lastro::funds::sample
