#include "derive/form_derivations.hpp"

#include "domain/filings/share_rules.hpp"
#include "store/filing_catalog.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

sdk::SqlValue Optional(const std::optional<std::string>& value) {
    return value ? sdk::SqlValue(*value) : std::nullopt;
}

// The stored rows of a form's table, of the documents `documents` (a condition on d) keeps, in
// document and member order: table, document id, place, year, cells, CVM code, CNPJ, reference
// date, version, delivery date.
sdk::SqlRows RowsOf(sdk::SqlSession& sql, std::string_view kind, const std::string& tables,
                    const std::string& documents) {
    return sql.Query(
        "SELECT r.table_key, r.document_id, r.ordinal, r.year, r.cells, d.cvm_code, r.cnpj, r.reference_date,"
        " r.version, d.delivered_at FROM companies_filing_row r JOIN companies_document d ON d.kind = r.kind"
        " AND d.protocol = CAST(r.document_id AS TEXT) AND d.version = r.version"
        // Every year of the kind, so that the rows' key (kind, year, table) is searched, not scanned.
        " WHERE r.kind = $1 AND r.year IN (SELECT DISTINCT year FROM companies_filing_table WHERE kind = $1)"
        " AND r.table_key IN (" +
            tables + ") AND " + documents + " ORDER BY r.document_id, r.table_key, r.ordinal",
        {kind});
}

sdk::IngestSummary Finish(sdk::SqlSession& sql, const std::string& table,
                          const sdk::DerivationContext& context, std::string_view label, std::size_t rows) {
    sdk::IngestSummary summary;
    summary.inserted = rows;
    const std::string day = sdk::Rfc3339Utc(context.now).substr(0, 10);
    summary.release_label = std::string(label) + "-" + day;
    const sdk::SqlRows last = sql.Query("SELECT MAX(delivered_at) FROM " + table);
    if (!last.empty() && last[0][0]) {
        summary.as_of = *last[0][0];
    }
    return summary;
}

}  // namespace

sdk::IngestSummary SecuritiesDerivation::Run(const sdk::DerivationContext& context) {
    sdk::SqlSession sql(context.db);
    sql.Execute("DELETE FROM companies_security");
    const FilingTable table = LoadFilingTable(sql, kFca.kind, "valor_mobiliario");
    // Each company's latest form: the highest version of its latest reference date.
    const sdk::SqlRows rows = RowsOf(
        sql, kFca.kind, "'valor_mobiliario'",
        "NOT EXISTS (SELECT 1 FROM companies_document n WHERE n.kind = d.kind AND n.cvm_code = d.cvm_code"
        " AND (COALESCE(n.reference_date, '') > COALESCE(d.reference_date, '')"
        " OR (COALESCE(n.reference_date, '') = COALESCE(d.reference_date, '') AND n.version > d.version)))");
    sdk::BulkLoader load(context.db, "companies_security", {"cvm_code",
                                                            "cnpj",
                                                            "security",
                                                            "share_class",
                                                            "preferred_class",
                                                            "preferred_class_name",
                                                            "ticker",
                                                            "composition",
                                                            "market",
                                                            "market_entity",
                                                            "market_entity_name",
                                                            "trading_from",
                                                            "trading_to",
                                                            "segment",
                                                            "listed_from",
                                                            "listed_to",
                                                            "reference_date",
                                                            "version",
                                                            "document_id",
                                                            "source_row",
                                                            "delivered_at"});
    for (const auto& row : rows) {
        const FilingCells cells(table, std::stoi(*row[3]), *row[4]);
        const auto security = cells.Get("Valor_Mobiliario");
        const auto preferred = cells.Get("Sigla_Classe_Acao_Preferencial");
        const auto share_class = ShareClassOf(security, preferred);
        const auto name = cells.Get("Classe_Acao_Preferencial");
        const auto ticker = cells.Get("Codigo_Negociacao");
        const auto composition = cells.Get("Composicao_BDR_Unit");
        const auto market = cells.Get("Mercado");
        const auto entity = cells.Get("Sigla_Entidade_Administradora");
        const auto entity_name = cells.Get("Entidade_Administradora");
        const auto trading_from = cells.Get("Data_Inicio_Negociacao");
        const auto trading_to = cells.Get("Data_Fim_Negociacao");
        const auto segment = cells.Get("Segmento");
        const auto listed_from = cells.Get("Data_Inicio_Listagem");
        const auto listed_to = cells.Get("Data_Fim_Listagem");
        load.Add({*row[5],
                  row[6] ? sdk::SqlValue(*row[6]) : std::nullopt,
                  Optional(security),
                  Optional(share_class),
                  Optional(preferred),
                  Optional(name),
                  Optional(ticker),
                  Optional(composition),
                  Optional(market),
                  Optional(entity),
                  Optional(entity_name),
                  Optional(trading_from),
                  Optional(trading_to),
                  Optional(segment),
                  Optional(listed_from),
                  Optional(listed_to),
                  row[7] ? sdk::SqlValue(*row[7]) : std::nullopt,
                  *row[8],
                  *row[1],
                  *row[2],
                  row[9] ? sdk::SqlValue(*row[9]) : std::nullopt});
    }
    load.Finish();
    return Finish(sql, "companies_security", context, "companies-securities", rows.size());
}

