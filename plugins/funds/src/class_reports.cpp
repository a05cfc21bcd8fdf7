#include "src/class_reports.hpp"

#include "funds_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/remembered.hpp>
#include <lastro/sdk/text.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace lastro::funds {

namespace {

using ReportQuery = odb::query<FidcReport>;

// Rank of a report in the class's preference order (lower is preferred): the CNPJ's place in
// filing_cnpjs, then the filer type. Without a Classe row the ingester may keep both a Fundo
// report and one whose type CVM left blank (docs/datasets/inf_mensal_fidc.md); Fundo wins.
template <typename Report>
std::size_t Preference(const ClassRef& ref, const Report& report) {
    auto it = std::find(ref.filing_cnpjs.begin(), ref.filing_cnpjs.end(), report.cnpj);
    const std::string type_folded = report.filer_type ? sdk::FoldForSearch(*report.filer_type) : "";
    const std::size_t type = type_folded == "classe" ? 0 : type_folded == "fundo" ? 1 : 2;
    return static_cast<std::size_t>(it - ref.filing_cnpjs.begin()) * 3 + type;
}

// Every report of one CNPJ in [from, to] (inclusive "YYYY-MM" bounds), newest first: one
// prepared statement per connection, run once per filing CNPJ (a class has one or two).
struct ReportsOfCnpj {
    std::string cnpj;
    std::string from;
    std::string to;
};

// Where each kind of report row is read from, and the name of its prepared statement: whole
// reports, or a report's stored quota answers (domain/rows/quota_answers.hpp), which carry its
// CNPJ, month and filer type for the same choice.
template <typename Report>
struct ReportRows {
    using Table = FidcReport;
    static constexpr const char* kStatement = "funds.reports_of_cnpj";
};
template <>
struct ReportRows<FidcReportBands> {
    using Table = FidcReport;
    static constexpr const char* kStatement = "funds.report_bands_of_cnpj";
};
template <>
struct ReportRows<FidcQuotaRowsText> {
    using Table = FidcQuotaAnswer;
    static constexpr const char* kStatement = "funds.quota_rows_of_cnpj";
};
template <>
struct ReportRows<FidcOperationRowsText> {
    using Table = FidcQuotaAnswer;
    static constexpr const char* kStatement = "funds.operation_rows_of_cnpj";
};

template <typename Report, typename Visit>
void ForEachReport(odb::database& db, const ClassRef& ref, const std::string& from, const std::string& to,
                   Visit visit) {
    using Table = odb::query<typename ReportRows<Report>::Table>;
    auto q = sdk::CachedQuery<Report, ReportsOfCnpj>(
        db, ReportRows<Report>::kStatement, [](const ReportsOfCnpj& p) {
            return odb::query<Report>((Table::cnpj == Table::_ref(p.cnpj) &&
                                       Table::month >= Table::_ref(p.from) &&
                                       Table::month <= Table::_ref(p.to)) +
                                      "ORDER BY" + Table::month + "DESC");
        });
    for (const std::string& cnpj : ref.filing_cnpjs) {
        q.params = {cnpj, from, to};
        for (Report& report : q.Execute()) {
            visit(report);
        }
    }
}

}  // namespace

ClassRef FindClass(odb::database& db, const std::string& class_id) {
    using Query = odb::query<ClassKeys>;
    struct OfClass {
        std::string class_id;
    };
    auto q = sdk::CachedQuery<ClassKeys, OfClass>(db, "funds.class_keys", [](const OfClass& p) {
        return Query(Query::FundClass::class_id == Query::_ref(p.class_id));
    });
    q.params.class_id = class_id;
    ClassKeys row;
    if (!q.ExecuteOne(row)) {
        throw sdk::NotFound("no class with class_id " + class_id + " in the registry", "class_id");
    }
    if (!row.fund_id || !row.fund_cnpj) {
        throw sdk::NotFound("the fund of class " + class_id + " is not in the registry", "class_id");
    }
    ClassRef ref;
    ref.class_id = std::move(row.class_id);
    ref.fund_id = std::move(*row.fund_id);
    ref.cnpj = std::move(row.cnpj);
    ref.fund_cnpj = std::move(*row.fund_cnpj);
    ref.only_class = row.class_count == 1;
    ref.filing_cnpjs = FilingCnpjs(ref.cnpj, ref.fund_cnpj, ref.only_class);
    return ref;
}

