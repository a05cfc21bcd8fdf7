#include "core/runtime/cursor_secret.hpp"

#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core_model-odb.hxx"

#include <openssl/rand.h>
#include <odb/transaction.hxx>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>

namespace lastro::runtime {
namespace {

namespace fs = std::filesystem;

// The name an older version kept the secret under in core_setting.
constexpr const char* kLegacySetting = "cursor_secret";

using storage::StorageError;

bool IsSecret(const std::string& line) {
    return line.size() == 64 && line.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string Errno() {
    return std::strerror(errno);
}

void CreateDirectories(const fs::path& dir) {
    std::vector<fs::path> missing;
    for (fs::path d = dir; !d.empty() && !fs::exists(d); d = d.parent_path()) {
        missing.push_back(d);
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST) {
            throw StorageError("cannot create " + it->string() + ": " + Errno());
        }
    }
}

}  // namespace

std::string NewCursorSecret() {
    unsigned char random[32];
    if (RAND_bytes(random, sizeof random) != 1) {
        throw StorageError("the system's random number generator failed");
    }
    static const char* kHex = "0123456789abcdef";
    std::string secret;
    for (unsigned char b : random) {
        secret.push_back(kHex[b >> 4]);
        secret.push_back(kHex[b & 0x0F]);
    }
    return secret;
}

std::vector<std::string> ReadCursorSecrets(const fs::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw StorageError("cannot read the cursor secret file " + file.string() + ": " + Errno());
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        const std::string error = Errno();
        ::close(fd);
        throw StorageError("cannot read the cursor secret file " + file.string() + ": " + error);
    }
    if ((st.st_mode & 077) != 0) {
        ::close(fd);
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        throw StorageError("the cursor secret file " + file.string() + " is open to other users (mode " +
                           mode + "): run chmod 600 " + file.string() + " (and rotate it if others read it)");
    }
    std::string text;
    char buffer[512];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const std::string error = Errno();
            ::close(fd);
            throw StorageError("cannot read the cursor secret file " + file.string() + ": " + error);
        }
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > 4096) {
            break;
        }
    }
    ::close(fd);
    std::vector<std::string> secrets;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!IsSecret(line) || secrets.size() == kMaxCursorSecrets) {
            throw StorageError(file.string() + ":" + std::to_string(number) +
                               ": expected at most two lines of 64 lower-case hexadecimal digits "
                               "(the secret that signs, then the previous one); to start afresh, delete "
                               "it and run `lastro db migrate`");
        }
        secrets.push_back(line);
    }
    if (secrets.empty()) {
        throw StorageError("the cursor secret file " + file.string() +
                           " is empty; to start afresh, delete it and run `lastro db migrate`");
    }
    return secrets;
}

void WriteCursorSecrets(const fs::path& file, const std::vector<std::string>& secrets) {
    const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
    CreateDirectories(dir);
    std::string text;
    for (const std::string& secret : secrets) {
        text += secret + "\n";
    }
    const fs::path temporary = file.string() + ".new";
    ::unlink(temporary.c_str());  // left by an interrupted write
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        throw StorageError("cannot write " + temporary.string() + ": " + Errno());
    }
    bool ok =
        ::fchmod(fd, 0600) == 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    if (ok && ::geteuid() == 0) {
        // Root (an operator's shell, ./dev) leaves the file to the owner of its directory: the
        // service user, who must read it.
        struct stat st{};
        ok = ::stat(dir.c_str(), &st) == 0 && ::fchown(fd, st.st_uid, st.st_gid) == 0;
    }
    ok = ok && ::fsync(fd) == 0;
    const std::string error = ok ? "" : Errno();
    ::close(fd);
    if (!ok || ::rename(temporary.c_str(), file.c_str()) != 0) {
        const std::string reason = ok ? Errno() : error;
        ::unlink(temporary.c_str());
        throw StorageError("cannot write the cursor secret file " + file.string() + ": " + reason);
    }
    // The rename itself made durable before anything (the database's copy) is removed.
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd >= 0) {
        ::fsync(dir_fd);
        ::close(dir_fd);
    }
}

std::vector<std::string> EnsureCursorSecrets(odb::database& db, const fs::path& file, bool create) {
    std::optional<std::string> legacy;
    {
        odb::transaction t(db.begin());
        std::unique_ptr<storage::Setting> setting(db.find<storage::Setting>(kLegacySetting));
        t.commit();
        if (setting) {
            legacy = setting->value;
        }
    }
    const bool exists = fs::exists(file);
    if (!legacy) {
        if (exists) {
            return ReadCursorSecrets(file);
        }
        if (!create) {
            throw StorageError(
                "no cursor secret file " + file.string() +
                ": run `lastro db migrate`, or, with several instances on one database, copy it "
                "(mode 0600, owned by the service user) from another instance");
        }
        WriteCursorSecrets(file, {NewCursorSecret()});
        return ReadCursorSecrets(file);
    }
    // An older version's secret: it signed every cursor in clients' hands, so it stays accepted.
    std::vector<std::string> secrets;
    if (exists) {
        secrets = ReadCursorSecrets(file);
        if (std::find(secrets.begin(), secrets.end(), *legacy) == secrets.end()) {
            secrets.resize(1);
            secrets.push_back(*legacy);
        }
    } else {
        secrets = {*legacy};
    }
    for (const std::string& secret : secrets) {
        if (!IsSecret(secret)) {
            throw StorageError(
                "the database's cursor secret is not 64 hexadecimal digits; delete it from "
                "core_setting and run `lastro db migrate` for a new one");
        }
    }
    WriteCursorSecrets(file, secrets);
    storage::WithWriteTransaction(db, [&] {
        // Another instance starting at the same time may have moved it already.
        std::unique_ptr<storage::Setting> setting(db.find<storage::Setting>(kLegacySetting));
        if (setting) {
            db.erase(*setting);
        }
    });
    return ReadCursorSecrets(file);
}

std::vector<std::string> RotateCursorSecrets(const fs::path& file, bool keep_previous) {
    std::vector<std::string> secrets{NewCursorSecret()};
    if (keep_previous) {
        secrets.push_back(ReadCursorSecrets(file).front());
    }
    WriteCursorSecrets(file, secrets);
    return ReadCursorSecrets(file);
}

}  // namespace lastro::runtime