sdk::IngestSummary SharesDerivation::Run(const sdk::DerivationContext& context) {
    sdk::SqlSession sql(context.db);
    sql.Execute("DELETE FROM companies_shares");
    const FilingTable capital = LoadFilingTable(sql, kFre.kind, "capital_social");
    const FilingTable classes = LoadFilingTable(sql, kFre.kind, "capital_social_classe_acao");
    const FilingTable spread = LoadFilingTable(sql, kFre.kind, "distribuicao_capital");
    // The latest version of each company's form for each reference date.
    const sdk::SqlRows rows = RowsOf(
        sql, kFre.kind, "'capital_social', 'capital_social_classe_acao', 'distribuicao_capital'",
        "NOT EXISTS (SELECT 1 FROM companies_document n WHERE n.kind = d.kind AND n.delivery = d.delivery"
        " AND n.version > d.version)");
    sdk::BulkLoader load(
        context.db, "companies_shares",
        {"cvm_code", "cnpj", "reference_date", "version", "document_id", "delivered_at", "measure",
         "share_class", "quantity", "source_table", "source_row", "source_column"});
    std::size_t figures = 0;
    // One document at a time: its rows of the three tables arrive together.
    for (std::size_t start = 0; start < rows.size();) {
        std::size_t end = start;
        while (end < rows.size() && *rows[end][1] == *rows[start][1]) {
            ++end;
        }
        const auto& first = rows[start];
        if (!first[7]) {
            start = end;
            continue;  // no reference date: no date to state shares at
        }
        std::set<std::pair<std::string, std::string>> stated;  // (measure, class): the first row states it
        auto add = [&](std::string_view measure, const std::string& share_class,
                       const std::optional<std::string>& quantity, std::string_view table,
                       const std::string& place, std::string_view column) {
            if (!stated.emplace(std::string(measure), share_class).second) {
                return;
            }
            load.Add({*first[5], first[6] ? sdk::SqlValue(*first[6]) : std::nullopt, *first[7], *first[8],
                      *first[1], first[9] ? sdk::SqlValue(*first[9]) : std::nullopt, measure, share_class,
                      Optional(quantity), table, place, column});
            ++figures;
        };
        std::vector<CapitalRow> candidates;
        std::vector<std::size_t> capital_rows;
        for (std::size_t i = start; i < end; ++i) {
            if (*rows[i][0] == "capital_social") {
                const FilingCells cells(capital, std::stoi(*rows[i][3]), *rows[i][4]);
                candidates.push_back({std::stoll(*rows[i][2]), cells.Get("Tipo_Capital"),
                                      cells.Get("Data_Autorizacao_Aprovacao")});
                capital_rows.push_back(i);
            }
        }
        if (const auto chosen = ChooseCapitalRow(candidates)) {
            const auto& row = rows[capital_rows[*chosen]];
            const FilingCells cells(capital, std::stoi(*row[3]), *row[4]);
            add("issued", "ON", cells.Get("Quantidade_Acoes_Ordinarias"), "capital_social", *row[2],
                "Quantidade_Acoes_Ordinarias");
            add("issued", "PN", cells.Get("Quantidade_Acoes_Preferenciais"), "capital_social", *row[2],
                "Quantidade_Acoes_Preferenciais");
            add("issued", "TOTAL", cells.Get("Quantidade_Total_Acoes"), "capital_social", *row[2],
                "Quantidade_Total_Acoes");
            // The preferred classes of the same capital (ID_Capital_Social).
            const auto capital_id = cells.Get("ID_Capital_Social");
            for (std::size_t i = start; i < end && capital_id; ++i) {
                if (*rows[i][0] != "capital_social_classe_acao") {
                    continue;
                }
                const FilingCells class_cells(classes, std::stoi(*rows[i][3]), *rows[i][4]);
                const auto class_name = class_cells.Get("Tipo_Classe_Acao_Preferencial");
                if (class_cells.Get("ID_Capital_Social") == capital_id && class_name && *class_name != "ON" &&
                    *class_name != "PN" && *class_name != "TOTAL") {
                    add("issued", *class_name, class_cells.Get("Quantidade_Acoes"),
                        "capital_social_classe_acao", *rows[i][2], "Quantidade_Acoes");
                }
            }
        }
        for (std::size_t i = start; i < end; ++i) {
            if (*rows[i][0] != "distribuicao_capital") {
                continue;
            }
            const FilingCells cells(spread, std::stoi(*rows[i][3]), *rows[i][4]);
            add("free_float", "ON", cells.Get("Quantidade_Acoes_Ordinarias_Circulacao"),
                "distribuicao_capital", *rows[i][2], "Quantidade_Acoes_Ordinarias_Circulacao");
            add("free_float", "PN", cells.Get("Quantidade_Acoes_Preferenciais_Circulacao"),
                "distribuicao_capital", *rows[i][2], "Quantidade_Acoes_Preferenciais_Circulacao");
            add("free_float", "TOTAL", cells.Get("Quantidade_Total_Acoes_Circulacao"), "distribuicao_capital",
                *rows[i][2], "Quantidade_Total_Acoes_Circulacao");
        }
        start = end;
    }
    load.Finish();
    return Finish(sql, "companies_shares", context, "companies-shares-outstanding", figures);
}

}  // namespace lastro::companies