namespace {

// The classes calls found and each one's latest month reported: data that changes only with an
// ingest, kept per release (sdk::Remembered) and filled as classes are asked, so that a class
// asked again costs no read (docs/performance.md, "Thirteenth round"). Only classes the
// registry has are kept: at most the registry's size, whatever ids are asked.
class KnownClasses {
public:
    struct Known {
        ClassRef ref;
        std::optional<std::optional<std::string>> latest_month;  // once read
    };

    std::optional<Known> Find(const std::string& class_id) const {
        std::lock_guard lock(mutex_);
        auto it = classes_.find(class_id);
        return it == classes_.end() ? std::nullopt : std::optional<Known>(it->second);
    }
    void Add(const ClassRef& ref) const {
        std::lock_guard lock(mutex_);
        classes_.try_emplace(ref.class_id, Known{ref, std::nullopt});
    }
    void SetLatestMonth(const std::string& class_id, const std::optional<std::string>& month) const {
        std::lock_guard lock(mutex_);
        if (auto it = classes_.find(class_id); it != classes_.end()) {
            it->second.latest_month = month;
        }
    }

private:
    mutable std::mutex mutex_;
    mutable std::unordered_map<std::string, Known> classes_;
};

std::shared_ptr<const KnownClasses> Known(const sdk::Host& host) {
    return sdk::Remembered<KnownClasses>(host, "funds.known_classes",
                                         [] { return std::make_shared<const KnownClasses>(); });
}

std::optional<std::string> LatestMonthOfCnpjs(odb::database& db, const ClassRef& ref) {
    // max(month) of one CNPJ: read from the (cnpj, month) index, no report row.
    struct Latest {
        std::string cnpj;
    };
    auto q = sdk::CachedQuery<FidcLatestMonth, Latest>(db, "funds.latest_month_of_cnpj", [](const Latest& p) {
        return odb::query<FidcLatestMonth>(ReportQuery::cnpj == ReportQuery::_ref(p.cnpj));
    });
    std::optional<std::string> latest;
    for (const std::string& cnpj : ref.filing_cnpjs) {
        q.params.cnpj = cnpj;
        FidcLatestMonth row;
        if (q.ExecuteOne(row) && row.month && (!latest || *row.month > *latest)) {
            latest = row.month;
        }
    }
    return latest;
}

}  // namespace

ClassRef FindClass(const sdk::RequestContext& context, const std::string& class_id) {
    const std::shared_ptr<const KnownClasses> known = Known(context.host);
    if (std::optional<KnownClasses::Known> found = known->Find(class_id)) {
        return std::move(found->ref);
    }
    ClassRef ref = FindClass(context.db, class_id);
    known->Add(ref);
    return ref;
}

std::optional<sdk::Month> LatestReportedMonth(const sdk::RequestContext& context, const ClassRef& ref) {
    const std::shared_ptr<const KnownClasses> known = Known(context.host);
    std::optional<std::string> latest;
    if (std::optional<KnownClasses::Known> found = known->Find(ref.class_id); found && found->latest_month) {
        latest = *found->latest_month;
    } else {
        latest = LatestMonthOfCnpjs(context.db, ref);
        known->SetLatestMonth(ref.class_id, latest);
    }
    return latest ? sdk::Month::Parse(*latest) : std::nullopt;
}

