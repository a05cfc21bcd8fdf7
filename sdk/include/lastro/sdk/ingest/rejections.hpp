// Rejected rows and notices for an ingest's summary (docs/ingest-kit.md): every rejection is
// counted, only the first few messages are kept, so a file with a million bad rows still gives
// a short summary ("... and N more rejections" is the host's to print).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <boost/config.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace lastro::sdk {

class BOOST_SYMBOL_VISIBLE RejectionLog {
public:
    static constexpr std::size_t kKept = 20;

    explicit RejectionLog(IngestSummary& summary, std::size_t kept = kKept)
        : summary_(summary), kept_(kept) {}

    // A row left out: counted in summary.rejected; "registro_fundo.csv line 12: why" kept while
    // fewer than `kept` messages are.
    void Reject(std::string_view file, std::size_t line, std::string_view why);
    // Something the summary should say that is not a rejected row (an ignored archive member, a
    // conflicting row resolved by a rule): kept while there is room; false when it was not.
    bool Notice(std::string message);
    bool HasRoom() const { return summary_.rejections.size() < kept_; }

private:
    IngestSummary& summary_;
    std::size_t kept_;
};

}  // namespace lastro::sdk
