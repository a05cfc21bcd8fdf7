// One answer of the Central Bank's SGS API exactly as downloaded (a JSON array of {data, valor},
// or its `formato=csv`), read into dated observations with the values' published text, or
// refused naming the file, the line and the reason (docs: ../shared/datasets/DATASETS-2.md §2).
#pragma once

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/problem.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::series {

enum class SgsFormat { kJson, kCsv };

struct SgsObservation {
    sdk::Date date;
    // The published decimal in plain JSON-number text with a point ("0.052531", "-0.21",
    // "0.000000", "82.39"); nullopt when SGS published an empty valor.
    std::optional<std::string> value;
    std::size_t line = 0;  // 1-based line of the file where the observation is (its '{' in JSON)
};

struct SgsAnswer {
    SgsFormat format;
    std::vector<SgsObservation> observations;
};

// The largest answer read (bytes); a bigger file is refused before it is parsed.
inline constexpr std::size_t kMaxSgsAnswerBytes = 64 * 1024 * 1024;

// Reads one answer; throws sdk::IngestError(file_name, line, reason) for anything that is not one.
// The format is told by the content: after an optional UTF-8 byte order mark and blanks, '[' is
// JSON, a first line data;valor (any case, quoted or not) is CSV. Observations are in strictly
// ascending date order, as SGS answers.
SgsAnswer ReadSgsAnswer(std::string_view bytes, const std::string& file_name);

}  // namespace lastro::series
