// Writes anbima_subclasses.csv (anbima.subclasses): the subclasses of FIDC-family classes as the
// market association identifies them. No public bulk ANBIMA file exists, so this is our own
// layout: UTF-8, ';', unquoted, LF, the header kAnbimaColumns (layouts/anbima_subclasses.hpp);
// CNPJs bare, dates YYYY-MM-DD, amounts with a decimal point; an empty field is a missing value.
#pragma once

#include "layouts/anbima_subclasses.hpp"
#include "sample/universe.hpp"

#include <cstddef>
#include <string>

namespace lastro::funds::sample {

struct AnbimaFile {
    std::string bytes;  // UTF-8
    std::size_t rows = 0;
};

// One row per registry subclass of a FIDC-family class (seniority ranked), plus one row per
// class (cvm_code empty) for twenty single-class FIDCs in operation without registry subclasses
// at kSample, for every one of them at kFull. No public count of ANBIMA's FIDC codes exists
// (FORMATS.md §8), so the full-size universe's subclasses and classes stand for the real ones.
AnbimaFile RenderAnbimaSubclasses(const Universe& universe, UniverseSize size = UniverseSize::kSample);

}  // namespace lastro::funds::sample
