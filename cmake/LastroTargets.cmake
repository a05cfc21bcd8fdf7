# Helpers shared by core, plugins and tests.

# lastro_add_tests(<name> SOURCES <files...> LIBS <targets...> [LABELS <labels...>])
# One GoogleTest executable discovered by ctest (gtest_discover_tests): each case runs as a
# ctest test of its own.
function(lastro_add_tests name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
    if(NOT ARG_SOURCES)
        return()
    endif()
    lastro_test_executable(${name} SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS})
    set(labels ${ARG_LABELS})
    if(NOT labels)
        set(labels unit)
    endif()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${labels}")
endfunction()

# lastro_add_e2e_tests(<name> SOURCES <files...> [LIBS <targets...>] [DEPENDS <targets...>])
# An end-to-end suite on the test kit (docs/testing.md): one GoogleTest executable linking
# lastro-sdk-testing, built after DEPENDS (the programs and plugins it runs), and one ctest test
# of the same name (label e2e) that runs it once. A case per ctest test would run the executable
# once per case, each starting its own PostgreSQL cluster and servers (about ten times slower);
# the suite shares them within one run, and its output still names every case.
function(lastro_add_e2e_tests name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;DEPENDS" ${ARGN})
    lastro_test_executable(${name} SOURCES ${ARG_SOURCES} LIBS lastro-sdk-testing ${ARG_LIBS})
    if(ARG_DEPENDS)
        add_dependencies(${name} ${ARG_DEPENDS})
    endif()
    add_test(NAME ${name} COMMAND ${name} --gtest_color=no)
    # A suite is one test: under the sanitizers (LASTRO_SANITIZE) it runs three to four times
    # slower, beyond the 600 s that bound a stuck suite otherwise.
    set(timeout 600)
    if(LASTRO_SANITIZE)
        set(timeout 2400)
    endif()
    set_tests_properties(${name} PROPERTIES LABELS e2e TIMEOUT ${timeout})
endfunction()

# lastro_test_executable(<name> SOURCES <files...> LIBS <targets...>): what both kinds share.
function(lastro_test_executable name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
    target_compile_definitions(${name} PRIVATE
        LASTRO_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
        LASTRO_BINARY_DIR="${CMAKE_BINARY_DIR}"
        LASTRO_PLUGIN_DIR="${LASTRO_PLUGIN_OUTPUT_DIR}")
endfunction()

# lastro_add_plugin(): cmake/LastroPlugin.cmake, shared with the installed SDK (docs/packaging.md).
include(${CMAKE_CURRENT_LIST_DIR}/LastroPlugin.cmake)

# lastro_header_identity(<name> ROOT <dir> FILES <headers...> HEADER <include path> NAMESPACE <ns>
#                        SYMBOL <symbol> MACRO <macro>)
# An INTERFACE library <name> whose include path holds the header <include path> (e.g.
# lastro/sdk/abi_identity.hpp), generated at build time, defining <ns>::<symbol> and the macro
# <macro>: the identity of an interface made of FILES (cmake/header_identity.cmake). Whatever
# links <name> is built after the header. The SDK's ABI identity and a plugin's service identity
# are made this way (docs/plugins.md).
function(lastro_header_identity name)
    cmake_parse_arguments(ARG "" "ROOT;HEADER;NAMESPACE;SYMBOL;MACRO" "FILES" ${ARGN})
    set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/${name})
    set(out ${out_dir}/${ARG_HEADER})
    string(REPLACE ";" "|" files "${ARG_FILES}")
    set(script ${CMAKE_SOURCE_DIR}/cmake/header_identity.cmake)
    add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DROOT=${ARG_ROOT} -DFILES=${files} -DOUTPUT=${out}
                -DNAMESPACE=${ARG_NAMESPACE} -DSYMBOL=${ARG_SYMBOL} -DMACRO=${ARG_MACRO} -P ${script}
        DEPENDS ${ARG_FILES} ${script}
        COMMENT "Identity of ${ARG_NAMESPACE}::${ARG_SYMBOL} from ${ARG_ROOT}"
        VERBATIM)
    add_custom_target(${name}-generate DEPENDS ${out})
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE $<BUILD_INTERFACE:${out_dir}>)
    add_dependencies(${name} ${name}-generate)
endfunction()
