// Persistent model of the funds plugin (the host's docs/storage.md; docs/datasets/ here):
// - version 1: CVM's RCVM 175 registry of funds, classes and subclasses
//   (registro_fundo_classe.zip, docs/api/registry.md). One row per registry entry, keyed by a
//   UUIDv5 derived from CVM's own registry id, so ids survive re-ingests and databases.
// - version 2: the FIDC monthly report (inf_mensal_fidc), the CDA portfolio (cda_fi), the fund
//   documents index (eventual_fi) and the ANBIMA-source subclasses.
// - version 3: the reading of each FIDC quota operation (FidcQuotaOperation::reading, value_brl).
// - version 4: indexes for every read of /v1/fundos (docs/performance.md, "Query plans"): the
//   FIDC universe by fund_id and by status, the registry id; and, beside the model, the text
//   index of `q`, `manager` and `administrator` (domain/search/search_index.cpp: SQLite FTS5
//   trigram table kept by triggers, PostgreSQL pg_trgm GIN indexes).
// - version 5: what /v1/screening ranks, precomputed per month (ScreeningRow, ScreeningMonth;
//   domain/rows/screening_rows.hpp), rebuilt in the transaction of every ingest that changes a
//   month's reports or the registry, and filled from the stored reports when a version 4 database
//   migrates.
// - version 6: each screening row keeps its answer's JSON text (ScreeningRow::json), written at
//   build, so a call concatenates the page's stored texts; the migration rebuilds every month's
//   rows with it.
// - version 7: an index of a report's quota columns by (cnpj, month) (funds_fidc_report_quota_i),
//   so /cotas and /cotas/operacoes read them from the index, not from rows whose JSON documents
//   spill over several pages (docs/performance.md, "Quota answers at 120 months").
// - version 8: an index of the figures carteira/fundos walks an invested class's reports for
//   (funds_fidc_report_facts_i), read from the index instead of 120 rows with their JSON documents.
// - version 9: each report's answer rows of /cotas and /cotas/operacoes as JSON text
//   (FidcQuotaAnswer, domain/rows/quota_answers.hpp), written with the report at ingest, so a call
//   joins one stored text a month; the migration writes them for the stored reports and drops
//   version 7's funds_fidc_report_quota_i, which only those routes read.
// - versions 10 to 12: docs/storage.md ("Schemas and migrations").
// - version 13: each FIDC fund's /v1/fundos item as JSON text (FundListItem,
//   domain/rows/fund_list_items.hpp), written by the registry ingest, so a page is one statement.
// - version 14: carteira/fundos answers stored (PortfolioFundAnswer).
// - version 15: SQLite's search rows in page order (FundSearchRow, domain/search/search_index.hpp),
//   the content of the trigram index, whose rowid becomes their page key.
// Dates are "YYYY-MM-DD" text and months "YYYY-MM"; an empty source field is NULL, never 0 or "".
// Monthly facts are keyed by the CNPJ that filed them (14 digits), not by class_id: a class is
// found through the registry at query time, so the order in which datasets are ingested does
// not matter and a registry re-ingest never leaves stale links behind.
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <odb/section.hxx>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#pragma db model version(1, 15)

namespace lastro::funds {

// registro_fundo.csv
#pragma db object table("funds_fund")
struct Fund {
#pragma db id
    std::string fund_id;
    // ID_Registro_Fundo.
#pragma db unique
    std::int64_t registry_id = 0;
#pragma db index
    std::optional<std::int64_t> cvm_code;  // Codigo_CVM
#pragma db index
    std::string cnpj;  // CNPJ_Fundo, 14 digits
    std::optional<std::string> name;
    std::optional<std::string> fund_type;  // Tipo_Fundo
    std::optional<std::string> status;     // Situacao
    std::optional<std::string> status_folded;
    std::optional<std::string> registered_at;   // Data_Registro
    std::optional<std::string> constituted_at;  // Data_Constituicao
    std::optional<std::string> cancelled_at;    // Data_Cancelamento
    std::optional<std::string> status_since;    // Data_Inicio_Situacao
    std::optional<std::string> adapted_rcvm175_at;
    std::optional<std::string> fiscal_year_start_at;
    std::optional<std::string> fiscal_year_end_at;
    std::optional<double> net_worth;  // Patrimonio_Liquido, BRL, as registered
    std::optional<std::string> net_worth_at;
    std::optional<std::string> director;
    std::optional<std::string> administrator_cnpj;
    std::optional<std::string> administrator;
    std::optional<std::string> manager_person_type;  // Tipo_Pessoa_Gestor: PF or PJ
    std::optional<std::string> manager_document;     // CPF_CNPJ_Gestor (a CPF when PF)
    std::optional<std::string> manager;
    // Folded name, CNPJ, manager and administrator, one per line, for `q`.
    std::string search_text;
    std::optional<std::string> manager_folded;
    std::optional<std::string> administrator_folded;
    bool fidc_universe = false;

