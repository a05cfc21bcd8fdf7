// The positive segments of each FIDC report's table II (FidcPositiveSegments, funds schema 11):
// what carteira/fundos lists of an invested class, written when the report is saved, so that a
// call parses a few segments instead of the report's whole table II, zeros included
// (docs/performance.md, "carteira/fundos without the whole table II").
#pragma once

#include "funds_model.hxx"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace odb {
class database;
}

namespace lastro::funds {

// The stored positive segments of the report `report_id` whose table II is `segments_json`
// (FidcReport::segments_json); nullopt when the report has no table II row. Throws
// std::runtime_error naming the report when the text is not a JSON array.
std::optional<FidcPositiveSegments> PositiveSegmentsOf(std::int64_t report_id,
                                                       const std::optional<std::string>& segments_json);

// Writes every stored report's positive segments again (the migration to funds 11, and tests that
// persist reports without the ingester); returns how many reports have them.
std::size_t RebuildPositiveSegments(odb::database& db);

}  // namespace lastro::funds
