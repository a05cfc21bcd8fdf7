// Readers of CVM's monthly certificate reports (inf_mensal_cri_YYYY.zip, inf_mensal_cra_YYYY.zip):
// the general member (inf_mensal_{cri,cra}_geral_YYYY.csv, one row per certificate, month and
// version) and the series member (inf_mensal_{cri,cra}_classe_YYYY.csv). On the SDK's
// CvmCsvReader: ISO-8859-1, ';', no quoting, LF or CRLF, columns found by header name. They stream
// one row at a time.
#pragma once

#include "domain/issuances/issuance_record.hpp"
#include "domain/read_outcome.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/cvm_csv.hpp>

#include <memory>
#include <string>
#include <vector>

namespace lastro::companies {

// The general member. The columns read are required (others are ignored, in any order); the CRI
// and CRA layouts name the segment differently. Throws sdk::IngestError naming the file and line 1
// for a header without them, and for what CvmCsvReader refuses (another separator, bytes that are
// not text, a truncated last line).
class ReportReader {
public:
    ReportReader(std::unique_ptr<sdk::ByteSource> source, CertificateKind kind);

    const std::string& SourceName() const { return csv_.SourceName(); }

    // kRow: `report` holds the next row. kRejected: the line is skipped and `problem` says why
    // (another field count; a blank CNPJ_Emissora or Codigo_Identificacao_Certificado; a
    // Data_Referencia, Data_Entrega or Data_Emissao that is not YYYY-MM-DD; a blank or non-integer
    // Versao; a Quantidade_Series or Patrimonio_Liquido_Emissao that is not a number). kEnd: no more.
    ReadOutcome Next(CertificateReport& report, std::string& problem);

private:
    sdk::CvmCsvReader csv_;
    std::vector<std::size_t> index_;
};

// The series member, likewise.
class SeriesReader {
public:
    SeriesReader(std::unique_ptr<sdk::ByteSource> source, CertificateKind kind);

    const std::string& SourceName() const { return csv_.SourceName(); }

    // As ReportReader::Next; a Data_Vencimento that is not YYYY-MM-DD, a paid-in value, quantity
    // or unit value that is not a number are rejections too.
    ReadOutcome Next(CertificateSeries& series, std::string& problem);

private:
    sdk::CvmCsvReader csv_;
    CertificateKind kind_;
    std::vector<std::size_t> index_;
};

}  // namespace lastro::companies