    // On PostgreSQL /v1/fundos pages the universe by fund_id, with or without an exact status
    // (SQLite pages its search rows since funds 15). The folded texts ride along in the first
    // index: a walk that matches a needle reads the index in order and fetches only the rows that
    // match, not every row in fund_id order.
#pragma db index("funds_fund_universe_i") \
    members(fidc_universe, fund_id, search_text, manager_folded, administrator_folded)
#pragma db index("funds_fund_universe_status_i") members(fidc_universe, status_folded, fund_id)
};

// registro_classe.csv
#pragma db object table("funds_class")
struct FundClass {
#pragma db id
    std::string class_id;
#pragma db index
    std::string fund_id;
    std::int64_t registry_id = 0;       // ID_Registro_Classe
    std::int64_t fund_registry_id = 0;  // ID_Registro_Fundo
#pragma db index
    std::optional<std::string> cnpj;  // CNPJ_Classe
#pragma db index
    std::optional<std::int64_t> cvm_code;
    std::optional<std::string> registered_at;   // Data_Registro
    std::optional<std::string> constituted_at;  // Data_Constituicao
    std::optional<std::string> started_at;      // Data_Inicio
    std::optional<std::string> class_type;      // Tipo_Classe
    std::optional<std::string> name;
    std::optional<std::string> status;
    std::optional<std::string> status_since;
    std::optional<std::string> classification;         // Classificacao
    std::optional<std::string> performance_benchmark;  // Indicador_Desempenho
    std::optional<std::string> quota_class;            // Classe_Cotas
    std::optional<std::string> anbima_classification;
    std::optional<std::string> long_term_taxation;
    std::optional<std::string> investment_entity;
    std::optional<std::string> full_foreign_investment;  // Permitido_Aplicacao_CemPorCento_Exterior
    std::optional<std::string> esg;
    std::optional<std::string> condominium_type;  // Forma_Condominio
    std::optional<std::string> exclusive;
    std::optional<std::string> target_audience;  // Publico_Alvo
    std::optional<double> net_worth;
    std::optional<std::string> net_worth_at;
    std::optional<std::string> auditor_cnpj;
    std::optional<std::string> auditor;
    std::optional<std::string> custodian_cnpj;
    std::optional<std::string> custodian;
    std::optional<std::string> controller_cnpj;
    std::optional<std::string> controller;
};

// registro_subclasse.csv
#pragma db object table("funds_subclass")
struct Subclass {
#pragma db id
    std::string subclass_id;
#pragma db index
    std::string class_id;
    std::string registry_id;  // ID_Subclasse: text, its form is not documented by CVM
    std::int64_t class_registry_id = 0;
#pragma db index
    std::optional<std::int64_t> cvm_code;
    std::optional<std::string> constituted_at;
    std::optional<std::string> started_at;
    std::optional<std::string> name;
    std::optional<std::string> status;
    std::optional<std::string> status_since;
    std::optional<std::string> condominium_type;
    std::optional<std::string> exclusive;
    std::optional<std::string> target_audience;
    std::optional<std::string> pension;                          // Previdenciario
    std::optional<std::string> exclusive_non_resident;           // Exclusivo_INR
    std::optional<std::string> exclusive_supplementary_pension;  // Exclusivo_Previdencia_Complementar
};

// ---- version 2: inf_mensal_fidc (docs/datasets/inf_mensal_fidc.md) ------------------------

// One monthly report of a FIDC fund or class: the one-row-per-report tables (I, II, III, IV,
// V, VI, VII, VIII, IX, X, X_1_1, X_5, X_7) of one (CNPJ, month) after the duplicate rule, with
// the numbers the endpoints use typed, and the derived metrics of docs/api/fidc-metrics.md
// computed once at ingest. Re-ingesting a month deletes and rewrites every row of that month.
#pragma db object table("funds_fidc_report")
struct FidcReport {
#pragma db id auto
    std::int64_t id = 0;
    // segments_json, bands_json and published_json are most of a row's bytes and few readers
    // need them: loading a report leaves them empty. Read them with LoadReportDocuments()
    // (src/class_reports.hpp, the FidcReportDocuments view), never db.load(report, section):
    // ODB 2.4 on SQLite aborts in select_statement::reload() when a lazily loaded section's text
    // outgrows its buffer. Persisting writes them as any other column; the table is the same.
#pragma db load(lazy)
    odb::section json_documents;
    std::string cnpj;  // CNPJ_FUNDO_CLASSE (or CNPJ_FUNDO in the old layout), 14 digits
#pragma db index
    std::string month;           // "YYYY-MM" of DT_COMPTC
    std::string reference_date;  // DT_COMPTC, "YYYY-MM-DD"
    // TP_FUNDO_CLASSE of the kept rows: "Classe" or "Fundo"; NULL in the CNPJ_FUNDO layout or
    // when CVM left it blank.
    std::optional<std::string> filer_type;
    std::string layout;               // "fundo_classe" or "cnpj_fundo" (FORMATS 1.2), of table IV's file
    std::optional<std::string> name;  // DENOM_SOCIAL
    std::optional<std::string> administrator_cnpj;  // tab I CNPJ_ADMIN, 14 digits when valid
    std::optional<std::string> administrator;       // tab I ADMIN
    std::optional<std::string> condominium;         // tab I CONDOM
    // Rows of this report that the duplicate rule dropped (a Fundo row beside a Classe row,
    // or an earlier conflicting row of the same key); 0 when the files were clean.
    std::int64_t duplicates_dropped = 0;

    // Typed published numbers (BRL unless stated).
    std::optional<double> assets_total;              // TAB_I_VL_ATIVO
    std::optional<double> receivables_with_risk;     // TAB_I2A_VL_DIRCRED_RISCO (net of PDD)
    std::optional<double> receivables_without_risk;  // TAB_I2B_VL_DIRCRED_SEM_RISCO (net)
    std::optional<double> pdd_with_risk;             // TAB_I2A11_VL_REDUCAO_RECUP as published
    std::optional<double> pdd_without_risk;          // TAB_I2B11_VL_REDUCAO_RECUP as published
    std::optional<double> receivables_components;    // derived: sum of I2A1..I2A10, I2B1..I2B10
    std::optional<double> liabilities;               // TAB_III_VL_PASSIVO
    std::optional<double> nav;                       // TAB_IV_A_VL_PL
    std::optional<double> nav_average;               // TAB_IV_B_VL_PL_MEDIO
    std::optional<double> segments_total;            // TAB_II_VL_CARTEIRA
    // Segments of table II at the most detailed level, JSON array of
    // {"code","name","source","value"} in table order; value null when not published.
#pragma db section(json_documents)
    std::optional<std::string> segments_json;
    // The exclusive bands of tables V (with risk) and VI (without): JSON object
    // {"V":{"to_mature":[10],"delinquent":[10],"prepaid":[10],"to_mature_total",
    //  "delinquent_total","prepaid_total"},"VI":{...}}; every value a number or null as published.
#pragma db section(json_documents)
    std::optional<std::string> bands_json;

    // Derived metrics (docs/api/fidc-metrics.md); NULL when an input is missing.
    std::optional<double> pdd;                // |pdd_with_risk| + |pdd_without_risk|
    std::optional<double> receivables_net;    // receivables_with_risk + receivables_without_risk
    std::optional<double> receivables_gross;  // receivables_net + pdd
    std::optional<double> delinquent_total;   // sum of the 20 delinquent bands of V and VI
    std::optional<double> band_denominator;   // sum of the 40 to-mature and delinquent bands
    std::optional<double> delinquency_ratio;  // delinquent_total / band_denominator
    std::optional<double> pdd_ratio;          // pdd / receivables_gross
    std::optional<double> senior_nav;         // sum of QT x VL of the senior series (X_2)
    std::optional<double> mezzanine_nav;
    std::optional<double> subordinated_nav;
    std::optional<double> series_nav_total;                       // sum over every series
    std::optional<double> subordination_with_mezzanine_ratio;     // (mezz + sub) / total
    std::optional<double> subordination_without_mezzanine_ratio;  // sub / total
    std::optional<std::int64_t> investor_count;                   // sum of X_1 TAB_X_NR_COTST
    std::optional<std::int64_t> positive_segment_count;           // segments with value > 0
    std::optional<std::int64_t> series_with_profitability_count;  // X_3 rows with a value
    std::optional<std::string> primary_segment_code;
    std::optional<double> primary_segment_ratio;  // its value / segments_total

