#include <lastro/sdk/byte_source.hpp>

#include <lastro/sdk/problem.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lastro::sdk {

namespace {

class FileSource final : public ByteSource {
public:
    FileSource(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
    ~FileSource() override { ::close(fd_); }
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;

    std::size_t Read(char* buffer, std::size_t size) override {
        for (;;) {
            const ssize_t n = ::read(fd_, buffer, size);
            if (n >= 0) {
                return static_cast<std::size_t>(n);
            }
            if (errno != EINTR) {
                throw IngestError(name_, 0, std::string("read error: ") + std::strerror(errno));
            }
        }
    }

    const std::string& Name() const override { return name_; }

private:
    int fd_;
    std::string name_;
};

}  // namespace

std::unique_ptr<ByteSource> OpenFile(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw IngestError(path.string(), 0, std::string("cannot open: ") + std::strerror(errno));
    }
    // A directory opens fine and fails only at read(); say so up front.
    if (struct stat status; ::fstat(fd, &status) == 0 && S_ISDIR(status.st_mode)) {
        ::close(fd);
        throw IngestError(path.string(), 0, std::string("cannot open: ") + std::strerror(EISDIR));
    }
    return std::make_unique<FileSource>(fd, path.filename().string());
}

}  // namespace lastro::sdk
