// Test support for the endpoints over the FIDC monthly report (cotas, cotas/operacoes,
// inadimplencia/faixas, snapshot, screening): registry funds and classes and the ingester's
// rows (FidcReport, FidcSeries, FidcQuotaOperation) persisted straight into the real test
// database, so each test states exactly the values it checks. Parameters, the host with
// releases and the manifest shape check come from class_data_fixture.hpp.
#pragma once

#include "class_data_fixture.hpp"
#include "domain/fidc/fidc_series_label.hpp"
#include "domain/registry/registry_rules.hpp"
#include "domain/rows/positive_segments.hpp"
#include "domain/rows/quota_answers.hpp"

#include <lastro/sdk/calendar.hpp>

#include <gtest/gtest.h>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace lastro::funds::testing {

// The registry of these tests (CNPJs with valid check digits):
//   fund 1001 FIDC "FIDC ALFA CRÉDITO", CNPJ kAlfaCnpj, two classes:
//        2001 (CNPJ kAlfaCnpj, the fund's) and 2002 (CNPJ kAlfaMezzCnpj)
//   fund 1002 FIDC-NP "FIDC NP GAMA", CNPJ kGamaFundCnpj, only class 2003 (CNPJ kGamaClassCnpj):
//        its filings under the fund's CNPJ are the class's
//   fund 1003 "FIC FIDC" (spelt so) "FIC DELTA", cancelled, only class 2004 (the fund's CNPJ)
//   fund 1004 FI (outside the FIDC universe), only class 2005 (the fund's CNPJ)
//   fund 1005 FIDC "FIDC MULTI", CNPJ kMultiCnpj, classes 2006 (kMultiSeniorCnpj) and 2007 (no CNPJ)
//   fund 1006 FIDC without classes, CNPJ kClasslessCnpj
inline constexpr const char* kAlfaCnpj = "12345678000195";
inline constexpr const char* kAlfaMezzCnpj = "77777777000191";
inline constexpr const char* kGamaFundCnpj = "33333333000191";
inline constexpr const char* kGamaClassCnpj = "22233344000183";
inline constexpr const char* kDeltaCnpj = "44444444000191";
inline constexpr const char* kEpsilonCnpj = "55555555000191";
inline constexpr const char* kMultiCnpj = "11122233000183";
inline constexpr const char* kMultiSeniorCnpj = "33344455000183";
inline constexpr const char* kClasslessCnpj = "66666666000191";
inline constexpr const char* kUnknownCnpj = "88899900000163";

// A registry fund as the registry ingester writes it (folded columns, universe flag).
inline Fund RegistryFund(const std::string& registry_id, const std::string& cnpj,
                         const std::string& fund_type, const std::string& name, const std::string& manager,
                         const std::string& administrator, const std::string& status) {
    Fund fund;
    fund.fund_id = FundIdFor(registry_id);
    fund.registry_id = std::stoll(registry_id);
    fund.cnpj = cnpj;
    fund.name = name;
    fund.fund_type = fund_type;
    fund.status = status;
    fund.status_folded = Folded(fund.status);
    fund.manager = manager;
    fund.manager_folded = Folded(fund.manager);
    fund.administrator = administrator;
    fund.administrator_folded = Folded(fund.administrator);
    fund.search_text = FundSearchText(fund.name, fund.cnpj, fund.manager, fund.administrator);
    fund.fidc_universe = IsFidcUniverse(fund_type);
    return fund;
}

inline FundClass RegistryClass(const std::string& registry_id, const std::string& fund_registry_id,
                               const std::optional<std::string>& cnpj, const std::string& name) {
    FundClass fund_class;
    fund_class.class_id = ClassIdFor(registry_id);
    fund_class.fund_id = FundIdFor(fund_registry_id);
    fund_class.registry_id = std::stoll(registry_id);
    fund_class.fund_registry_id = std::stoll(fund_registry_id);
    fund_class.cnpj = cnpj;
    fund_class.name = name;
    fund_class.status = "Em Funcionamento Normal";
    return fund_class;
}

// A report with only its keys: every number empty, as for a filing with blank tables.
inline FidcReport MonthlyReport(const std::string& cnpj, const std::string& month) {
    const sdk::Month m = MonthOf(month);
    FidcReport report;
    report.cnpj = cnpj;
    report.month = month;
    report.reference_date = month + "-" + std::to_string(sdk::DaysInMonth(m.year, m.month));
    report.filer_type = "Classe";
    report.layout = "fundo_classe";
    report.published_json = "{}";
    return report;
}

// A series of table X as the ingester keys it (folded label, parsed seniority).
inline FidcSeries QuotaSeries(const std::string& label, std::optional<double> quota_count,
                              std::optional<double> quota_value) {
    FidcSeries series;
    series.label = label;
    series.series_key = FoldLabel(label);
    series.seniority = std::string(SeniorityOf(label));
    series.quota_count = quota_count;
    series.quota_value = quota_value;
    return series;
}

