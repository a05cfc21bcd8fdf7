// Streaming byte sources for ingesters: a plain file or a member of a zip archive. Data files
// are read in fixed-size chunks, never loaded whole, so memory does not grow with file size.
#pragma once

#include <boost/config.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

namespace lastro::sdk {

class BOOST_SYMBOL_VISIBLE ByteSource {
public:
    virtual ~ByteSource() = default;
    // Reads up to `size` bytes; returns 0 at the end. Throws IngestError on a read failure
    // (for a zip member: a CRC mismatch or a truncated archive).
    virtual std::size_t Read(char* buffer, std::size_t size) = 0;
    // The name used in messages: "registro_fundo.csv" or "registro_fundo_classe.zip:registro_fundo.csv".
    virtual const std::string& Name() const = 0;
};

BOOST_SYMBOL_VISIBLE std::unique_ptr<ByteSource> OpenFile(const std::filesystem::path& path);

}  // namespace lastro::sdk
