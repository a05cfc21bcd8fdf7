// The test kit's readers' helpers: in-memory bytes as a ByteSource (handed out at most `chunk`
// bytes at a time, to put line ends on chunk boundaries), and the message of the IngestError a
// read throws. For the SDK's reader tests and a plugin's.
#pragma once

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

namespace lastro::sdk::testing {

class StringSource final : public ByteSource {
public:
    StringSource(std::string bytes, std::size_t chunk, std::string name = "test.csv")
        : bytes_(std::move(bytes)), chunk_(chunk), name_(std::move(name)) {}

    std::size_t Read(char* buffer, std::size_t size) override {
        const std::size_t n = std::min({size, chunk_, bytes_.size() - pos_});
        std::memcpy(buffer, bytes_.data() + pos_, n);
        pos_ += n;
        return n;
    }
    const std::string& Name() const override { return name_; }

private:
    std::string bytes_;
    std::size_t chunk_;
    std::size_t pos_ = 0;
    std::string name_;
};

inline std::unique_ptr<ByteSource> Bytes(std::string bytes, std::string name = "test.csv",
                                         std::size_t chunk = 1 << 20) {
    return std::make_unique<StringSource>(std::move(bytes), chunk, std::move(name));
}

// The message of the IngestError `read` throws; "(no error)" when it throws none.
inline std::string ErrorOf(const std::function<void()>& read) {
    try {
        read();
    } catch (const IngestError& error) {
        return error.what();
    }
    return "(no error)";
}

}  // namespace lastro::sdk::testing
