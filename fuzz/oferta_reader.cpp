// Fuzz target: the companies plugin's reader of CVM's public offerings
// (plugins/companies/domain/issuances/oferta_reader.cpp); the input is oferta_distribuicao.csv or
// oferta_resolucao_160.csv, as its length picks, handed out in chunks. Only IngestError may come
// out, at a line inside the file. Every record must be a CRI or CRA offering that keeps the reader's
// promises (a key, an asset of its kind, a CNPJ only when the cell is a valid one, real YYYY-MM-DD
// dates whichever format the file wrote, plain decimals, UTF-8 text) or a rejection with a reason.
#include "fuzz_support.hpp"

#include "domain/issuances/issuance_rules.hpp"
#include "domain/issuances/oferta_reader.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

using namespace lastro;

namespace {

constexpr const char* kTarget = "oferta_reader";

[[noreturn]] void Broken(std::size_t line, const std::string& what) {
    fuzz::Broken(kTarget, line, what);
}

void CheckOffering(const companies::OfferingRecord& o) {
    if (o.key.empty() || !sdk::IsValidUtf8(o.key) || companies::KindOfAsset(o.asset) != o.kind) {
        Broken(o.line, "an offering without its key, or of another asset");
    }
    if (o.issuer.cnpj.has_value() != (o.issuer.kind == sdk::DocumentKind::kCnpj) ||
        (o.issuer.cnpj && sdk::ParseCnpj(*o.issuer.cnpj).digits != o.issuer.cnpj)) {
        Broken(o.line, "a CNPJ that is not a valid one, or a valid one not kept");
    }
    for (const auto* date :
         {&o.requested_at, &o.registered_at, &o.closed_at, &o.approved_at, &o.issued_at, &o.maturity}) {
        fuzz::ExpectIsoDate(kTarget, o.line, *date, "a date");
    }
    for (const auto* value : {&o.quantity, &o.value_total}) {
        if (*value && sdk::CheckDecimal(**value) != sdk::ValueStatus::kValue) {
            Broken(o.line, "a quantity or value that is not a plain decimal: " + **value);
        }
    }
    fuzz::ExpectText(kTarget, o.line, o.issuer_name, "Nome_Emissor");
    fuzz::ExpectText(kTarget, o.line, o.emission, "Emissao");
}

template <companies::OfferingRegime kRegime>
struct Offerings : companies::OfferingReader {
    explicit Offerings(std::unique_ptr<sdk::ByteSource> source)
        : OfferingReader(std::move(source), kRegime) {}
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using companies::OfferingRegime;
    auto row = [](const auto&, const companies::OfferingRecord& o) { CheckOffering(o); };
    auto rejected = [](const companies::OfferingRecord& o, const std::string& problem) {
        if (problem.empty() || !sdk::IsValidUtf8(problem)) {
            Broken(o.line, "a rejection without a reason, or not UTF-8: [" + problem + "]");
        }
    };
    if (size % 2 == 0) {
        fuzz::ReadEveryRecord<Offerings<OfferingRegime::kLegacy>, companies::OfferingRecord>(
            kTarget, "oferta_distribuicao.csv", data, size, row, rejected);
    } else {
        fuzz::ReadEveryRecord<Offerings<OfferingRegime::kRcvm160>, companies::OfferingRecord>(
            kTarget, "oferta_resolucao_160.csv", data, size, row, rejected);
    }
    return 0;
}
