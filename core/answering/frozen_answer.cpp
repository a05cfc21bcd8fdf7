#include "core/answering/frozen_answer.hpp"

#include "core/answering/csv_table.hpp"

#include <boost/json/serialize.hpp>

namespace lastro::answering {

const FrozenAnswer::Deflated& FrozenAnswer::DeflatedForm() const {
    std::call_once(deflated_once_, [this] {
        deflated_.data = Deflate(data);
        deflated_.meta = Deflate(meta);
        form_bytes_ += deflated_.data.blocks.capacity() + deflated_.meta.blocks.capacity();
    });
    return deflated_;
}

const FrozenAnswer::Csv& FrozenAnswer::CsvForm(const std::string& rows_field) const {
    std::call_once(csv_once_, [&] {
        CsvTable table = RenderCsv(data, rows_field);
        csv_.text = std::move(table.text);
        csv_.rows = table.rows;
        form_bytes_ += csv_.text.capacity();
    });
    return csv_;
}

const std::string& FrozenAnswer::CsvGzipForm(const std::string& rows_field) const {
    const Csv& csv = CsvForm(rows_field);
    std::call_once(csv_gzip_once_, [&] {
        csv_gzip_ = Gzip(csv.text);
        form_bytes_ += csv_gzip_.capacity();
    });
    return csv_gzip_;
}

std::size_t FrozenAnswer::TextBytes() const {
    std::size_t bytes = data.capacity() + meta.capacity() + tag.capacity();
    if (next_position) {
        bytes += boost::json::serialize(*next_position).size();
    }
    return bytes;
}

}  // namespace lastro::answering
