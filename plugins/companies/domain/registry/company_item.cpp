#include "domain/registry/company_item.hpp"

#include <lastro/sdk/serving/json_text.hpp>

namespace lastro::companies {

namespace {

void WriteDocument(sdk::JsonText& json, const sdk::DocumentCell& cell) {
    json.Key("cnpj").Value(cell.cnpj);
    json.Key("cnpj_published").Value(cell.published.empty() ? std::nullopt : std::optional(cell.published));
    json.Key("cnpj_kind").Value(sdk::DocumentKindName(cell.kind));
}

void WriteAddress(sdk::JsonText& json, const PostalAddress& a) {
    json.BeginObject();
    json.Key("street").Value(a.street);
    json.Key("complement").Value(a.complement);
    json.Key("district").Value(a.district);
    json.Key("city").Value(a.city);
    json.Key("state").Value(a.state);
    json.Key("country").Value(a.country);
    json.Key("postal_code").Value(a.postal_code);
    json.Key("postal_code_published").Value(a.postal_code_published);
    json.Key("phone_area_code").Value(a.phone_area);
    json.Key("phone").Value(a.phone);
    json.Key("fax_area_code").Value(a.fax_area);
    json.Key("fax").Value(a.fax);
    json.Key("email").Value(a.email);
    json.EndObject();
}

}  // namespace

std::string CompanyItemJson(const CompanyRecord& r, const std::vector<SituationSeen>& history,
                            const ItemStamps& stamps) {
    sdk::JsonText json;
    json.BeginObject();
    json.Key("cvm_code").Value(r.cvm_code);
    WriteDocument(json, r.cnpj);
    json.Key("legal_name").Value(r.legal_name);
    json.Key("trade_name").Value(r.trade_name);
    json.Key("registered_at").Value(r.registered_at);
    json.Key("constituted_at").Value(r.constituted_at);
    json.Key("cancelled_at").Value(r.cancelled_at);
    json.Key("cancel_reason").Value(r.cancel_reason);
    json.Key("situation").Value(r.situation);
    json.Key("situation_since").Value(r.situation_since);
    json.Key("situation_history").BeginArray();
    for (const SituationSeen& seen : history) {
        json.BeginObject();
        json.Key("situation").Value(seen.situation);
        json.Key("since").Value(seen.since);
        json.Key("first_seen_at").Value(seen.first_seen_at);
        json.EndObject();
    }
    json.EndArray();
    json.Key("sector").Value(r.sector);
    json.Key("market").Value(r.market);
    json.Key("category").Value(r.category);
    json.Key("category_since").Value(r.category_since);
    json.Key("issuer_phase").Value(r.issuer_phase);
    json.Key("issuer_phase_since").Value(r.issuer_phase_since);
    json.Key("control").Value(r.control);
    json.Key("address_type").Value(r.address_type);
    json.Key("address");
    WriteAddress(json, r.address);
    json.Key("investor_relations").BeginObject();
    json.Key("role").Value(r.officer_role);
    json.Key("name").Value(r.officer_name);
    json.Key("since").Value(r.officer_since);
    json.Key("address");
    WriteAddress(json, r.officer_address);
    json.EndObject();
    json.Key("auditor").BeginObject();
    WriteDocument(json, r.auditor_cnpj);
    json.Key("name").Value(r.auditor_name);
    json.EndObject();
    json.Key("first_seen_at").Value(stamps.first_seen_at);
    json.Key("updated_at").Value(stamps.updated_at);
    json.EndObject();
    return json.Take();
}

}  // namespace lastro::companies
