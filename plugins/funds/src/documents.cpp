#include "src/documents.hpp"

#include "funds_model-odb.hxx"
#include "ingest/registry_rules.hpp"
#include "src/class_reports.hpp"
#include "src/common.hpp"

#include <lastro/sdk/problem.hpp>

#include <boost/json/array.hpp>

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
    std::size_t limit = 50;
    std::size_t offset = 0;
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
    filters.limit = static_cast<std::size_t>(std::max<std::int64_t>(1, params.Integer("limit").value_or(50)));
    filters.offset =
        static_cast<std::size_t>(std::max<std::int64_t>(0, params.Integer("offset").value_or(0)));
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

boost::json::object DocumentItem(const FundDocument& d, const std::string& scope) {
    return {
        {"document_id", d.document_id},
        {"scope", scope},
        {"document_type", d.document_type},
        {"document_type_slug", d.document_type_slug},
        {"category", d.category},
        {"document_date", JsonOrNull(d.document_date)},
        {"received_at", JsonOrNull(d.received_at)},
        {"reference_year", JsonOrNull(d.reference_year)},
        {"file_name", JsonOrNull(d.file_name)},
        {"source_url", JsonOrNull(d.source_url)},
        {"audit_result", JsonOrNull(d.audit_result)},
        {"subclass_code", JsonOrNull(d.subclass_code)},
    };
}

boost::json::object FieldSources() {
    return {
        {"document_id", "eventual_fi.ID_DOC"},
        {"scope", "derived: class when CNPJ_FUNDO_CLASSE is the class's CNPJ, fund when it is its fund's"},
        {"document_type", "eventual_fi.TP_DOC"},
        {"document_type_slug", "derived: eventual_fi.TP_DOC folded and hyphenated"},
        {"category", "derived: eventual_fi.TP_DOC (docs/api/documents.md)"},
        {"document_date", "eventual_fi.DT_COMPTC"},
        {"received_at", "eventual_fi.DT_RECEB"},
        {"reference_year", "derived: year of eventual_fi.DT_COMPTC"},
        {"file_name", "eventual_fi.NM_ARQ"},
        {"source_url", "eventual_fi.LINK_ARQ"},
        {"audit_result", "eventual_fi.RESULTADO_AUDITORIA"},
        {"subclass_code", "eventual_fi.ID_SUBCLASSE"},
    };
}

}  // namespace

sdk::Result HandleClassDocuments(const sdk::RequestContext& context) {
    const DocumentFilters filters = ReadFilters(context.params);
    const ClassRef ref = FindClass(context.db, context.params.String("class_id").value_or(""));
    const std::optional<std::string>& class_cnpj = ref.fund_class.cnpj;

    // The class's own filings and its fund's (a fund files under its CNPJ whatever its classes).
    DocumentQuery query(DocumentQuery::cnpj == ref.fund.cnpj);
    if (class_cnpj && *class_cnpj != ref.fund.cnpj) {
        query = query || DocumentQuery::cnpj == *class_cnpj;
    }
    if (filters.start_year) {
        query = query && DocumentQuery::reference_year >= *filters.start_year;
    }
    if (filters.end_year) {
        query = query && DocumentQuery::reference_year <= *filters.end_year;
    }
    // The type filter folds both sides, so it runs here rather than in SQL; a class files
    // hundreds of documents at most.
    std::vector<FundDocument> documents;
    odb::result<FundDocument> rows(context.db.query<FundDocument>(query));
    for (const FundDocument& document : rows) {
        if (!filters.document_type || TypeMatches(document, *filters.document_type)) {
            documents.push_back(document);
        }
    }
    std::sort(documents.begin(), documents.end(), NewestFirst);

    boost::json::array data;
    const std::size_t begin = std::min(filters.offset, documents.size());
    const std::size_t end = begin + std::min(filters.limit, documents.size() - begin);
    for (std::size_t i = begin; i < end; ++i) {
        const FundDocument& document = documents[i];
        data.push_back(DocumentItem(document, class_cnpj && document.cnpj == *class_cnpj ? "class" : "fund"));
    }

    sdk::Result result;
    result.meta = DatasetMeta(context.host, kDocumentsDataset);
    result.meta.sources.push_back({"cvm", "registro_fundo_classe"});
    result.meta.extra["pagination"] = boost::json::object{
        {"limit", static_cast<std::int64_t>(filters.limit)},
        {"offset", static_cast<std::int64_t>(filters.offset)},
        {"has_more", end < documents.size()},
    };
    result.meta.extra["field_sources"] = FieldSources();
    result.data = std::move(data);
    return result;
}

}  // namespace lastro::funds
