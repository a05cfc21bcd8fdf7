// Progress of an ingest (docs/ingest-kit.md): counts the rows read into the summary and tells
// the host's IngestProgress (on a terminal, core's ConsoleProgress redraws one line) once every
// `every` rows, so a file of millions of rows makes a bounded number of calls.
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <boost/config.hpp>

#include <cstddef>
#include <string>

namespace lastro::sdk {

class BOOST_SYMBOL_VISIBLE RowCounter {
public:
    static constexpr std::size_t kEvery = 5000;

    RowCounter(IngestProgress& progress, IngestSummary& summary, std::size_t every = kEvery)
        : progress_(progress), summary_(summary), every_(every == 0 ? 1 : every) {}

    // A new stage: "registro_fundo.csv", "2024-06: saving".
    void Stage(const std::string& what) { progress_.Stage(what); }
    // One more row read (summary.rows_read), reported every `every` rows.
    void Row() {
        if (++summary_.rows_read % every_ == 0) {
            progress_.Rows(summary_.rows_read);
        }
    }
    std::size_t Rows() const { return summary_.rows_read; }

private:
    IngestProgress& progress_;
    IngestSummary& summary_;
    std::size_t every_;
};

}  // namespace lastro::sdk
