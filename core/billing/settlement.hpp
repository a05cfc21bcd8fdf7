// The credit state machine of contract section 3, in one place.
//   none --call, credits sufficient--> reserved --2xx, 404 and other non-refunded errors--> charged
//   none --credits insufficient--> none (429)          reserved --400, 422, 403, 5xx--> refunded
#pragma once

namespace lastro::billing {

enum class Settlement { kCharge, kRefund };

// What happens to a reservation when the call ends with HTTP `status`.
Settlement SettlementFor(int status);

}  // namespace lastro::billing