    // Every non-empty published field of the one-row tables, exactly as CVM wrote it:
    // JSON {"I":{"TAB_I_VL_ATIVO":"123.45",...},"II":{...},...,"VIII":[["1","5000.00"],...]}.
#pragma db section(json_documents)
    std::string published_json;
#pragma db index("funds_fidc_report_cnpj_month_i") members(cnpj, month)
    // What FidcInvestedFacts reads (version 8): carteira/fundos walks an invested class's
    // reports back from the asked month until each figure is found, the whole history when the
    // class never publishes one of them (a third of the CNPJs). Those columns come after the
    // JSON documents in the row, and reaching them walked the row's overflow pages.
    // clang-format off: ODB reads the continued pragma as written
#pragma db index("funds_fidc_report_facts_i") members(cnpj, month, nav, delinquency_ratio, pdd_ratio, \
    subordination_with_mezzanine_ratio, segments_total, positive_segment_count, primary_segment_code, \
    primary_segment_ratio, id)
    // clang-format on
};

// One quota series (TAB_X_CLASSE_SERIE) of a monthly report: tables X_1, X_2, X_3 and X_6.
#pragma db object table("funds_fidc_series")
struct FidcSeries {
#pragma db id auto
    std::int64_t id = 0;
#pragma db index
    std::int64_t report_id = 0;
    std::string cnpj;
    std::string month;
    std::string label;                         // TAB_X_CLASSE_SERIE as published
    std::string series_key;                    // folded label: identity of the series within its class
    std::string seniority;                     // "senior", "mezzanine", "subordinated" or "unknown" (parsed)
    std::optional<std::string> subclass_code;  // X_1 ID_SUBCLASSE
    std::optional<std::int64_t> investor_count;      // X_1 TAB_X_NR_COTST
    std::optional<double> quota_count;               // X_2 TAB_X_QT_COTA
    std::optional<double> quota_value;               // X_2 TAB_X_VL_COTA
    std::optional<double> profitability_pct;         // X_3 TAB_X_VL_RENTAB_MES (percent)
    std::optional<double> expected_performance_pct;  // X_6 TAB_X_PR_DESEMP_ESPERADO
    std::optional<double> real_performance_pct;      // X_6 TAB_X_PR_DESEMP_REAL
#pragma db index("funds_fidc_series_cnpj_month_i") members(cnpj, month)
// carteira/fundos: which reports of a class name the subclasses a holder owns, read from the
// index alone (funds 10; by (cnpj, month) it read every series of the class's history).
#pragma db index("funds_fidc_series_naming_i") members(cnpj, subclass_code, month, report_id)
};

// One row of table X_4: a subscription, redemption, pending redemption or amortization of a
// series in the month.
#pragma db object table("funds_fidc_quota_operation")
struct FidcQuotaOperation {
#pragma db id auto
    std::int64_t id = 0;
#pragma db index
    std::int64_t report_id = 0;
    std::string cnpj;
    std::string month;
    std::string series_label;  // TAB_X_CLASSE_SERIE as published
    std::string series_key;
    // "subscription", "redemption", "pending_redemption", "amortization" or "other"
    std::string kind;
    std::string published_kind;         // TAB_X_TP_OPER as published
    std::optional<double> value;        // TAB_X_VL_TOTAL as published
    std::optional<double> quota_count;  // TAB_X_QT_COTA as published
    // Which column holds the BRL total (docs/api/fidc-metrics.md#amortization-reading):
    // "as_published", "swapped" (amortizations filed with the columns reversed) or "unverified";
    // NULL in rows ingested before version 3.
#pragma db added(3)
    std::optional<std::string> reading;
    // The BRL total under `reading`; NULL when unverified (never a guess) or nothing published.
#pragma db added(3)
    std::optional<double> value_brl;
#pragma db index("funds_fidc_operation_cnpj_month_i") members(cnpj, month)
};

// ---- version 9: the stored quota answers (domain/rows/quota_answers.hpp) -------------------

// One FIDC report's rows of /cotas and of /cotas/operacoes, written as those routes answer them
// (their row writers, domain/rows/quota_rows.hpp and domain/rows/quota_operation_rows.hpp) when the
// report is saved, and replaced with it: a call picks one report a month, as ReportsBetween does,
// and joins the texts. The cnpj, month and filer type are the report's, for that pick.
#pragma db object table("funds_fidc_quota_answer")
struct FidcQuotaAnswer {
#pragma db id
    std::int64_t report_id = 0;  // FidcReport::id
    std::string cnpj;
    std::string month;
    std::optional<std::string> filer_type;
    std::int64_t quota_rows = 0;  // rows of /cotas in quota_json
    // The rows' JSON objects joined by commas, without the brackets; empty when there are none.
    std::string quota_json;
    std::int64_t operation_rows = 0;  // rows of /cotas/operacoes in operation_json
    std::string operation_json;
#pragma db index("funds_fidc_quota_answer_cnpj_month_i") members(cnpj, month)
};

// The segments of one FIDC report's table II with a positive value, as carteira/fundos lists an
// invested class's (domain/rows/positive_segments.hpp): a JSON array of {"code","name","value"} in
// table order, written when the report is saved and replaced with it (funds 11). A report without a
// table II row has none.
#pragma db object table("funds_fidc_positive_segments")
struct FidcPositiveSegments {
#pragma db id
    std::int64_t report_id = 0;  // FidcReport::id
    std::string segments_json;
};

// What /cotas reads of it, and /cotas/operacoes: the pick's columns and one route's text.
#pragma db view object(FidcQuotaAnswer)
struct FidcQuotaRowsText {
#pragma db column(FidcQuotaAnswer::report_id)
    std::int64_t id = 0;
#pragma db column(FidcQuotaAnswer::cnpj)
    std::string cnpj;
#pragma db column(FidcQuotaAnswer::month)
    std::string month;
#pragma db column(FidcQuotaAnswer::filer_type)
    std::optional<std::string> filer_type;
#pragma db column(FidcQuotaAnswer::quota_rows)
    std::int64_t rows = 0;
#pragma db column(FidcQuotaAnswer::quota_json)
    std::string json;
};

#pragma db view object(FidcQuotaAnswer)
struct FidcOperationRowsText {
#pragma db column(FidcQuotaAnswer::report_id)
    std::int64_t id = 0;
#pragma db column(FidcQuotaAnswer::cnpj)
    std::string cnpj;
#pragma db column(FidcQuotaAnswer::month)
    std::string month;
#pragma db column(FidcQuotaAnswer::filer_type)
    std::optional<std::string> filer_type;
#pragma db column(FidcQuotaAnswer::operation_rows)
    std::int64_t rows = 0;
#pragma db column(FidcQuotaAnswer::operation_json)
    std::string json;
};

// ---- version 2: cda_fi (docs/datasets/cda_fi.md) --------------------------------------

