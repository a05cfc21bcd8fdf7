#include <lastro/sdk/zip_archive.hpp>

#include <lastro/sdk/problem.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace lastro::sdk {

namespace {

zip_t* Zip(void* handle) {
    return static_cast<zip_t*>(handle);
}

std::string LibzipMessage(int code) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    std::string message = zip_error_strerror(&error);
    zip_error_fini(&error);
    return message;
}

class ZipMemberSource final : public ByteSource {
public:
    ZipMemberSource(zip_file_t* file, std::string name) : file_(file), name_(std::move(name)) {}
    ~ZipMemberSource() override { zip_fclose(file_); }
    ZipMemberSource(const ZipMemberSource&) = delete;
    ZipMemberSource& operator=(const ZipMemberSource&) = delete;

    std::size_t Read(char* buffer, std::size_t size) override {
        const zip_int64_t n = zip_fread(file_, buffer, size);
        if (n < 0) {
            // libzip checks the CRC and the length when the member's data runs out.
            throw IngestError(name_, 0,
                              std::string("corrupt or truncated archive member (libzip: ") +
                                  zip_error_strerror(zip_file_get_error(file_)) + ")");
        }
        return static_cast<std::size_t>(n);
    }

    const std::string& Name() const override { return name_; }

private:
    zip_file_t* file_;
    std::string name_;
};

}  // namespace

ZipArchive::ZipArchive(const std::filesystem::path& path) : name_(path.filename().string()) {
    // Opening it ourselves first gives the same "cannot open: <strerror>" as OpenFile, and
    // catches an empty file, which libzip would accept as an archive with no members.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw IngestError(path.string(), 0, std::string("cannot open: ") + std::strerror(errno));
    }
    struct stat status{};
    const bool stat_ok = ::fstat(fd, &status) == 0;
    ::close(fd);
    if (stat_ok && S_ISDIR(status.st_mode)) {
        throw IngestError(path.string(), 0, std::string("cannot open: ") + std::strerror(EISDIR));
    }
    if (stat_ok && status.st_size == 0) {
        throw IngestError(path.string(), 0, "not a zip archive or truncated (empty file)");
    }

    int code = 0;
    zip_t* zip = zip_open(path.c_str(), ZIP_CHECKCONS | ZIP_RDONLY, &code);
    if (zip == nullptr) {
        const bool broken = code == ZIP_ER_NOZIP || code == ZIP_ER_INCONS || code == ZIP_ER_EOF ||
                            code == ZIP_ER_TRUNCATED_ZIP || code == ZIP_ER_MULTIDISK;
        throw IngestError(path.string(), 0,
                          std::string(broken ? "not a zip archive or truncated" : "cannot read zip archive") +
                              " (libzip: " + LibzipMessage(code) + ")");
    }
    zip_ = zip;

    const zip_int64_t count = zip_get_num_entries(zip, 0);
    for (zip_int64_t i = 0; i < count; ++i) {
        const char* member = zip_get_name(zip, static_cast<zip_uint64_t>(i), 0);
        // Directory entries carry no data.
        if (member != nullptr && *member != '\0' && member[std::strlen(member) - 1] != '/') {
            members_.emplace_back(member);
        }
    }
}

ZipArchive::~ZipArchive() {
    if (zip_ != nullptr) {
        zip_discard(Zip(zip_));  // read-only: nothing to write back
    }
}

bool ZipArchive::Has(const std::string& member) const {
    return std::find(members_.begin(), members_.end(), member) != members_.end();
}

std::optional<std::time_t> ZipArchive::ModifiedAt(const std::string& member) const {
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (!Has(member) || zip_stat(Zip(zip_), member.c_str(), 0, &stat) != 0 ||
        !(stat.valid & ZIP_STAT_MTIME)) {
        return std::nullopt;
    }
    return stat.mtime;
}

std::unique_ptr<ByteSource> ZipArchive::Open(const std::string& member) const {
    std::string name = name_ + ":" + member;
    if (!Has(member)) {
        throw IngestError(std::move(name), 0, "no such member in the archive");
    }
    zip_file_t* file = zip_fopen(Zip(zip_), member.c_str(), 0);
    if (file == nullptr) {
        throw IngestError(std::move(name), 0,
                          std::string("cannot open archive member (libzip: ") +
                              zip_error_strerror(zip_get_error(Zip(zip_))) + ")");
    }
    return std::make_unique<ZipMemberSource>(file, std::move(name));
}

ZipWriter::ZipWriter(const std::filesystem::path& path) : path_(path) {
    int code = 0;
    zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (zip == nullptr) {
        throw std::runtime_error("cannot create zip archive " + path.string() + ": " + LibzipMessage(code));
    }
    zip_ = zip;
}

ZipWriter::~ZipWriter() {
    if (zip_ != nullptr) {
        zip_discard(Zip(zip_));  // Close() was not called (or failed): write nothing
    }
}

void ZipWriter::Add(const std::string& member, std::string bytes, std::time_t modified_at) {
    if (zip_ == nullptr) {
        throw std::logic_error("ZipWriter::Add after Close: " + path_.string());
    }
    zip_t* zip = Zip(zip_);
    buffers_.push_back(std::make_unique<std::string>(std::move(bytes)));
    const std::string& data = *buffers_.back();
    auto fail = [&](const char* what) {
        throw std::runtime_error("cannot add " + member + " to zip archive " + path_.string() + ": " + what +
                                 " (libzip: " + zip_strerror(zip) + ")");
    };
    zip_source_t* source = zip_source_buffer(zip, data.data(), data.size(), 0);
    if (source == nullptr) {
        fail("buffer");
    }
    const zip_int64_t index = zip_file_add(zip, member.c_str(), source, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8);
    if (index < 0) {
        zip_source_free(source);  // not taken over by the archive when adding failed
        fail("add");
    }
    const auto entry = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(zip, entry, ZIP_CM_DEFLATE, 0) != 0) {
        fail("compression");
    }
    if (zip_file_set_mtime(zip, entry, modified_at, 0) != 0) {
        fail("modification time");
    }
}

void ZipWriter::Close() {
    if (zip_ == nullptr) {
        return;
    }
    zip_t* zip = Zip(zip_);
    if (zip_close(zip) != 0) {
        const std::string message = zip_strerror(zip);
        zip_discard(zip);
        zip_ = nullptr;
        buffers_.clear();
        throw std::runtime_error("cannot write zip archive " + path_.string() + ": " + message);
    }
    zip_ = nullptr;
    buffers_.clear();
}

}  // namespace lastro::sdk