std::vector<std::string> FilingCnpjs(const std::optional<std::string>& class_cnpj,
                                     const std::string& fund_cnpj, bool only_class) {
    std::vector<std::string> cnpjs;
    if (class_cnpj) {
        cnpjs.push_back(*class_cnpj);
    }
    if (only_class && std::find(cnpjs.begin(), cnpjs.end(), fund_cnpj) == cnpjs.end()) {
        cnpjs.push_back(fund_cnpj);
    }
    return cnpjs;
}

template <typename Report>
std::optional<Report> ReportOf(odb::database& db, const ClassRef& ref, const sdk::Month& month) {
    if (ref.filing_cnpjs.empty()) {
        return std::nullopt;
    }
    std::optional<Report> best;
    const std::string text = month.ToString();
    ForEachReport<Report>(db, ref, text, text, [&](Report& report) {
        if (!best || Preference(ref, report) < Preference(ref, *best)) {
            best = std::move(report);
        }
    });
    return best;
}

template std::optional<FidcReport> ReportOf(odb::database&, const ClassRef&, const sdk::Month&);
template std::optional<FidcReportBands> ReportOf(odb::database&, const ClassRef&, const sdk::Month&);

template <typename Report>
std::vector<Report> ReportsBetween(odb::database& db, const ClassRef& ref,
                                   const std::optional<sdk::Month>& from,
                                   const std::optional<sdk::Month>& to) {
    std::vector<Report> out;
    if (ref.filing_cnpjs.empty()) {
        return out;
    }
    std::map<std::string, Report> by_month;
    ForEachReport<Report>(db, ref, from ? from->ToString() : kFirstMonth, to ? to->ToString() : kLastMonth,
                          [&](Report& report) {
                              auto it = by_month.find(report.month);
                              if (it == by_month.end()) {
                                  by_month.emplace(report.month, std::move(report));
                              } else if (Preference(ref, report) < Preference(ref, it->second)) {
                                  it->second = std::move(report);
                              }
                          });
    out.reserve(by_month.size());
    for (auto& [month, report] : by_month) {
        out.push_back(std::move(report));
    }
    return out;
}

template std::vector<FidcReport> ReportsBetween(odb::database&, const ClassRef&,
                                                const std::optional<sdk::Month>&,
                                                const std::optional<sdk::Month>&);
template std::vector<FidcQuotaRowsText> ReportsBetween(odb::database&, const ClassRef&,
                                                       const std::optional<sdk::Month>&,
                                                       const std::optional<sdk::Month>&);
template std::vector<FidcOperationRowsText> ReportsBetween(odb::database&, const ClassRef&,
                                                           const std::optional<sdk::Month>&,
                                                           const std::optional<sdk::Month>&);

std::optional<sdk::Month> LatestReportedMonth(odb::database& db, const ClassRef& ref) {
    const std::optional<std::string> latest = LatestMonthOfCnpjs(db, ref);
    return latest ? sdk::Month::Parse(*latest) : std::nullopt;
}

void RequireOrderedRange(const std::optional<sdk::Month>& from, const std::optional<sdk::Month>& to) {
    if (from && to && *to < *from) {
        throw sdk::BadRequest("'from' (" + from->ToString() + ") is after 'to' (" + to->ToString() + ")",
                              "from");
    }
}

void LoadReportDocuments(odb::database& db, FidcReport& report) {
    using Query = odb::query<FidcReportDocuments>;
    struct OfReport {
        std::int64_t id = 0;
    };
    auto q = sdk::CachedQuery<FidcReportDocuments, OfReport>(
        db, "funds.report_documents", [](const OfReport& p) { return Query::id == Query::_ref(p.id); });
    q.params.id = report.id;
    FidcReportDocuments documents;
    if (!q.ExecuteOne(documents)) {
        throw std::logic_error("FIDC report " + std::to_string(report.id) + " vanished while being read");
    }
    report.segments_json = std::move(documents.segments_json);
    report.bands_json = std::move(documents.bands_json);
    report.published_json = std::move(documents.published_json);
}

}  // namespace lastro::funds
