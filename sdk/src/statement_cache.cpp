#include <lastro/sdk/statement_cache.hpp>

#include <odb/pgsql/connection.hxx>
#include <odb/pgsql/statement-cache.hxx>
#include <odb/pgsql/statements-base.hxx>
#include <odb/sqlite/connection.hxx>
#include <odb/sqlite/statement-cache.hxx>
#include <odb/sqlite/statements-base.hxx>
#include <odb/traits.hxx>

namespace lastro::sdk {
namespace {

// A class with no table whose only trait is a statements type holding nothing: looking it up in
// a statement cache is the one public way to make ODB compare the cache's version with the
// database's and drop the stale statements.
struct CacheProbe {};

template <typename Base>
struct NoStatements : Base {
    explicit NoStatements(typename Base::connection_type& connection) : Base(connection) {}
};

}  // namespace
}  // namespace lastro::sdk

namespace odb {

template <>
class access::object_traits<lastro::sdk::CacheProbe> {
public:
    using object_type = lastro::sdk::CacheProbe;
    using pointer_type = lastro::sdk::CacheProbe*;
};

template <>
class access::object_traits_impl<lastro::sdk::CacheProbe, id_sqlite> {
public:
    using statements_type = lastro::sdk::NoStatements<sqlite::statements_base>;
};

template <>
class access::object_traits_impl<lastro::sdk::CacheProbe, id_pgsql> {
public:
    using statements_type = lastro::sdk::NoStatements<pgsql::statements_base>;
};

}  // namespace odb

namespace lastro::sdk {
namespace {

// odb::connection keeps its cached queries in a protected map and offers only clearing them all
// (protected too); a derived class may name the member, and the pointer reaches any connection.
class CachedQueries : public odb::connection {
public:
    static void Forget(odb::connection& connection, const char* name) {
        auto& cached = connection.*(&CachedQueries::prepared_map_);
        const auto entry = cached.find(name);
        if (entry == cached.end()) {
            return;
        }
        if (entry->second.params != nullptr) {
            entry->second.params_deleter(entry->second.params);
        }
        cached.erase(entry);
    }
};

}  // namespace

void CatchUpStatementCache(odb::connection& connection) {
    switch (connection.database().id()) {
        case odb::id_sqlite:
            static_cast<odb::sqlite::connection&>(connection).statement_cache().find_object<CacheProbe>();
            break;
        case odb::id_pgsql:
            static_cast<odb::pgsql::connection&>(connection).statement_cache().find_object<CacheProbe>();
            break;
        default:
            break;
    }
}

void ForgetCachedQuery(odb::connection& connection, const char* name) {
    CachedQueries::Forget(connection, name);
}

}  // namespace lastro::sdk
