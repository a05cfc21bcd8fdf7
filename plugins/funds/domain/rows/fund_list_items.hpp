// Each FIDC-universe fund's /v1/fundos item as JSON text (FundListItem, funds schema 13): written
// by the registry ingest that changes it, so a page of /v1/fundos is one statement that joins
// the stored texts of the funds it picks, where it read each fund's columns and its classes and
// wrote them on every call (docs/performance.md, "Ninth round").
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/serving/json_text.hpp>

#include <cstddef>
#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

// The contract 2.4 item of one fund and its classes (in the order given), written to `json`.
void WriteFundListItem(const FundListRow& fund, const std::vector<const ClassListRow*>& classes,
                       sdk::JsonText& json);

// Makes the stored items those of the registry the database holds: one per fund of the FIDC
// universe, with its classes by registry id; writes only what differs and erases the items of
// funds that left the universe. Returns how many items it wrote or erased. Runs inside the
// caller's transaction (the registry ingest's, the migration to funds 13's).
std::size_t RebuildFundListItems(odb::database& db);

}  // namespace lastro::funds
