#include "domain/documents/document_rules.hpp"

#include <lastro/sdk/ingest/snapshot.hpp>

namespace lastro::companies {

std::uint64_t DocumentFingerprint(const DocumentRecord& r) {
    sdk::Fingerprint fingerprint;
    fingerprint << r.protocol << r.version << r.cvm_code << r.cnpj.published << r.company_name
                << r.reference_date << r.delivered_at << r.category << r.type << r.species << r.subject
                << r.presentation << r.link;
    return fingerprint.Value();
}

}  // namespace lastro::companies