// One holder (fund or class) of one month's CDA: the PL member, plus counts.
#pragma db object table("funds_cda_holder")
struct CdaHolder {
#pragma db id auto
    std::int64_t id = 0;
    std::string cnpj;  // CNPJ_FUNDO_CLASSE, 14 digits
#pragma db index
    std::string month;
    std::optional<std::string> filer_type;  // TP_FUNDO_CLASSE
    std::optional<std::string> name;        // DENOM_SOCIAL
    std::optional<double> nav;              // cda_fi_PL VL_PATRIM_LIQ
    std::int64_t positions = 0;             // rows in BLC_1..8 and fie
    std::int64_t confidential_rows = 0;     // rows in the CONFID members (not served)
#pragma db index("funds_cda_holder_cnpj_month_i") members(cnpj, month)
};

// One asset position of a CDA block (BLC_1..BLC_8 or cda_fie). The columns the endpoints use
// are typed; the block-specific rest is kept as published in details_json.
#pragma db object table("funds_cda_position")
struct CdaPosition {
#pragma db id auto
    std::int64_t id = 0;
    std::string cnpj;
    std::string month;
    std::int64_t ordinal = 0;  // stable order: block, then line in the file (keyset cursor)
    std::string block;         // "BLC_1".."BLC_8" or "FIE"
    std::optional<std::string> application_type;    // TP_APLIC
    std::optional<std::string> asset_type;          // TP_ATIVO
    std::optional<std::string> related_issuer;      // EMISSOR_LIGADO
    std::optional<std::string> trade_type;          // TP_NEGOC
    std::optional<double> quantity_sold;            // QT_VENDA_NEGOC
    std::optional<double> value_sold;               // VL_VENDA_NEGOC
    std::optional<double> quantity_acquired;        // QT_AQUIS_NEGOC
    std::optional<double> value_acquired;           // VL_AQUIS_NEGOC
    std::optional<double> quantity;                 // QT_POS_FINAL
    std::optional<double> market_value;             // VL_MERC_POS_FINAL
    std::optional<double> cost_value;               // VL_CUSTO_POS_FINAL
    std::optional<std::string> confidential_until;  // DT_CONFID_APLIC
    std::optional<std::string> asset_code;          // CD_ATIVO, else CD_SELIC / CD_SWAP / CD_ATIVO_BV_MERC
    std::optional<std::string> isin;                // CD_ISIN
    std::optional<std::string> description;         // DS_ATIVO, TP_TITPUB, DS_SWAP, TITULO_POSFX...
    std::optional<std::string> issuer;              // EMISSOR
    std::optional<std::string> issuer_document;     // CNPJ_EMISSOR / CPF_CNPJ_EMISSOR as published
    std::optional<std::string> maturity;            // DT_VENC
#pragma db index
    std::optional<std::string> invested_cnpj;      // BLC_2 CNPJ_FUNDO_CLASSE_COTA, 14 digits
    std::optional<std::string> invested_name;      // BLC_2 NM_FUNDO_CLASSE_SUBCLASSE_COTA
    std::optional<std::string> invested_subclass;  // BLC_2 ID_SUBCLASSE
    std::string details_json;                      // other non-empty block columns as published, JSON object
#pragma db index("funds_cda_position_cnpj_month_i") members(cnpj, month, ordinal)
};

// ---- version 2: eventual_fi (docs/datasets/eventual_fi.md) ----------------------------

#pragma db object table("funds_document")
struct FundDocument {
#pragma db id
    std::string document_id;  // ID_DOC
#pragma db index
    std::string cnpj;                            // CNPJ_FUNDO_CLASSE, 14 digits
    std::optional<std::string> filer_type;       // TP_FUNDO_CLASSE
    std::optional<std::string> subclass_code;    // ID_SUBCLASSE
    std::optional<std::string> name;             // DENOM_SOCIAL
    std::optional<std::string> document_date;    // DT_COMPTC
    std::optional<std::string> received_at;      // DT_RECEB
    std::optional<std::int64_t> reference_year;  // year of DT_COMPTC
    std::string document_type;                   // TP_DOC
    std::string document_type_slug;              // derived: folded, hyphenated TP_DOC
    std::string category;                        // derived from TP_DOC (docs/api/documents.md)
    std::optional<std::string> file_name;        // NM_ARQ
    std::optional<std::string> source_url;       // LINK_ARQ
    std::optional<std::string> audit_result;     // RESULTADO_AUDITORIA
#pragma db index
    std::int64_t source_year = 0;  // year of the eventual_fi_YYYY file: its full snapshot
};

// ---- version 2: anbima.subclasses (docs/datasets/anbima_subclasses.md) ----------------

#pragma db object table("funds_anbima_subclass")
struct AnbimaSubclass {
#pragma db id
    std::string subclass_id;  // UUIDv5 of anbima_code in the funds namespace
#pragma db unique
    std::string anbima_code;
#pragma db index
    std::string class_cnpj;
    std::string fund_cnpj;
    std::optional<std::string> cvm_code;
    std::optional<std::string> name;
    std::optional<std::string> status;
    std::optional<std::string> activity_started_at;
    std::optional<std::string> first_subscription_at;
    std::optional<std::string> category;
    std::optional<std::string> type;
    std::optional<std::string> focus;
    std::optional<std::string> investor_type;
    std::optional<std::string> investor_characteristic;
    std::optional<std::string> opening_share;
    std::optional<std::string> adapted_to_rcvm_175;
    std::optional<double> minimum_initial_subscription;
    std::optional<std::int64_t> redemption_payment_days;
};

// ---- views (no tables) ---------------------------------------------------------------

// SQLite only: the page keys (rowids) of the FIDC funds whose entry in the trigram index
// `funds_fund_search` matches an FTS5 expression (domain/search/search_index.hpp). The table is not
// part of the model: the plugin's own SQL creates it (versions 4, 12 and 15).
#pragma db view table("funds_fund_search")
struct FundSearchMatch {
#pragma db column("funds_fund_search.rowid")
    std::int64_t page_key = 0;
};

// A fund as /v1/resolve shows it, with one of its classes' ids: a row per class (a fund without
// classes has one, its class_id null), so that a fund and its class ids are one statement where
// they were two (a round trip each on PostgreSQL), and the fund's 28 columns are not all read.
#pragma db view object(Fund) object(FundClass left : FundClass::fund_id == Fund::fund_id)
struct FundWithClassId {
#pragma db column(Fund::fund_id)
    std::string fund_id;
#pragma db column(Fund::cnpj)
    std::string cnpj;
#pragma db column(Fund::cvm_code)
    std::optional<std::int64_t> cvm_code;
#pragma db column(Fund::name)
    std::optional<std::string> name;
#pragma db column(Fund::status)
    std::optional<std::string> status;
#pragma db column(Fund::fund_type)
    std::optional<std::string> fund_type;
#pragma db column(Fund::registered_at)
    std::optional<std::string> registered_at;
#pragma db column(Fund::cancelled_at)
    std::optional<std::string> cancelled_at;
#pragma db column(FundClass::class_id)
    std::optional<std::string> class_id;
};

