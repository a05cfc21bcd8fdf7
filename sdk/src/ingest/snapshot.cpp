#include <lastro/sdk/ingest/snapshot.hpp>

#include <charconv>
#include <stdexcept>

namespace lastro::sdk {

Fingerprint& Fingerprint::operator<<(std::string_view value) {
    text_ += 's';
    text_ += std::to_string(value.size());
    text_ += ':';
    text_ += value;
    return *this;
}

Fingerprint& Fingerprint::operator<<(std::int64_t value) {
    text_ += 'i';
    text_ += std::to_string(value);
    text_ += ';';
    return *this;
}

Fingerprint& Fingerprint::operator<<(double value) {
    char buffer[32];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest, exact
    (void)error;  // 32 bytes hold any double
    text_ += 'd';
    text_.append(buffer, end);
    text_ += ';';
    return *this;
}

Fingerprint& Fingerprint::operator<<(bool value) {
    text_ += value ? "b1" : "b0";
    return *this;
}

std::uint64_t Fingerprint::Value() const {
    return std::hash<std::string>{}(text_);
}

void SnapshotDiff::AddStored(std::string key, std::uint64_t fingerprint) {
    stored_.insert_or_assign(std::move(key), Stored{fingerprint, false});
}

bool SnapshotDiff::IsStored(std::string_view key) const {
    return stored_.contains(std::string(key));
}

SnapshotChange SnapshotDiff::Offer(const std::string& key, std::uint64_t fingerprint) {
    const auto it = stored_.find(key);
    if (it == stored_.end()) {
        ++summary_.inserted;
        return SnapshotChange::kInserted;
    }
    if (it->second.seen) {
        throw std::logic_error("snapshot key offered twice: " + key);
    }
    it->second.seen = true;
    if (it->second.fingerprint == fingerprint) {
        ++summary_.unchanged;
        return SnapshotChange::kUnchanged;
    }
    ++summary_.updated;
    return SnapshotChange::kUpdated;
}

std::vector<std::string> SnapshotDiff::TakeRemoved() {
    std::vector<std::string> removed;
    for (auto& [key, stored] : stored_) {
        if (!stored.seen) {
            removed.push_back(key);
        }
    }
    stored_.clear();
    summary_.removed += removed.size();
    return removed;
}

}  // namespace lastro::sdk
