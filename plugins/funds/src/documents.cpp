#include "src/documents.hpp"

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/query_params.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace lastro::funds {

namespace {

using DocumentQuery = odb::query<FundDocument>;

struct DocumentFilters {
    std::optional<std::string> document_type;  // folded
    std::optional<std::int64_t> start_year;
    std::optional<std::int64_t> end_year;
    sdk::OffsetPage page;
};

DocumentFilters ReadFilters(const sdk::Params& params) {
    DocumentFilters filters;
    if (auto type = params.String("document_type")) {
        std::string folded = FoldedText(*type);
        if (folded.empty()) {
            throw sdk::InvalidParameter("document_type", "document_type is blank");
        }
        filters.document_type = std::move(folded);
    }
    filters.start_year = params.Integer("start_year");
    filters.end_year = params.Integer("end_year");
    if (filters.start_year && filters.end_year && *filters.start_year > *filters.end_year) {
        throw sdk::BadRequest("'start_year' (" + std::to_string(*filters.start_year) +
                                  ") is after 'end_year' (" + std::to_string(*filters.end_year) + ")",
                              "start_year");
    }
    filters.page = sdk::ReadOffsetPage(params, 50);
    return filters;
}

// TP_DOC or its slug, ignoring case and accents, whole value.
bool TypeMatches(const FundDocument& document, const std::string& folded) {
    return FoldedText(document.document_type) == folded || FoldedText(document.document_type_slug) == folded;
}

// Newest first with missing dates last (the same on every backend), then the id.
bool NewestFirst(const FundDocument& a, const FundDocument& b) {
    if (a.document_date != b.document_date) {
        return a.document_date.has_value() && (!b.document_date || *a.document_date > *b.document_date);
    }
    if (a.received_at != b.received_at) {
        return a.received_at.has_value() && (!b.received_at || *a.received_at > *b.received_at);
    }
    return a.document_id < b.document_id;
}

void WriteDocument(sdk::JsonText& json, const FundDocument& d, const char* scope) {
    json.BeginObject();
    json.Key("document_id").Value(d.document_id);
    json.Key("scope").Value(scope);
    json.Key("document_type").Value(d.document_type);
    json.Key("document_type_slug").Value(d.document_type_slug);
    json.Key("category").Value(d.category);
    json.Key("document_date").Value(d.document_date);
    json.Key("received_at").Value(d.received_at);
    json.Key("reference_year").Value(d.reference_year);
    json.Key("file_name").Value(d.file_name);
    json.Key("source_url").Value(d.source_url);
    json.Key("audit_result").Value(d.audit_result);
    json.Key("subclass_code").Value(d.subclass_code);
    json.EndObject();
}

}  // namespace

sdk::Result HandleClassDocuments(const sdk::RequestContext& context) {
    const DocumentFilters filters = ReadFilters(context.params);
    const ClassRef ref = FindClass(context, context.params.String("class_id").value_or(""));
    const std::optional<std::string>& class_cnpj = ref.cnpj;

    // The class's own filings and its fund's (a fund files under its CNPJ whatever its classes),
    // asked with one statement text whatever the filters (the fund's CNPJ twice when the class
    // has none of its own), so that it is prepared once per connection. The year and type
    // filters run here: a class files hundreds of documents at most.
    struct OfCnpjs {
        sdk::KeyList<std::string, 2> cnpjs;  // the fund's, the class's own
    };
    // An IN list, not `cnpj = $1 OR cnpj = $2`, which PostgreSQL plans anew on every call (its
    // plan for the values, with both equal, looks cheaper than the one it would keep).
    auto q = sdk::CachedQuery<FundDocument, OfCnpjs>(
        context.db, "funds.documents_of_cnpjs",
        [](const OfCnpjs& p) { return sdk::InKeys(DocumentQuery::cnpj, p.cnpjs, 2); });
    q.params.cnpjs.keys = {ref.fund_cnpj, class_cnpj.value_or(ref.fund_cnpj)};
    const auto in_years = [&](const FundDocument& document) {
        const auto& year = document.reference_year;
        return (!filters.start_year || (year && *year >= *filters.start_year)) &&
               (!filters.end_year || (year && *year <= *filters.end_year));
    };
    std::vector<FundDocument> documents;
    for (const FundDocument& document : q.Execute()) {
        if (in_years(document) && (!filters.document_type || TypeMatches(document, *filters.document_type))) {
            documents.push_back(document);
        }
    }
    std::sort(documents.begin(), documents.end(), NewestFirst);

    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kDocumentsDataset, kRegistryDataset});
    // Written as text: building a boost::json tree of the page first cost more than writing it.
    sdk::JsonText json;
    json.BeginArray();
    const auto page = sdk::OffsetSlice(documents, filters.page, result.meta);
    result.meta.row_count = page.size();
    for (const FundDocument& document : page) {
        WriteDocument(json, document, class_cnpj && document.cnpj == *class_cnpj ? "class" : "fund");
    }
    json.EndArray();
    result.data_json = json.Take();
    return result;
}

}  // namespace lastro::funds