// /v1/fundos's items (domain/rows/fund_list_items.cpp): the columns of a fund and of its classes
// that a list item shows; and what SQLite's search rows (FundSearchRow) copy of a fund.
#pragma db view object(Fund)
struct FundListRow {
#pragma db column(Fund::fund_id)
    std::string fund_id;
#pragma db column(Fund::registry_id)
    std::int64_t registry_id = 0;
#pragma db column(Fund::cvm_code)
    std::optional<std::int64_t> cvm_code;
#pragma db column(Fund::cnpj)
    std::string cnpj;
#pragma db column(Fund::name)
    std::optional<std::string> name;
#pragma db column(Fund::status)
    std::optional<std::string> status;
#pragma db column(Fund::fund_type)
    std::optional<std::string> fund_type;
#pragma db column(Fund::manager)
    std::optional<std::string> manager;
#pragma db column(Fund::administrator)
    std::optional<std::string> administrator;
#pragma db column(Fund::registered_at)
    std::optional<std::string> registered_at;
#pragma db column(Fund::constituted_at)
    std::optional<std::string> constituted_at;
#pragma db column(Fund::cancelled_at)
    std::optional<std::string> cancelled_at;
#pragma db column(Fund::status_since)
    std::optional<std::string> status_since;
#pragma db column(Fund::fiscal_year_end_at)
    std::optional<std::string> fiscal_year_end_at;
#pragma db column(Fund::net_worth)
    std::optional<double> net_worth;
#pragma db column(Fund::search_text)
    std::string search_text;
#pragma db column(Fund::manager_folded)
    std::optional<std::string> manager_folded;
#pragma db column(Fund::administrator_folded)
    std::optional<std::string> administrator_folded;
#pragma db column(Fund::status_folded)
    std::optional<std::string> status_folded;
};

#pragma db view object(FundClass)
struct ClassListRow {
#pragma db column(FundClass::class_id)
    std::string class_id;
#pragma db column(FundClass::fund_id)
    std::string fund_id;
#pragma db column(FundClass::registry_id)
    std::int64_t registry_id = 0;
#pragma db column(FundClass::cvm_code)
    std::optional<std::int64_t> cvm_code;
#pragma db column(FundClass::cnpj)
    std::optional<std::string> cnpj;
#pragma db column(FundClass::name)
    std::optional<std::string> name;
#pragma db column(FundClass::status)
    std::optional<std::string> status;
};

// carteira/fundos (src/portfolio_funds.cpp): the columns of an invested class and of its fund
// that the item shows or its filing CNPJs follow from. Whole rows (34 and 28 columns) were a fifth
// of a call.
#pragma db view object(FundClass)
struct InvestedClassRow {
#pragma db column(FundClass::class_id)
    std::string class_id;
#pragma db column(FundClass::registry_id)
    std::int64_t registry_id = 0;
#pragma db column(FundClass::fund_id)
    std::string fund_id;
#pragma db column(FundClass::cnpj)
    std::optional<std::string> cnpj;
#pragma db column(FundClass::name)
    std::optional<std::string> name;
#pragma db column(FundClass::status)
    std::optional<std::string> status;
#pragma db column(FundClass::anbima_classification)
    std::optional<std::string> anbima_classification;
};

// carteira/fundos: a holder's BLC_2 row naming an invested CNPJ, the columns the answer sums
// (a whole position is 27 columns, with its details_json).
#pragma db view object(CdaPosition)
struct HolderFundPosition {
#pragma db column(CdaPosition::month)
    std::string month;
#pragma db column(CdaPosition::invested_cnpj)
    std::string invested_cnpj;
#pragma db column(CdaPosition::invested_name)
    std::optional<std::string> invested_name;
#pragma db column(CdaPosition::invested_subclass)
    std::optional<std::string> invested_subclass;
#pragma db column(CdaPosition::market_value)
    std::optional<double> market_value;
#pragma db column(CdaPosition::value_acquired)
    std::optional<double> value_acquired;
#pragma db column(CdaPosition::value_sold)
    std::optional<double> value_sold;
};

// carteira/fundos: an ANBIMA subclass's class CNPJ and type, what an invested class's ANBIMA
// type is read from (a whole subclass is 19 columns).
#pragma db view object(AnbimaSubclass)
struct AnbimaSubclassType {
#pragma db column(AnbimaSubclass::class_cnpj)
    std::string class_cnpj;
#pragma db column(AnbimaSubclass::type)
    std::optional<std::string> type;
};

#pragma db view object(Fund)
struct InvestedFundRow {
#pragma db column(Fund::fund_id)
    std::string fund_id;
#pragma db column(Fund::cnpj)
    std::string cnpj;
#pragma db column(Fund::name)
    std::optional<std::string> name;
#pragma db column(Fund::status)
    std::optional<std::string> status;
#pragma db column(Fund::manager)
    std::optional<std::string> manager;
#pragma db column(Fund::administrator)
    std::optional<std::string> administrator;
};

// What a class operation needs of its class, in one statement (src/class_reports.cpp,
// FindClass): its ids, its CNPJ, its fund's CNPJ and how many classes the fund has, from which
// the CNPJs its filings are under follow. Every class operation starts with it: one statement
// (three were three round trips on PostgreSQL), and the keys alone (loading the class's 34
// columns and its fund's 28 was a tenth of a call). A class whose fund is missing reads a null
// fund_id.
#pragma db view object(FundClass) object(Fund left : FundClass::fund_id == Fund::fund_id)
struct ClassKeys {
#pragma db column(FundClass::class_id)
    std::string class_id;
#pragma db column(FundClass::cnpj)
    std::optional<std::string> cnpj;
#pragma db column(Fund::fund_id)
    std::optional<std::string> fund_id;
#pragma db column(Fund::cnpj)
    std::optional<std::string> fund_cnpj;
#pragma db column("(SELECT count(*) FROM \"funds_class\" AS \"sibling\" WHERE \"sibling\".\"fund_id\" = " + \
                  FundClass::fund_id + ")")
    std::int64_t class_count = 0;
};

// /v1/screening (src/screening.cpp): the latest reported month, and the month's reports with
// the registry class and fund they belong to, without the large JSON columns. A report joins a
// class by the class's own CNPJ (ScreeningByClassCnpj) or, through the fund's CNPJ, every class
// of that fund (ScreeningByFundCnpj; the handler keeps a fund's only class, as class_reports).
#pragma db view object(FidcReport)
struct FidcLatestMonth {
#pragma db column("max(" + FidcReport::month + ")")
    std::optional<std::string> month;
};

// The months that have FIDC reports (services/, funds.fidc_monthly_facts).
#pragma db view object(FidcReport) query(distinct)
struct FidcReportMonth {
#pragma db column(FidcReport::month)
    std::string month;
};

