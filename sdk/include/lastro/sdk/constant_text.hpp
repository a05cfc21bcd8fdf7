// Compile-time copies of an interface's constants (its name and identity), for the checks of
// services (services.hpp) and sample universes (sample.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace lastro::sdk {

// A constant's text copied into the caller's own code at compile time. Reading
// T::kServiceIdentity at run time could read another library's copy of it: a static member of
// an exported class is one object per process (STB_GNU_UNIQUE), even across RTLD_LOCAL, so a
// dependent built from an old header would read the provider's identity and pass the check.
template <std::size_t N>
struct ConstantText {
    std::array<char, N> bytes{};
    constexpr std::string_view View() const { return {bytes.data(), N}; }
};

template <std::size_t N>
constexpr ConstantText<N> CopyConstant(std::string_view text) {
    ConstantText<N> copy;
    for (std::size_t i = 0; i < N; ++i) {
        copy.bytes[i] = text[i];
    }
    return copy;
}

}  // namespace lastro::sdk
