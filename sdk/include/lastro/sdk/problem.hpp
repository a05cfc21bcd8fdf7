// Typed outcomes a handler (or the host's own validation) signals by throwing. The core alone
// maps them to an HTTP status and a problem+json body (StatusOf in core/http/problem.cpp) and
// the status to a billing decision (core/billing/settlement.cpp). When adding a ProblemCode,
// update StatusOf and the errors table of docs/api.md.
#pragma once

#include <boost/config.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace lastro::sdk {

enum class ProblemCode {
    kBadRequest,        // 400: a combination of parameters that cannot be answered; refunded
    kForbidden,         // 403: refunded
    kNotFound,          // 404: no entity, month or resource matches; charged
    kInvalidParameter,  // 422: one parameter fails validation; refunded
    kUnavailable,       // 503: a data source is not loaded or not reachable; refunded
};

class BOOST_SYMBOL_VISIBLE Problem : public std::runtime_error {
public:
    Problem(ProblemCode code, std::string detail, std::optional<std::string> parameter = std::nullopt)
        : std::runtime_error(detail), code_(code), parameter_(std::move(parameter)) {}

    ProblemCode Code() const noexcept { return code_; }
    const std::optional<std::string>& Parameter() const noexcept { return parameter_; }

private:
    ProblemCode code_;
    std::optional<std::string> parameter_;
};

class BOOST_SYMBOL_VISIBLE BadRequest : public Problem {
public:
    explicit BadRequest(std::string detail, std::optional<std::string> parameter = std::nullopt)
        : Problem(ProblemCode::kBadRequest, std::move(detail), std::move(parameter)) {}
};

class BOOST_SYMBOL_VISIBLE NotFound : public Problem {
public:
    explicit NotFound(std::string detail, std::optional<std::string> parameter = std::nullopt)
        : Problem(ProblemCode::kNotFound, std::move(detail), std::move(parameter)) {}
};

class BOOST_SYMBOL_VISIBLE InvalidParameter : public Problem {
public:
    InvalidParameter(std::string parameter, std::string detail)
        : Problem(ProblemCode::kInvalidParameter, std::move(detail), std::move(parameter)) {}
};

class BOOST_SYMBOL_VISIBLE Unavailable : public Problem {
public:
    explicit Unavailable(std::string detail) : Problem(ProblemCode::kUnavailable, std::move(detail)) {}
};

// A data file that cannot be ingested. Names the file and, when known, the 1-based line.
class BOOST_SYMBOL_VISIBLE IngestError : public std::runtime_error {
public:
    IngestError(std::string file, std::size_t line, const std::string& message)
        : std::runtime_error(file + (line ? ":" + std::to_string(line) : std::string()) + ": " + message),
          file_(std::move(file)),
          line_(line) {}

    const std::string& File() const noexcept { return file_; }
    std::size_t Line() const noexcept { return line_; }

private:
    std::string file_;
    std::size_t line_;
};

}  // namespace lastro::sdk
