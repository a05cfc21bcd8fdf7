// COTAHIST as the end-to-end tests read it, with their own code, never the plugin's: the quote
// lines (01) of a file, loose or the member of a zip, cut at the positions B3's layout gives.
#pragma once

#include <lastro/sdk/zip_archive.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace lastro::stocks::e2e {

struct CotahistLine {
    std::string day;  // YYYY-MM-DD
    int bdi = 0;
    std::string ticker;
    int market = 0;
    std::string specification;                                         // trimmed
    std::int64_t open = 0, high = 0, low = 0, average = 0, close = 0;  // hundredths per `factor`
    std::int64_t trades = 0, quantity = 0, volume = 0;
    std::int64_t factor = 1;
    std::string isin;
};

inline std::string Trim(std::string text) {
    text.erase(text.find_last_not_of(' ') + 1);
    text.erase(0,
               text.find_first_not_of(' ') == std::string::npos ? text.size() : text.find_first_not_of(' '));
    return text;
}

inline std::string FileText(const std::filesystem::path& path) {
    if (path.extension() == ".zip" || path.extension() == ".ZIP") {
        sdk::ZipArchive archive(path);
        std::unique_ptr<sdk::ByteSource> source = archive.Open(archive.Members().front());
        std::string bytes;
        char buffer[1 << 16];
        for (std::size_t read; (read = source->Read(buffer, sizeof buffer)) > 0;) {
            bytes.append(buffer, read);
        }
        return bytes;
    }
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every quote line (01) of the file; positions are 1-based in B3's layout.
inline std::vector<CotahistLine> ReadCotahist(const std::filesystem::path& path) {
    const std::string text = FileText(path);
    std::vector<CotahistLine> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (!line.starts_with("01") || line.size() < 245) {
            continue;
        }
        const auto at = [&](std::size_t position, std::size_t length) {
            return line.substr(position - 1, length);
        };
        const auto number = [&](std::size_t position, std::size_t length) {
            return std::stoll(at(position, length));
        };
        CotahistLine q;
        q.day = at(3, 4) + "-" + at(7, 2) + "-" + at(9, 2);
        q.bdi = static_cast<int>(number(11, 2));
        q.ticker = Trim(at(13, 12));
        q.market = static_cast<int>(number(25, 3));
        q.specification = Trim(at(40, 10));
        q.open = number(57, 13);
        q.high = number(70, 13);
        q.low = number(83, 13);
        q.average = number(96, 13);
        q.close = number(109, 13);
        q.trades = number(148, 5);
        q.quantity = number(153, 18);
        q.volume = number(171, 18);
        q.factor = number(211, 7);
        q.isin = Trim(at(231, 12));
        lines.push_back(q);
    }
    return lines;
}

}  // namespace lastro::stocks::e2e
