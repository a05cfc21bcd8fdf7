#include "sample/cotahist_line.hpp"

#include <stdexcept>

namespace lastro::stocks {
namespace {

void Text(std::string& line, std::string_view text, std::size_t width) {
    if (text.size() > width) {
        throw std::logic_error("COTAHIST field too long: " + std::string(text));
    }
    line.append(text);
    line.append(width - text.size(), ' ');
}

void Number(std::string& line, std::int64_t value, std::size_t width) {
    const std::string digits = std::to_string(value);
    if (value < 0 || digits.size() > width) {
        throw std::logic_error("COTAHIST number out of its field: " + digits);
    }
    line.append(width - digits.size(), '0');
    line.append(digits);
}

std::string Yyyymmdd(const sdk::Date& day) {
    std::string text;
    Number(text, day.year, 4);
    Number(text, day.month, 2);
    Number(text, day.day, 2);
    return text;
}

std::string Padded(std::string line) {
    line.append(kCotahistRecordBytes - line.size(), ' ');
    line.append("\r\n");
    return line;
}

}  // namespace

std::string Especi(std::string_view share_class, std::string_view marker, std::string_view segment) {
    std::string especi;
    Text(especi, share_class, 4);
    Text(especi, marker, 4);
    Text(especi, segment, 2);
    // B3 leaves the segment's place blank, and trims nothing: "DRN       " is ten bytes.
    return especi;
}

std::string CotahistLine(const CotahistQuote& q) {
    std::string line;
    line.reserve(kCotahistRecordBytes + 2);
    line.append("01");
    line.append(Yyyymmdd(q.day));
    Number(line, q.codbdi, 2);
    Text(line, q.ticker, 12);
    Number(line, q.tpmerc, 3);
    Text(line, q.nomres, 12);
    Text(line, q.especi, 10);
    Text(line, q.prazot, 3);
    Text(line, "R$", 4);
    for (const std::int64_t price : {q.open, q.high, q.low, q.average, q.close, q.best_bid, q.best_ask}) {
        Number(line, price, 13);
    }
    Number(line, q.trades, 5);
    Number(line, q.quantity, 18);
    Number(line, q.volume, 18);
    Number(line, q.strike, 13);
    line.push_back('0');  // INDOPC
    line.append(Yyyymmdd(q.expiry));
    Number(line, q.fatcot, 7);
    Number(line, 0, 13);  // PTOEXE
    Text(line, q.isin, 12);
    Number(line, q.dismes, 3);
    if (line.size() != kCotahistRecordBytes) {
        throw std::logic_error("COTAHIST record of " + std::to_string(line.size()) + " bytes");
    }
    line.append("\r\n");
    return line;
}

std::string CotahistHeader(int year, const sdk::Date& generated) {
    return Padded("00COTAHIST." + std::to_string(year) + "BOVESPA " + Yyyymmdd(generated));
}

std::string CotahistTrailer(int year, const sdk::Date& generated, std::int64_t records) {
    std::string line = "99COTAHIST." + std::to_string(year) + "BOVESPA " + Yyyymmdd(generated);
    Number(line, records, 11);
    return Padded(line);
}

std::string WithIsinCheckDigit(std::string_view eleven) {
    std::string digits;
    for (const char c : eleven) {
        if (c >= '0' && c <= '9') {
            digits.push_back(c);
        } else if (c >= 'A' && c <= 'Z') {
            digits += std::to_string(c - 'A' + 10);
        } else {
            throw std::logic_error("not an ISIN: " + std::string(eleven));
        }
    }
    // Luhn: from the rightmost digit, double every other one starting with it.
    int sum = 0;
    bool twice = true;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        int d = *it - '0';
        if (twice) {
            d *= 2;
            d = d / 10 + d % 10;
        }
        sum += d;
        twice = !twice;
    }
    return std::string(eleven) + static_cast<char>('0' + (10 - sum % 10) % 10);
}

}  // namespace lastro::stocks
