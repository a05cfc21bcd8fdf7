// Fuzz target: the stocks plugin's readers of B3's five JSON answers
// (plugins/stocks/domain/b3_json/b3_json.cpp, through lastro-stocks-objs) and the event model they
// feed. Byte 0 picks the reader (GetListedCashDividends, GetListedSupplementCompany,
// GetDetailsCompany, GetStockIndex, GetTheoricalPortfolio) and the chunk size; the rest is the
// answer. Only IngestError may come out. An accepted answer must keep the readers' promises:
// every parsed decimal is the digits of its published text with a point, every text non-blank
// UTF-8... and cash and supplement answers must build events with distinct ids and factors > 0.
#include "fuzz_support.hpp"

#include "domain/b3_json/b3_json.hpp"
#include "domain/corporate_actions/corporate_actions.hpp"

#include <lastro/sdk/problem.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

using namespace lastro;

namespace {

constexpr const char* kTarget = "b3_json_reader";

[[noreturn]] void Broken(const std::string& what) {
    std::fprintf(stderr, "%s: %s\n", kTarget, what.c_str());
    std::abort();
}

// A parsed decimal must read back from its own decimal text and keep only digits, '-' and '.'.
void ExpectDecimal(const std::optional<stocks::PtBrDecimal>& decimal, const char* what) {
    if (!decimal) {
        return;
    }
    const std::optional<stocks::PtBrDecimal> again = stocks::ParsePtBrDecimal(decimal->published);
    if (!again || again->decimal != decimal->decimal || !std::isfinite(decimal->value)) {
        Broken(std::string(what) + ": published text does not read back to " + decimal->decimal);
    }
    for (char c : decimal->decimal) {
        if (!(c == '-' || c == '.' || (c >= '0' && c <= '9'))) {
            Broken(std::string(what) + ": decimal text " + decimal->decimal);
        }
    }
}

void ExpectEvents(const std::vector<stocks::CorporateEvent>& events) {
    std::set<std::string> ids;
    for (const stocks::CorporateEvent& e : events) {
        if (!ids.insert(e.id).second) {
            Broken("two events with id " + e.id + " (key " + e.key + ")");
        }
        if (e.price_factor && !(*e.price_factor > 0 && std::isfinite(*e.price_factor))) {
            Broken("price factor not positive for " + e.key);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::uint8_t control = data[0];
    fuzz::MemorySource source(data + 1, size - 1, 1 + (control >> 3) * 97, "answer.json");
    fuzz::ExpectOnly<sdk::IngestError>(kTarget, [&] {
        switch (control % 5) {
            case 0: {
                const stocks::CashDividendsAnswer answer = stocks::ReadCashDividends(source);
                for (const auto& r : answer.records) {
                    fuzz::ExpectText(kTarget, 0, r.type_stock, "typeStock");
                    ExpectDecimal(r.value_cash, "valueCash");
                    ExpectDecimal(r.corporate_action_price, "corporateActionPrice");
                    if (r.corporate_action.empty()) {
                        Broken("a record without corporateAction accepted");
                    }
                }
                ExpectEvents(stocks::BuildIssuerEvents("FUZZ", &answer, nullptr));
                break;
            }
            case 1: {
                const stocks::SupplementAnswer answer = stocks::ReadSupplement(source);
                ExpectDecimal(answer.common_shares, "numberCommonShares");
                for (const auto& r : answer.cash) {
                    ExpectDecimal(r.rate, "rate");
                }
                for (const auto& r : answer.stock) {
                    ExpectDecimal(r.factor, "factor");
                }
                ExpectEvents(stocks::BuildIssuerEvents("FUZZ", nullptr, &answer));
                break;
            }
            case 2: {
                const stocks::DetailsAnswer answer = stocks::ReadDetails(source);
                fuzz::ExpectText(kTarget, 0, answer.industry_classification, "industryClassification");
                if (answer.industry_classification) {
                    stocks::SplitIndustryClassification(*answer.industry_classification);
                }
                break;
            }
            case 3: {
                const stocks::StockIndexAnswer answer = stocks::ReadStockIndex(source);
                for (const auto& r : answer.records) {
                    for (const std::string& index : r.indexes) {
                        if (index.empty()) {
                            Broken("an empty index kept");
                        }
                    }
                }
                break;
            }
            default: {
                const stocks::PortfolioAnswer answer = stocks::ReadTheoricalPortfolio(source);
                for (const auto& r : answer.records) {
                    ExpectDecimal(r.theoretical_quantity, "theoricalQty");
                    ExpectDecimal(r.part, "part");
                }
                break;
            }
        }
    });
    return 0;
}
