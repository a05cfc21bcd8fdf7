// The secrets that sign pagination cursors (docs/operations.md, "Cursor secret"). They live in
// a file of their own (cursors.secret_file, default <data_dir>/cursor.key), mode 0600, not in
// the database: whoever holds the secret can forge cursors, and a database is read by more
// people (backups, dumps, replicas) than the service user. Every instance on one database uses
// the same file. The file holds one secret per line (64 hexadecimal digits): the first signs,
// every line verifies, so a rotation can keep the previous secret accepted for a while.
#pragma once

#include <odb/database.hxx>

#include <filesystem>
#include <string>
#include <vector>

namespace lastro::runtime {

// At most this many secrets are accepted at once: the one that signs and the previous one.
inline constexpr std::size_t kMaxCursorSecrets = 2;

// The file's secrets, first the one that signs. Throws storage::StorageError naming the file when
// it is missing, unreadable, open to other users (any group or other permission bit) or malformed.
std::vector<std::string> ReadCursorSecrets(const std::filesystem::path& file);

// Replaces the file atomically (a new file 0600 renamed over it, synced); a directory it has to
// create is 0700. When run as root, the file belongs to the owner of its directory, so that
// `lastro` run as root leaves a file the service user can read.
void WriteCursorSecrets(const std::filesystem::path& file, const std::vector<std::string>& secrets);

// 32 bytes of OpenSSL's CSPRNG, in hexadecimal.
std::string NewCursorSecret();

// `lastro db migrate` (create = true) and lastrod's start (create = false): the secret an older
// version kept in the database (core_setting "cursor_secret") is moved into the file, where it
// goes on signing (cursors already issued stay valid; with a file already there it is kept as
// the accepted previous secret), and only then removed from the database. Without a file and
// without a secret in the database, `create` makes a new secret; otherwise this throws, saying
// to run `lastro db migrate` or to copy the file from an instance on the same database.
// Returns the file's secrets.
std::vector<std::string> EnsureCursorSecrets(odb::database& db, const std::filesystem::path& file,
                                             bool create);

// `lastro cursors rotate`: a new secret signs; with `keep_previous` the one that signed until now
// is still accepted (older ones are dropped). Returns the file's secrets.
std::vector<std::string> RotateCursorSecrets(const std::filesystem::path& file, bool keep_previous);

}  // namespace lastro::runtime
