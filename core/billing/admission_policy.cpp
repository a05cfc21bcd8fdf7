#include "core/billing/admission_policy.hpp"

namespace lastro::billing {

std::unique_ptr<AdmissionPolicy> MakeAdmissionPolicy(const LedgerWriterOptions& options,
                                                     BatchConnection& connection,
                                                     std::function<void(const Reservation&)> write_later) {
    if (options.decide_in_process) {
        return ProcessDecides(options, connection, std::move(write_later));
    }
    if (options.leases && connection.Database().id() == odb::id_pgsql) {
        return LeasedDecides(options, connection, std::move(write_later));
    }
    return DatabaseDecides(options, connection);
}

}  // namespace lastro::billing
