#include "core/admission/admission_gate.hpp"

#include <algorithm>

namespace lastro::admission {

Decision AdmissionGate::Admit(const std::string& request_id, const auth::Caller& caller,
                              const std::string& operation, std::int64_t price, std::time_t now) {
    Decision decision;
    billing::Admission admission;
    try {
        admission = ledger_.Admit(billing::AdmissionRequest{request_id, caller.principal.key_id, operation,
                                                            price, caller.allowance, caller.per_minute, now});
    } catch (const billing::BillingUnavailable& e) {
        decision.refusal = request::Unavailable(e.what());
        return decision;
    }
    decision.rate = admission.rate;
    decision.credits = admission.credits;
    if (!admission.rate.allowed) {
        request::Refusal r{429, "per-minute rate limit of " + std::to_string(caller.per_minute) +
                                    " calls reached for this key; retry after the window resets"};
        r.With("Retry-After", std::to_string(std::max<std::time_t>(1, admission.rate.reset_at - now)));
        decision.refusal = std::move(r);
    } else if (!admission.reserved) {
        decision.refusal = request::Refusal{
            429, "the monthly allowance of " + std::to_string(caller.allowance) + " credits cannot cover " +
                     std::to_string(price) + " more; it resets at the start of the next month (UTC)"};
    } else {
        decision.reservation = admission.reservation;
    }
    return decision;
}

}  // namespace lastro::admission
