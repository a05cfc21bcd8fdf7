// The reader of CVM's public offerings (oferta_distribuicao.zip): its two members, the legacy
// regime's oferta_distribuicao.csv and RCVM 160's oferta_resolucao_160.csv, on the SDK's
// CvmCsvReader (ISO-8859-1, ';', no quoting, LF or CRLF, columns found by header name). Only CRI
// and CRA offerings come out (KindOfAsset); the others are counted and passed over unread.
#pragma once

#include "domain/issuances/issuance_record.hpp"
#include "domain/read_outcome.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/cvm_csv.hpp>

#include <memory>
#include <string>
#include <vector>

namespace lastro::companies {

class OfferingReader {
public:
    // Throws sdk::IngestError naming the file and line 1 for a header without the regime's
    // columns, and for what CvmCsvReader refuses.
    OfferingReader(std::unique_ptr<sdk::ByteSource> source, OfferingRegime regime);

    const std::string& SourceName() const { return csv_.SourceName(); }

    // kRow: `offering` is the next CRI or CRA offering. kRejected: a CRI or CRA line that cannot
    // be read, `problem` says why (another field count; no process, registration or request
    // number; a date that is neither YYYY-MM-DD nor DD/MM/YYYY; a quantity or value that is not a
    // number). kEnd: no more. Offerings of other assets are skipped (OtherRows()).
    ReadOutcome Next(OfferingRecord& offering, std::string& problem);

    std::size_t OtherRows() const { return others_; }

private:
    ReadOutcome Read(OfferingRecord& o);

    sdk::CvmCsvReader csv_;
    OfferingRegime regime_;
    std::vector<std::size_t> index_;
    std::size_t others_ = 0;
};

}  // namespace lastro::companies
