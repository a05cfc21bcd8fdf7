// ODB 2.4 has no std::optional mapping (it arrived in 2.6): this teaches it, so persistent
// classes can say std::optional<T> for nullable columns. Include it from every model header.
#pragma once

#include <odb/wrapper-traits.hxx>

#include <optional>

namespace odb {

template <typename T>
class wrapper_traits<std::optional<T>> {
public:
    typedef T wrapped_type;
    typedef std::optional<T> wrapper_type;
    typedef typename odb::details::meta::remove_const<T>::result unrestricted_wrapped_type;

    static const bool null_handler = true;
    static const bool null_default = true;

    static bool get_null(const wrapper_type& o) { return !o.has_value(); }
    static void set_null(wrapper_type& o) { o.reset(); }
    static const wrapped_type& get_ref(const wrapper_type& o) { return *o; }
    static unrestricted_wrapped_type& set_ref(wrapper_type& o) {
        if (!o.has_value()) {
            o.emplace();
        }
        return const_cast<unrestricted_wrapped_type&>(*o);
    }
};

}  // namespace odb
