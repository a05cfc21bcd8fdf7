// Rejections, progress and full-snapshot diffs of the ingest kit: what an ingest's summary says.
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/ingest/snapshot.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lastro::sdk {
namespace {

TEST(RejectionLog, CountsEveryRejectionAndKeepsTheFirstMessages) {
    IngestSummary summary;
    RejectionLog log(summary, 3);
    for (std::size_t line = 2; line < 12; ++line) {
        log.Reject("registro_fundo.csv", line, "invalid CNPJ_Fundo '123'");
    }
    EXPECT_EQ(summary.rejected, 10u);
    EXPECT_EQ(summary.rejections,
              (std::vector<std::string>{"registro_fundo.csv line 2: invalid CNPJ_Fundo '123'",
                                        "registro_fundo.csv line 3: invalid CNPJ_Fundo '123'",
                                        "registro_fundo.csv line 4: invalid CNPJ_Fundo '123'"}));
    EXPECT_FALSE(log.HasRoom());
    EXPECT_FALSE(log.Notice("x.zip:LEIAME.txt: ignored"));
    EXPECT_EQ(summary.rejections.size(), 3u);
}

TEST(RejectionLog, NoticesAreListedButNotCounted) {
    IngestSummary summary;
    RejectionLog log(summary);
    EXPECT_TRUE(log.Notice("x.zip:LEIAME.txt: ignored"));
    EXPECT_EQ(summary.rejected, 0u);
    EXPECT_EQ(summary.rejections, (std::vector<std::string>{"x.zip:LEIAME.txt: ignored"}));
    EXPECT_EQ(RejectionLog::kKept, 20u);
}

class RecordingProgress : public IngestProgress {
public:
    void Stage(const std::string& what) override { stages.push_back(what); }
    void Rows(std::size_t rows_read) override { reports.push_back(rows_read); }
    std::vector<std::string> stages;
    std::vector<std::size_t> reports;
};

TEST(RowCounter, ReportsAtABoundedRate) {
    RecordingProgress progress;
    IngestSummary summary;
    RowCounter rows(progress, summary, 1000);
    rows.Stage("a.csv");
    for (int i = 0; i < 3500; ++i) {
        rows.Row();
    }
    EXPECT_EQ(summary.rows_read, 3500u);
    EXPECT_EQ(rows.Rows(), 3500u);
    EXPECT_EQ(progress.reports, (std::vector<std::size_t>{1000, 2000, 3000}));
    EXPECT_EQ(progress.stages, (std::vector<std::string>{"a.csv"}));
    RowCounter every_row(progress, summary, 0);  // 0 is taken as 1
    every_row.Row();
    EXPECT_EQ(progress.reports.back(), 3501u);
}

TEST(Fingerprint, TellsFieldsApart) {
    EXPECT_EQ(FingerprintOf(std::string("a"), std::int64_t{1}, 2.5, true),
              FingerprintOf(std::string("a"), std::int64_t{1}, 2.5, true));
    EXPECT_NE(FingerprintOf(std::string("ab"), std::string("c")),
              FingerprintOf(std::string("a"), std::string("bc")));
    EXPECT_NE(FingerprintOf(std::optional<std::string>()), FingerprintOf(std::optional<std::string>("")));
    EXPECT_NE(FingerprintOf(std::optional<double>(0.0)), FingerprintOf(std::optional<double>()));
    EXPECT_NE(FingerprintOf(0.1), FingerprintOf(std::nextafter(0.1, 1.0)));
    EXPECT_NE(FingerprintOf(1), FingerprintOf(std::string("1")));
}

struct Row {
    std::string key;
    std::optional<double> amount;
    std::uint64_t Print() const { return FingerprintOf(key, amount); }
};

TEST(SnapshotApplier, InsertsUpdatesLeavesAndRemoves) {
    std::map<std::string, Row> table = {{"a", {"a", 1.0}}, {"b", {"b", 2.0}}, {"c", {"c", std::nullopt}}};
    IngestSummary summary;
    SnapshotApplier<Row> applier(
        summary, {[&](const Row& r) { table.emplace(r.key, r); }, [&](const Row& r) { table.at(r.key) = r; },
                  [&](const std::string& key) { table.erase(key); }});
    for (const auto& [key, row] : table) {
        applier.AddStored(key, row.Print());
    }
    EXPECT_TRUE(applier.IsStored("a"));
    EXPECT_FALSE(applier.IsStored("d"));
    const std::vector<Row> snapshot = {{"a", 1.0}, {"c", 0.0}, {"d", 4.0}};
    std::vector<SnapshotChange> changes;
    for (const Row& row : snapshot) {
        changes.push_back(applier.Apply(row.key, row, row.Print()));
    }
    applier.RemoveUnseen();
    EXPECT_EQ(changes, (std::vector<SnapshotChange>{SnapshotChange::kUnchanged, SnapshotChange::kUpdated,
                                                    SnapshotChange::kInserted}));
    EXPECT_EQ(summary.inserted, 1u);
    EXPECT_EQ(summary.updated, 1u);  // null became 0: a change, not the same value
    EXPECT_EQ(summary.unchanged, 1u);
    EXPECT_EQ(summary.removed, 1u);
    ASSERT_EQ(table.size(), 3u);
    EXPECT_EQ(table.at("c").amount, 0.0);
    EXPECT_FALSE(table.contains("b"));
    EXPECT_EQ(table.at("d").amount, 4.0);
}

TEST(SnapshotDiff, AStoredKeyOfferedTwiceIsAProgrammingError) {
    IngestSummary summary;
    SnapshotDiff diff(summary);
    diff.AddStored("a", 1);
    EXPECT_EQ(diff.Offer("a", 2), SnapshotChange::kUpdated);
    EXPECT_THROW(diff.Offer("a", 2), std::logic_error);
    EXPECT_TRUE(diff.TakeRemoved().empty());
}

TEST(KeepOnePerKey, TheHighestRankThenTheLaterLineWins) {
    // Rank: (not cancelled, date); a missing date ranks lowest.
    using Rank = std::pair<bool, std::optional<std::string>>;
    KeepOnePerKey<Rank> rows;
    rows.Add("1", 2, {true, "2021-01-01"});
    rows.Add("1", 3, {true, "2022-01-01"});
    rows.Add("1", 4, {false, "2023-01-01"});  // cancelled: ranks below any active row
    rows.Add("2", 5, {true, std::nullopt});
    rows.Add("2", 6, {true, std::nullopt});
    rows.Add("3", 7, {false, std::nullopt});
    std::vector<std::string> dropped;
    rows.Resolve([&](std::size_t line, const std::string& key, std::size_t kept) {
        dropped.push_back(std::to_string(line) + ":" + key + "->" + std::to_string(kept));
    });
    EXPECT_EQ(dropped, (std::vector<std::string>{"2:1->3", "4:1->3", "5:2->6"}));
    EXPECT_TRUE(rows.IsKept(3));
    EXPECT_TRUE(rows.IsKept(6));
    EXPECT_TRUE(rows.IsKept(7));
    EXPECT_FALSE(rows.IsKept(2));
    EXPECT_FALSE(rows.IsKept(100));
    EXPECT_EQ(rows.Keys(), 3u);
}

TEST(KeepOnePerKey, WithoutARankTheLastLineWins) {
    KeepOnePerKey<> rows;
    rows.Add("1001", 2);
    rows.Add("1002", 3);
    rows.Add("1001", 6);
    std::vector<std::string> dropped;
    rows.Resolve([&](std::size_t line, const std::string& key, std::size_t kept) {
        dropped.push_back(std::to_string(line) + ":" + key + "->" + std::to_string(kept));
    });
    EXPECT_EQ(dropped, (std::vector<std::string>{"2:1001->6"}));
}

}  // namespace
}  // namespace lastro::sdk
