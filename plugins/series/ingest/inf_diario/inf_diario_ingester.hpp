// The ingester of CVM's daily fund reports, cvm.inf_diario_fi (docs/datasets/inf_diario_fi.md):
// monthly inf_diario_fi_YYYYMM.zip or .csv, yearly HIST/inf_diario_fi_YYYY.zip archives (monthly
// members, or one yearly member for the early years), any mix. Each month given replaces the
// stored month whole, atomically: rows are streamed into a staging table, one row a series and
// day is kept (domain/daily/filing_rule.hpp), and the month is compared with what is stored;
// values a republication changes or removes are kept as revisions with the vintages they were
// served in (point in time, `as_of`). On PostgreSQL the month is a partition of its own, built
// aside and swapped in; on SQLite only the rows that differ are written.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::series {

class InfDiarioIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::series