// The JSON documents of one report (LoadReportDocuments in src/class_reports.hpp).
#pragma db view object(FidcReport)
struct FidcReportDocuments {
#pragma db column(FidcReport::id)
    std::int64_t report_id = 0;
#pragma db column(FidcReport::segments_json)
    std::optional<std::string> segments_json;
#pragma db column(FidcReport::bands_json)
    std::optional<std::string> bands_json;
#pragma db column(FidcReport::published_json)
    std::string published_json;
};

// What /carteira/inadimplencia/faixas reads of a month's report (src/delinquency_bands.cpp): the
// columns the class's pick of a report goes by, the band total and tables V and VI's bands; not
// the report's other columns, nor its published values (10 KB on average) and segments.
#pragma db view object(FidcReport)
struct FidcReportBands {
#pragma db column(FidcReport::id)
    std::int64_t id = 0;
#pragma db column(FidcReport::cnpj)
    std::string cnpj;
#pragma db column(FidcReport::month)
    std::string month;
#pragma db column(FidcReport::filer_type)
    std::optional<std::string> filer_type;
#pragma db column(FidcReport::band_denominator)
    std::optional<double> band_denominator;
#pragma db column(FidcReport::bands_json)
    std::optional<std::string> bands_json;
};

#pragma db view object(FidcReport)
struct FidcReportSegments {
#pragma db column(FidcReport::id)
    std::int64_t report_id = 0;
#pragma db column(FidcReport::segments_json)
    std::optional<std::string> segments_json;
};

// The columns of a report that a row of /cotas or /cotas/operacoes shows or picks the report by,
// not the report's other 35: what the stored answers are written from
// (domain/rows/quota_answers.hpp).
#pragma db view object(FidcReport)
struct FidcQuotaReport {
#pragma db column(FidcReport::id)
    std::int64_t id = 0;
#pragma db column(FidcReport::cnpj)
    std::string cnpj;
#pragma db column(FidcReport::month)
    std::string month;
#pragma db column(FidcReport::reference_date)
    std::string reference_date;
#pragma db column(FidcReport::filer_type)
    std::optional<std::string> filer_type;
#pragma db column(FidcReport::nav)
    std::optional<double> nav;
#pragma db column(FidcReport::senior_nav)
    std::optional<double> senior_nav;
#pragma db column(FidcReport::mezzanine_nav)
    std::optional<double> mezzanine_nav;
#pragma db column(FidcReport::subordinated_nav)
    std::optional<double> subordinated_nav;
#pragma db column(FidcReport::series_nav_total)
    std::optional<double> series_nav_total;
#pragma db column(FidcReport::subordination_with_mezzanine_ratio)
    std::optional<double> subordination_with_mezzanine_ratio;
#pragma db column(FidcReport::subordination_without_mezzanine_ratio)
    std::optional<double> subordination_without_mezzanine_ratio;
};

// The same rows' quota series: FidcSeries without its id, CNPJ, month and X_6 columns, read as
// a view (also by snapshot, src/snapshot.cpp).
#pragma db view object(FidcSeries)
struct FidcQuotaSeries {
#pragma db column(FidcSeries::report_id)
    std::int64_t report_id = 0;
#pragma db column(FidcSeries::label)
    std::string label;
#pragma db column(FidcSeries::series_key)
    std::string series_key;
#pragma db column(FidcSeries::seniority)
    std::string seniority;
#pragma db column(FidcSeries::subclass_code)
    std::optional<std::string> subclass_code;
#pragma db column(FidcSeries::investor_count)
    std::optional<std::int64_t> investor_count;
#pragma db column(FidcSeries::quota_count)
    std::optional<double> quota_count;
#pragma db column(FidcSeries::quota_value)
    std::optional<double> quota_value;
#pragma db column(FidcSeries::profitability_pct)
    std::optional<double> profitability_pct;
};

// carteira/fundos (src/portfolio_funds.cpp): which of a class's reports names a subclass the
// holder owns (X_1 ID_SUBCLASSE), without the series' other columns.
#pragma db view object(FidcSeries)
struct FidcSeriesNaming {
#pragma db column(FidcSeries::report_id)
    std::int64_t report_id = 0;
#pragma db column(FidcSeries::cnpj)
    std::string cnpj;
#pragma db column(FidcSeries::month)
    std::string month;
#pragma db column(FidcSeries::subclass_code)
    std::optional<std::string> subclass_code;
};

// /v1/classes/{class_id}/carteira/fundos (src/portfolio_funds.cpp): what a report tells about an
// invested class, read from funds_fidc_report_facts_i alone. positive_segment_count is set
// exactly when the report has a table II row, as segments_json is (fidc_metrics.cpp): the
// segments themselves are read afterwards for the one report each class takes them from.
#pragma db view object(FidcReport)
struct FidcInvestedFacts {
#pragma db column(FidcReport::id)
    std::int64_t report_id = 0;
#pragma db column(FidcReport::cnpj)
    std::string cnpj;
#pragma db column(FidcReport::month)
    std::string month;
#pragma db column(FidcReport::nav)
    std::optional<double> nav;
#pragma db column(FidcReport::delinquency_ratio)
    std::optional<double> delinquency_ratio;
#pragma db column(FidcReport::pdd_ratio)
    std::optional<double> pdd_ratio;
#pragma db column(FidcReport::subordination_with_mezzanine_ratio)
    std::optional<double> subordination_with_mezzanine_ratio;
#pragma db column(FidcReport::segments_total)
    std::optional<double> segments_total;
#pragma db column(FidcReport::primary_segment_code)
    std::optional<std::string> primary_segment_code;
#pragma db column(FidcReport::primary_segment_ratio)
    std::optional<double> primary_segment_ratio;
#pragma db column(FidcReport::positive_segment_count)
    std::optional<std::int64_t> positive_segment_count;
};

// clang-format off: ODB reads the continued pragma as written
#pragma db view object(FidcReport) object(FundClass inner: FundClass::cnpj == FidcReport::cnpj) \
    object(Fund inner: FundClass::fund_id == Fund::fund_id)
