#include "src/class_reports.hpp"

#include "funds_model-odb.hxx"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <map>

namespace lastro::funds {

namespace {

using ReportQuery = odb::query<FidcReport>;

// Rank of a report in the class's preference order (lower is preferred): the CNPJ's place in
// filing_cnpjs, then the filer type. Without a Classe row the ingester may keep both a Fundo
// report and one whose type CVM left blank (docs/datasets/inf_mensal_fidc.md); Fundo wins.
std::size_t Preference(const ClassRef& ref, const FidcReport& report) {
    auto it = std::find(ref.filing_cnpjs.begin(), ref.filing_cnpjs.end(), report.cnpj);
    const std::string type_folded = report.filer_type ? sdk::FoldForSearch(*report.filer_type) : "";
    const std::size_t type = type_folded == "classe" ? 0 : type_folded == "fundo" ? 1 : 2;
    return static_cast<std::size_t>(it - ref.filing_cnpjs.begin()) * 3 + type;
}

ReportQuery CnpjIn(const ClassRef& ref) {
    ReportQuery q(ReportQuery::cnpj == ref.filing_cnpjs.front());
    for (std::size_t i = 1; i < ref.filing_cnpjs.size(); ++i) {
        q = q || ReportQuery::cnpj == ref.filing_cnpjs[i];
    }
    return "(" + q + ")";
}

}  // namespace

ClassRef FindClass(odb::database& db, const std::string& class_id) {
    ClassRef ref;
    if (!db.find<FundClass>(class_id, ref.fund_class)) {
        throw sdk::NotFound("no class with class_id " + class_id + " in the registry", "class_id");
    }
    if (!db.find<Fund>(ref.fund_class.fund_id, ref.fund)) {
        throw sdk::NotFound("the fund of class " + class_id + " is not in the registry", "class_id");
    }
    using ClassQuery = odb::query<FundClass>;
    const auto siblings = db.query_value<FundClassCount>(ClassQuery::fund_id == ref.fund.fund_id);
    ref.only_class = siblings.count == 1;
    if (ref.fund_class.cnpj) {
        ref.filing_cnpjs.push_back(*ref.fund_class.cnpj);
    }
    if (ref.only_class && std::find(ref.filing_cnpjs.begin(), ref.filing_cnpjs.end(), ref.fund.cnpj) ==
                              ref.filing_cnpjs.end()) {
        ref.filing_cnpjs.push_back(ref.fund.cnpj);
    }
    return ref;
}

std::optional<FidcReport> ReportOf(odb::database& db, const ClassRef& ref, const sdk::Month& month) {
    if (ref.filing_cnpjs.empty()) {
        return std::nullopt;
    }
    std::optional<FidcReport> best;
    for (auto& report : db.query<FidcReport>(CnpjIn(ref) && ReportQuery::month == month.ToString())) {
        if (!best || Preference(ref, report) < Preference(ref, *best)) {
            best = report;
        }
    }
    return best;
}

std::vector<FidcReport> ReportsBetween(odb::database& db, const ClassRef& ref,
                                       const std::optional<sdk::Month>& from,
                                       const std::optional<sdk::Month>& to) {
    std::vector<FidcReport> out;
    if (ref.filing_cnpjs.empty()) {
        return out;
    }
    ReportQuery q = CnpjIn(ref);
    if (from) {
        q = q && ReportQuery::month >= from->ToString();
    }
    if (to) {
        q = q && ReportQuery::month <= to->ToString();
    }
    std::map<std::string, FidcReport> by_month;
    for (auto& report : db.query<FidcReport>(q)) {
        auto [it, inserted] = by_month.try_emplace(report.month, report);
        if (!inserted && Preference(ref, report) < Preference(ref, it->second)) {
            it->second = report;
        }
    }
    out.reserve(by_month.size());
    for (auto& [month, report] : by_month) {
        out.push_back(std::move(report));
    }
    return out;
}

void RequireOrderedRange(const std::optional<sdk::Month>& from, const std::optional<sdk::Month>& to) {
    if (from && to && *to < *from) {
        throw sdk::BadRequest("'from' (" + from->ToString() + ") is after 'to' (" + to->ToString() + ")",
                              "from");
    }
}

sdk::Meta DatasetMeta(const sdk::Host& host, const std::string& dataset) {
    sdk::Meta meta;
    const auto dot = dataset.find('.');
    meta.sources.push_back({dataset.substr(0, dot), dataset.substr(dot + 1)});
    if (auto release = host.LatestRelease(dataset)) {
        meta.data_release = release->label;
        meta.as_of = release->as_of;
    }
    return meta;
}

void LoadReportDocuments(odb::database& db, FidcReport& report) {
    using Query = odb::query<FidcReportDocuments>;
    FidcReportDocuments documents;
    if (!db.query_one<FidcReportDocuments>(Query::id == report.id, documents)) {
        throw std::logic_error("FIDC report " + std::to_string(report.id) + " vanished while being read");
    }
    report.segments_json = std::move(documents.segments_json);
    report.bands_json = std::move(documents.bands_json);
    report.published_json = std::move(documents.published_json);
}

}  // namespace lastro::funds
