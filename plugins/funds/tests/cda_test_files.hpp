// Test support for cvm.cda_fi: CDA members written in CVM's real format (ISO-8859-1, ';', CRLF,
// the headers of FORMATS section 4), as a cda_fi_YYYYMM.zip or loose CSVs, and the ingester run
// in one write transaction as the host runs it.
#pragma once

#include "ingest/cda_ingester.hpp"
#include "registry_fixture.hpp"
#include "src/class_reports.hpp"

#include <lastro/sdk/text.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <map>
#include <string>
#include <vector>

namespace lastro::funds::testing {

inline const std::vector<std::string> kCdaKeys = {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL",
                                                  "DT_COMPTC"};
inline const std::vector<std::string> kCdaCommon = {
    "TP_APLIC",       "TP_ATIVO",          "EMISSOR_LIGADO",     "TP_NEGOC",
    "QT_VENDA_NEGOC", "VL_VENDA_NEGOC",    "QT_AQUIS_NEGOC",     "VL_AQUIS_NEGOC",
    "QT_POS_FINAL",   "VL_MERC_POS_FINAL", "VL_CUSTO_POS_FINAL", "DT_CONFID_APLIC"};

inline std::vector<std::string> Concat(std::initializer_list<std::vector<std::string>> parts) {
    std::vector<std::string> all;
    for (const auto& part : parts) {
        all.insert(all.end(), part.begin(), part.end());
    }
    return all;
}

// The header of each member kind, by the member's prefix ("cda_fi_BLC_4").
inline std::map<std::string, std::vector<std::string>> CdaHeaders() {
    return {
        {"cda_fi_PL", Concat({kCdaKeys, {"VL_PATRIM_LIQ"}})},
        // BLC_1 in another column order than the others: columns are found by name.
        {"cda_fi_BLC_1",
         Concat({{"TP_TITPUB", "CD_ISIN", "CD_SELIC", "DT_EMISSAO", "DT_VENC"}, kCdaCommon, kCdaKeys})},
        {"cda_fi_BLC_2",
         Concat({kCdaKeys,
                 kCdaCommon,
                 {"CNPJ_FUNDO_CLASSE_COTA", "NM_FUNDO_CLASSE_SUBCLASSE_COTA", "ID_SUBCLASSE"}})},
        {"cda_fi_BLC_3", Concat({kCdaKeys, kCdaCommon, {"CD_SWAP", "DS_SWAP"}})},
        // The header confirmed on real files (FORMATS 4).
        {"cda_fi_BLC_4", Concat({kCdaKeys,
                                 kCdaCommon,
                                 {"CD_ATIVO", "DS_ATIVO", "CD_ISIN", "DT_INI_VIGENCIA", "DT_FIM_VIGENCIA"}})},
        {"cda_fi_BLC_5", Concat({kCdaKeys,
                                 kCdaCommon,
                                 {"CNPJ_EMISSOR", "EMISSOR", "DT_VENC", "TITULO_POSFX", "CD_INDEXADOR_POSFX",
                                  "DS_INDEXADOR_POSFX", "PR_INDEXADOR_POSFX", "PR_CUPOM_POSFX",
                                  "PR_TAXA_PREFX", "RISCO_EMISSOR", "AG_RISCO", "DT_RISCO", "GRAU_RISCO"}})},
        {"cda_fi_BLC_6",
         Concat({kCdaKeys,
                 kCdaCommon,
                 {"PF_PJ_EMISSOR", "CPF_CNPJ_EMISSOR", "EMISSOR", "DT_VENC", "TITULO_POSFX",
                  "CD_INDEXADOR_POSFX", "DS_INDEXADOR_POSFX", "PR_INDEXADOR_POSFX", "PR_CUPOM_POSFX",
                  "PR_TAXA_PREFX", "TITULO_CETIP", "TITULO_GARANTIA", "CNPJ_INSTITUICAO_FINANC_COOBR"}})},
        {"cda_fi_BLC_7",
         Concat({kCdaKeys,
                 kCdaCommon,
                 {"INVEST_COLETIVO", "INVEST_COLETIVO_GESTOR", "EMISSOR", "DT_VENC", "CD_PAIS", "PAIS",
                  "CD_BV_MERC", "BV_MERC", "CD_ATIVO_BV_MERC", "RISCO_EMISSOR", "AG_RISCO", "DT_RISCO",
                  "GRAU_RISCO", "DS_ATIVO_EXTERIOR", "QT_ATIVO_EXTERIOR", "VL_ATIVO_EXTERIOR"}})},
        {"cda_fi_BLC_8",
         Concat({kCdaKeys, kCdaCommon, {"DS_ATIVO", "PF_PJ_EMISSOR", "CPF_CNPJ_EMISSOR", "EMISSOR"}})},
        {"cda_fie", Concat({kCdaKeys,
                            {"VL_PATRIM_LIQ"},
                            kCdaCommon,
                            {"CD_ATIVO", "DS_ATIVO", "DT_VENC", "PF_PJ_EMISSOR", "CPF_CNPJ_EMISSOR",
                             "EMISSOR", "RISCO_EMISSOR", "CD_SELIC", "DT_INI_VIGENCIA", "CD_PAIS", "PAIS",
                             "CD_BV_MERC", "BV_MERC"}})},
        {"cda_fi_CONFID", Concat({kCdaKeys,
                                  {"TP_APLIC", "VL_VENDA_NEGOC", "VL_AQUIS_NEGOC", "VL_MERC_POS_FINAL",
                                   "VL_CUSTO_POS_FINAL", "DT_CONFID_APLIC"}})},
        {"cda_fie_CONFID", Concat({kCdaKeys,
                                   {"TP_APLIC", "VL_VENDA_NEGOC", "VL_AQUIS_NEGOC", "VL_MERC_POS_FINAL",
                                    "VL_CUSTO_POS_FINAL", "DT_CONFID_APLIC"}})},
    };
}

// One month of CDA members as text lines (UTF-8), header first; written as ISO-8859-1 + CRLF.
class CdaMonth {
public:
    // `yyyymm` as in the file names: "202406". Every required member starts with its header
    // only; fie and the CONFID members exist once a row is added.
    explicit CdaMonth(std::string yyyymm) : yyyymm_(std::move(yyyymm)) {
        for (const char* prefix :
             {"cda_fi_PL", "cda_fi_BLC_1", "cda_fi_BLC_2", "cda_fi_BLC_3", "cda_fi_BLC_4", "cda_fi_BLC_5",
              "cda_fi_BLC_6", "cda_fi_BLC_7", "cda_fi_BLC_8"}) {
            Ensure(prefix);
        }
    }