// clang-format on
struct ScreeningByClassCnpj {
#pragma db column(FidcReport::id)
    std::int64_t report_id = 0;
#pragma db column(FidcReport::cnpj)
    std::string cnpj;
#pragma db column(FidcReport::nav)
    std::optional<double> nav;
#pragma db column(FidcReport::investor_count)
    std::optional<std::int64_t> investor_count;
#pragma db column(FidcReport::delinquency_ratio)
    std::optional<double> delinquency_ratio;
#pragma db column(FidcReport::pdd_ratio)
    std::optional<double> pdd_ratio;
#pragma db column(FidcReport::subordination_with_mezzanine_ratio)
    std::optional<double> subordination_with_mezzanine_ratio;
#pragma db column(FidcReport::subordination_without_mezzanine_ratio)
    std::optional<double> subordination_without_mezzanine_ratio;
#pragma db column(FidcReport::primary_segment_code)
    std::optional<std::string> primary_segment_code;
#pragma db column(FidcReport::primary_segment_ratio)
    std::optional<double> primary_segment_ratio;
#pragma db column(FundClass::class_id)
    std::string class_id;
#pragma db column(FundClass::cnpj)
    std::optional<std::string> class_cnpj;
#pragma db column(FundClass::name)
    std::optional<std::string> class_name;
#pragma db column(Fund::fund_id)
    std::string fund_id;
#pragma db column(Fund::name)
    std::optional<std::string> fund_name;
#pragma db column(Fund::fund_type)
    std::optional<std::string> fund_type;
#pragma db column(Fund::manager)
    std::optional<std::string> manager;
#pragma db column(Fund::administrator)
    std::optional<std::string> administrator;
#pragma db column(Fund::status)
    std::optional<std::string> status;
#pragma db column(Fund::manager_folded)
    std::optional<std::string> manager_folded;
#pragma db column(Fund::administrator_folded)
    std::optional<std::string> administrator_folded;
#pragma db column(Fund::status_folded)
    std::optional<std::string> status_folded;
};

// clang-format off: ODB reads the continued pragma as written
#pragma db view object(FidcReport) object(Fund inner: Fund::cnpj == FidcReport::cnpj) \
    object(FundClass inner: FundClass::fund_id == Fund::fund_id)
// clang-format on
struct ScreeningByFundCnpj {
#pragma db column(FidcReport::id)
    std::int64_t report_id = 0;
#pragma db column(FidcReport::cnpj)
    std::string cnpj;
#pragma db column(FidcReport::nav)
    std::optional<double> nav;
#pragma db column(FidcReport::investor_count)
    std::optional<std::int64_t> investor_count;
#pragma db column(FidcReport::delinquency_ratio)
    std::optional<double> delinquency_ratio;
#pragma db column(FidcReport::pdd_ratio)
    std::optional<double> pdd_ratio;
#pragma db column(FidcReport::subordination_with_mezzanine_ratio)
    std::optional<double> subordination_with_mezzanine_ratio;
#pragma db column(FidcReport::subordination_without_mezzanine_ratio)
    std::optional<double> subordination_without_mezzanine_ratio;
#pragma db column(FidcReport::primary_segment_code)
    std::optional<std::string> primary_segment_code;
#pragma db column(FidcReport::primary_segment_ratio)
    std::optional<double> primary_segment_ratio;
#pragma db column(FundClass::class_id)
    std::string class_id;
#pragma db column(FundClass::cnpj)
    std::optional<std::string> class_cnpj;
#pragma db column(FundClass::name)
    std::optional<std::string> class_name;
#pragma db column(Fund::fund_id)
    std::string fund_id;
#pragma db column(Fund::name)
    std::optional<std::string> fund_name;
#pragma db column(Fund::fund_type)
    std::optional<std::string> fund_type;
#pragma db column(Fund::manager)
    std::optional<std::string> manager;
#pragma db column(Fund::administrator)
    std::optional<std::string> administrator;
#pragma db column(Fund::status)
    std::optional<std::string> status;
#pragma db column(Fund::manager_folded)
    std::optional<std::string> manager_folded;
#pragma db column(Fund::administrator_folded)
    std::optional<std::string> administrator_folded;
#pragma db column(Fund::status_folded)
    std::optional<std::string> status_folded;
};

// ---- version 5: /v1/screening (domain/rows/screening_rows.hpp) -----------------------------

// One class of the FIDC universe with a report in `month`, as /v1/screening answers it: the
// report (under the class's CNPJ, or its fund's when it is the fund's only class) joined to the
// registry, with the folded keys the screening filters and sorts on. Derived: rebuilt whole for
// a month whenever its reports or the registry change, in the same transaction.
#pragma db object table("funds_screening_row")
struct ScreeningRow {
#pragma db id auto
    std::int64_t id = 0;
    std::string month;
    std::string class_id;
    std::int64_t report_id = 0;
    std::string cnpj;  // the filing CNPJ
    std::optional<std::string> class_name;
    std::string fund_id;
    std::optional<std::string> fund_name;
    std::optional<std::string> fund_type;  // canonical when the registry's spelling is known
    std::optional<std::string> manager;
    std::optional<std::string> administrator;
    std::optional<std::string> status;
    std::optional<std::string> name_folded;  // FoldedText(fund_name): the name sort's key
    std::optional<std::string> manager_folded;
    std::optional<std::string> administrator_folded;
    std::optional<std::string> status_folded;
    std::optional<double> nav;
    std::optional<std::int64_t> investor_count;
    std::optional<double> delinquency_ratio;
    std::optional<double> pdd_ratio;
    std::optional<double> subordination_with_mezzanine_ratio;
    std::optional<double> subordination_without_mezzanine_ratio;
    std::optional<std::string> primary_segment_code;
    std::optional<std::string> primary_segment_name;
    std::optional<double> primary_segment_ratio;
    // Version 6: the row as /v1/screening answers it (one JSON object,
    // domain/rows/screening_rows.hpp); null only between the migration's column and its rebuild.
    std::optional<std::string> json;

#pragma db index("funds_screening_row_month_class_i") unique members(month, class_id)
    // funds 12: what a month's ranking is built from (ScreeningRankRow), read from the index
    // alone. From the rows, each with its answer's text, a month of 2,900 classes took 10 ms.
    // clang-format off: ODB reads the continued pragma as written
#pragma db index("funds_screening_row_rank_i") members(month, class_id, id, name_folded, fund_type, \
    primary_segment_code, manager_folded, administrator_folded, status_folded, nav, delinquency_ratio, \
    subordination_with_mezzanine_ratio, pdd_ratio)
    // clang-format on
};

// What a month's ranking is loaded from (domain/rows/screening_ranking.hpp): the filter and sort
// keys of its rows, without the texts answered.
#pragma db view object(ScreeningRow)
struct ScreeningRankRow {
#pragma db column(ScreeningRow::id)
    std::int64_t id = 0;  // a page's rows are read back by it (the table's own key)
#pragma db column(ScreeningRow::class_id)
    std::string class_id;
#pragma db column(ScreeningRow::name_folded)
    std::optional<std::string> name_folded;
#pragma db column(ScreeningRow::fund_type)
    std::optional<std::string> fund_type;
#pragma db column(ScreeningRow::primary_segment_code)
    std::optional<std::string> primary_segment_code;
#pragma db column(ScreeningRow::manager_folded)
    std::optional<std::string> manager_folded;
#pragma db column(ScreeningRow::administrator_folded)
    std::optional<std::string> administrator_folded;
#pragma db column(ScreeningRow::status_folded)
    std::optional<std::string> status_folded;
#pragma db column(ScreeningRow::nav)
    std::optional<double> nav;
#pragma db column(ScreeningRow::delinquency_ratio)
    std::optional<double> delinquency_ratio;
#pragma db column(ScreeningRow::subordination_with_mezzanine_ratio)
    std::optional<double> subordination_with_mezzanine_ratio;
#pragma db column(ScreeningRow::pdd_ratio)
    std::optional<double> pdd_ratio;
};

