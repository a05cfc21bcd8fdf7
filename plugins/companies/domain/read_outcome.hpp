// What a streaming reader of the plugin's files gives for each line.
#pragma once

namespace lastro::companies {

// kRow: the line is a record; kRejected: it is skipped, with a reason; kEnd: no more lines.
enum class ReadOutcome { kRow, kRejected, kEnd };

}  // namespace lastro::companies
