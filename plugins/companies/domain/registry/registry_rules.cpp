#include "domain/registry/registry_rules.hpp"

#include <lastro/sdk/ingest/snapshot.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/text.hpp>

namespace lastro::companies {

namespace {

void AddAddress(sdk::Fingerprint& fingerprint, const PostalAddress& address) {
    fingerprint << address.street << address.complement << address.district << address.city << address.state
                << address.country << address.postal_code_published << address.phone_area << address.phone
                << address.fax_area << address.fax << address.email;
}

}  // namespace

std::optional<std::string> RestorePostalCode(std::string_view published) {
    std::string digits;
    for (char c : sdk::TrimBlanks(published)) {
        if (c >= '0' && c <= '9') {
            digits.push_back(c);
        } else if (c != '-') {
            return std::nullopt;
        }
    }
    if (digits.empty() || digits.size() > 8) {
        return std::nullopt;
    }
    return std::string(8 - digits.size(), '0') + digits;
}

std::string DuplicateRank(const CompanyRecord& record) {
    // ISO dates compare as text; a blank date ranks below every date.
    return record.situation_since.value_or("0000-00-00") + "|" + record.category_since.value_or("0000-00-00");
}

std::string CompanySearchText(const CompanyRecord& record) {
    std::string text = record.legal_name ? sdk::FoldForSearch(sdk::TrimBlanks(*record.legal_name)) : "";
    if (record.trade_name) {
        text += "\n" + sdk::FoldForSearch(sdk::TrimBlanks(*record.trade_name));
    }
    return text;
}

std::uint64_t RecordFingerprint(const CompanyRecord& r) {
    sdk::Fingerprint fingerprint;
    fingerprint << r.cvm_code << r.cnpj.published << r.legal_name << r.trade_name << r.registered_at
                << r.constituted_at << r.cancelled_at << r.cancel_reason << r.situation << r.situation_since
                << r.sector << r.market << r.category << r.category_since << r.issuer_phase
                << r.issuer_phase_since << r.control << r.address_type;
    AddAddress(fingerprint, r.address);
    fingerprint << r.officer_role << r.officer_name << r.officer_since;
    AddAddress(fingerprint, r.officer_address);
    fingerprint << r.auditor_cnpj.published << r.auditor_name;
    return fingerprint.Value();
}

}  // namespace lastro::companies
