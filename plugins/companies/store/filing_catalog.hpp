// Reading the forms' stored rows back (model/filing_tables.cpp): a table's columns per year from
// its catalog, and a stored row's cells by column name. Used by the handlers and the derivations
// alike, so the layout of companies_filing_row is known here only.
#pragma once

#include "domain/filings/filing_rules.hpp"

#include <lastro/sdk/bulk_sql.hpp>

#include <boost/json/value.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::companies {

struct FilingColumn {
    std::string name;
    CellType type = CellType::kText;
};

// A table of a form's catalog: its published name and its columns in each year loaded; empty
// years when the table was never seen.
struct FilingTable {
    std::string name;
    std::map<int, std::vector<FilingColumn>> years;
};

FilingTable LoadFilingTable(sdk::SqlSession& sql, std::string_view kind, std::string_view table);

// One stored row's cells (the JSON array of companies_filing_row.cells) read by column name,
// with the columns of the year the row was published in.
class FilingCells {
public:
    FilingCells(const FilingTable& table, int year, const std::string& cells_json);

    // The published text of `column`; nullopt for a blank cell or a column that year lacks.
    std::optional<std::string> Get(std::string_view column) const;
    const std::vector<FilingColumn>& Columns() const { return *columns_; }
    const boost::json::array& Cells() const { return cells_.as_array(); }

private:
    static const std::vector<FilingColumn> kNone;
    const std::vector<FilingColumn>* columns_ = &kNone;
    boost::json::value cells_;
};

}  // namespace lastro::companies