// The stored answer of a page's rows (version 6).
#pragma db view object(ScreeningRow)
struct ScreeningRowJson {
#pragma db column(ScreeningRow::id)
    std::int64_t id = 0;
#pragma db column(ScreeningRow::class_id)
    std::string class_id;
#pragma db column(ScreeningRow::json)
    std::optional<std::string> json;
};

// A month's screening rows were last built as `generation`, a random number drawn at each
// build: the handler keeps a month's ranking in memory under it, so a rebuilt month (or another
// database) is never answered from an older one. A month keeps its row when it has no classes.
#pragma db object table("funds_screening_month")
struct ScreeningMonth {
#pragma db id
    std::string month;
    std::int64_t generation = 0;
    std::int64_t class_count = 0;
};

// funds 12: a month's /v1/screening ranking as ScreeningRanking::Serialize writes it
// (domain/rows/screening_ranking.hpp), stored with the generation of the rows it was made from when
// an ingest rebuilds them, so a server loads a month it has not ranked yet in one read instead of
// reading its keys and sorting them.
#pragma db object table("funds_screening_ranking")
struct ScreeningRankingRecord {
#pragma db id
    std::string month;
    std::int64_t generation = 0;
    // clang-format off: ODB reads the database prefixes as written
#pragma db sqlite:type("BLOB") pgsql:type("BYTEA")
    // clang-format on
    std::vector<char> bytes;
};

// ---- version 13: /v1/fundos (domain/rows/fund_list_items.hpp) ------------------------------

// funds 13: a FIDC-universe fund's /v1/fundos item, with its classes, as JSON text
// (domain/rows/fund_list_items.hpp). Derived from the registry: written again by each registry
// ingest that changes it, in the same transaction. Its own table: funds_fund has the text index's
// triggers on UPDATE.
#pragma db object table("funds_fund_list_item")
struct FundListItem {
#pragma db id
    std::int64_t registry_id = 0;  // Fund::registry_id
    std::string json;
};

// A page of /v1/fundos: the funds the filters pick, each with its stored item.
// clang-format off: ODB reads the join as written
#pragma db view object(Fund) object(FundListItem inner: Fund::registry_id == FundListItem::registry_id)
// clang-format on
struct FundListPageRow {
#pragma db column(Fund::fund_id)
    std::string fund_id;
#pragma db column(FundListItem::json)
    std::string json;
};

// The same page as PostgreSQL reads it: each fund's item by a subquery in the select list, which
// PostgreSQL evaluates only for the rows the LIMIT keeps (a join read the item of every match
// before sorting them) and plans apart, so the page's statement, planned anew for its values
// on every call, plans one table instead of a join (docs/performance.md, "Thirteenth round").
// Every fund of the universe has its item (FundListItem); null would mean it had none.
#pragma db view object(Fund)
struct FundListPageRowByItem {
#pragma db column(Fund::fund_id)
    std::string fund_id;
#pragma db column( \
    "(SELECT \"json\" FROM \"funds_fund_list_item\" WHERE \"registry_id\" = " + Fund::registry_id + ")")
    std::optional<std::string> json;
};

// ---- version 14: /v1/classes/{class_id}/carteira/fundos (src/portfolio_fund_answers.hpp) ---

// funds 14: one CDA holder's month of /v1/classes/{class_id}/carteira/fundos, as the handler
// builds it (src/portfolio_funds.hpp): its rows as JSON text and the meta they come with. Derived
// (dataset funds.portfolio_fund_answers) from the four datasets the answer reads, rebuilt inside
// the write transaction of each of their ingests; a holder's month without a stored answer is
// built when asked.
#pragma db object table("funds_portfolio_fund_answer")
struct PortfolioFundAnswer {
#pragma db id auto
    std::int64_t id = 0;
    std::string holder_cnpj;
    std::string month;
    bool previous_month_filed = false;
    std::int64_t outside_positions = 0;
    std::optional<double> outside_position_brl;
    std::int64_t row_count = 0;
    std::string data_json;
#pragma db index("funds_portfolio_fund_answer_holder_month_i") unique members(holder_cnpj, month)
};

// ---- version 15: /v1/fundos on SQLite (domain/search/search_index.hpp) ---------------------

// funds 15: a FIDC-universe fund as SQLite's /v1/fundos finds it, keyed by its page key, which
// grows with fund_id (domain/search/search_index.hpp, PageKeyFloor), so rowid order is page order:
// the folded texts and status its filters match and the ids of its page row. Derived from the
// registry with the items, in the registry ingest's transaction; the trigram index
// funds_fund_search is an external-content FTS5 table over it (its rowid the page key, kept by
// triggers), so matches come out in page order and a page stops at its last row. Written on
// SQLite only: PostgreSQL searches funds_fund with its trigram indexes.
#pragma db object table("funds_fund_search_row")
struct FundSearchRow {
#pragma db id
    std::int64_t page_key = 0;
#pragma db unique
    std::int64_t registry_id = 0;  // Fund::registry_id, FundListItem::registry_id
    std::string fund_id;
    std::string search_text;
    std::optional<std::string> manager_folded;
    std::optional<std::string> administrator_folded;
#pragma db index
    std::optional<std::string> status_folded;
};

// A page of /v1/fundos on SQLite without a text needle of three characters: the search rows
// from a page key on, with their stored items.
// clang-format off: ODB reads the join as written
#pragma db view object(FundSearchRow) \
    object(FundListItem inner: FundSearchRow::registry_id == FundListItem::registry_id)
// clang-format on
struct FundSearchWalkRow {
#pragma db column(FundSearchRow::fund_id)
    std::string fund_id;
#pragma db column(FundListItem::json)
    std::string json;
};

// The same with one: the trigram index's matches in page order, each with its search row (the
// folded LIKEs decide; the query joins it by page key) and its stored item. A cross join, which
// SQLite never reorders: the index drives the page even when a status filter could.
// clang-format off: ODB reads the joins as written
#pragma db view table("funds_fund_search") object(FundSearchRow cross) \
    object(FundListItem inner: FundSearchRow::registry_id == FundListItem::registry_id)
// clang-format on
struct FundSearchMatchRow {
#pragma db column(FundSearchRow::fund_id)
    std::string fund_id;
#pragma db column(FundListItem::json)
    std::string json;
};

}  // namespace lastro::funds
