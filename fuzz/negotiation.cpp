// Fuzz target: the request headers that choose an answer's representation
// (core/answering/negotiation.cpp): Accept-Encoding, Accept and If-None-Match, each a client's
// text. Checked on every input: nothing throws; "*" and a quoted copy of a tag in the list match
// it; the choices do not depend on a trailing comma or spaces.
#include "fuzz_support.hpp"

#include "core/answering/negotiation.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace lastro::answering;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Coding coding = ChooseCoding(text);
    const bool csv = PrefersCsv(text);
    const std::string padded = std::string(text) + " ,  ";
    if (ChooseCoding(padded) != coding || PrefersCsv(padded) != csv) {
        std::abort();  // an empty element changed a choice
    }
    const std::string tag = "\"abc.json\"";
    NoneMatchNames(text, tag);
    if (!NoneMatchNames(tag + ", " + std::string(text), tag) || !NoneMatchNames("*", tag)) {
        std::abort();
    }
    return 0;
}
