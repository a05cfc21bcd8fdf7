// CVM's CSV files as the end-to-end tests read them, with their own code, never the plugin's:
// ISO-8859-1 to UTF-8, ';', LF or CRLF, a header line; loose or as a member of a zip.
#pragma once

#include <lastro/sdk/zip_archive.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lastro::companies::e2e {

using FileRow = std::map<std::string, std::string>;  // column -> field

inline std::string Utf8OfLatin1(const std::string& latin1) {
    std::string utf8;
    for (unsigned char c : latin1) {
        if (c < 0x80) {
            utf8.push_back(static_cast<char>(c));
        } else {
            utf8.push_back(static_cast<char>(0xC0 | (c >> 6)));
            utf8.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
    }
    return utf8;
}

// The rows of a file's Latin-1 bytes, each by column name.
inline std::vector<FileRow> ParseCvmCsv(const std::string& latin1) {
    const std::string text = Utf8OfLatin1(latin1);
    std::vector<std::string> header;
    std::vector<FileRow> rows;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? text.size() : end + 1;
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        std::vector<std::string> fields;
        std::size_t from = 0;
        for (std::size_t at; (at = line.find(';', from)) != std::string::npos; from = at + 1) {
            fields.push_back(line.substr(from, at - from));
        }
        fields.push_back(line.substr(from));
        if (header.empty()) {
            header = std::move(fields);
            continue;
        }
        FileRow row;
        for (std::size_t c = 0; c < header.size(); ++c) {
            row[header[c]] = fields.at(c);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

inline std::vector<FileRow> ReadCvmCsv(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return ParseCvmCsv(std::string(std::istreambuf_iterator<char>(in), {}));
}

inline std::string ZipMemberText(const std::filesystem::path& zip, const std::string& member) {
    sdk::ZipArchive archive(zip);
    std::unique_ptr<sdk::ByteSource> source = archive.Open(member);
    std::string bytes;
    char buffer[1 << 16];
    for (std::size_t read; (read = source->Read(buffer, sizeof buffer)) > 0;) {
        bytes.append(buffer, read);
    }
    return bytes;
}

inline std::vector<FileRow> ReadZipMember(const std::filesystem::path& zip, const std::string& member) {
    return ParseCvmCsv(ZipMemberText(zip, member));
}

inline std::string Digits(const std::string& text) {
    std::string digits;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digits.push_back(c);
        }
    }
    return digits;
}

}  // namespace lastro::companies::e2e