    const std::string& Digits() const { return yyyymm_; }
    std::string MemberName(const std::string& prefix) const { return prefix + "_" + yyyymm_ + ".csv"; }

    // Adds a row to the member `prefix` ("cda_fi_BLC_4"); columns not given are empty.
    void Row(const std::string& prefix, const Fields& fields) {
        Ensure(prefix);
        members_[prefix].push_back(Line(CdaHeaders().at(prefix), fields));
    }
    // Adds a line as is (a wrong field count, a repeated line).
    void RawLine(const std::string& prefix, const std::string& line) {
        Ensure(prefix);
        members_[prefix].push_back(line);
    }
    // Replaces the member's header (a missing or renamed column).
    void SetHeader(const std::string& prefix, const std::vector<std::string>& header) {
        Ensure(prefix);
        members_[prefix].front() = Join(header);
    }
    void Remove(const std::string& prefix) { members_.erase(prefix); }
    const std::vector<std::string>& Lines(const std::string& prefix) const { return members_.at(prefix); }

    static std::string Bytes(const std::vector<std::string>& lines) {
        std::string text;
        for (const std::string& line : lines) {
            text += line + "\r\n";
        }
        return sdk::Utf8ToLatin1(text);
    }

    fs::path WriteZip(const fs::path& dir) const {
        const fs::path path = dir / ("cda_fi_" + yyyymm_ + ".zip");
        sdk::ZipWriter zip(path);
        for (const auto& [prefix, lines] : members_) {
            zip.Add(MemberName(prefix), Bytes(lines), SnapshotTime());
        }
        zip.Close();
        return path;
    }

    std::vector<fs::path> WriteLoose(const fs::path& dir) const {
        std::vector<fs::path> paths;
        for (const auto& [prefix, lines] : members_) {
            paths.push_back(dir / MemberName(prefix));
            WriteFile(paths.back(), Bytes(lines));
        }
        return paths;
    }

private:
    void Ensure(const std::string& prefix) {
        if (members_.count(prefix) == 0) {
            members_[prefix] = {Join(CdaHeaders().at(prefix))};
        }
    }

    std::string yyyymm_;
    std::map<std::string, std::vector<std::string>> members_;
};

// Runs the CDA ingester in one write transaction, as the host does: a throw rolls it back.
inline sdk::IngestSummary IngestCda(odb::database& db, const std::vector<fs::path>& inputs,
                                    CountingProgress* progress = nullptr) {
    CountingProgress local;
    const std::string dataset(kCdaDataset);
    odb::transaction transaction(db.begin());
    sdk::IngestContext context{dataset, inputs, db, progress ? *progress : local, SnapshotTime()};
    sdk::IngestSummary summary = CdaIngester().Run(context);
    transaction.commit();
    return summary;
}

}  // namespace lastro::funds::testing
