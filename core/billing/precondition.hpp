// A settlement's precondition: "settle this call only while that version still reads the
// same". The part that answered the call from memory names what its answer depended on; the
// ledger writer checks it in the call's batch (ledger_writer.hpp) without knowing what it is.
#pragma once

#include <odb/connection.hxx>

#include <cstdint>

namespace lastro::billing {

// A version that something outside billing keeps (for the answering part: the newest data
// release, which its answers from memory depend on). Billing knows nothing of what it is: the
// ledger writer reads it on its own connection, once per batch for every settlement that names
// it, so a check costs no wait of its own (docs/billing.md, "Settled only if").
class VersionSource {
public:
    virtual ~VersionSource() = default;
    // The version now, read on the writer's `connection` (outside any transaction). Throws when
    // it cannot be read: the settlements that name it are then answered 503, unwritten.
    virtual std::int64_t Current(odb::connection& connection) = 0;
};

// "Settle only while `source` still reads `version`." `source` outlives the ledger writer.
struct Precondition {
    VersionSource* source = nullptr;
    std::int64_t version = 0;
};

}  // namespace lastro::billing
