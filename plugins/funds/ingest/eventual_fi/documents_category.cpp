#include "ingest/eventual_fi/documents_category.hpp"

#include <lastro/sdk/text.hpp>

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace lastro::funds {

namespace {

std::vector<std::string_view> Words(std::string_view slug) {
    std::vector<std::string_view> words;
    while (!slug.empty()) {
        const std::size_t dash = slug.find('-');
        words.push_back(slug.substr(0, dash));
        if (dash == std::string_view::npos) {
            break;
        }
        slug.remove_prefix(dash + 1);
    }
    return words;
}

class WordSet {
public:
    explicit WordSet(std::string_view slug) : words_(Words(slug)) {}

    bool Has(std::initializer_list<std::string_view> exact) const {
        return std::any_of(words_.begin(), words_.end(), [&](std::string_view word) {
            return std::find(exact.begin(), exact.end(), word) != exact.end();
        });
    }
    bool HasPrefix(std::initializer_list<std::string_view> prefixes) const {
        return std::any_of(words_.begin(), words_.end(), [&](std::string_view word) {
            return std::any_of(prefixes.begin(), prefixes.end(),
                               [&](std::string_view prefix) { return word.starts_with(prefix); });
        });
    }
    // A word starting with `first` directly followed by one starting with `second`.
    bool HasPair(std::string_view first, std::string_view second) const {
        for (std::size_t i = 0; i + 1 < words_.size(); ++i) {
            if (words_[i].starts_with(first) && words_[i + 1].starts_with(second)) {
                return true;
            }
        }
        return false;
    }
    bool StartsWith(std::string_view word) const { return !words_.empty() && words_.front() == word; }

private:
    std::vector<std::string_view> words_;
};

}  // namespace

std::string DocumentTypeSlug(std::string_view document_type) {
    const std::string folded = sdk::FoldForSearch(document_type);
    std::string slug;
    bool pending_dash = false;
    for (char c : folded) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            if (pending_dash && !slug.empty()) {
                slug += '-';
            }
            pending_dash = false;
            slug += c;
        } else {
            pending_dash = true;
        }
    }
    return slug;
}

std::string DocumentCategory(std::string_view slug) {
    const WordSet w(slug);
    // Rating before report: "REL. RATING" is a rating report.
    if (w.HasPrefix({"rating"}) || (w.Has({"classificacao"}) && w.HasPrefix({"risco"}))) {
        return "rating";
    }
    if (w.HasPair("fato", "relev")) {
        return "material_fact";
    }
    if (w.HasPrefix({"demonst", "balancete"}) || w.Has({"df", "dfs"}) ||
        (w.Has({"parecer"}) && w.HasPrefix({"aud"}))) {
        return "financial_statements";
    }
    // SGF ANEXO / SGF APENDICE are the annex and appendices of an RCVM 175 regulation.
    if (w.Has({"regul", "regulament"}) || w.HasPrefix({"regulament", "estatut"}) || w.StartsWith("sgf")) {
        return "regulation";
    }
    if (w.Has({"ago", "age", "agc", "agd", "aged", "agoe", "ageo", "aed", "ata", "atas"}) ||
        w.HasPrefix({"assembl", "convoca", "edital", "deliberac", "consulta", "propost", "propadm"})) {
        return "meeting";
    }
    if (w.HasPrefix({"comunic", "aviso", "anuncio"})) {
        return "notice";
    }
    if (w.HasPrefix({"publicit", "lamina", "prospec"})) {
        return "marketing";
    }
    if (w.Has({"rel"}) || w.HasPrefix({"relat", "inform"})) {
        return "report";
    }
    return "other";
}

}  // namespace lastro::funds