// One X_4 row; the kind is read from the published operation type, as the ingester does. Its
// columns are read as published (an amortization's other readings: AmortizationRead).
inline FidcQuotaOperation QuotaOperation(const std::string& series_label, const std::string& published_kind,
                                         std::optional<double> value, std::optional<double> quota_count) {
    FidcQuotaOperation operation;
    operation.series_label = series_label;
    operation.series_key = FoldLabel(series_label);
    operation.published_kind = published_kind;
    operation.kind = std::string(OperationKindOf(published_kind));
    operation.value = value;
    operation.quota_count = quota_count;
    operation.reading = "as_published";
    operation.value_brl = value;
    return operation;
}

// An amortization row with the reading the ingester decided and the BRL amount it read.
inline FidcQuotaOperation AmortizationRead(const std::string& series_label, std::optional<double> value,
                                           std::optional<double> quota_count,
                                           std::optional<std::string> reading,
                                           std::optional<double> value_brl) {
    FidcQuotaOperation operation = QuotaOperation(series_label, "Amortizações", value, quota_count);
    operation.reading = std::move(reading);
    operation.value_brl = value_brl;
    return operation;
}

// A real database holding the registry above; each test adds the monthly rows it needs.
class FidcReportTest : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string normal = "Em Funcionamento Normal";
        Persist(RegistryFund("1001", kAlfaCnpj, "FIDC", "FIDC ALFA CRÉDITO", "GESTORA AÇÃO LTDA",
                             "ADMINISTRADORA BETA S.A.", normal));
        Persist(RegistryClass("2001", "1001", std::string(kAlfaCnpj), "CLASSE SÊNIOR ALFA"));
        Persist(RegistryClass("2002", "1001", std::string(kAlfaMezzCnpj), "CLASSE MEZANINO ALFA"));
        Persist(RegistryFund("1002", kGamaFundCnpj, "FIDC-NP", "FIDC NP GAMA", "Gestora Ômega",
                             "ADMINISTRADORA BETA S.A.", normal));
        Persist(RegistryClass("2003", "1002", std::string(kGamaClassCnpj), "CLASSE ÚNICA GAMA"));
        Persist(RegistryFund("1003", kDeltaCnpj, "FIC FIDC", "FIC DELTA", "GESTORA ZETA",
                             "ADMINISTRADORA ZETA", "Cancelado"));
        Persist(RegistryClass("2004", "1003", std::string(kDeltaCnpj), "CLASSE DELTA"));
        Persist(RegistryFund("1004", kEpsilonCnpj, "FI", "FI EPSILON", "GESTORA AÇÃO LTDA",
                             "ADMINISTRADORA BETA S.A.", normal));
        Persist(RegistryClass("2005", "1004", std::string(kEpsilonCnpj), "CLASSE EPSILON"));
        Persist(RegistryFund("1005", kMultiCnpj, "FIDC", "FIDC MULTI", "GESTORA MULTI",
                             "ADMINISTRADORA MULTI", normal));
        Persist(RegistryClass("2006", "1005", std::string(kMultiSeniorCnpj), "CLASSE SÊNIOR MULTI"));
        Persist(RegistryClass("2007", "1005", std::nullopt, "CLASSE SEM CNPJ MULTI"));
        Persist(RegistryFund("1006", kClasslessCnpj, "FIDC", "FIDC SEM CLASSES", "GESTORA", "ADMINISTRADORA",
                             normal));
    }

    odb::database& Db() { return database_.Db(); }

    template <typename T>
    void Persist(T& row) {
        odb::transaction transaction(Db().begin());
        Db().persist(row);
        if constexpr (std::is_same_v<T, FidcReport>) {
            // The ingester writes a report's positive segments with it
            // (domain/rows/positive_segments.hpp).
            if (auto segments = PositiveSegmentsOf(row.id, row.segments_json)) {
                Db().persist(*segments);
            }
        }
        transaction.commit();
    }
    template <typename T>
    void Persist(T&& row) {
        T copy = std::move(row);
        Persist(copy);
    }

    // Persists `report` and returns it with its id.
    FidcReport AddReport(FidcReport report) {
        Persist(report);
        answers_stale_ = true;
        return report;
    }
    void AddSeries(const FidcReport& report, FidcSeries series) {
        series.report_id = report.id;
        series.cnpj = report.cnpj;
        series.month = report.month;
        Persist(series);
        answers_stale_ = true;
    }
    void AddOperation(const FidcReport& report, FidcQuotaOperation operation) {
        operation.report_id = report.id;
        operation.cnpj = report.cnpj;
        operation.month = report.month;
        Persist(operation);
        answers_stale_ = true;
    }

    sdk::Result Run(const sdk::Handler& handler, const std::vector<Param>& params,
                    const std::optional<boost::json::value>& position = std::nullopt) {
        if (answers_stale_) {
            // Rows persisted here skip the ingester, which writes each report's stored quota
            // answers as it saves it: written as the migration to funds 9 writes them.
            odb::transaction transaction(Db().begin());
            RebuildQuotaAnswers(Db());
            transaction.commit();
            answers_stale_ = false;
        }
        return Call(handler, Db(), ParamsOf(params), position, host_);
    }

    FundsDatabase database_;
    bool answers_stale_ = false;
    sdk::testing::FakeHost host_ = ClassDataHost();
};

}  // namespace lastro::funds::testing
