// The SDK's sample kit (<lastro/sdk/sample/...>, the host's docs/sample-data.md) under its own names in the
// funds sample: seeded streams, CSV tables, exact money, dates and zip members.
#pragma once

#include <lastro/sdk/sample/csv_table.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/sample/prng.hpp>
#include <lastro/sdk/sample/sample_directory.hpp>

namespace lastro::funds::sample {

using sdk::sample::AddDays;
using sdk::sample::Allocate;
using sdk::sample::ArchiveMember;
using sdk::sample::Cents;
using sdk::sample::CentsField;
using sdk::sample::CsvTable;
using sdk::sample::DateField;
using sdk::sample::Decimal;
using sdk::sample::Earlier;
using sdk::sample::FlagField;
using sdk::sample::IntegerField;
using sdk::sample::kE8;
using sdk::sample::kPpm;
using sdk::sample::LastDayOfMonth;
using sdk::sample::LastWeekdayOfMonth;
using sdk::sample::Later;
using sdk::sample::MulDiv;
using sdk::sample::NextWeekday;
using sdk::sample::Prng;
using sdk::sample::RandomDate;
using sdk::sample::RecentSkewedDate;
using sdk::sample::Share;
using sdk::sample::ValueInCents;
using sdk::sample::ValueSum;

}  // namespace lastro::funds::sample
