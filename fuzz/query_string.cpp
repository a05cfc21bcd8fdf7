// Fuzz target: the query-string decoder, the way lastrod reads a /v1 request's parameters
// (core/http/api_service.cpp, ReadArguments): the bytes after '?' split into name=value pairs at
// '&' and the first '=', each name and value percent-decoded (core/request/percent_decoding.cpp),
// then converted to typed values (core/plugins/param_conversion.cpp) by the parameters of a real
// operation, taken from the funds and industry plugins' manifests. The first byte picks the
// operation. Decoding and conversion answer with nullopt or a ParamError: nothing may throw.
#include "fuzz_support.hpp"

#include "core/plugins/manifest.hpp"
#include "core/plugins/param_conversion.hpp"
#include "core/request/percent_decoding.hpp"

#include <lastro/sdk/text.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <vector>

using namespace lastro;

namespace {

std::vector<plugins::OperationSpec> operations;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    for (const char* plugin : {"funds", "industry"}) {
        const auto file = std::filesystem::path(LASTRO_SOURCE_DIR) / "plugins" / plugin / "manifest.yaml";
        for (auto& op : plugins::LoadManifest(file).operations) {
            operations.push_back(std::move(op));
        }
    }
    if (operations.empty()) {
        std::fprintf(stderr, "query_string: the manifests declare no operation\n");
        std::abort();
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    const plugins::OperationSpec& op = operations[data[0] % operations.size()];
    std::string_view query(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        std::size_t pairs = 0;
        while (!query.empty() && pairs++ < 32) {  // lastrod refuses more than 32 parameters
            const std::size_t amp = query.find('&');
            const std::string_view pair = query.substr(0, amp);
            query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
            const std::size_t eq = pair.find('=');
            const auto name = request::PercentDecode(pair.substr(0, eq), true);
            const auto value = request::PercentDecode(
                eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
            if (!name || !value) {
                continue;
            }
            (void)sdk::IsValidUtf8(*name);
            if (const plugins::ParamSpec* spec = op.FindParam(*name)) {
                (void)plugins::ConvertParam(*spec, *value);
            }
            // Every parameter type of the operation, whatever the name said.
            for (const plugins::ParamSpec& spec : op.params) {
                (void)plugins::ConvertParam(spec, *value);
            }
        }
    } catch (const std::exception& e) {
        fuzz::UnexpectedException("query_string", e);
    }
    return 0;
}
