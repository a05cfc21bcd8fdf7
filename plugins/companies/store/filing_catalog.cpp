#include "store/filing_catalog.hpp"

#include <boost/json/parse.hpp>

namespace lastro::companies {

const std::vector<FilingColumn> FilingCells::kNone;

FilingTable LoadFilingTable(sdk::SqlSession& sql, std::string_view kind, std::string_view table) {
    FilingTable found;
    for (const auto& row : sql.Query("SELECT table_name, year, columns FROM companies_filing_table"
                                     " WHERE kind = $1 AND table_key = $2 ORDER BY year",
                                     {kind, TableKey(table)})) {
        found.name = *row[0];
        std::vector<FilingColumn>& columns = found.years[std::stoi(*row[1])];
        const boost::json::value parsed = boost::json::parse(*row[2]);
        for (const boost::json::value& item : parsed.as_array()) {
            const boost::json::object& column = item.as_object();
            columns.push_back({std::string(column.at("name").as_string()),
                               CellTypeNamed(column.at("type").as_string()).value_or(CellType::kText)});
        }
    }
    return found;
}

FilingCells::FilingCells(const FilingTable& table, int year, const std::string& cells_json)
    : cells_(boost::json::parse(cells_json)) {
    if (const auto found = table.years.find(year); found != table.years.end()) {
        columns_ = &found->second;
    }
}

std::optional<std::string> FilingCells::Get(std::string_view column) const {
    const boost::json::array& cells = cells_.as_array();
    for (std::size_t i = 0; i < columns_->size() && i < cells.size(); ++i) {
        if ((*columns_)[i].name == column) {
            return cells[i].is_string() ? std::optional<std::string>(std::string(cells[i].as_string()))
                                        : std::nullopt;
        }
    }
    return std::nullopt;
}

}  // namespace lastro::companies
