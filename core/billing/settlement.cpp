#include "core/billing/settlement.hpp"

namespace lastro::billing {

Settlement SettlementFor(int status) {
    // Refunded: not modified (304: the client holds the answer), invalid parameters (400, 422),
    // access refused (403), platform failures (5xx).
    if (status == 304 || status == 400 || status == 422 || status == 403 || status >= 500) {
        return Settlement::kRefund;
    }
    // Charged: success and every other error after reservation (404 in particular).
    return Settlement::kCharge;
}

}  // namespace lastro::billing
