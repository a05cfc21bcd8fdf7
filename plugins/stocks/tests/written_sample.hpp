// The stocks sample written once per test binary at scale sample with the default seed, and its
// COTAHIST read back with the SDK's FixedWidthReader (DATASETS-2.md 6.1's positions), not with
// any ingester of the plugin.
#pragma once

#include "sample/sample_writer.hpp"

#include <lastro/sdk/ingest/fixed_width.hpp>
#include <lastro/sdk/sample.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <boost/json.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace lastro::stocks::testing {

// One 01 record; prices in cents as published (per FATCOT shares).
struct Record {
    sdk::Date day;
    std::int64_t codbdi = 0;
    std::string ticker;
    std::int64_t tpmerc = 0;
    std::string especi;
    std::int64_t open = 0, high = 0, low = 0, average = 0, close = 0;
    std::int64_t quantity = 0, volume = 0, fatcot = 0;
    std::string isin;
};

inline std::vector<sdk::RecordLayout> CotahistLayouts() {
    using sdk::FieldType;
    std::vector<sdk::FixedField> quote{{"DATA", 3, 8, FieldType::kDate},
                                       {"CODBDI", 11, 2, FieldType::kInteger},
                                       {"CODNEG", 13, 12, FieldType::kText},
                                       {"TPMERC", 25, 3, FieldType::kInteger},
                                       {"NOMRES", 28, 12, FieldType::kText},
                                       {"ESPECI", 40, 10, FieldType::kText},
                                       {"PRAZOT", 50, 3, FieldType::kText},
                                       {"MODREF", 53, 4, FieldType::kText},
                                       {"PREABE", 57, 13, FieldType::kInteger},
                                       {"PREMAX", 70, 13, FieldType::kInteger},
                                       {"PREMIN", 83, 13, FieldType::kInteger},
                                       {"PREMED", 96, 13, FieldType::kInteger},
                                       {"PREULT", 109, 13, FieldType::kInteger},
                                       {"PREOFC", 122, 13, FieldType::kInteger},
                                       {"PREOFV", 135, 13, FieldType::kInteger},
                                       {"TOTNEG", 148, 5, FieldType::kInteger},
                                       {"QUATOT", 153, 18, FieldType::kInteger},
                                       {"VOLTOT", 171, 18, FieldType::kInteger},
                                       {"PREEXE", 189, 13, FieldType::kInteger},
                                       {"INDOPC", 202, 1, FieldType::kInteger},
                                       {"DATVEN", 203, 8, FieldType::kDate, 0, "99991231"},
                                       {"FATCOT", 211, 7, FieldType::kInteger},
                                       {"PTOEXE", 218, 13, FieldType::kInteger},
                                       {"CODISI", 231, 12, FieldType::kText},
                                       {"DISMES", 243, 3, FieldType::kInteger}};
    return {sdk::RecordLayout("00", {{"ARQUIVO", 3, 13, FieldType::kText},
                                     {"ORIGEM", 16, 8, FieldType::kText},
                                     {"GERACAO", 24, 8, FieldType::kDate}}),
            sdk::RecordLayout("01", quote),
            sdk::RecordLayout("99", {{"ARQUIVO", 3, 13, FieldType::kText},
                                     {"ORIGEM", 16, 8, FieldType::kText},
                                     {"GERACAO", 24, 8, FieldType::kDate},
                                     {"TOTREG", 32, 11, FieldType::kInteger}})};
}

struct WrittenSample {
    sdk::testing::TempDir dir;
    sdk::SampleReport report;
    std::string cotahist;  // the member's bytes
    std::vector<Record> records;
    std::int64_t trailer_count = 0;
    std::size_t lines = 0;
    StockMarket market = DrawStockMarket(sdk::kDefaultSampleSeed, sdk::SampleScale::kSample);

    WrittenSample() {
        StocksSampleWriter writer;
        report = writer.Write({dir.Path(), sdk::kDefaultSampleSeed, sdk::SampleScale::kSample});
        for (auto& [member, bytes] : sdk::testing::ZipMemberBytes(dir.Path() / "COTAHIST_A2026.ZIP")) {
            if (member == "COTAHIST_A2026.TXT") {
                cotahist = bytes;
            }
        }
        sdk::FixedWidthReader reader(sdk::testing::Bytes(cotahist, "COTAHIST_A2026.TXT"), 1, 2,
                                     CotahistLayouts());
        const sdk::RecordLayout& q = reader.LayoutOf("01");
        while (reader.Next()) {
            ++lines;
            if (reader.Type() == "99") {
                trailer_count = *reader.Integer(reader.Layout().Index("TOTREG"));
            }
            if (reader.Type() != "01") {
                continue;
            }
            Record r;
            r.day = *reader.DateValue(q.Index("DATA"));
            r.codbdi = *reader.Integer(q.Index("CODBDI"));
            r.ticker = *reader.Text(q.Index("CODNEG"));
            r.tpmerc = *reader.Integer(q.Index("TPMERC"));
            r.especi = reader.Text(q.Index("ESPECI")).value_or("");
            r.open = *reader.Integer(q.Index("PREABE"));
            r.high = *reader.Integer(q.Index("PREMAX"));
            r.low = *reader.Integer(q.Index("PREMIN"));
            r.average = *reader.Integer(q.Index("PREMED"));
            r.close = *reader.Integer(q.Index("PREULT"));
            r.quantity = *reader.Integer(q.Index("QUATOT"));
            r.volume = *reader.Integer(q.Index("VOLTOT"));
            r.fatcot = *reader.Integer(q.Index("FATCOT"));
            r.isin = *reader.Text(q.Index("CODISI"));
            records.push_back(std::move(r));
        }
    }

    std::string File(const std::string& name) const {
        std::ifstream in(dir.Path() / name, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        return bytes.str();
    }
    boost::json::value Json(const std::string& name) const { return boost::json::parse(File(name)); }

    // The cash market's (TPMERC 010) closes of a ticker, by day.
    std::map<sdk::Date, std::int64_t> Closes(const std::string& ticker) const {
        std::map<sdk::Date, std::int64_t> closes;
        for (const Record& r : records) {
            if (r.ticker == ticker && r.tpmerc == 10) {
                closes[r.day] = r.close;
            }
        }
        return closes;
    }
};

inline const WrittenSample& Sample() {
    static const WrittenSample sample;
    return sample;
}

}  // namespace lastro::stocks::testing
